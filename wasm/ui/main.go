//go:build js && wasm

// Command ui is the page's one wasm module (build/app.wasm). On the page it
// is the schedplay UI: the embed view (?embed=1), the compare view
// (?compare=…), the step view (?step=1) or the playground, built on #root;
// the Go program stays alive to serve its event handlers. The embed check
// comes first because the playground reads localStorage, which an embed
// must never touch. In the engine's Web Worker (no document) it is the
// engine (wasm/engine): one module to download and compile, not two.
package main

import (
	"syscall/js"

	"schedplay/site/compareview"
	"schedplay/site/embedview"
	"schedplay/site/playground"
	"schedplay/site/stepview"
	"schedplay/wasm/engine"
)

func main() {
	if js.Global().Get("document").IsUndefined() {
		engine.Serve()
		return
	}
	if !embedview.Start() && !compareview.Start() && !stepview.Start() {
		app := playground.New()
		app.Start()
	}
	select {}
}

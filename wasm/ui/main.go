//go:build js && wasm

// Command ui is the schedplay page: the embed view (?embed=1), the compare
// view (?compare=…), the step view (?step=1) or the playground, built on #root; the Go program stays
// alive to serve its event handlers. The embed check comes first because the
// playground reads localStorage, which an embed must never touch.
package main

import (
	"schedplay/site/compareview"
	"schedplay/site/embedview"
	"schedplay/site/playground"
	"schedplay/site/stepview"
)

func main() {
	if !embedview.Start() && !compareview.Start() && !stepview.Start() {
		app := playground.New()
		app.Start()
	}
	select {}
}

//go:build js && wasm

// Command ui is the schedplay page: it builds the App on #root and keeps
// the Go program alive to serve its event handlers.
package main

import "schedplay/site"

func main() {
	app := site.New()
	app.Start()
	select {}
}

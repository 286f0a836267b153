//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/syumai/workers/cloudflare"
)

// envVar is the Worker's string variable name, "" when it has none.
func envVar(name string) string {
	v := cloudflare.GetBinding(name)
	if v.Type() != js.TypeString {
		return ""
	}
	return v.String()
}

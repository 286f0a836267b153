//go:build js && wasm

package playground

import (
	"schedplay/engine/sim"
	"schedplay/site/viewkit"
)

// decodeResult reads a simulate reply.
func decodeResult(body string) (*sim.Result, error) { return viewkit.DecodeResult(body) }

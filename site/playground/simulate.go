//go:build js && wasm

package playground

import (
	"schedplay/engine/sim"
	"schedplay/site/viewkit"
)

// simulateBody is the POST /api/v1/simulate request for a scenario.
func simulateBody(doc string) string { return `{"timeline":true,"scenario":` + doc + `}` }

// simulateBodyQuick asks for repetition 0's run and mode intervals without
// decision records: the quick first picture of progressive refinement.
func simulateBodyQuick(doc string) string { return `{"timeline":"runs","scenario":` + doc + `}` }

// decodeResult reads a simulate reply.
func decodeResult(body string) (*sim.Result, error) { return viewkit.DecodeResult(body) }

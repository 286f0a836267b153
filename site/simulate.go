//go:build js && wasm

package site

import (
	"encoding/json"

	"schedplay/engine/sim"
)

// simulateBody is the POST /api/v1/simulate request for a scenario.
func simulateBody(doc string) string { return `{"timeline":true,"scenario":` + doc + `}` }

// simulateBodyQuick asks for repetition 0's run and mode intervals without
// decision records: the quick first picture of progressive refinement.
func simulateBodyQuick(doc string) string { return `{"timeline":"runs","scenario":` + doc + `}` }

// decodeResult reads a simulate reply (a sim.Result, possibly wrapped).
func decodeResult(body string) (*sim.Result, error) {
	var wrapped struct {
		Result *sim.Result `json:"result"`
	}
	if err := json.Unmarshal([]byte(body), &wrapped); err == nil && wrapped.Result != nil {
		return wrapped.Result, nil
	}
	var res sim.Result
	if err := json.Unmarshal([]byte(body), &res); err != nil {
		return nil, err
	}
	return &res, nil
}

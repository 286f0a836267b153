// Package engine is the playground's simulator in a Web Worker: the API
// handler (site/api) served through github.com/syumai/workers, runtime
// browser (one Go instance per request; see docs/scenario.md), held to the
// browser budget (engine/budget.Browser): a link anyone may send is refused
// at once when it would cost the tab more. The page
// and its workers run one wasm module (wasm/ui): in a worker, where there
// is no document, its main calls Serve. tools/firstframe runs the same
// handler natively for the page's precomputed first frames.
package engine

import (
	"context"
	"net/http"

	"github.com/syumai/workers"

	"schedplay/engine/budget"
	"schedplay/presets"
	"schedplay/site/api"
)

// Handler is the API handler the engine's worker serves.
func Handler() (http.Handler, error) {
	ps, err := presets.Load()
	if err != nil {
		return nil, err
	}
	return api.New(ps, api.WithRuntime("browser"), api.WithProfile(budget.Browser)), nil
}

// Serve registers the API handler with the worker's binding and blocks
// until the request it serves has been answered.
func Serve() {
	h, err := Handler()
	if err != nil {
		panic(err) // the embedded presets are checked by presets' tests
	}
	warm(h)
	workers.Serve(h)
}

// warmRequest is a simulation of two milliseconds of the default machine,
// with its timeline: it uses the scenario decoder and the reply's encoders
// that every simulate request uses.
const warmRequest = `{"timeline":true,"scenario":{"schedplay":1,"machine":{"preset":"hikey960-dynamiq"},` +
	`"policy":{"preset":"mainline"},"workload":{"preset":"sysbench-cpu"},"run":{"duration":"2ms","reps":1}}}`

// warm serves one tiny simulation before the instance says it is ready.
// encoding/json builds its decoders and encoders once per type and per Go
// instance, and syumai/workers starts a fresh instance for every request:
// building them took 8–10 ms of each small-machine request (a Chromium
// profile of the worker). The page prepares the next request's instance
// while it draws the last reply, so the cost leaves the knob's path
// (docs/speed.md, "Knob on a small machine"). Nothing in it is kept but the
// caches: the reply is discarded and the simulation is deterministic.
func warm(h http.Handler) {
	api.Do(context.Background(), h, http.MethodPost, "/api/v1/simulate", []byte(warmRequest))
}

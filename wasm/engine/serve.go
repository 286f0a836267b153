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
	workers.Serve(h)
}

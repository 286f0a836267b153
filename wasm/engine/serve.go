// Package engine is the playground's simulator in a Web Worker: the API
// handler (site/api) served through github.com/syumai/workers, runtime
// browser (one Go instance per request; see docs/scenario.md). The page
// and its workers run one wasm module (wasm/ui): in a worker, where there
// is no document, its main calls Serve.
package engine

import (
	"github.com/syumai/workers"

	"schedplay/presets"
	"schedplay/site/api"
)

// Serve registers the API handler with the worker's binding and blocks
// until the request it serves has been answered.
func Serve() {
	ps, err := presets.Load()
	if err != nil {
		panic(err) // the embedded presets are checked by presets' tests
	}
	workers.Serve(api.New(ps, api.WithRuntime("browser")))
}

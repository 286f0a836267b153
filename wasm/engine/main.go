// Command engine is the playground's simulator in a Web Worker: the API
// handler (site/api) served through github.com/syumai/workers, runtime
// browser (one Go instance per request; see docs/scenario.md).
package main

import (
	"github.com/syumai/workers"

	"schedplay/presets"
	"schedplay/site/api"
)

func main() {
	ps, err := presets.Load()
	if err != nil {
		panic(err) // the embedded presets are checked by presets' tests
	}
	workers.Serve(api.New(ps, api.WithRuntime("browser")))
}

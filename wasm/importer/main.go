// Command importer is `schedplay import` in a Web Worker: POST
// /api/v1/import (site/importapi) served through github.com/syumai/workers,
// runtime browser, like wasm/engine. The page starts it when a file is
// first dropped or pasted on the machine editor, so the engine worker
// does not carry the importers.
package main

import (
	"net/http"

	"github.com/syumai/workers"

	"schedplay/presets"
	"schedplay/site/api"
	"schedplay/site/importapi"
)

func main() {
	ps, err := presets.Load()
	if err != nil {
		panic(err) // the embedded presets are checked by presets' tests
	}
	mux := http.NewServeMux()
	mux.Handle(importapi.Path, importapi.New(ps))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		api.WriteError(w, http.StatusNotFound, notFound(r.URL.Path))
	})
	workers.Serve(mux)
}

// Command edge is the schedplay API as a Cloudflare Worker: the same
// handler as wasm/engine, built with workers-assets-gen -runtime=cloudflare
// (./build.sh worker) and run locally with wrangler dev (edge_test.sh).
// Its ALLOWED_ORIGINS variable (wrangler.jsonc "vars", or
// `wrangler dev --var ALLOWED_ORIGINS:…`) lists the pages that may call it
// from a browser (the playground's origin), comma-separated.
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
	opts := []api.Option{api.WithRuntime("cloudflare")}
	if o := envVar("ALLOWED_ORIGINS"); o != "" {
		opts = append(opts, api.WithCORS(api.ParseOrigins(o)))
	}
	workers.Serve(api.New(ps, opts...))
}

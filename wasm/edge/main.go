// Command edge is the schedplay API as a Cloudflare Worker: the same
// handler as wasm/engine, built with workers-assets-gen -runtime=cloudflare
// (./build.sh worker) and run locally with wrangler dev (edge_test.sh).
// Requests are held to the Worker budget (engine/budget.Worker), so a heavy
// one is refused with 422 before Cloudflare's CPU limit (limits.cpu_ms in
// wrangler.jsonc) would kill it. Its ALLOWED_ORIGINS variable
// (wrangler.jsonc "vars", or `wrangler dev --var ALLOWED_ORIGINS:…`) lists
// the pages that may call it from a browser (the playground's origin),
// comma-separated; browser requests from any other origin are refused.
package main

import (
	"runtime"

	"github.com/syumai/workers"

	"schedplay/engine/budget"
	"schedplay/presets"
	"schedplay/site/api"
)

func main() {
	// No heap-profile sampling (the browser's workers set GODEBUG to the
	// same effect): a sampled allocation's stack unwind from the scheduler
	// can throw "invalid runtime symbol table" in Go's js/wasm runtime.
	runtime.MemProfileRate = 0
	ps, err := presets.Load()
	if err != nil {
		panic(err) // the embedded presets are checked by presets' tests
	}
	workers.Serve(api.New(ps, api.WithRuntime("cloudflare"), api.WithProfile(budget.Worker),
		api.WithOrigins(api.Origins{Allow: api.ParseOrigins(envVar("ALLOWED_ORIGINS"))})))
}

// Command edge is the schedplay API as a Cloudflare Worker: the same
// handler as wasm/engine, built with workers-assets-gen -runtime=cloudflare
// (./build.sh worker) and run locally with wrangler dev (edge_test.sh).
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
	workers.Serve(api.New(ps))
}

package sim_test

import (
	"context"
	"fmt"

	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/presets"
)

// Run a scenario: one CPU-bound task on a big.LITTLE machine under the
// misfit policy starts on a little core and is moved to a big one once its
// PELT utilisation no longer fits (kernel-model.md §5.5).
func ExampleRun() {
	doc := `{"schedplay":1,
		"machine":{"nodes":1,"cores_per_node":8,"clusters_per_node":2,"llc":"cluster","threads_per_core":1,
			"core_classes":[{"name":"little","cores":4,"capacity":462,"speed":0.55},{"name":"big","cores":4,"capacity":1024,"speed":1}]},
		"policy":{"asym_packing":[],"asym_cpucapacity":true},
		"workload":{"groups":[
			{"name":"bigs","count":4,"cpus":"4-7","program":[{"compute":"5ms"}]},
			{"name":"cold","count":1,"start":"1ms","program":[{"compute":"100ms"}]}]},
		"run":{"duration":"1s","seed":1}}`
	ps, _ := presets.Load()
	sc, err := scenario.Decode([]byte(doc))
	if err != nil {
		panic(err)
	}
	r, err := scenario.Resolve(sc, ps)
	if err != nil {
		panic(err)
	}
	res, err := sim.Run(context.Background(), r, sim.Options{Timeline: true})
	if err != nil {
		panic(err)
	}
	for _, d := range res.Timeline.Decisions {
		if d.Task == 4 && d.Kind == "misfit" {
			fmt.Printf("misfit migration at %.0f ms: cpu %d → cpu %d\n", float64(d.At)/1e6, d.From, d.To)
		}
	}
	fmt.Printf("migrations: misfit %d\n", res.Reps[0].Migrations.Misfit)
	// Output:
	// misfit migration at 24 ms: cpu 1 → cpu 4
	// migrations: misfit 1
}

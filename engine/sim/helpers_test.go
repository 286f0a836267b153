package sim

import (
	"context"
	"encoding/json"
	"testing"

	"schedplay/engine/scenario"
	"schedplay/engine/scenario/scenariotest"
	"schedplay/engine/topo"
	"schedplay/presets"
)

// resolve builds a Resolved from preset names plus a run section.
func resolve(t testing.TB, machine, policy, workload string, run string) *scenario.Resolved {
	t.Helper()
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	doc := `{"schedplay":1,"machine":{"preset":"` + machine + `"},"workload":{"preset":"` + workload + `"}`
	if policy != "" {
		doc += `,"policy":{"preset":"` + policy + `"}`
	}
	if run != "" {
		doc += `,"run":` + run
	}
	doc += "}"
	sc, err := scenario.Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	r, err := scenario.Resolve(sc, ps)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// resolveJSON builds a Resolved from a whole scenario document.
func resolveJSON(t testing.TB, doc string) *scenario.Resolved {
	t.Helper()
	return scenariotest.Resolve(t, doc)
}

// simOf builds repetition 0's state (seed 1, no timeline) of a whole
// scenario document, for tests that drive the engine's functions directly.
func simOf(t testing.TB, doc string) *sim {
	t.Helper()
	r := resolveJSON(t, doc)
	tp, err := topo.Build(r.Machine, r.Policy.DomainPolicy)
	if err != nil {
		t.Fatal(err)
	}
	s, err := newSim(r, tp, Options{}, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// updateCPUAt brings c's running task and cfs_rq up to time at
// (update_curr(), update_cfs_rq_load_avg()), as a tick would.
func updateCPUAt(s *sim, c *cpuState, at int64) {
	s.now = at
	s.syncCPU(c)
	s.updateCurr(c)
	s.updateCfsRqLoadAvg(c)
}

func mustRun(t testing.TB, r *scenario.Resolved, opt Options) *Result {
	t.Helper()
	res, err := Run(context.Background(), r, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func toJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// veraTestMachine is a Vera-like machine fixed for the engine's tests (the
// vera preset is calibrated elsewhere and may change): 2 nodes × 88 cores ×
// 2 PEs, CPU c and c+176 siblings, cores 40-43 of each node at capacity
// 1024 and the rest at 1000, spatial SMT with a 6 ms hold.
const veraTestMachine = `{"nodes":2,"cores_per_node":88,"clusters_per_node":1,"llc":"node","threads_per_core":2,
	"numbering":"sibling-major",
	"core_classes":[
		{"name":"olympus","cores":40,"capacity":1000,"speed":1.0},
		{"name":"olympus-boost","cores":4,"capacity":1024,"speed":1.024},
		{"name":"olympus","cores":84,"capacity":1000,"speed":1.0},
		{"name":"olympus-boost","cores":4,"capacity":1024,"speed":1.024},
		{"name":"olympus","cores":44,"capacity":1000,"speed":1.0}],
	"smt":{"model":"spatial","yield":[1.0,1.064],"switch":"1us","qual":"3us","hold":"6ms","partitioned_single":0.6},
	"gflops_per_core":114.3}`

// resolveVera resolves veraTestMachine with a policy and workload preset.
func resolveVera(t testing.TB, policy, workload, run string) *scenario.Resolved {
	t.Helper()
	return resolveJSON(t, `{"schedplay":1,"machine":`+veraTestMachine+`,"policy":{"preset":"`+policy+`"},"workload":{"preset":"`+workload+`"},"run":`+run+`}`)
}

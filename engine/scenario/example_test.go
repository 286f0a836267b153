package scenario_test

import (
	"fmt"
	"strings"

	"schedplay/engine/scenario"
	"schedplay/presets"
)

func ExampleResolve() {
	ps, _ := presets.Load()
	s, _ := scenario.Decode([]byte(`{"schedplay": 1, "preset": "vera-sgemm-nvpl", "policy": {"preset": "v6-on", "hz": 1000}}`))
	r, err := scenario.Resolve(s, ps)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Name)
	fmt.Println(r.Machine.Nodes*r.Machine.CoresPerNode*r.Machine.ThreadsPerCore, "CPUs,", r.Workload.Groups[0].Count, "threads")
	fmt.Println("hz", r.Policy.HZ, "idle_select_asym", r.Policy.IdleSelectAsym)
	// Output:
	// Vera SGEMM, NVPL-like, 88 threads
	// 352 CPUs, 88 threads
	// hz 1000 idle_select_asym true
}

func ExampleApply() {
	ps, _ := presets.Load()
	s, _ := scenario.FromReference("vera-sgemm-nvpl", ps)
	o, _ := scenario.ParseSet("workload.groups[0].count=22")
	s, _ = scenario.Apply(s, ps, []scenario.Override{o})
	r, _ := scenario.Resolve(s, ps)
	fmt.Println(r.Workload.Groups[0].Count)
	// The edited section is stored as its preset plus the difference.
	fmt.Println(strings.Contains(string(s.Workload), `"preset":"sgemm-nvpl"`))
	// Output:
	// 22
	// true
}

func ExampleResolve_errors() {
	s, _ := scenario.Decode([]byte(`{"schedplay": 1, "machine": {"nodes": 1, "cores_per_node": 2, "threads_per_core": 3},
		"workload": {"groups": [{"name": "w", "count": 1, "program": [{"compute": "1ms", "jiter": 0.1}]}]}}`))
	_, err := scenario.Resolve(s, nil)
	for _, e := range scenario.Errors(err) {
		fmt.Printf("%s: %s\n", e.Path, e.Msg)
	}
	// Output:
	// machine.threads_per_core: 3 is not a hardware thread count; want 1, 2, 4 or 8
	// workload.groups[0].program[0].jiter: unknown field (did you mean "jitter"?)
}

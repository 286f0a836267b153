package scenario

import (
	"fmt"
	"testing"

	"schedplay/presets"
)

// hybridMachine is 2 two-thread cores and 2 one-thread cores: 6 CPUs.
const hybridMachine = `"machine": {"nodes": 1, "cores_per_node": 4, "threads_per_core": 2,
	"core_classes": [{"name": "p", "cores": 2, "capacity": 1024, "speed": 1, "threads": 2},
	{"name": "e", "cores": 2, "capacity": 1024, "speed": 0.6, "threads": 1}]`

// TestCoreClassThreads: a class's threads is 1..threads_per_core, and the
// machine's CPU count (priorities, cpulists) is the sum of its cores' threads.
func TestCoreClassThreads(t *testing.T) {
	ps := testPresets(t)
	wl := `"workload": {"groups": [{"name": "g", "count": 1, "program": [{"compute": "1ms"}]` + `%s}]}`
	mk := func(machineExtra, groupExtra string) string {
		return `{"schedplay": 1, ` + hybridMachine + machineExtra + `}, ` + fmt.Sprintf(wl, groupExtra) + `}`
	}
	runRejectCases(t, ps, []rejectCase{
		{"threads above threads_per_core", `{"schedplay": 1, "machine": {"nodes": 1, "cores_per_node": 4, "threads_per_core": 2,
			"core_classes": [{"name": "p", "cores": 2, "capacity": 1024, "speed": 1}, {"name": "e", "cores": 2, "capacity": 1024, "speed": 1, "threads": 4}]},
			"workload": {"preset": "spin"}}`, "machine.core_classes[1].threads", []string{"4 is out of range", "1..2"}},
		{"negative threads", `{"schedplay": 1, "machine": {"nodes": 1, "cores_per_node": 4, "threads_per_core": 2,
			"core_classes": [{"name": "p", "cores": 4, "capacity": 1024, "speed": 1, "threads": -1}]},
			"workload": {"preset": "spin"}}`, "machine.core_classes[0].threads", []string{"-1 is out of range"}},
		{"priorities of 4 cores × 2 threads", mk(`, "priorities": [1, 1, 1, 1, 1, 1, 1, 1]`, ""), "machine.priorities", []string{"has 8 values for 6 CPUs"}},
		{"cpulist beyond the real CPUs", mk("", `, "cpus": "6"`), "workload.groups[0].cpus", []string{"CPU 6 does not exist", "0-5"}},
		{"cluster_cores above the class", `{"schedplay": 1, "machine": {"nodes": 1, "cores_per_node": 4, "threads_per_core": 2,
			"core_classes": [{"name": "p", "cores": 2, "capacity": 1024, "speed": 1, "cluster_cores": 1}, {"name": "e", "cores": 2, "capacity": 1024, "speed": 1, "cluster_cores": 4}]},
			"workload": {"preset": "spin"}}`, "machine.core_classes[1].cluster_cores", []string{"4 is out of range", "1..2"}},
		{"cluster_cores on one class only", `{"schedplay": 1, "machine": {"nodes": 1, "cores_per_node": 4, "threads_per_core": 2,
			"core_classes": [{"name": "p", "cores": 2, "capacity": 1024, "speed": 1}, {"name": "e", "cores": 2, "capacity": 1024, "speed": 1, "cluster_cores": 2}]},
			"workload": {"preset": "spin"}}`, "machine.core_classes[0].cluster_cores", []string{"core_classes[1] sets cluster_cores, so every class must"}},
		{"cluster_cores and clusters_per_node", `{"schedplay": 1, "machine": {"nodes": 1, "cores_per_node": 4, "threads_per_core": 2, "clusters_per_node": 2,
			"core_classes": [{"name": "p", "cores": 2, "capacity": 1024, "speed": 1, "cluster_cores": 1}, {"name": "e", "cores": 2, "capacity": 1024, "speed": 1, "cluster_cores": 2}]},
			"workload": {"preset": "spin"}}`, "machine.core_classes[0].cluster_cores", []string{"needs clusters_per_node 1"}},
	})
	r, err := Resolve(mustDecode(t, mk(`, "priorities": [3, 3, 3, 3, 1, 1], "arch": {"priority": "arch"}`, `, "cpus": "5"`)), ps)
	if err != nil {
		t.Fatalf("6 priorities and CPU 5 on a 6-CPU machine: %v", err)
	}
	if n := r.Machine.NumCPUs(); n != 6 {
		t.Errorf("NumCPUs = %d; want 6", n)
	}
}

// TestIntelHybridCPUs: the intel-hybrid preset has 8 × 2 + 8 × 1 CPUs.
func TestIntelHybridCPUs(t *testing.T) {
	real, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	r, err := Resolve(mustDecode(t, `{"schedplay": 1, "machine": {"preset": "intel-hybrid"}, "policy": {"preset": "itmt"}, "workload": {"preset": "sysbench-cpu"}}`), real)
	if err != nil {
		t.Fatal(err)
	}
	if n := r.Machine.NumCPUs(); n != 24 || len(r.Machine.Priorities) != 24 {
		t.Errorf("intel-hybrid: %d CPUs, %d priorities; want 24, 24", n, len(r.Machine.Priorities))
	}
}

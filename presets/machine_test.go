package presets

import (
	"encoding/json"
	"testing"

	"schedplay/engine/topo"
)

// TestMachinePriorityCounts: a machine preset's per-CPU priorities have one
// value per real CPU (each core class's own thread count), and
// intel-hybrid is faithful to Alder/Raptor Lake: 2-thread P-cores,
// 1-thread E-cores, 24 CPUs.
func TestMachinePriorityCounts(t *testing.T) {
	ps, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range ps.Names(Machine) {
		p, _ := ps.Get(Machine, name)
		var m topo.Machine
		if err := json.Unmarshal(p.Body, &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if m.Priorities != nil && len(m.Priorities) != m.NumCPUs() {
			t.Errorf("%s: %d priorities for %d CPUs", name, len(m.Priorities), m.NumCPUs())
		}
		if name != "intel-hybrid" {
			continue
		}
		if m.NumCPUs() != 24 {
			t.Errorf("intel-hybrid: %d CPUs; want 8 P-cores × 2 + 8 E-cores × 1 = 24", m.NumCPUs())
		}
		for _, c := range m.CoreClasses {
			want := map[string]int{"p-core": 2, "e-core": 1}[c.Name]
			if got := c.ThreadCount(m.ThreadsPerCore); got != want {
				t.Errorf("intel-hybrid class %s: %d threads; want %d", c.Name, got, want)
			}
			// an L2 per P-core, one per 4-E-core module (the CLS level)
			if want := map[string]int{"p-core": 1, "e-core": 4}[c.Name]; c.ClusterCores != want {
				t.Errorf("intel-hybrid class %s: %d cores per cluster; want %d", c.Name, c.ClusterCores, want)
			}
		}
	}
}

package hw_test

import (
	"fmt"
	"strings"
	"testing"

	"schedplay/engine/importer/hw"
	"schedplay/engine/topo"
)

// grid is n CPUs, tpc threads per core numbered core-major, on nodes of
// perNode cores.
func grid(n, tpc, perNode int) *hw.Topology {
	t := &hw.Topology{Arch: hw.ArchX86}
	for i := 0; i < n; i++ {
		c := hw.NewCPU(i)
		core := i / tpc
		for th := 0; th < tpc; th++ {
			c.Siblings = append(c.Siblings, core*tpc+th)
		}
		c.Node = core / perNode
		t.CPUs = append(t.CPUs, c)
	}
	return t
}

func TestMapRefusals(t *testing.T) {
	three := grid(6, 3, 2)
	if _, err := hw.Map(three); err == nil || !strings.Contains(err.Error(), "cores with 3 threads") {
		t.Errorf("SMT3: %v", err)
	}
	uneven := grid(6, 1, 4)
	if _, err := hw.Map(uneven); err == nil || !strings.Contains(err.Error(), "node 0 has 4 cores and node 1 has 2") {
		t.Errorf("uneven nodes: %v", err)
	}
	bad := grid(4, 2, 2)
	bad.CPUs[1].Siblings = []int{1, 2}
	if _, err := hw.Map(bad); err == nil || !strings.Contains(err.Error(), "disagree") {
		t.Errorf("inconsistent siblings: %v", err)
	}
}

func TestMapOfflineAndDistances(t *testing.T) {
	g := grid(8, 1, 2)
	g.CPUs[7].Online = false
	g.CPUs[6].Online = false
	g.NodeIDs = []int{0, 1, 2, 3}
	g.Distances = [][]int{{10, 20, 30, 30}, {21, 10, 30, 30}, {30, 30, 10, 20}, {30, 30, 20, 10}}
	m, err := hw.Map(g)
	if err != nil {
		t.Fatal(err)
	}
	if m.Machine.Nodes != 3 || m.Machine.NumCPUs() != 6 || m.Machine.Distances[0][1] != 21 {
		t.Errorf("machine %+v", m.Machine)
	}
	joined := strings.Join(m.Notes, "\n")
	for _, want := range []string{"CPUs 6-7 are offline", "not symmetric"} {
		if !strings.Contains(joined, want) {
			t.Errorf("notes lack %q:\n%s", want, joined)
		}
	}
	if _, err := topo.Build(m.Machine, topo.DomainPolicy{}); err != nil {
		t.Error(err)
	}
}

// TestMapClusterOfUnevenCores: an LLC holding a core with both threads
// online and one whose sibling is offline (3 CPUs) splits no core, and maps.
func TestMapClusterOfUnevenCores(t *testing.T) {
	// Cores {0,4} {1,5} {2,6} {3,7}; CPUs 5 and 7 offline; LLCs {0,1,4,5}
	// and {2,3,6,7} on one node: each LLC has a 2-thread and a 1-thread core.
	tp := &hw.Topology{Arch: hw.ArchX86}
	for id := 0; id < 8; id++ {
		c := hw.NewCPU(id)
		c.Node, c.Package = 0, 0
		c.Siblings = []int{id % 4, id%4 + 4}
		llc := id % 4 / 2 * 2
		c.LLC = []int{llc, llc + 1, llc + 4, llc + 5}
		c.Online = id != 5 && id != 7
		tp.CPUs = append(tp.CPUs, c)
	}
	m, err := hw.Map(tp)
	if err != nil {
		t.Fatal(err)
	}
	// Map checks that the machine rebuilds every CPU's core and cluster.
	if m.Machine.NumCPUs() != 6 || m.Machine.ClustersPerNode != 2 || m.Machine.LLC != topo.LLCCluster {
		t.Errorf("machine %s: %+v", m.Summary, m.Machine)
	}
	if got := fmt.Sprint(m.IDs); got != "[0 1 2 3 4 6]" {
		t.Errorf("Linux numbers %s", got)
	}
}

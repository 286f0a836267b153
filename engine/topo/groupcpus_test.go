package topo_test

import (
	"fmt"
	"testing"

	"schedplay/engine/topo"
)

// TestGroupCPUsEvenly follows group_cpus_evenly() (lib/group_cpus.c): a
// group takes the first CPU left in its node and then that CPU's
// siblings, so the first CPU of a group is a PE0 until the PE0s run out;
// nodes get groups in proportion to their CPUs (at least one); no more
// groups than nodes gives whole nodes.
func TestGroupCPUsEvenly(t *testing.T) {
	one, err := topo.Build(topo.Machine{Nodes: 1, CoresPerNode: 4, ThreadsPerCore: 2, Numbering: topo.SiblingMajor}, topo.DomainPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	two, err := topo.Build(topo.Machine{Nodes: 2, CoresPerNode: 2, ThreadsPerCore: 2, Numbering: topo.SiblingMajor}, topo.DomainPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	coreMajor, err := topo.Build(topo.Machine{Nodes: 1, CoresPerNode: 4, ThreadsPerCore: 2}, topo.DomainPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		tp   *topo.Topology
		n    int
		want string
	}{
		// CPUs 0-3 are PE0s, 4-7 their PE1s (CPU c and c+4 one core)
		{"a group per core", one, 4, "[[0 4] [1 5] [2 6] [3 7]]"},
		// 8/3: groups of 3, 3, 2; the third starts on a PE1 (5), the first CPU left
		{"three groups of eight CPUs", one, 3, "[[0 1 4] [2 3 6] [5 7]]"},
		{"one group", one, 1, "[[0 1 2 3 4 5 6 7]]"},
		// node 0 = 0,1,4,5 and node 1 = 2,3,6,7: 3 groups → 1 and 2
		{"two nodes, three groups", two, 3, "[[0 1 4 5] [2 6] [3 7]]"},
		{"two nodes, two groups", two, 2, "[[0 1 4 5] [2 3 6 7]]"},
		{"more groups than CPUs", one, 10, "[[0] [1] [2] [3] [4] [5] [6] [7] [] []]"}, // one CPU a group: no sibling follows
		// CPUs 0,1 one core: the siblings come with their first CPU all the same
		{"core-major numbering", coreMajor, 4, "[[0 1] [2 3] [4 5] [6 7]]"},
	} {
		if got := fmt.Sprint(topo.GroupCPUsEvenly(c.tp, c.n)); got != c.want {
			t.Errorf("%s: group_cpus_evenly(%d) = %s; want %s", c.name, c.n, got, c.want)
		}
	}
}

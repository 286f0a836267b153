package topo_test

import (
	"testing"

	"schedplay/engine/topo"
)

// TestBiggestMachines builds machines at the CPU limit: one huge LLC (the
// worst case for group rings) and many nodes (many NUMA levels).
func TestBiggestMachines(t *testing.T) {
	if testing.Short() {
		t.Skip("large builds")
	}
	dist := func(n int) [][]int {
		d := make([][]int, n)
		for i := range d {
			d[i] = make([]int, n)
			for j := range d[i] {
				d[i][j] = 10 + 2*abs(i-j)
				if i != j {
					d[i][j] += 10
				}
			}
		}
		return d
	}
	for _, m := range []topo.Machine{
		{Nodes: 1, CoresPerNode: 2048, ThreadsPerCore: 2},
		{Nodes: 1, CoresPerNode: 4096, ThreadsPerCore: 1, ClustersPerNode: 1024},
		{Nodes: 16, CoresPerNode: 128, ThreadsPerCore: 2, Distances: dist(16)},
	} {
		tp, err := topo.Build(m, topo.DomainPolicy{})
		if err != nil {
			t.Fatal(err)
		}
		if tp.NumCPUs() != topo.MaxCPUs {
			t.Errorf("%d CPUs; want %d", tp.NumCPUs(), topo.MaxCPUs)
		}
		top := tp.Domains[0][len(tp.Domains[0])-1]
		if top.Span.Weight() != topo.MaxCPUs {
			t.Errorf("top domain of CPU 0 spans %d CPUs; want all", top.Span.Weight())
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

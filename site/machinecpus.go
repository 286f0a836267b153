package site

import (
	"fmt"

	"schedplay/engine/scenario"
	"schedplay/engine/topo"
)

// MaxDrawCPUs is the largest machine the page draws and runs; larger ones
// are refused with a message before anything heavy happens.
const MaxDrawCPUs = scenario.MaxCPUs

// LaneCPU places one logical CPU in the hardware hierarchy.
type LaneCPU struct {
	CPU, Node, Cluster, Core, Thread int
	Class                            string
	Capacity                         int
}

// MachineCPUs numbers a machine's logical CPUs the way scenario-v1.md
// defines numbering (the same rule topo.Build applies, with each core
// class's own thread count), in CPU order.
func MachineCPUs(m topo.Machine) ([]LaneCPU, error) {
	nodes, cpn, tpc := m.Nodes, m.CoresPerNode, m.ThreadsPerCore
	if tpc == 0 {
		tpc = 1
	}
	if nodes < 1 || cpn < 1 || tpc < 1 {
		return nil, fmt.Errorf("machine needs nodes ≥ 1, cores_per_node ≥ 1, threads_per_core ≥ 1")
	}
	if nodes > MaxDrawCPUs || cpn > MaxDrawCPUs || tpc > 8 || nodes*cpn > MaxDrawCPUs {
		return nil, fmt.Errorf("machine too large: %d×%d×%d CPUs; the playground handles at most %d", nodes, cpn, tpc, MaxDrawCPUs)
	}
	for i, c := range m.CoreClasses {
		if c.Threads < 0 || c.Threads > tpc {
			return nil, fmt.Errorf("core class %d has %d threads; want 1..%d (threads_per_core)", i, c.Threads, tpc)
		}
	}
	m.ThreadsPerCore = tpc
	if n := m.NumCPUs(); n > MaxDrawCPUs {
		return nil, fmt.Errorf("machine too large: %d CPUs; the playground handles at most %d", n, MaxDrawCPUs)
	}
	total := nodes * cpn
	clusterOf := m.CoreClusters() // topo.Build's clusters (class cluster_cores or clusters_per_node)
	out := make([]LaneCPU, m.NumCPUs())
	classOf := make([]topo.CoreClass, total)
	i := 0
	for _, c := range m.CoreClasses {
		for k := 0; k < c.Cores && i < total; k++ {
			classOf[i] = c
			i++
		}
	}
	// each core's threads (its class's, else threads_per_core), numbered
	// as topo.Build numbers them
	for core, cpus := range m.CPUNumbers() {
		node := core / cpn
		cluster := clusterOf[core]
		for t, cpu := range cpus {
			capy := classOf[core].Capacity
			if capy == 0 {
				capy = 1024
			}
			out[cpu] = LaneCPU{CPU: int(cpu), Node: node, Cluster: cluster, Core: core, Thread: t,
				Class: classOf[core].Name, Capacity: capy}
		}
	}
	return out, nil
}

// threadsLabel describes a machine's threads per core for the drawing's
// label: "2 threads per core", or "up to 2 threads per core" when core
// classes set fewer.
func threadsLabel(m topo.Machine) string {
	tpc := max(m.ThreadsPerCore, 1)
	for _, c := range m.CoreClasses {
		if c.ThreadCount(tpc) != tpc {
			return fmt.Sprintf("up to %d threads per core", tpc)
		}
	}
	return fmt.Sprintf("%d threads per core", tpc)
}

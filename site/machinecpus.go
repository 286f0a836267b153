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
// defines numbering (the same rule topo.Build applies), in CPU order.
func MachineCPUs(m topo.Machine) ([]LaneCPU, error) {
	nodes, cpn, tpc := m.Nodes, m.CoresPerNode, m.ThreadsPerCore
	if tpc == 0 {
		tpc = 1
	}
	if nodes < 1 || cpn < 1 || tpc < 1 {
		return nil, fmt.Errorf("machine needs nodes ≥ 1, cores_per_node ≥ 1, threads_per_core ≥ 1")
	}
	if nodes > MaxDrawCPUs || cpn > MaxDrawCPUs || tpc > 8 || nodes*cpn*tpc > MaxDrawCPUs {
		return nil, fmt.Errorf("machine too large: %d×%d×%d CPUs; the playground handles at most %d", nodes, cpn, tpc, MaxDrawCPUs)
	}
	cls := m.ClustersPerNode
	if cls < 1 || cls > cpn {
		cls = 1
	}
	total := nodes * cpn
	perCluster := (cpn + cls - 1) / cls
	out := make([]LaneCPU, total*tpc)
	classOf := make([]topo.CoreClass, total)
	i := 0
	for _, c := range m.CoreClasses {
		for k := 0; k < c.Cores && i < total; k++ {
			classOf[i] = c
			i++
		}
	}
	for core := 0; core < total; core++ {
		node := core / cpn
		cluster := node*cls + (core%cpn)/perCluster
		for t := 0; t < tpc; t++ {
			cpu := core*tpc + t
			if m.Numbering == topo.SiblingMajor {
				cpu = t*total + core
			}
			capy := classOf[core].Capacity
			if capy == 0 {
				capy = 1024
			}
			out[cpu] = LaneCPU{CPU: cpu, Node: node, Cluster: cluster, Core: core, Thread: t,
				Class: classOf[core].Name, Capacity: capy}
		}
	}
	return out, nil
}

package hw

import (
	"fmt"

	"schedplay/engine/topo"
)

// masks are the per-CPU spans the kernel's topology levels use.
type masks struct {
	smt, cls, mc, node []topo.CPUSet
	// clusterDropped: real clusters inside an LLC smaller than the node,
	// which the machine format cannot hold (noted).
	clusterDropped bool
	llcKnown       bool
}

// kernelMasks computes cpu_smt_mask(), cpu_clustergroup_mask(),
// cpu_coregroup_mask() and cpu_cpu_mask() for every online CPU.
func kernelMasks(t *Topology, o *online, core []int, members [][]int, nodeOf []int) (*masks, error) {
	n := len(o.cpus)
	m := &masks{smt: make([]topo.CPUSet, n), cls: make([]topo.CPUSet, n), mc: make([]topo.CPUSet, n), node: make([]topo.CPUSet, n), llcKnown: true}
	nodeSet := map[int]topo.CPUSet{}
	for k, ms := range members {
		s := topo.NewCPUSet(n)
		for _, c := range ms {
			s.Set(topo.CPU(c))
		}
		ns, ok := nodeSet[nodeOf[k]]
		if !ok {
			ns = topo.NewCPUSet(n)
			nodeSet[nodeOf[k]] = ns
		}
		for _, c := range ms {
			m.smt[c] = s
			ns.Set(topo.CPU(c))
		}
	}
	pkg := packageSets(o)
	for i, c := range o.cpus {
		m.node[i] = nodeSet[nodeOf[core[i]]]
		llc, haveLLC := o.set(c.LLC)
		m.llcKnown = m.llcKnown && haveLLC
		cluster, haveCluster := o.set(c.Cluster)
		m.mc[i] = cpuCoregroupMask(t.Arch, m.node[i], pkg[i], llc, haveLLC, cluster, haveCluster).Or(m.smt[i])
		m.cls[i] = cpuClustergroupMask(m.smt[i], m.mc[i], cluster, haveCluster)
	}
	if err := partition("LLC", o, m.mc); err != nil {
		return nil, err
	}
	if err := partition("cluster", o, m.cls); err != nil {
		return nil, err
	}
	return m, nil
}

// packageSets is every CPU's package siblings (zero sets when unknown).
func packageSets(o *online) []topo.CPUSet {
	n := len(o.cpus)
	out := make([]topo.CPUSet, n)
	by := map[int]topo.CPUSet{}
	for i, c := range o.cpus {
		if c.Package < 0 {
			continue
		}
		s, ok := by[c.Package]
		if !ok {
			s = topo.NewCPUSet(n)
			by[c.Package] = s
		}
		s.Set(topo.CPU(i))
		out[i] = s
	}
	return out
}

// cpuCoregroupMask models cpu_coregroup_mask(): on x86 the LLC siblings
// (limited to the node, as Sub-NUMA Clustering does); on the generic arch
// topology (drivers/base/arch_topology.c) the smallest of the node, the
// package siblings and the LLC siblings, then widened to the cluster when
// the cluster covers it. An unknown LLC leaves the node (or package).
func cpuCoregroupMask(arch Arch, node, pkg, llc topo.CPUSet, haveLLC bool, cluster topo.CPUSet, haveCluster bool) topo.CPUSet {
	if arch == ArchX86 {
		if haveLLC {
			return llc.And(node)
		}
		return node
	}
	mask := node
	if pkg.Size() > 0 && pkg.SubsetOf(mask) {
		mask = pkg
	}
	if haveLLC && llc.Weight() > 0 && llc.SubsetOf(mask) {
		mask = llc
	}
	if haveCluster && cluster.Weight() > 0 && mask.SubsetOf(cluster) && cluster.SubsetOf(node) {
		mask = cluster
	}
	return mask
}

// cpuClustergroupMask models cpu_clustergroup_mask(): the cluster, but
// never as wide as the coregroup (then the SMT mask, and CLS degenerates).
func cpuClustergroupMask(smt, mc, cluster topo.CPUSet, haveCluster bool) topo.CPUSet {
	if !haveCluster || cluster.Weight() == 0 {
		return smt
	}
	c := cluster.And(mc).Or(smt)
	if mc.SubsetOf(c) {
		return smt
	}
	return c
}

// partition checks that the spans of one level split the CPUs: every
// member of a CPU's span has the same span.
func partition(what string, o *online, spans []topo.CPUSet) error {
	for i, s := range spans {
		for _, c := range s.CPUs() {
			if !spans[c].Equal(s) {
				return fmt.Errorf("the %s of CPU %d (%s) and of CPU %d (%s) overlap without being equal",
					what, o.ids[i], idSet(o, s), o.ids[c], idSet(o, spans[c]))
			}
		}
	}
	return nil
}

// idSet prints a dense set by Linux IDs.
func idSet(o *online, s topo.CPUSet) string {
	var d []int
	for _, c := range s.CPUs() {
		d = append(d, int(c))
	}
	return idString(o, d)
}

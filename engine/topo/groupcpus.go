package topo

import "sort"

// GroupCPUsEvenly is group_cpus_evenly() (lib/group_cpus.c, Linux 6.12)
// for a machine whose CPUs are all present: numgrps groups of CPUs, each
// inside one node, the nodes given groups in proportion to their CPUs
// (alloc_nodes_groups(), at least one each), and inside a node each group
// built from the first CPU left and then that CPU's SMT siblings
// (grp_spread_init_one()), so groups hold whole cores. With no more groups
// than nodes, each group is whole nodes. Equal nodes are taken in node
// order where the kernel's sort() leaves them in an order of its own.
// Every group's CPUs come back in ascending order.
func GroupCPUsEvenly(t *Topology, numgrps int) [][]CPU {
	if numgrps <= 0 {
		return nil
	}
	nodes := t.Machine.Nodes
	nodeCPUs := make([][]CPU, nodes) // t.CPUs is in CPU order, so each list ascends
	for _, c := range t.CPUs {
		nodeCPUs[c.Node] = append(nodeCPUs[c.Node], c.CPU)
	}
	masks := make([]CPUSet, numgrps)
	for i := range masks {
		masks[i] = NewCPUSet(len(t.CPUs))
	}
	order := make([]int, 0, nodes) // the nodes with CPUs
	remaining := 0
	for n, l := range nodeCPUs {
		if len(l) > 0 {
			order = append(order, n)
			remaining += len(l)
		}
	}
	if numgrps <= len(order) {
		for g, n := range order {
			for _, c := range nodeCPUs[n] {
				masks[g%numgrps].Set(c)
			}
		}
		return setsToLists(masks)
	}
	// alloc_nodes_groups(): from the node with the fewest CPUs up
	sort.SliceStable(order, func(i, j int) bool { return len(nodeCPUs[order[i]]) < len(nodeCPUs[order[j]]) })
	left := min(numgrps, remaining)
	ngroups := make([]int, nodes)
	for _, n := range order {
		ncpus := len(nodeCPUs[n])
		ng := max(1, left*ncpus/remaining)
		ngroups[n] = ng
		remaining -= ncpus
		left -= ng
	}
	cur := 0
	for _, n := range order {
		free := NewCPUSet(len(t.CPUs))
		for _, c := range nodeCPUs[n] {
			free.Set(c)
		}
		ncpus, ng := len(nodeCPUs[n]), ngroups[n]
		extra := ncpus - ng*(ncpus/ng)
		for v := 0; v < ng; v, cur = v+1, cur+1 {
			per := ncpus / ng
			if extra > 0 {
				per++
				extra--
			}
			if cur >= numgrps {
				cur = 0
			}
			grpSpreadInitOne(t, masks[cur], free, per)
		}
	}
	return setsToLists(masks)
}

// grpSpreadInitOne is grp_spread_init_one(): take the first CPU left in
// free, then its SMT siblings, until the group holds per CPUs.
func grpSpreadInitOne(t *Topology, grp, free CPUSet, per int) {
	for per > 0 {
		c := free.First()
		if c == NoCPU {
			return
		}
		free.Clear(c)
		grp.Set(c)
		per--
		sibl := t.SiblingMask[c] // topology_sibling_cpumask(), ascending
		for sib := sibl.First(); sib != NoCPU && per > 0; sib = sibl.Next(sib) {
			if free.Has(sib) {
				free.Clear(sib)
				grp.Set(sib)
				per--
			}
		}
	}
}

func setsToLists(masks []CPUSet) [][]CPU {
	out := make([][]CPU, len(masks))
	for i, m := range masks {
		out[i] = m.CPUs()
	}
	return out
}

// IRQTargets is the CPU each of a device's managed vectors
// interrupts: the first CPU of its GroupCPUsEvenly() group, as GICv3's
// gic_set_affinity() picks cpumask_any_and(mask, cpu_online_mask), i.e.
// cpumask_first_and(). Groups left empty (more vectors than CPUs) have no
// CPU and are left out.
func IRQTargets(t *Topology, vectors int) []CPU {
	var out []CPU
	for _, g := range GroupCPUsEvenly(t, vectors) {
		if len(g) > 0 {
			out = append(out, g[0])
		}
	}
	return out
}

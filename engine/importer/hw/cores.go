package hw

import (
	"fmt"
	"slices"

	"schedplay/engine/importer/input"
	"schedplay/engine/topo"
)

// sprintf is fmt.Sprintf (one import for the notes).
func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// online is the machine's CPUs: the online ones of a description, numbered
// densely in ID order (what schedplay calls CPU i is Linux CPU ids[i]).
type online struct {
	cpus []CPU
	ids  []int
	of   map[int]int // Linux ID → dense index
}

// onlineCPUs drops offline CPUs (noted) and checks the count.
func onlineCPUs(t *Topology, notes *[]string) (*online, error) {
	o := &online{of: map[int]int{}}
	var off []int
	for _, c := range t.CPUs {
		if !c.Online {
			off = append(off, c.ID)
			continue
		}
		o.of[c.ID] = len(o.cpus)
		o.cpus = append(o.cpus, c)
		o.ids = append(o.ids, c.ID)
	}
	switch {
	case len(o.cpus) == 0:
		return nil, fmt.Errorf("no online CPU")
	case len(o.cpus) > topo.MaxCPUs:
		return nil, fmt.Errorf("%d online CPUs; schedplay machines have at most %d", len(o.cpus), topo.MaxCPUs)
	}
	if len(off) > 0 {
		*notes = append(*notes, sprintf("CPUs %s are offline: left out", listString(off)))
	}
	if last := o.ids[len(o.ids)-1]; last != len(o.ids)-1 {
		*notes = append(*notes, sprintf("the %d online CPUs are renumbered 0-%d in order (Linux numbers %s)",
			len(o.ids), len(o.ids)-1, listString(o.ids)))
	}
	return o, nil
}

// set turns a list of Linux IDs into a dense CPU set (offline CPUs
// dropped); ok is false for an unknown (nil) list.
func (o *online) set(ids []int) (s topo.CPUSet, ok bool) {
	if ids == nil {
		return s, false
	}
	s = topo.NewCPUSet(len(o.cpus))
	for _, id := range ids {
		if i, on := o.of[id]; on {
			s.Set(topo.CPU(i))
		}
	}
	return s, true
}

// cores partitions the online CPUs into cores: by thread siblings, else by
// (package, core id), else one CPU per core (noted). core[i] is CPU i's
// core; members[k] its CPUs in ascending order.
func cores(o *online, notes *[]string) (core []int, members [][]int, err error) {
	n := len(o.cpus)
	core = make([]int, n)
	for i := range core {
		core[i] = -1
	}
	haveSib, haveID := true, true
	for _, c := range o.cpus {
		haveSib = haveSib && c.Siblings != nil
		haveID = haveID && c.Core >= 0
	}
	if !haveSib && !haveID {
		*notes = append(*notes, "the description does not say which CPUs share a core: one thread per core")
	}
	type key struct{ pkg, core int }
	byKey := map[key]int{}
	for i, c := range o.cpus {
		if core[i] >= 0 {
			continue
		}
		k := len(members)
		var ms []int
		switch {
		case haveSib:
			s, _ := o.set(c.Siblings)
			s.Set(topo.CPU(i))
			for _, m := range s.CPUs() {
				ms = append(ms, int(m))
			}
		case haveID:
			kk := key{c.Package, c.Core}
			if prev, ok := byKey[kk]; ok {
				core[i] = prev
				members[prev] = append(members[prev], i)
				continue
			}
			byKey[kk] = k
			ms = []int{i}
		default:
			ms = []int{i}
		}
		for _, m := range ms {
			if core[m] >= 0 {
				return nil, nil, fmt.Errorf("CPU %d is listed among the threads of CPUs %d and %d, which disagree",
					o.ids[m], o.ids[members[core[m]][0]], c.ID)
			}
			core[m] = k
		}
		members = append(members, ms)
	}
	if haveSib {
		for k, ms := range members {
			for _, m := range ms {
				s, _ := o.set(o.cpus[m].Siblings)
				s.Set(topo.CPU(m))
				same := s.Weight() == len(ms)
				for _, x := range ms {
					same = same && s.Has(topo.CPU(x))
				}
				if !same {
					return nil, nil, fmt.Errorf("the thread siblings of CPU %d (%s) and CPU %d (%s) disagree",
						o.ids[ms[0]], idString(o, members[k]), o.ids[m], s)
				}
			}
		}
	}
	return core, members, nil
}

// nodes groups the cores into nodes: by NUMA node, else by package
// (noted), else one node (noted). It returns each core's node index
// (nodes ordered by their id) and the node ids.
func nodes(o *online, members [][]int, notes *[]string) (nodeOf []int, ids []int, err error) {
	haveNode := true
	for _, c := range o.cpus {
		haveNode = haveNode && c.Node >= 0
	}
	id := func(c CPU) int { return 0 }
	if haveNode {
		id = func(c CPU) int { return c.Node }
	} else if distinct(o.cpus, func(c CPU) int { return c.Package }) > 1 {
		*notes = append(*notes, "no NUMA information: one node, as a kernel without NUMA has (the packages still bound the MC level where the arch uses them)")
	}
	for _, c := range o.cpus {
		if !slices.Contains(ids, id(c)) {
			ids = append(ids, id(c))
		}
	}
	slices.Sort(ids)
	nodeOf = make([]int, len(members))
	for k, ms := range members {
		nid := id(o.cpus[ms[0]])
		for _, m := range ms[1:] {
			if id(o.cpus[m]) != nid {
				return nil, nil, fmt.Errorf("core of CPUs %s spans nodes %d and %d", idString(o, ms), nid, id(o.cpus[m]))
			}
		}
		nodeOf[k] = slices.Index(ids, nid)
	}
	return nodeOf, ids, nil
}

// distinct counts the distinct values of f over cpus.
func distinct(cpus []CPU, f func(CPU) int) int {
	seen := map[int]bool{}
	for _, c := range cpus {
		seen[f(c)] = true
	}
	return len(seen)
}

// idString prints dense CPUs by their Linux IDs as a cpulist.
func idString(o *online, dense []int) string {
	ids := make([]int, len(dense))
	for i, d := range dense {
		ids[i] = o.ids[d]
	}
	return listString(ids)
}

// listString prints CPU numbers in cpulist syntax (sorted, ranges).
func listString(ids []int) string { return input.ListString(ids) }

package domains

import (
	"fmt"
	"slices"

	"schedplay/engine/importer/hw"
	"schedplay/engine/topo"
)

// isNUMA reports a NUMA level (by flag, else by name).
func (l Level) isNUMA() bool {
	if l.FlagsKnown {
		return l.Flags&topo.SDNUMA != 0
	}
	return l.Name == "NUMA"
}

// Topology derives the machine the spans imply: the SMT span (or the
// level sharing CPU capacity) gives the threads, CLS the cluster, MC (or
// the highest level sharing the LLC) the LLC, the highest non-NUMA level
// the node, and the NUMA levels the node distances (20, 30, … for the
// first, second, … NUMA level: the dump has no SLIT). Capacities are not
// in a dump: they are 1024, noted when the flags show asymmetry.
func (d *Dump) Topology() (*hw.Topology, error) {
	t := &hw.Topology{Source: "sched domains dump"}
	t.Notes = append(t.Notes, d.Notes...)
	cpus := make([]int, 0, len(d.Levels))
	for c := range d.Levels {
		cpus = append(cpus, c)
	}
	slices.Sort(cpus)
	for _, c := range cpus {
		for _, l := range d.Levels[c] {
			for _, x := range l.Span {
				if _, ok := d.Levels[x]; !ok {
					return nil, fmt.Errorf("the dump has the domains of %d CPUs, but CPU %d's %s span names CPU %d, which it lacks: import the machine from a sysfs snapshot, lscpu or hwloc and give this dump with --check", len(cpus), c, l.Name, x)
				}
			}
		}
	}
	nodeSpan := map[int][]int{}
	asym, packing := false, false
	for _, c := range cpus {
		cpu := hw.NewCPU(c)
		for _, l := range d.Levels[c] {
			if l.Span == nil {
				return nil, fmt.Errorf("CPU %d's domain %s has no span: add /proc/schedstat (or the sched_verbose boot log) to the dump, or import a sysfs snapshot with it", c, l.Name)
			}
			asym = asym || l.Flags&topo.SDAsymCPUCapacity != 0
			packing = packing || l.Flags&topo.SDAsymPacking != 0
			switch {
			case l.isNUMA():
			case l.Name == "SMT" || l.FlagsKnown && l.Flags&topo.SDShareCPUCapacity != 0:
				cpu.Siblings = l.Span
				nodeSpan[c] = l.Span
			case l.Name == "CLS" || l.FlagsKnown && l.Flags&topo.SDCluster != 0:
				cpu.Cluster = l.Span
				nodeSpan[c] = l.Span
			default:
				if l.Name == "MC" || l.FlagsKnown && l.Flags&topo.SDShareLLC != 0 {
					cpu.LLC = l.Span
				}
				nodeSpan[c] = l.Span
			}
		}
		if cpu.Siblings == nil {
			cpu.Siblings = []int{c}
		}
		if nodeSpan[c] == nil {
			nodeSpan[c] = []int{c}
		}
		t.CPUs = append(t.CPUs, cpu)
	}
	d.nodes(t, nodeSpan)
	if asym {
		t.Note("the kernel saw asymmetric CPU capacities, which a domains dump does not list: every CPU gets 1024 (import a sysfs snapshot for the capacities)")
	}
	if packing {
		t.Note("the kernel used SD_ASYM_PACKING, whose CPU priorities a domains dump does not list (import a sysfs snapshot for them)")
	}
	t.Note("no cache or capacity information: the machine comes from the domain spans alone")
	return t, nil
}

// nodes numbers the node spans and reconstructs the distances from the
// NUMA levels.
func (d *Dump) nodes(t *hw.Topology, nodeSpan map[int][]int) {
	var spans [][]int
	for _, c := range t.CPUs {
		s := nodeSpan[c.ID]
		if !slices.ContainsFunc(spans, func(x []int) bool { return slices.Equal(x, s) }) {
			spans = append(spans, s)
		}
	}
	slices.SortFunc(spans, func(a, b []int) int { return a[0] - b[0] })
	idOf := map[int]int{}
	for i, s := range spans {
		for _, c := range s {
			idOf[c] = i
		}
	}
	for i := range t.CPUs {
		t.CPUs[i].Node = idOf[t.CPUs[i].ID]
	}
	if len(spans) < 2 {
		return
	}
	n := len(spans)
	dist := make([][]int, n)
	for i := range dist {
		dist[i] = make([]int, n)
		for j := range dist[i] {
			dist[i][j] = 10
			if i == j {
				continue
			}
			k := 0
			for _, l := range d.Levels[spans[i][0]] {
				if !l.isNUMA() {
					continue
				}
				k++
				if _, ok := slices.BinarySearch(l.Span, spans[j][0]); ok {
					break
				}
			}
			dist[i][j] = 10 + 10*max(k, 1)
		}
	}
	for i := range dist {
		t.NodeIDs = append(t.NodeIDs, i)
		for j := range dist[i] {
			dist[i][j] = max(dist[i][j], dist[j][i])
		}
	}
	t.Distances = dist
	t.Note("node distances rebuilt from the NUMA levels: 20 within the first, 30 within the second, … (a dump has no SLIT)")
}

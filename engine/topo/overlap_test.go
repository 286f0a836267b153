package topo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// dumpDomains prints everything Build exports about the domains and their
// groups, for comparing two builds.
func dumpDomains(t *Topology) string {
	var b strings.Builder
	for i, chain := range t.Domains {
		fmt.Fprintf(&b, "cpu%d llc=%d/%d share=%d\n", i, t.SDLLCID[i], t.SDLLCSize[i], t.SDShareID[i])
		for _, d := range chain {
			fmt.Fprintf(&b, " %s %d %s %#x %d %d %d %d %d %d %d\n", d.Level, d.Depth, d.Span, uint32(d.Flags), d.MinInterval, d.MaxInterval,
				d.BusyFactor, d.ImbalancePct, d.CacheNiceTries, d.ImbNUMANr, d.SharedID)
			for _, g := range d.Groups {
				fmt.Fprintf(&b, "  %s %#x %d %d %d %d id%d\n", g.Span, uint32(g.Flags), g.Weight, g.Cores, g.Capacity, g.AsymPreferCPU, g.ID)
			}
		}
	}
	fmt.Fprintf(&b, "%t %t %t\n", t.SMTActive, t.AsymCPUCapacityActive, t.ClusterActive)
	return b.String()
}

// randomNUMAMachine is a machine of up to 8 nodes (up to 24 with many
// distinct distances when big) with random distances, numbering, SMT,
// clusters and capacity classes.
func randomNUMAMachine(rng *rand.Rand, big bool) Machine {
	nodes, cores, spread := 1+rng.IntN(8), 1+rng.IntN(6), 40
	if big {
		nodes, cores, spread = 16+rng.IntN(9), 2+rng.IntN(3), 200
	}
	m := Machine{Nodes: nodes, CoresPerNode: cores, ThreadsPerCore: []int{1, 2, 4}[rng.IntN(3)], ClustersPerNode: 1}
	if cores%2 == 0 && rng.IntN(2) == 0 {
		m.ClustersPerNode = 2
	}
	if rng.IntN(2) == 0 {
		m.Numbering = SiblingMajor
	}
	if half := nodes * cores / 2; half > 0 && rng.IntN(3) == 0 {
		m.CoreClasses = []CoreClass{{Cores: half, Capacity: 1024, Speed: 1}, {Cores: nodes*cores - half, Capacity: 512, Speed: 0.5, Threads: 1}}
	}
	if nodes > 1 {
		m.Distances = make([][]int, nodes)
		for i := range m.Distances {
			m.Distances[i] = make([]int, nodes)
			m.Distances[i][i] = 10
		}
		for i := 0; i < nodes; i++ {
			for j := i + 1; j < nodes; j++ {
				v := 11 + rng.IntN(spread)
				m.Distances[i][j], m.Distances[j][i] = v, v
			}
		}
	}
	return m
}

// TestSharedOverlapRings: sharing the rings of overlapping domains
// (overlapRings, with copy-on-write of the local group's flags) exports
// exactly what a ring per domain, as the kernel allocates them, does.
func TestSharedOverlapRings(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 17))
	for k := 0; k < 200; k++ {
		m := randomNUMAMachine(rng, k%20 == 0)
		var p DomainPolicy
		if rng.IntN(2) == 0 {
			p.AsymPacking = &[]Level{LevelNUMA, LevelSMT}
		}
		shared, err1 := build(context.Background(), m, p, false)
		private, err2 := build(context.Background(), m, p, true)
		if err1 != nil || err2 != nil {
			t.Fatalf("case %d: %v / %v", k, err1, err2)
		}
		if a, b := dumpDomains(shared), dumpDomains(private); a != b {
			t.Fatalf("case %d (%d nodes × %d cores × %d threads): shared rings export differently from private ones", k, m.Nodes, m.CoresPerNode, m.ThreadsPerCore)
		}
	}
}

// manyNUMALevels is nodes × cores single-thread CPUs whose distances hold
// distinct distinct remote values.
func manyNUMALevels(nodes, cores, distinct int) Machine {
	m := Machine{Nodes: nodes, CoresPerNode: cores, ThreadsPerCore: 1, Distances: make([][]int, nodes)}
	for i := range m.Distances {
		m.Distances[i] = make([]int, nodes)
		m.Distances[i][i] = 10
	}
	v := 0
	for i := 0; i < nodes; i++ {
		for j := i + 1; j < nodes; j++ {
			m.Distances[i][j], m.Distances[j][i] = 11+v%distinct, 11+v%distinct
			v++
		}
	}
	return m
}

// TestOverlapRingsPerNode: on a machine of many NUMA levels, the CPUs of a
// node share their overlapping rings, so the build holds about one ring
// per node and level, not one per CPU and level.
func TestOverlapRingsPerNode(t *testing.T) {
	const nodes, cores = 16, 16
	tp, err := Build(manyNUMALevels(nodes, cores, 100), DomainPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	rings := map[*Group]bool{}
	numa := 0
	for _, chain := range tp.Domains {
		for _, d := range chain {
			if d.Flags&SDOverlap != 0 {
				numa++
				rings[&d.Groups[0]] = true
			}
		}
	}
	if limit := nodes * numa / tp.NumCPUs(); len(rings) > 2*limit || numa == 0 {
		t.Errorf("%d distinct rings for %d overlapping domains; want at most 2 × %d (nodes × levels per CPU)", len(rings), numa, limit)
	}
}

// BenchmarkBuildManyNUMALevels builds 64 nodes × 64 cores with 244
// distinct distances: 244 NUMA levels (issue 17; 29 s and 1.3 GB before
// the rings were shared and the group walk went a word at a time).
func BenchmarkBuildManyNUMALevels(b *testing.B) {
	m := manyNUMALevels(64, 64, 244)
	for b.Loop() {
		if _, err := Build(m, DomainPolicy{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSetLocalGroupFlagsCopies: two domains sharing an overlap ring that
// cpu_attach_domain() gives different local-group flags each see their
// own, and the groups they did not write stay shared.
func TestSetLocalGroupFlagsCopies(t *testing.T) {
	b := &builder{}
	groups := []sgBuild{{span: NewCPUSet(4), flags: SDShareLLC}, {span: NewCPUSet(4), flags: SDShareLLC}}
	a, c, d := &sdBuild{}, &sdBuild{}, &sdBuild{}
	for _, sd := range []*sdBuild{a, c, d} {
		sd.ring = b.overlap.intern(0, groups)
	}
	if a.ring != c.ring || c.ring != d.ring {
		t.Fatal("identical overlap rings are not shared")
	}
	b.setLocalGroupFlags(a, SDNUMA)
	b.setLocalGroupFlags(c, 0)
	b.setLocalGroupFlags(d, SDNUMA)
	if got := a.localGroup().flags; got != SDNUMA {
		t.Errorf("a's local group flags %v; want SD_NUMA", got)
	}
	if got := c.localGroup().flags; got != 0 {
		t.Errorf("c's local group flags %v; want 0", got)
	}
	if got := d.localGroup().flags; got != SDNUMA {
		t.Errorf("d's local group flags %v; want SD_NUMA", got)
	}
	if a.ring.groups[1] != c.ring.groups[1] || a.ring.groups[1].flags != SDShareLLC {
		t.Error("the copies do not share the untouched group")
	}
}

// TestEqualBalanceMasksShareTheirSGC: init_overlap_sched_group() takes the
// level's sched_group_capacity of the balance mask's first CPU, so groups
// of one level with equal masks share it whichever node built them. On an
// NPS4-like machine (two sockets of four nodes, distances 10/12/32) every
// node of a socket builds its own copy of the socket span at the last
// level; the groups it yields must still be one sgc.
func TestEqualBalanceMasksShareTheirSGC(t *testing.T) {
	m := Machine{Nodes: 8, CoresPerNode: 2, ThreadsPerCore: 1, ClustersPerNode: 1}
	m.Distances = make([][]int, 8)
	for i := range m.Distances {
		m.Distances[i] = make([]int, 8)
		for j := range m.Distances[i] {
			switch {
			case i == j:
				m.Distances[i][j] = 10
			case i/4 == j/4:
				m.Distances[i][j] = 12
			default:
				m.Distances[i][j] = 32
			}
		}
	}
	tp, err := build(context.Background(), m, DomainPolicy{}, false)
	if err != nil {
		t.Fatal(err)
	}
	type key struct{ depth, span, mask string }
	sgcOf := map[key]int{}
	seen := 0
	for c := range tp.NumCPUs() {
		for _, d := range tp.Domains[c] {
			if d.Flags&SDNUMA == 0 {
				continue
			}
			for _, g := range d.Groups {
				k := key{fmt.Sprint(d.Span.Weight()), g.Span.String(), g.BalanceMask.String()}
				if id, ok := sgcOf[k]; ok && id != g.SGC {
					t.Errorf("CPU %d NUMA(%s) group %s mask %s: SGC %d, %d elsewhere", c, d.Span, g.Span, g.BalanceMask, g.SGC, id)
				}
				sgcOf[k] = g.SGC
				seen++
			}
		}
	}
	if seen == 0 {
		t.Fatal("setup: no NUMA domain built")
	}
}

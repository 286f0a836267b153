package topo_test

import (
	"errors"
	"strings"
	"testing"

	"schedplay/engine/topo"
)

// TestNumbering pins scenario-v1.md's numbering schemes.
func TestNumbering(t *testing.T) {
	vera := build(t, "vera", "mainline")
	if vera.NumCPUs() != 352 || vera.TotalCores != 176 {
		t.Fatalf("vera: %d CPUs, %d cores; want 352, 176", vera.NumCPUs(), vera.TotalCores)
	}
	// sibling-major: CPU 0 and 176 are PE0 and PE1 of core 0.
	c0, c176 := vera.CPUs[0], vera.CPUs[176]
	if c0.Core != 0 || c176.Core != 0 || c0.Thread != 0 || c176.Thread != 1 {
		t.Errorf("vera CPU 0 = core %d thread %d, CPU 176 = core %d thread %d; want core 0 threads 0, 1",
			c0.Core, c0.Thread, c176.Core, c176.Thread)
	}
	if got := vera.SiblingMask[0].String(); got != "0,176" {
		t.Errorf("vera cpu_smt_mask(0) = %s; want 0,176", got)
	}
	// CPUs 88-175 are socket 1's PE0, 264-351 socket 1's PE1.
	for _, tc := range []struct {
		cpu          topo.CPU
		node, thread int
	}{{87, 0, 0}, {88, 1, 0}, {175, 1, 0}, {176, 0, 1}, {263, 0, 1}, {264, 1, 1}, {351, 1, 1}} {
		c := vera.CPUs[tc.cpu]
		if c.Node != tc.node || c.Thread != tc.thread || c.Package != tc.node {
			t.Errorf("vera CPU %d: node %d package %d thread %d; want node %d thread %d",
				tc.cpu, c.Node, c.Package, c.Thread, tc.node, tc.thread)
		}
	}
	node := build(t, "vera-node", "mainline")
	if got := node.SiblingMask[5].String(); got != "5,93" {
		t.Errorf("vera-node cpu_smt_mask(5) = %s; want 5,93", got)
	}
	// core-major: POWER7 threads 0-3 of a core are consecutive CPUs.
	p7 := build(t, "power7", "mainline")
	if got := p7.SiblingMask[9].String(); got != "8-11" {
		t.Errorf("power7 cpu_smt_mask(9) = %s; want 8-11", got)
	}
	if c := p7.CPUs[39]; c.Core != 9 || c.Thread != 3 || c.Node != 1 {
		t.Errorf("power7 CPU 39: core %d thread %d node %d; want core 9 thread 3 node 1", c.Core, c.Thread, c.Node)
	}
	if got := p7.CoreCPUs[9]; len(got) != 4 || got[0] != 36 || got[3] != 39 {
		t.Errorf("power7 CoreCPUs[9] = %v; want [36 37 38 39]", got)
	}
	// Core classes are dealt out in core order: hikey960 CPUs 0-3 are A53.
	hk := build(t, "hikey960", "mainline")
	for cpu, want := range []int{462, 462, 462, 462, 1024, 1024, 1024, 1024} {
		if got := hk.CPUs[cpu].Capacity; got != want {
			t.Errorf("hikey960 CPU %d capacity %d; want %d", cpu, got, want)
		}
	}
	if hk.CPUs[2].Cluster != 0 || hk.CPUs[5].Cluster != 1 {
		t.Errorf("hikey960 clusters: CPU 2 in %d, CPU 5 in %d; want 0, 1", hk.CPUs[2].Cluster, hk.CPUs[5].Cluster)
	}
}

// TestPriorities pins arch_asym_cpu_priority() per mode and the strict
// comparison of sched_asym_prefer().
func TestPriorities(t *testing.T) {
	vera := build(t, "vera", "v6-on") // weak default: -cpu
	if !topo.SchedAsymPrefer(vera, 0, 176) || topo.SchedAsymPrefer(vera, 176, 0) {
		t.Error("default priority: PE0 CPU 0 must be preferred over its sibling 176")
	}
	comb := build(t, "vera", "combined-asym-packing") // cpu_scale, doubled on PE0
	// The expectations follow from each CPU's cpu_scale, whatever spread the
	// (calibrated) preset gives the cores.
	for _, cpu := range []topo.CPU{0, 176, 40, 216} {
		c := comb.CPUs[cpu]
		want := c.Capacity
		if c.Thread == 0 {
			want *= 2
		}
		if c.Priority != want {
			t.Errorf("capacity-pe0x2 priority of CPU %d (thread %d, cpu_scale %d) = %d; want %d", cpu, c.Thread, c.Capacity, c.Priority, want)
		}
	}
	// Ties are not preferences: two PE0s of equal capacity.
	a, b := topo.NoCPU, topo.NoCPU
	for i := 1; i < 88 && b == topo.NoCPU; i++ {
		if comb.CPUs[i].Capacity == comb.CPUs[0].Capacity {
			a, b = 0, topo.CPU(i)
		}
	}
	if b == topo.NoCPU {
		t.Fatal("vera preset: no two node-0 cores share a cpu_scale value; the tie test needs one")
	}
	if topo.SchedAsymPrefer(comb, a, b) || topo.SchedAsymPrefer(comb, b, a) {
		t.Errorf("equal priorities (CPUs %d and %d) must not prefer either CPU", a, b)
	}
	// Every PE0 beats every PE1: the weakest PE0 against the strongest PE1.
	weak, strong := topo.CPU(0), topo.CPU(176)
	for i := 0; i < 88; i++ {
		if comb.CPUs[i].Capacity < comb.CPUs[weak].Capacity {
			weak = topo.CPU(i)
		}
		if comb.CPUs[176+i].Capacity > comb.CPUs[strong].Capacity {
			strong = topo.CPU(176 + i)
		}
	}
	if !topo.SchedAsymPrefer(comb, weak, strong) {
		t.Errorf("PE0 CPU %d (cpu_scale %d) must beat PE1 CPU %d (cpu_scale %d) under capacity-pe0x2",
			weak, comb.CPUs[weak].Capacity, strong, comb.CPUs[strong].Capacity)
	}
	p7 := build(t, "power7", "power7") // thread: 0 > 1 > 2 > 3 within a core
	for th := 0; th < 3; th++ {
		a, b := topo.CPU(8+th), topo.CPU(8+th+1)
		if !topo.SchedAsymPrefer(p7, a, b) {
			t.Errorf("power7: thread %d (CPU %d) must beat thread %d (CPU %d)", th, a, th+1, b)
		}
	}
	hk := build(t, "hikey960-dynamiq", "dynamiq-asym-packing") // capacity
	if !topo.SchedAsymPrefer(hk, 4, 0) || topo.SchedAsymPrefer(hk, 4, 5) {
		t.Error("capacity priority: A73 beats A53, A73s tie")
	}
	ih := build(t, "intel-hybrid", "itmt") // arch: per-CPU table, siblings equal
	if topo.SchedAsymPrefer(ih, 0, 1) || topo.SchedAsymPrefer(ih, 1, 0) {
		t.Error("ITMT: SMT siblings have equal priority")
	}
	if !topo.SchedAsymPrefer(ih, 0, 4) || !topo.SchedAsymPrefer(ih, 4, 20) {
		t.Error("ITMT: favoured P-core > P-core > E-core")
	}
	// v6 leaves arch_asym_cpu_priority() alone: on an ITMT machine "on"
	// orders nothing between siblings (kernel-model.md §2.1).
	ih6 := build(t, "intel-hybrid", "v6-on")
	if topo.SchedAsymPrefer(ih6, 0, 1) || topo.SchedAsymPrefer(ih6, 1, 0) {
		t.Error("intel-hybrid + v6-on: siblings must still tie")
	}
}

// TestSdInit pins sd_init()'s parameters and behaviour conversions.
func TestSdInit(t *testing.T) {
	vera := build(t, "vera", "mainline")
	smt, mc, numa := domainAt(vera, 0, "SMT"), domainAt(vera, 0, "MC"), domainAt(vera, 0, "NUMA")
	for _, tc := range []struct {
		name              string
		d                 *topo.Domain
		min, max, imb, nt int
		shared            int
	}{
		{"SMT", smt, 2, 4, 110, 0, 0},
		{"MC", mc, 176, 352, 117, 1, 0},
		{"NUMA", numa, 352, 704, 117, 2, -1},
	} {
		d := tc.d
		if d.MinInterval != tc.min || d.MaxInterval != tc.max || d.BusyFactor != 16 ||
			d.ImbalancePct != tc.imb || d.CacheNiceTries != tc.nt || d.SharedID != tc.shared {
			t.Errorf("%s: interval %d/%d busy %d imb %d nice %d shared %d; want %d/%d 16 %d %d %d", tc.name,
				d.MinInterval, d.MaxInterval, d.BusyFactor, d.ImbalancePct, d.CacheNiceTries, d.SharedID,
				tc.min, tc.max, tc.imb, tc.nt, tc.shared)
		}
	}
	def := topo.SDBalanceNewidle | topo.SDBalanceExec | topo.SDBalanceFork | topo.SDWakeAffine
	// SMT keeps its own SD_PREFER_SIBLING: at build time its parent is CLS
	// (span = SMT mask), which is the child that loses it under the
	// asymmetric MC; when CLS is dropped it has none to copy down.
	if want := def | topo.SDShareCPUCapacity | topo.SDShareLLC | topo.SDPreferSibling; smt.Flags != want {
		t.Errorf("SMT flags %v; want %v", smt.Flags, want)
	}
	// MC: its NUMA parent is asymmetric too, so MC lost PREFER_SIBLING.
	if want := def | topo.SDShareLLC | asym | full; mc.Flags != want {
		t.Errorf("MC flags %v; want %v", mc.Flags, want)
	}
	if want := def | asym | full | topo.SDSerialize | topo.SDOverlap | topo.SDNUMA; numa.Flags != want {
		t.Errorf("NUMA flags %v; want %v", numa.Flags, want)
	}
	// imb_numa_nr: one LLC per node → 176/8 = 22 at the first non-LLC level
	// (PKG, later dropped); NUMA: 22 × (352/352).
	if numa.ImbNUMANr != 22 {
		t.Errorf("NUMA imb_numa_nr = %d; want 22", numa.ImbNUMANr)
	}
	// x86-smt: symmetric, both levels keep SD_PREFER_SIBLING.
	x := build(t, "x86-smt", "mainline")
	for _, d := range x.Domains[0] {
		if d.Flags&topo.SDPreferSibling == 0 {
			t.Errorf("x86-smt %s lost SD_PREFER_SIBLING", d.Level)
		}
	}
	// hikey960: MC is the direct child of the asymmetric PKG: loses it.
	hk := build(t, "hikey960", "mainline")
	if f := domainAt(hk, 0, "MC").Flags; f&topo.SDPreferSibling != 0 {
		t.Errorf("hikey960 MC flags %v: want no SD_PREFER_SIBLING under an asymmetric PKG", f)
	}
	if f := domainAt(hk, 0, "PKG").Flags; f&topo.SDPreferSibling == 0 {
		t.Errorf("hikey960 PKG flags %v: want SD_PREFER_SIBLING", f)
	}
}

// TestNUMADistances: one NUMA level per distinct distance; levels beyond
// node_reclaim_distance (30) lose EXEC, FORK and WAKE_AFFINE.
func TestNUMADistances(t *testing.T) {
	m := topo.Machine{Nodes: 4, CoresPerNode: 2, ThreadsPerCore: 1, Distances: [][]int{
		{10, 20, 40, 40}, {20, 10, 40, 40}, {40, 40, 10, 20}, {40, 40, 20, 10}}}
	tp, err := topo.Build(m, topo.DomainPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	d := tp.Domains[0]
	if len(d) != 3 || d[0].Level != "MC" || d[1].Level != "NUMA" || d[2].Level != "NUMA" {
		t.Fatalf("chain %v; want MC NUMA NUMA", levels(tp, 0))
	}
	if d[1].Span.String() != "0-3" || d[2].Span.String() != "0-7" {
		t.Errorf("NUMA spans %s, %s; want 0-3, 0-7", d[1].Span, d[2].Span)
	}
	near := topo.SDBalanceExec | topo.SDBalanceFork | topo.SDWakeAffine
	if d[1].Flags&near != near {
		t.Errorf("distance-20 NUMA flags %v; want EXEC, FORK, WAKE_AFFINE", d[1].Flags)
	}
	if d[2].Flags&near != 0 {
		t.Errorf("distance-40 NUMA flags %v; want no EXEC, FORK, WAKE_AFFINE", d[2].Flags)
	}
	if got := tp.SDNUMA[0]; got != d[1] {
		t.Errorf("sd_numa is not the lowest NUMA domain")
	}
	if len(d[2].Groups) != 2 || d[2].Groups[0].Span.String() != "0-3" || d[2].Groups[1].Span.String() != "4-7" {
		t.Errorf("distance-40 groups: %v", d[2].Groups)
	}
}

// TestNodeReclaimDistance: the NUMA flags follow the machine's
// node_reclaim_distance (sd_init()): an EPYC's remote socket at 32 keeps
// EXEC, FORK and WAKE_AFFINE under AMD Zen's 32 and loses them under the
// generic 30; powerpc's 10 strips them from a distance-20 level; a value
// out of range is refused at its path.
func TestNodeReclaimDistance(t *testing.T) {
	near := topo.SDBalanceExec | topo.SDBalanceFork | topo.SDWakeAffine
	for _, tt := range []struct {
		name      string
		distance  int
		reclaim   int
		wantFlags topo.SDFlags
	}{
		{"EPYC, generic 30", 32, 0, 0},
		{"EPYC, AMD Zen 32", 32, 32, near},
		{"two hops, AMD Zen 32", 33, 32, 0},
		{"remote 20, generic 30", 20, 0, near},
		{"remote 20, powerpc 10", 20, 10, 0},
	} {
		m := topo.Machine{Nodes: 2, CoresPerNode: 2, ThreadsPerCore: 1,
			Distances: [][]int{{10, tt.distance}, {tt.distance, 10}}, NodeReclaimDistance: tt.reclaim}
		tp, err := topo.Build(m, topo.DomainPolicy{})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		d := tp.Domains[0]
		if len(d) != 2 || d[1].Level != "NUMA" {
			t.Fatalf("%s: chain %v; want MC NUMA", tt.name, levels(tp, 0))
		}
		if got := d[1].Flags & near; got != tt.wantFlags {
			t.Errorf("%s: NUMA flags %v; want %v of EXEC, FORK, WAKE_AFFINE", tt.name, got, tt.wantFlags)
		}
	}
	m := topo.Machine{Nodes: 2, CoresPerNode: 2, ThreadsPerCore: 1, NodeReclaimDistance: 300}
	var e *topo.Error
	if _, err := topo.Build(m, topo.DomainPolicy{}); !errors.As(err, &e) || e.Path != "machine.node_reclaim_distance" {
		t.Errorf("node_reclaim_distance 300: %v; want an error at machine.node_reclaim_distance", err)
	}
}

// TestDegenerate pins which levels survive (sd_degenerate(),
// sd_parent_degenerate()).
func TestDegenerate(t *testing.T) {
	tests := []struct {
		name string
		m    topo.Machine
		cpu  topo.CPU
		want string
	}{
		{"one cluster, no CLS", topo.Machine{Nodes: 1, CoresPerNode: 8, ThreadsPerCore: 2}, 0, "SMT MC"},
		{"clusters under one LLC keep CLS", topo.Machine{Nodes: 1, CoresPerNode: 8, ClustersPerNode: 2, ThreadsPerCore: 2}, 0, "SMT CLS MC"},
		{"LLC per cluster: CLS = SMT mask", topo.Machine{Nodes: 1, CoresPerNode: 8, ClustersPerNode: 2, LLC: topo.LLCCluster, ThreadsPerCore: 2}, 0, "SMT MC PKG"},
		{"one thread: no SMT", topo.Machine{Nodes: 2, CoresPerNode: 4}, 0, "MC NUMA"},
		{"one core per cluster: CLS = core", topo.Machine{Nodes: 1, CoresPerNode: 4, ClustersPerNode: 4, ThreadsPerCore: 2}, 0, "SMT MC"},
		{"single CPU: nothing", topo.Machine{Nodes: 1, CoresPerNode: 1}, 0, ""},
		{"one core of SMT2: SMT only", topo.Machine{Nodes: 1, CoresPerNode: 1, ThreadsPerCore: 2}, 1, "SMT"},
		{"one core per node: PKG = SMT", topo.Machine{Nodes: 2, CoresPerNode: 1, ThreadsPerCore: 2}, 0, "SMT NUMA"},
	}
	for _, tc := range tests {
		tp, err := topo.Build(tc.m, topo.DomainPolicy{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got []string
		for _, l := range levels(tp, tc.cpu) {
			got = append(got, string(l))
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s: chain %q; want %q", tc.name, strings.Join(got, " "), tc.want)
		}
		if tp.ClusterActive != strings.Contains(tc.want, "CLS") {
			t.Errorf("%s: ClusterActive = %v", tc.name, tp.ClusterActive)
		}
	}
	// Asym packing on a duplicate level does not keep it alive.
	pkg := []topo.Level{topo.LevelPKG, topo.LevelCLS}
	tp, err := topo.Build(topo.Machine{Nodes: 1, CoresPerNode: 8, ThreadsPerCore: 2},
		topo.DomainPolicy{AsymConfig: topo.AsymConfig{AsymPacking: &pkg}})
	if err != nil {
		t.Fatal(err)
	}
	if got := levels(tp, 0); len(got) != 2 || got[1] != "MC" {
		t.Errorf("CLS/PKG with SD_ASYM_PACKING survived: %v", got)
	}
	if tp.SDAsymPacking[0] != nil {
		t.Errorf("sd_asym_packing = %s; want none", tp.SDAsymPacking[0].Level)
	}
}

// TestGroups pins build_sched_groups() / init_sched_groups_capacity().
func TestGroups(t *testing.T) {
	vera := build(t, "vera", "combined-asym-packing")
	mc := domainAt(vera, 5, "MC")
	if len(mc.Groups) != 88 {
		t.Fatalf("vera MC has %d groups; want 88 SMT cores", len(mc.Groups))
	}
	// Local group first, then for_each_cpu_wrap order.
	if g0, g1, gl := mc.Groups[0], mc.Groups[1], mc.Groups[87]; g0.Span.String() != "5,181" ||
		g1.Span.String() != "6,182" || gl.Span.String() != "4,180" {
		t.Errorf("vera MC groups of CPU 5 start %s, %s … end %s; want 5,181  6,182 … 4,180",
			g0.Span, g1.Span, gl.Span)
	}
	for _, g := range mc.Groups {
		// sg->flags are the (surviving) child's: the SMT domain's.
		if g.Flags&topo.SDShareCPUCapacity == 0 || g.Weight != 2 || g.Cores != 1 {
			t.Fatalf("MC group %s: flags %v weight %d cores %d; want SMT flags, 2, 1", g.Span, g.Flags, g.Weight, g.Cores)
		}
		// asym_prefer_cpu: PE0 (capacity doubled) of the pair.
		if first := g.Span.First(); g.AsymPreferCPU != first {
			t.Errorf("MC group %s asym_prefer_cpu %d; want %d", g.Span, g.AsymPreferCPU, first)
		}
	}
	// sgc->capacity at build time: the sum of the group's cpu_scale.
	for _, gi := range []int{0, 35} {
		g := mc.Groups[gi]
		want := 0
		for _, c := range g.Span.CPUs() {
			want += vera.CPUs[c].Capacity
		}
		if g.Capacity != want {
			t.Errorf("group %s capacity %d; want %d", g.Span, g.Capacity, want)
		}
	}
	numa := domainAt(vera, 5, "NUMA")
	if len(numa.Groups) != 2 || numa.Groups[0].Span.String() != "0-87,176-263" ||
		numa.Groups[1].Span.String() != "88-175,264-351" || numa.Groups[0].Cores != 88 {
		t.Errorf("vera NUMA groups %v; want the two node spans", numa.Groups)
	}
	if numa.Groups[0].AsymPreferCPU != topo.NoCPU {
		t.Errorf("NUMA has no SD_ASYM_PACKING; asym_prefer_cpu = %d, want -1", numa.Groups[0].AsymPreferCPU)
	}
	// The bottom domain's groups are single CPUs with no flags.
	smt := domainAt(vera, 176, "SMT")
	if len(smt.Groups) != 2 || smt.Groups[0].Span.String() != "176" || smt.Groups[1].Span.String() != "0" ||
		smt.Groups[0].Flags != 0 {
		t.Errorf("vera SMT groups of CPU 176: %v", smt.Groups)
	}
	// ITMT: equal-priority siblings, first found wins.
	ih := build(t, "intel-hybrid", "itmt")
	for _, g := range domainAt(ih, 0, "MC").Groups {
		if g.AsymPreferCPU != g.Span.First() {
			t.Errorf("ITMT MC group %s asym_prefer_cpu %d; want %d", g.Span, g.AsymPreferCPU, g.Span.First())
		}
	}
	// When the bottom level (SMT) degenerates, the new bottom's groups get flags 0.
	hk := build(t, "hikey960", "mainline")
	if g := domainAt(hk, 0, "MC").Groups; g[0].Flags != 0 || len(g) != 4 {
		t.Errorf("hikey960 MC groups %v; want 4 single CPUs with flags 0", g)
	}
	if g := domainAt(hk, 0, "PKG").Groups; len(g) != 2 || g[1].Span.String() != "4-7" || g[1].Capacity != 4096 ||
		g[0].Capacity != 4*462 || g[0].Flags&topo.SDShareLLC == 0 {
		t.Errorf("hikey960 PKG groups %v; want the two clusters with MC flags", g)
	}
}

// TestShortcuts pins update_top_cache_domain().
func TestShortcuts(t *testing.T) {
	vera := build(t, "vera", "v6-on")
	for _, tc := range []struct {
		cpu       topo.CPU
		llcID     topo.CPU
		llcSize   int
		llcLevel  topo.Level
		numaLevel topo.Level
	}{{0, 0, 176, "MC", "NUMA"}, {176, 0, 176, "MC", "NUMA"}, {100, 88, 176, "MC", "NUMA"}, {351, 88, 176, "MC", "NUMA"}} {
		if vera.SDLLCID[tc.cpu] != tc.llcID || vera.SDLLCSize[tc.cpu] != tc.llcSize ||
			levelOf(vera.SDLLC[tc.cpu]) != tc.llcLevel || vera.SDShareID[tc.cpu] != tc.llcID ||
			levelOf(vera.SDNUMA[tc.cpu]) != tc.numaLevel {
			t.Errorf("vera CPU %d: llc_id %d size %d sd_llc %s share_id %d sd_numa %s", tc.cpu,
				vera.SDLLCID[tc.cpu], vera.SDLLCSize[tc.cpu], levelOf(vera.SDLLC[tc.cpu]),
				vera.SDShareID[tc.cpu], levelOf(vera.SDNUMA[tc.cpu]))
		}
	}
	if !vera.CPUsShareCache(0, 263) || vera.CPUsShareCache(0, 88) {
		t.Error("cpus_share_cache: 0 and 263 share node 0's LLC, 0 and 88 do not")
	}
	if !vera.SMTActive || !vera.AsymCPUCapacityActive || vera.ClusterActive {
		t.Errorf("vera keys: smt %v asym %v cluster %v; want true true false",
			vera.SMTActive, vera.AsymCPUCapacityActive, vera.ClusterActive)
	}
	if build(t, "vera", "combined-asym-packing").AsymCPUCapacityActive {
		t.Error("combined-asym-packing must leave sched_asym_cpucapacity off")
	}
	// sd_share_id is the cluster's first CPU where a CLS domain survives.
	cls, err := topo.Build(topo.Machine{Nodes: 1, CoresPerNode: 8, ClustersPerNode: 2, ThreadsPerCore: 2}, topo.DomainPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	if cls.SDShareID[13] != 8 || cls.SDLLCID[13] != 0 || !cls.CPUsShareCache(1, 13) || cls.CPUsShareResources(1, 13) {
		t.Errorf("cluster machine CPU 13: share_id %d llc_id %d; want 8, 0", cls.SDShareID[13], cls.SDLLCID[13])
	}
	// No LLC domain at all (a single CPU): sd_llc nil, size 1, id = cpu.
	one, err := topo.Build(topo.Machine{Nodes: 1, CoresPerNode: 1}, topo.DomainPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	if one.SDLLC[0] != nil || one.SDLLCSize[0] != 1 || one.SDLLCID[0] != 0 || one.Lowest(0) != nil {
		t.Errorf("single CPU shortcuts: %v %d %d", one.SDLLC[0], one.SDLLCSize[0], one.SDLLCID[0])
	}
	// sd_asym_packing is the HIGHEST domain with the flag.
	ih := build(t, "intel-hybrid", "combined-asym-packing")
	if got := levelOf(ih.SDAsymPacking[0]); got != "MC" {
		t.Errorf("intel-hybrid + combined: sd_asym_packing %s; want MC", got)
	}
}

// TestKunpeng920Domains: the 3-hop NUMA table of a two-socket Kunpeng 920
// (10/12/20/22, node 1 and node 3 at 24) gives the domains
// /proc/schedstat shows on one (lkml, "sched/topology: fix the issue groups
// don't span domain->span for NUMA diameter > 2": CPU 0 0-31, 0-63, 0-95,
// 0-127; a node-1 CPU's distance-20 level degenerates), and every group
// lies inside its domain: find_descended_sibling() descends node 2's
// siblings to its node for CPU 32's distance-22 domain, and to nodes 2-3
// for CPU 0's top domain.
func TestKunpeng920Domains(t *testing.T) {
	tp := build(t, "kunpeng920", "mainline")
	want := map[topo.CPU][]string{
		0:  {"CLS 0-3", "MC 0-31", "NUMA 0-63", "NUMA 0-95", "NUMA 0-127"},
		32: {"CLS 32-35", "MC 32-63", "NUMA 0-63", "NUMA 0-95", "NUMA 0-127"},
		64: {"CLS 64-67", "MC 64-95", "NUMA 64-127", "NUMA 0-31,64-127", "NUMA 0-127"},
		96: {"CLS 96-99", "MC 96-127", "NUMA 64-127", "NUMA 0-31,64-127", "NUMA 0-127"},
	}
	groups := map[topo.CPU][]string{
		0:  {"", "", "0-31 32-63", "0-63 64-95", "0-95 64-127"},
		32: {"", "", "32-63 0-31", "0-63 64-95", "0-95 0-31,64-127"},
		64: {"", "", "64-95 96-127", "64-127 0-31", "0-31,64-127 0-63"},
	}
	for cpu, w := range want {
		var got []string
		for _, d := range tp.Domains[cpu] {
			got = append(got, string(d.Level)+" "+d.Span.String())
			for _, g := range d.Groups {
				if !g.Span.SubsetOf(d.Span) {
					t.Errorf("CPU %d %s %s: group %s outside the domain", cpu, d.Level, d.Span, g.Span)
				}
			}
		}
		if strings.Join(got, " | ") != strings.Join(w, " | ") {
			t.Errorf("CPU %d chain %q; want %q", cpu, got, w)
		}
		for i, wg := range groups[cpu] {
			if wg == "" || i >= len(tp.Domains[cpu]) {
				continue
			}
			var gs []string
			for _, g := range tp.Domains[cpu][i].Groups {
				gs = append(gs, g.Span.String())
			}
			if strings.Join(gs, " ") != wg {
				t.Errorf("CPU %d %s groups %q; want %q", cpu, tp.Domains[cpu][i].Span, gs, wg)
			}
		}
	}
	if !tp.ClusterActive || tp.SMTActive {
		t.Errorf("ClusterActive %v SMTActive %v; want true, false", tp.ClusterActive, tp.SMTActive)
	}
}

// build_balance_mask() on kunpeng920's 3-hop SLIT: a NUMA group's balance
// mask holds the CPUs of its span whose own domain at the group's level
// has a child spanning the group exactly. The NUMA levels (distances 12,
// 20, 22, 24) do not sit at the same depth on every node: the span 0-95
// is node 0's distance-20 level and node 1's distance-22 level, so the
// group 0-95 of node 0's top domain (distance 22) has balance mask 0-31,
// and that of node 1's top domain (distance 24) 32-63. Groups of levels
// every CPU of the span shares keep their span.
func TestKunpeng920BalanceMasks(t *testing.T) {
	tp := build(t, "kunpeng920", "mainline")
	want := map[topo.CPU][]string{
		0:  {"0-31/0-31 32-63/32-63", "0-63/0-63 64-95/64-95", "0-95/0-31 64-127/96-127"},
		32: {"32-63/32-63 0-31/0-31", "0-63/32-63 64-95/64-95", "0-95/32-63 0-31,64-127/96-127"},
	}
	for cpu, w := range want {
		var got []string
		for _, d := range tp.Domains[cpu] {
			if d.Flags&topo.SDNUMA == 0 {
				continue
			}
			var gs []string
			for _, g := range d.Groups {
				gs = append(gs, g.Span.String()+"/"+g.BalanceMask.String())
			}
			got = append(got, strings.Join(gs, " "))
		}
		if strings.Join(got, " | ") != strings.Join(w, " | ") {
			t.Errorf("CPU %d NUMA groups/balance masks %q; want %q", cpu, got, w)
		}
	}
	for _, d := range tp.Domains[5] {
		for _, g := range d.Groups {
			if d.Flags&topo.SDNUMA == 0 && !g.BalanceMask.Equal(g.Span) {
				t.Errorf("CPU 5 %s: group %s has balance mask %s; want its span", d.Level, g.Span, g.BalanceMask)
			}
		}
	}
}

// sg->sgc (get_group(), init_overlap_sched_group()): the groups of one
// level built from the same CPU share one sched_group_capacity, and with it
// sgc->imbalance. On kunpeng920 every CPU of a cluster sees one SGC for its
// local groups above the cluster level, groups of one span at one ordinary
// level share theirs, no SGC spans two levels or two groups of one domain,
// and node 0's and node 1's top-level groups 0-95 (balance masks 0-31 and
// 32-63) have their own.
func TestKunpeng920GroupCapacities(t *testing.T) {
	tp := build(t, "kunpeng920", "mainline")
	type at struct {
		level topo.Level
		depth int
	}
	levelOf := map[int]at{}
	bySpan := map[string]int{}
	for c := range tp.NumCPUs() {
		for _, d := range tp.Domains[c] {
			for _, g := range d.Groups {
				if g.SGC < 0 || g.SGC >= tp.NumSGC {
					t.Fatalf("CPU %d %s: group %s has SGC %d of %d", c, d.Level, g.Span, g.SGC, tp.NumSGC)
				}
				for _, o := range d.Groups {
					if o.SGC == g.SGC && !o.Span.Equal(g.Span) {
						t.Errorf("CPU %d %s: groups %s and %s share SGC %d", c, d.Level, g.Span, o.Span, g.SGC)
					}
				}
				here := at{d.Level, d.Span.Weight()}
				if d.Flags&topo.SDNUMA != 0 {
					here.depth = -1 // NUMA levels: told apart by their groups' masks below
				}
				if l, ok := levelOf[g.SGC]; ok && l != here {
					t.Errorf("SGC %d is a group of %v and of %v", g.SGC, l, here)
				}
				levelOf[g.SGC] = here
				if d.Flags&topo.SDNUMA != 0 {
					continue
				}
				k := string(d.Level) + " " + g.Span.String()
				if id, ok := bySpan[k]; ok && id != g.SGC {
					t.Errorf("%s group %s: SGC %d on CPU %d, %d elsewhere", d.Level, g.Span, g.SGC, c, id)
				}
				bySpan[k] = g.SGC
			}
		}
	}
	for c := 1; c < 4; c++ {
		for k, d := range tp.Domains[c][1:] {
			if d.Groups[0].SGC != tp.Domains[0][k+1].Groups[0].SGC {
				t.Errorf("CPU %d %s: local group SGC %d; CPU 0's %d", c, d.Level, d.Groups[0].SGC, tp.Domains[0][k+1].Groups[0].SGC)
			}
		}
	}
	top0, top32 := tp.Domains[0][len(tp.Domains[0])-1].Groups[0], tp.Domains[32][len(tp.Domains[32])-1].Groups[0]
	if top0.Span.String() != "0-95" || top32.Span.String() != "0-95" || top0.SGC == top32.SGC {
		t.Errorf("top-level local groups of CPUs 0 and 32: %s SGC %d, %s SGC %d; want 0-95 twice, two SGCs",
			top0.Span, top0.SGC, top32.Span, top32.SGC)
	}
}

package topo_test

import (
	"slices"
	"strings"
	"testing"

	"schedplay/engine/topo"
)

// TestHybridNumbering: on the intel-hybrid preset (8 P-cores × 2 threads,
// 8 E-cores × 1) core-major numbering follows Linux on Alder Lake: the
// P-cores' threads are CPUs 0-15, siblings adjacent, the E-cores 16-23.
func TestHybridNumbering(t *testing.T) {
	ih := build(t, "intel-hybrid", "itmt")
	if ih.NumCPUs() != 24 || ih.TotalCores != 16 {
		t.Fatalf("intel-hybrid: %d CPUs, %d cores; want 24, 16", ih.NumCPUs(), ih.TotalCores)
	}
	for _, tc := range []struct {
		core int
		cpus []topo.CPU
	}{{0, []topo.CPU{0, 1}}, {1, []topo.CPU{2, 3}}, {7, []topo.CPU{14, 15}}, {8, []topo.CPU{16}}, {15, []topo.CPU{23}}} {
		if got := ih.CoreCPUs[tc.core]; !slices.Equal(got, tc.cpus) {
			t.Errorf("CoreCPUs[%d] = %v; want %v", tc.core, got, tc.cpus)
		}
	}
	for _, tc := range []struct {
		cpu          topo.CPU
		core, thread int
		class, smt   string
		speed        float64
		prio         int
	}{
		{0, 0, 0, "p-core", "0-1", 1, 72},
		{3, 1, 1, "p-core", "2-3", 1, 72},
		{4, 2, 0, "p-core", "4-5", 1, 70},
		{15, 7, 1, "p-core", "14-15", 1, 70},
		{16, 8, 0, "e-core", "16", 0.6, 41},
		{23, 15, 0, "e-core", "23", 0.6, 41},
	} {
		c := ih.CPUs[tc.cpu]
		if c.Core != tc.core || c.Thread != tc.thread || c.Class != tc.class || c.Speed != tc.speed || c.Priority != tc.prio {
			t.Errorf("CPU %d: core %d thread %d class %s speed %g priority %d; want core %d thread %d class %s speed %g priority %d",
				tc.cpu, c.Core, c.Thread, c.Class, c.Speed, c.Priority, tc.core, tc.thread, tc.class, tc.speed, tc.prio)
		}
		if got := ih.SiblingMask[tc.cpu].String(); got != tc.smt {
			t.Errorf("cpu_smt_mask(%d) = %s; want %s", tc.cpu, got, tc.smt)
		}
	}
	// sched_smt_present: the P-cores have siblings.
	if !ih.SMTActive {
		t.Error("sched_smt_active() false on a machine with SMT P-cores")
	}
}

// TestHybridDomains: an E-core's SMT domain spans one CPU and degenerates
// (sd_degenerate()); its L2 is shared by its 4-core module, so its chain
// starts at CLS (cpu_clustergroup_mask() = cpu_l2c_shared_mask(), span 4)
// under MC. A P-core has its own L2: its CLS span is its SMT pair, and
// sd_parent_degenerate() folds CLS into SMT. PKG has MC's span and
// degenerates on this one-package machine.
func TestHybridDomains(t *testing.T) {
	for _, pol := range []string{"itmt", "mainline", "none", "v6-on"} {
		ih := build(t, "intel-hybrid", pol)
		for _, tc := range []struct {
			cpu  topo.CPU
			want []topo.Level
		}{{0, []topo.Level{"SMT", "MC"}}, {15, []topo.Level{"SMT", "MC"}}, {16, []topo.Level{"CLS", "MC"}}, {23, []topo.Level{"CLS", "MC"}}} {
			if got := levels(ih, tc.cpu); !slices.Equal(got, tc.want) {
				t.Errorf("%s: CPU %d chain %v; want %v", pol, tc.cpu, got, tc.want)
			}
		}
		for _, tc := range []struct {
			cpu  topo.CPU
			span string
		}{{16, "16-19"}, {19, "16-19"}, {20, "20-23"}, {23, "20-23"}} {
			cls := domainAt(ih, tc.cpu, "CLS")
			if cls == nil || cls.Depth != 0 || cls.Span.String() != tc.span || len(cls.Groups) != 4 ||
				cls.Flags&(topo.SDCluster|topo.SDShareLLC) != topo.SDCluster|topo.SDShareLLC {
				t.Fatalf("%s: CPU %d CLS %+v; want level 0, span %s, 4 one-CPU groups, SD_CLUSTER|SD_SHARE_LLC", pol, tc.cpu, cls, tc.span)
			}
			if ih.SDShareID[tc.cpu] != cls.Span.First() {
				t.Errorf("%s: CPU %d sd_share_id %d; want the cluster's first CPU %d", pol, tc.cpu, ih.SDShareID[tc.cpu], cls.Span.First())
			}
		}
		if ih.SDShareID[3] != 0 || !ih.ClusterActive || ih.CPUsShareResources(3, 16) || !ih.CPUsShareResources(17, 19) || ih.CPUsShareResources(19, 20) {
			t.Errorf("%s: sd_share_id[3] %d, sched_cluster_active %v; want 0 (no CLS: the LLC id), true", pol, ih.SDShareID[3], ih.ClusterActive)
		}
		mc := domainAt(ih, 16, "MC")
		if mc.Depth != 1 || mc.Span.String() != "0-23" || len(mc.Groups) != 10 {
			t.Fatalf("%s: CPU 16 MC level %d span %s, %d groups; want level 1, 0-23, 10 groups (8 P-cores, 2 E-core modules)",
				pol, mc.Depth, mc.Span, len(mc.Groups))
		}
		// MC's groups are the build-time child (CLS) spans: a P-core pair,
		// an E-core module of 4 carrying SD_CLUSTER (select_idle_cpu()
		// scans it first).
		if g := mc.Groups[0]; g.Span.String() != "16-19" || g.Weight != 4 || g.Cores != 4 || g.Flags&topo.SDCluster == 0 {
			t.Errorf("%s: CPU 16 local MC group %s weight %d cores %d flags %v; want 16-19, 4, 4, CLS's",
				pol, g.Span, g.Weight, g.Cores, g.Flags)
		}
		// A P-core's CLS degenerated, so cpu_attach_domain() gave MC's
		// local group the surviving child's (SMT's) flags.
		p := domainAt(ih, 0, "MC")
		if g := p.Groups[0]; g.Span.String() != "0-1" || g.Weight != 2 || g.Cores != 1 ||
			g.Flags&topo.SDShareCPUCapacity == 0 || g.Flags&topo.SDCluster != 0 {
			t.Errorf("%s: CPU 0 local MC group %s weight %d cores %d flags %v; want 0-1, 2, 1, SMT's",
				pol, g.Span, g.Weight, g.Cores, g.Flags)
		}
		if ih.SDLLCSize[16] != 24 || ih.SDLLCID[16] != 0 {
			t.Errorf("%s: CPU 16 sd_llc_size %d id %d; want 24, 0", pol, ih.SDLLCSize[16], ih.SDLLCID[16])
		}
	}
	// ITMT packs across the whole MC span (x86_core_flags()), and inside an
	// E-core module (x86_cluster_flags()), where the priorities tie.
	ih := build(t, "intel-hybrid", "itmt")
	if got := levelOf(ih.SDAsymPacking[20]); got != "MC" {
		t.Errorf("itmt: sd_asym_packing[20] = %q; want MC", got)
	}
	if cls := domainAt(ih, 20, "CLS"); cls.Flags&topo.SDAsymPacking == 0 {
		t.Errorf("itmt: CPU 20 CLS flags %v; want SD_ASYM_PACKING", cls.Flags)
	}
	// Without cluster_cores the same machine has no CLS level (one
	// cluster per node): the chains of before class clusters.
	m := ih.Machine
	m.CoreClasses = slices.Clone(m.CoreClasses)
	for i := range m.CoreClasses {
		m.CoreClasses[i].ClusterCores = 0
	}
	flat, err := topo.Build(m, topo.DomainPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	if got := levels(flat, 16); !slices.Equal(got, []topo.Level{"MC"}) || flat.ClusterActive {
		t.Errorf("no cluster_cores: CPU 16 chain %v, cluster active %v; want [MC], false", got, flat.ClusterActive)
	}
}

// TestClassClusters: cluster_cores groups each class's cores k at a time,
// in core order, numbering clusters globally; clusters never mix classes.
func TestClassClusters(t *testing.T) {
	m := topo.Machine{Nodes: 2, CoresPerNode: 6, ThreadsPerCore: 2,
		CoreClasses: []topo.CoreClass{{Name: "big", Cores: 4, Capacity: 1024, Speed: 1, ClusterCores: 2},
			{Name: "little", Cores: 8, Capacity: 512, Speed: 0.5, Threads: 1, ClusterCores: 2}}}
	if got, want := m.CoreClusters(), []int{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}; !slices.Equal(got, want) {
		t.Fatalf("CoreClusters %v; want %v", got, want)
	}
	tp, err := topo.Build(m, topo.DomainPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	// node 0: big cores 0-3 (CPUs 0-7), little cores 4-5 (CPUs 8-9);
	// node 1: little cores 6-11 (CPUs 10-15).
	for _, tc := range []struct {
		cpu     topo.CPU
		cluster int
		chain   string
		cls     string
	}{{0, 0, "SMT CLS MC NUMA", "0-3"}, {7, 1, "SMT CLS MC NUMA", "4-7"}, {9, 2, "CLS MC NUMA", "8-9"},
		{10, 3, "CLS MC NUMA", "10-11"}, {15, 5, "CLS MC NUMA", "14-15"}} {
		c := tp.CPUs[tc.cpu]
		var got []string
		for _, l := range levels(tp, tc.cpu) {
			got = append(got, string(l))
		}
		if c.Cluster != tc.cluster || strings.Join(got, " ") != tc.chain {
			t.Errorf("CPU %d: cluster %d chain %v; want %d, %s", tc.cpu, c.Cluster, got, tc.cluster, tc.chain)
		}
		if d := domainAt(tp, tc.cpu, "CLS"); d == nil || d.Span.String() != tc.cls {
			t.Errorf("CPU %d: CLS %v; want span %s", tc.cpu, d, tc.cls)
		}
	}
}

// TestMixedThreadsSiblingMajor: sibling-major numbering with classes of
// different thread counts numbers thread 0 of every core, then thread 1 of
// the cores that have one.
func TestMixedThreadsSiblingMajor(t *testing.T) {
	m := topo.Machine{Nodes: 1, CoresPerNode: 4, ThreadsPerCore: 2, Numbering: topo.SiblingMajor,
		CoreClasses: []topo.CoreClass{{Name: "big", Cores: 2, Capacity: 1024, Speed: 1},
			{Name: "little", Cores: 2, Capacity: 1024, Speed: 1, Threads: 1}}}
	tp, err := topo.Build(m, topo.DomainPolicy{AsymConfig: topo.AsymConfig{Priority: topo.PriorityThread}})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]topo.CPU{{0, 4}, {1, 5}, {2}, {3}}
	if tp.NumCPUs() != 6 || !slices.EqualFunc(tp.CoreCPUs, want, slices.Equal) {
		t.Fatalf("%d CPUs, CoreCPUs %v; want 6, %v", tp.NumCPUs(), tp.CoreCPUs, want)
	}
	if c := tp.CPUs[5]; c.Core != 1 || c.Thread != 1 || tp.SiblingMask[5].String() != "1,5" {
		t.Errorf("CPU 5: core %d thread %d smt %s; want core 1 thread 1, 1,5", c.Core, c.Thread, tp.SiblingMask[5])
	}
	if got := levels(tp, 3); !slices.Equal(got, []topo.Level{"MC"}) {
		t.Errorf("single-thread core CPU 3 chain %v; want [MC]", got)
	}
	// thread-major priority orders CPUs as sibling-major numbers them.
	for cpu := 1; cpu < tp.NumCPUs(); cpu++ {
		if !topo.SchedAsymPrefer(tp, topo.CPU(cpu-1), topo.CPU(cpu)) {
			t.Errorf("thread priority: CPU %d must beat CPU %d", cpu-1, cpu)
		}
	}
	// Every class at one thread: no SMT anywhere, sched_smt_active() off.
	m.CoreClasses[0].Threads = 1
	tp, err = topo.Build(m, topo.DomainPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	if tp.NumCPUs() != 4 || tp.SMTActive || domainAt(tp, 0, "SMT") != nil {
		t.Errorf("1-thread classes: %d CPUs, smt active %v, CPU 0 chain %v; want 4, false, no SMT",
			tp.NumCPUs(), tp.SMTActive, levels(tp, 0))
	}
}

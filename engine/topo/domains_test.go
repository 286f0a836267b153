package topo_test

import (
	"fmt"
	"slices"
	"testing"

	"schedplay/engine/topo"
)

const (
	ap   = topo.SDAsymPacking
	asym = topo.SDAsymCPUCapacity
	full = topo.SDAsymCPUCapacityFull
)

// TestPolicyFlags pins where SD_ASYM_PACKING and SD_ASYM_CPUCAPACITY[_FULL]
// end up, per kernel-model.md §1.4, §1.8, §2.3 and §9 (the expectations are
// the kernel's rules, worked by hand for each machine).
func TestPolicyFlags(t *testing.T) {
	type lv struct {
		level topo.Level
		flags topo.SDFlags // exactly these of {ap, asym, full}
	}
	tests := []struct {
		machine, policy string
		cpu             topo.CPU
		chain           []lv
		asymPacking     topo.Level // sd_asym_packing level, "" = none
		asymCapacity    topo.Level // sd_asym_cpucapacity level, "" = none
	}{
		// Vera: SMT → MC (PKG = MC degenerates, CLS = SMT) → NUMA; both
		// sockets hold both cpu_scale values, so MC is FULL; v6-on adds
		// packing on SMT only and keeps the capacity handling.
		{"vera", "v6-on", 0, []lv{{"SMT", ap}, {"MC", asym | full}, {"NUMA", asym | full}}, "SMT", "MC"},
		{"vera", "v6-on", 300, []lv{{"SMT", ap}, {"MC", asym | full}, {"NUMA", asym | full}}, "SMT", "MC"},
		{"vera", "mainline", 0, []lv{{"SMT", 0}, {"MC", asym | full}, {"NUMA", asym | full}}, "", "MC"},
		{"vera", "v6-auto", 0, []lv{{"SMT", 0}, {"MC", asym | full}, {"NUMA", asym | full}}, "", "MC"},
		{"vera", "v6-off", 0, []lv{{"SMT", 0}, {"MC", asym | full}, {"NUMA", asym | full}}, "", "MC"},
		{"vera", "asym-capacity-smt-asym-packing", 0, []lv{{"SMT", ap}, {"MC", asym | full}, {"NUMA", asym | full}}, "SMT", "MC"},
		// combined-asym-packing: packing on every surviving level it names
		// (CLS and PKG degenerate; NUMA is not named), no capacity flags.
		{"vera", "combined-asym-packing", 0, []lv{{"SMT", ap}, {"MC", ap}, {"NUMA", 0}}, "MC", ""},
		{"vera-node", "combined-asym-packing", 5, []lv{{"SMT", ap}, {"MC", ap}}, "MC", ""},
		{"vera", "none", 0, []lv{{"SMT", 0}, {"MC", 0}, {"NUMA", 0}}, "", ""},
		// POWER7: the arch puts packing on SMT; auto keeps it, off strips it.
		// powerpc builds SMT → PKG → NUMA there (no CACHE level, no MC).
		{"power7", "mainline", 0, []lv{{"SMT", ap}, {"PKG", 0}, {"NUMA", 0}}, "SMT", ""},
		{"power7", "v6-auto", 0, []lv{{"SMT", ap}, {"PKG", 0}, {"NUMA", 0}}, "SMT", ""},
		{"power7", "v6-off", 0, []lv{{"SMT", 0}, {"PKG", 0}, {"NUMA", 0}}, "", ""},
		{"power7", "v6-on", 0, []lv{{"SMT", ap}, {"PKG", 0}, {"NUMA", 0}}, "SMT", ""},
		{"power7", "power7", 17, []lv{{"SMT", ap}, {"PKG", 0}, {"NUMA", 0}}, "SMT", ""},
		// A policy's asym_packing list replaces the arch's; [] means none.
		{"power7", "none", 0, []lv{{"SMT", 0}, {"PKG", 0}, {"NUMA", 0}}, "", ""},
		{"power7", "combined-asym-packing", 0, []lv{{"SMT", ap}, {"PKG", ap}, {"NUMA", 0}}, "PKG", ""},
		// hikey960: MC per cluster is symmetric; the level above (PKG) sees both.
		{"hikey960", "mainline", 0, []lv{{"MC", 0}, {"PKG", asym | full}}, "", "PKG"},
		{"hikey960", "misfit", 6, []lv{{"MC", 0}, {"PKG", asym | full}}, "", "PKG"},
		{"hikey960", "none", 6, []lv{{"MC", 0}, {"PKG", 0}}, "", ""},
		// DynamiQ emulation: one MC spanning both capacities.
		{"hikey960-dynamiq", "mainline", 0, []lv{{"MC", asym | full}}, "", "MC"},
		{"hikey960-dynamiq", "dynamiq-asym-packing", 0, []lv{{"MC", ap}}, "MC", ""},
		// x86: no asymmetry of any kind by default.
		{"x86-smt", "mainline", 0, []lv{{"SMT", 0}, {"MC", 0}}, "", ""},
		{"x86-smt", "v6-on", 0, []lv{{"SMT", ap}, {"MC", 0}}, "SMT", ""},
		// ITMT: arch packing on CLS/MC/PKG; on a P-core CLS (its own L2 =
		// the SMT pair) and PKG degenerate.
		{"intel-hybrid", "mainline", 0, []lv{{"SMT", 0}, {"MC", ap}}, "MC", ""},
		{"intel-hybrid", "itmt", 0, []lv{{"SMT", 0}, {"MC", ap}}, "MC", ""},
		{"intel-hybrid", "none", 0, []lv{{"SMT", 0}, {"MC", 0}}, "", ""},
		// E-cores: CLS is the 4-core module (x86_cluster_flags() adds ITMT's
		// SD_ASYM_PACKING); the one-CPU SMT level degenerates.
		{"intel-hybrid", "itmt", 16, []lv{{"CLS", ap}, {"MC", ap}}, "MC", ""},
		{"intel-hybrid", "none", 21, []lv{{"CLS", 0}, {"MC", 0}}, "", ""},
		// v6 "on" adds SMT on top of the arch levels (siblings still tie).
		{"intel-hybrid", "v6-on", 0, []lv{{"SMT", ap}, {"MC", ap}}, "MC", ""},
		{"intel-hybrid", "v6-off", 0, []lv{{"SMT", 0}, {"MC", ap}}, "MC", ""},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s/%s/cpu%d", tc.machine, tc.policy, tc.cpu), func(t *testing.T) {
			tp := build(t, tc.machine, tc.policy)
			var got []lv
			for _, d := range tp.Domains[tc.cpu] {
				got = append(got, lv{d.Level, d.Flags & (ap | asym | full)})
			}
			if !slices.Equal(got, tc.chain) {
				t.Errorf("chain = %v; want %v", got, tc.chain)
			}
			if l := levelOf(tp.SDAsymPacking[tc.cpu]); l != tc.asymPacking {
				t.Errorf("sd_asym_packing = %q; want %q", l, tc.asymPacking)
			}
			if l := levelOf(tp.SDAsymCPUCapacity[tc.cpu]); l != tc.asymCapacity {
				t.Errorf("sd_asym_cpucapacity = %q; want %q", l, tc.asymCapacity)
			}
		})
	}
}

func levelOf(d *topo.Domain) topo.Level {
	if d == nil {
		return ""
	}
	return d.Level
}

// TestSocketMissingCapacity: when one socket lacks a cpu_scale value the
// other has, MC gets only SD_ASYM_CPUCAPACITY and NUMA gets _FULL, so
// sd_asym_cpucapacity is the NUMA domain (kernel-model.md §1.4.5).
func TestSocketMissingCapacity(t *testing.T) {
	m := topo.Machine{Nodes: 2, CoresPerNode: 4, ThreadsPerCore: 2, Numbering: topo.SiblingMajor,
		CoreClasses: []topo.CoreClass{{Name: "fast", Cores: 1, Capacity: 1024, Speed: 1},
			{Name: "slow", Cores: 7, Capacity: 990, Speed: 1}}}
	tp, err := topo.Build(m, topo.DomainPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	// Socket 0 (CPU 0) holds both values: FULL at MC. Socket 1 (CPU 4)
	// holds only 990: one value in its span, no flag at MC.
	for _, tc := range []struct {
		cpu    topo.CPU
		wantMC topo.SDFlags
	}{{0, asym | full}, {4, 0}} {
		mc := domainAt(tp, tc.cpu, topo.LevelMC)
		numa := domainAt(tp, tc.cpu, topo.LevelNUMA)
		if mc == nil || numa == nil {
			t.Fatalf("cpu %d chain %v; want MC and NUMA", tc.cpu, levels(tp, tc.cpu))
		}
		if got := mc.Flags & (asym | full); got != tc.wantMC {
			t.Errorf("cpu %d MC asym flags = %v; want %v", tc.cpu, got, tc.wantMC)
		}
		if got := numa.Flags & (asym | full); got != asym|full {
			t.Errorf("cpu %d NUMA asym flags = %v; want FULL", tc.cpu, got)
		}
	}
	if got := levelOf(tp.SDAsymCPUCapacity[4]); got != topo.LevelNUMA {
		t.Errorf("sd_asym_cpucapacity[4] = %q; want NUMA", got)
	}
	// Three values, socket 0 has two of them: MC gets ASYM without FULL.
	m.CoreClasses = []topo.CoreClass{{Name: "a", Cores: 1, Capacity: 1024, Speed: 1},
		{Name: "b", Cores: 3, Capacity: 1000, Speed: 1}, {Name: "c", Cores: 4, Capacity: 980, Speed: 1}}
	tp, err = topo.Build(m, topo.DomainPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	if got := domainAt(tp, 0, topo.LevelMC).Flags & (asym | full); got != asym {
		t.Errorf("MC with 2 of 3 values: %v; want SD_ASYM_CPUCAPACITY only", got)
	}
	if got := levelOf(tp.SDAsymCPUCapacity[0]); got != topo.LevelNUMA {
		t.Errorf("sd_asym_cpucapacity[0] = %q; want NUMA", got)
	}
}

func BenchmarkBuildVera(b *testing.B) {
	m, p := loadMachine(b, "vera"), loadPolicy(b, "v6-on")
	for b.Loop() {
		if _, err := topo.Build(m, p); err != nil {
			b.Fatal(err)
		}
	}
}

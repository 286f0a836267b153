package sim

import (
	"strings"
	"testing"

	"schedplay/engine/topo"
)

// hikeyGenSim is hikey960 (two clusters of 4, each its own LLC; asym capacity
// FULL at PKG) idle, under the policy's generation.
func hikeyGenSim(t *testing.T, generation string) *sim {
	t.Helper()
	return simOf(t, `{"schedplay":1,"machine":{"preset":"hikey960"},"policy":{"preset":"mainline","generation":"`+generation+`"},
		"workload":{"preset":"idle"},"run":{"duration":"10ms","seed":1}}`)
}

// TestSharedDataFollowsAsymDomain: "sched/fair: Attach
// sched_domain_shared to sd_asym_cpucapacity" (in the tip the mails
// measured, part of SMT_AWARE_ASYM_CAPACITY) puts a CPU's shared data on
// its lowest SD_ASYM_CPUCAPACITY_FULL domain when that domain is not
// NUMA-built; 6.12 keeps it on the LLC. On hikey960 the asym domain is PKG
// (all 8 CPUs) and each cluster is an LLC; on Vera the asym domain is the
// LLC; on a Vera whose node 0 lacks a capacity value of node 1 the FULL
// domain is NUMA and the data stays on the LLC.
func TestSharedDataFollowsAsymDomain(t *testing.T) {
	tip := hikeyGenSim(t, "tip-2026-09")
	for cpu := range 8 {
		if sd := tip.sharedDom[cpu]; sd == nil || sd.Level != "PKG" || sd.Span.Weight() != 8 {
			where := "no domain"
			if sd != nil {
				where = string(sd.Level) + " " + sd.Span.String()
			}
			t.Fatalf("tip, hikey960 cpu %d: shared data on %s; want PKG 0-7", cpu, where)
		}
		if tip.shared[cpu] != tip.shared[0] {
			t.Errorf("tip, hikey960: cpu %d has its own shared data; want PKG's, one for all 8", cpu)
		}
	}
	old := hikeyGenSim(t, "6.12")
	for cpu := range 8 {
		if old.sharedDom[cpu] != old.t.SDLLC[cpu] || old.shared[cpu] != &old.llcs[old.t.SDLLCID[cpu]] {
			t.Errorf("6.12, hikey960 cpu %d: shared data not on its LLC", cpu)
		}
	}
	if old.shared[0] == old.shared[4] {
		t.Error("6.12, hikey960: the two clusters share one sched_domain_shared")
	}
	vera := wakeSim(t, `{"preset":"mainline"}`)
	if vera.sharedDom[10] != vera.t.SDLLC[10] || vera.sharedDom[10] != vera.t.SDAsymCPUCapacity[10] {
		t.Error("tip, Vera: the shared data is not on the LLC, which is the asym domain")
	}
	split := simOf(t, `{"schedplay":1,"machine":`+splitCapacityVera(t)+`,"policy":{"preset":"mainline"},"workload":{"preset":"idle"},"run":{"duration":"10ms","seed":1}}`)
	if sd := split.t.SDAsymCPUCapacity[10]; sd == nil || sd.Flags&topo.SDNUMA == 0 {
		t.Fatalf("the split Vera's asym domain for cpu 10 is %v; want NUMA", sd)
	}
	if split.sharedDom[10] != split.t.SDLLC[10] {
		t.Error("tip, asym FULL on NUMA: the shared data left the LLC")
	}
}

// splitCapacityVera is veraTestMachine with one node-1 core at a capacity
// no node-0 core has, so FULL lands on NUMA for node 0.
func splitCapacityVera(t *testing.T) string {
	t.Helper()
	m := veraTestMachine
	i := strings.LastIndex(m, `"capacity":`)
	if i < 0 {
		t.Fatal("veraTestMachine has no core class capacity")
	}
	j := i + strings.IndexAny(m[i:], ",}")
	return m[:i] + `"capacity":1021` + m[j:]
}

// TestAsymSharedBudget: with the shared data on hikey960's PKG, the
// SIS_UTIL budget of select_idle_capacity() is PKG's nr_idle_scan, written
// by a periodic PKG balance (update_idle_cpu_scan() writes sd->shared of
// the domain it balances), and it cuts the scan short as on an LLC; 6.12
// scans without one.
func TestAsymSharedBudget(t *testing.T) {
	for _, c := range []struct {
		generation string
		budget     int
		want       int
	}{
		{"tip-2026-09", 1, 0}, // nr 2: looks at cpu 0 (busy), gives up at cpu 1: the busy target
		{"tip-2026-09", 8, 4}, // reaches the first idle big CPU
		{"6.12", 1, 4},        // no budget
	} {
		s := hikeyGenSim(t, c.generation)
		s.busy(0, 1, 2, 3)
		s.shared[0].nrIdleScan = c.budget
		p := s.wakee(600) // fits a big CPU (1024), not a little one (462)
		all, _ := topo.ParseCPUList("0-7", 8)
		p.allowed, p.nrAllowed = all, 8
		p.cpu = 0
		if got := s.selectIdleSibling(p, 0, 0); got != c.want {
			t.Errorf("%s, nr_idle_scan %d, the littles busy: select_idle_sibling(prev 0, target 0) = %d; want %d", c.generation, c.budget, got, c.want)
		}
	}
	s := hikeyGenSim(t, "tip-2026-09")
	s.shared[0].nrIdleScan = 99
	llcBefore := s.llcs[0].nrIdleScan
	for i, sd := range s.t.Domains[0] { // MC (the LLC), then PKG
		var env lbEnv
		env.reset(sd, i, 0, cpuIdle, migPeriodic, topo.CPUSet{}, migrateLoad)
		s.updateSdLbStats(&env)
	}
	if s.shared[0].nrIdleScan != 8 {
		t.Errorf("after an idle PKG balance of an idle hikey960, PKG's nr_idle_scan = %d; want 8", s.shared[0].nrIdleScan)
	}
	if s.llcs[0].nrIdleScan != llcBefore {
		t.Errorf("the MC (LLC) balance wrote the LLC's nr_idle_scan (%d → %d), which holds no shared data under the tip", llcBefore, s.llcs[0].nrIdleScan)
	}
}

// TestDetailReadsSharedData: the step view's per-LLC has_idle_cores and
// nr_idle_scan come from the sched_domain_shared the LLC's CPUs use. Under
// the tip on hikey960 that is PKG's, so a scan that clears PKG's hint
// shows in both clusters' lines, and the LLCs' own (unused) copies do not.
func TestDetailReadsSharedData(t *testing.T) {
	s := hikeyGenSim(t, "tip-2026-09")
	s.shared[0].hasIdleCores, s.shared[0].nrIdleScan = false, 3
	s.llcs[0].hasIdleCores, s.llcs[4].hasIdleCores = true, true
	d := (&Stepper{s: s}).Detail()
	if len(d.LLCs) != 2 {
		t.Fatalf("hikey960 detail has %d LLCs; want 2", len(d.LLCs))
	}
	for _, l := range d.LLCs {
		if l.HasIdleCores || l.NrIdleScan != 3 || l.SharedLevel != "PKG" || l.SharedCPUs != "0-7" {
			t.Errorf("tip, LLC %s: has_idle_cores %v, nr_idle_scan %d, shared on %s %s; want PKG 0-7's: false, 3",
				l.CPUs, l.HasIdleCores, l.NrIdleScan, l.SharedLevel, l.SharedCPUs)
		}
	}
	old := hikeyGenSim(t, "6.12")
	old.llcs[4].hasIdleCores, old.llcs[4].nrIdleScan = false, 2
	d = (&Stepper{s: old}).Detail()
	if l := d.LLCs[1]; l.HasIdleCores || l.NrIdleScan != 2 || l.SharedCPUs != l.CPUs || d.LLCs[0].HasIdleCores != true {
		t.Errorf("6.12, LLCs %+v; want each LLC's own shared data", d.LLCs)
	}
}

package sim

import (
	"testing"

	"schedplay/engine/topo"
)

// wakeSim builds a sim of veraTestMachine (no tasks) under a policy document.
func wakeSim(t *testing.T, policy string) *sim {
	t.Helper()
	doc := `{"schedplay":1,"machine":` + veraTestMachine + `,"policy":` + policy + `,"workload":{"preset":"idle"},"run":{"duration":"10ms","seed":1}}`
	return simOf(t, doc)
}

// busy makes a CPU run a dummy task.
func (s *sim) busy(cpus ...int) {
	for _, c := range cpus {
		cs := &s.cpus[c]
		cs.curr = &task{id: -1 - c, weight: 1024, cpu: c, state: taskRunning}
		cs.nrRunning, cs.inIdle = 1, false
		s.cpuChanged(cs) // as the engine marks every change of curr and nr_running
	}
}

// wakee is a task allowed on node 0 of Vera (both siblings), with util u.
func (s *sim) wakee(u uint64) *task {
	n := s.t.NumCPUs()
	al, _ := topo.ParseCPUList("0-87,176-263", n)
	p := &task{id: 0, weight: 1024, allowed: al, nrAllowed: al.Weight(), maxAllowedCap: 1024, recentUsedCPU: -1, state: taskBlocked}
	p.avg.utilAvg = u
	p.avg.lastWall = 0
	return p
}

func TestSelectIdleSibling(t *testing.T) {
	noCap := `{"asym_cpucapacity":false}`
	v6NoCap := `{"asym_cpucapacity":false,"smt_asym_packing":"on","idle_select_asym":true}`
	cases := []struct {
		name       string
		policy     string
		busy       []int
		idleCores  bool
		nrIdleScan int
		util       uint64
		prev, targ int
		want       int
	}{
		{"target idle", noCap, nil, true, 176, 100, 3, 3, 3},
		{"prev idle, target busy", noCap, []int{7}, true, 176, 100, 3, 7, 3},
		// Vera numbering: scanning from target+1 = 11 meets core 5 via its PE1 (181) first.
		{"wrap order enters an idle core on PE1", noCap, allPE0sBut(5), true, 176, 100, 10, 10, 181},
		{"v6: select_idle_smt_cpu moves to PE0", v6NoCap, allPE0sBut(5), true, 176, 100, 10, 10, 5},
		{"v6: idle PE1 target → its idle PE0", v6NoCap, nil, true, 176, 100, 176, 176, 0},
		{"no idle core hint: select_idle_smt on prev", noCap, append(allPE0sBut(), 12), false, 176, 100, 10, 12, 186},
		{"SIS_UTIL budget 0: LLC overloaded → target", noCap, append(allPE0sBut(), 188), false, 0, 100, 12, 12, 12},
		// asym capacity (Vera mainline): a task that fits nowhere goes to the
		// biggest idle core (the 1024 cores 40-43), not its idle prev.
		{"select_idle_capacity prefers capacity", `{}`, nil, true, 176, 900, 10, 10, 40},
		{"select_idle_capacity: small task stays on target", `{}`, nil, true, 176, 100, 10, 10, 10},
		{"v6 + capacity: PE1 target of an idle core → PE0", `{"preset":"v6-on"}`, nil, true, 176, 100, 186, 186, 10},
		// for_each_cpu_wrap(cpu, cpus, target + 1): a budget of one CPU
		// reaches 11, not the busy target itself.
		{"SIS_UTIL budget 1: the scan starts after target", noCap, []int{10, 186}, false, 1, 100, 10, 10, 11},
		{"prev idle in another LLC is not taken", noCap, []int{10}, true, 176, 100, 100, 10, 11},
		// TIP7's asym_fits_cpu() also wants the whole core idle: 186's
		// sibling 10 runs, so the scan goes on to core 11's idle 187.
		{"TIP7: a fitting idle target on a busy core is passed over", `{}`, []int{10}, true, 176, 100, 186, 186, 187},
		{"6.12: a fitting idle target on a busy core is taken", `{"features":{"SMT_AWARE_ASYM_CAPACITY":false}}`, []int{10}, true, 176, 100, 186, 186, 186},
		// 6.12's select_idle_capacity(): nothing fits util 900, so the best
		// capacity among the idle CPUs (40, the first 1024 in wrap order).
		{"6.12 select_idle_capacity: nothing fits → the biggest idle CPU", `{"features":{"SMT_AWARE_ASYM_CAPACITY":false}}`, nil, true, 176, 900, 10, 10, 40},
		// util 810 fits only the 1024 cores (810 × 1.25 < 1024), whose
		// PE0s run: their PE1s rank ASYM_IDLE_THREAD_FITS (-2), an idle
		// 1000 core ranks ASYM_IDLE_THREAD_MISFIT + ASYM_IDLE_CORE_BIAS
		// (0 − 3) and wins; ties keep the first in wrap order, target 10.
		{"TIP7: an idle core that does not fit beats a fitting PE of a busy core", `{}`, []int{40, 41, 42, 43}, true, 176, 810, 10, 10, 10},
	}
	// The traced walks (a timeline, the step view) are a second
	// implementation of the scans; both must choose alike.
	for _, tracing := range []bool{false, true} {
		for _, c := range cases {
			s := wakeSim(t, c.policy)
			s.tracing = tracing
			s.busy(c.busy...)
			llc := &s.llcs[s.t.SDLLCID[c.targ]]
			llc.hasIdleCores = c.idleCores
			llc.nrIdleScan = c.nrIdleScan
			p := s.wakee(c.util)
			p.cpu = c.prev
			if got := s.selectIdleSibling(p, c.prev, c.targ); got != c.want {
				t.Errorf("tracing %v, %s: select_idle_sibling(prev %d, target %d) = %d; want %d", tracing, c.name, c.prev, c.targ, got, c.want)
			}
		}
	}
}

// TestSelectIdleCoreKeepsToTheMask: select_idle_core() remembers an idle
// sibling of a busy core only when it is in select_idle_cpu()'s mask
// (span ∩ p->cpus_ptr). A wakee allowed the PE0s alone, all busy, gets no
// idle CPU (and the stale hint is cleared); allowed one PE1 too, it gets
// that one.
func TestSelectIdleCoreKeepsToTheMask(t *testing.T) {
	for _, c := range []struct {
		allowed string
		want    int
	}{
		{"0-87", noCPU},
		{"0-87,200", 200},
	} {
		s := wakeSim(t, `{"asym_cpucapacity":false}`)
		s.busy(allPE0sBut()...)
		s.llcs[0].hasIdleCores = true
		p := s.wakee(100)
		p.allowed, _ = topo.ParseCPUList(c.allowed, s.t.NumCPUs())
		p.nrAllowed = p.allowed.Weight()
		if got := s.selectIdleCPU(p, s.t.SDLLC[10], true, 10); got != c.want {
			t.Errorf("allowed %s: select_idle_cpu = %d; want %d", c.allowed, got, c.want)
		}
		if s.llcs[0].hasIdleCores {
			t.Errorf("allowed %s: has_idle_cores still set after a scan that found no idle core", c.allowed)
		}
	}
}

// allPE0sBut are node 0's PE0s of veraTestMachine, 0-87, but those named.
func allPE0sBut(idle ...int) []int {
	var b []int
next:
	for c := 0; c < 88; c++ {
		for _, i := range idle {
			if c == i {
				continue next
			}
		}
		b = append(b, c)
	}
	return b
}

// With has_idle_cores and SMT-aware select_idle_capacity (TIP7), an idle PE
// whose sibling is busy (216) is passed over for the next fully idle core
// (217, core 41's PE1 in wrap order); K612 takes the fitting target itself.
func TestSelectIdleCapacitySMTAware(t *testing.T) {
	for _, c := range []struct {
		policy string
		want   int
	}{
		{`{}`, 217},
		{`{"features":{"SMT_AWARE_ASYM_CAPACITY":false}}`, 216},
	} {
		s := wakeSim(t, c.policy)
		s.busy(40) // core 40's PE0 busy: 216 is an idle PE on a busy core
		p := s.wakee(100)
		p.cpu = 216
		s.llcs[0].hasIdleCores = true
		if got := s.selectIdleCapacity(p, s.t.SDAsymCPUCapacity[216], 216, 100); got != c.want {
			t.Errorf("policy %s: select_idle_capacity from 216 = %d; want %d", c.policy, got, c.want)
		}
	}
}

// select_idle_smt() walks cpu_smt_mask(target) with for_each_cpu_and(), in
// CPU number order. A machine whose cpu_ids number a core's threads out of
// thread order (here core 0's threads 0–3 are CPUs 3, 1, 0 and 2) still
// gets the lowest-numbered idle sibling, CPU 0, not the next thread, 1.
func TestSelectIdleSMTWalksSiblingsInCPUOrder(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":2,"threads_per_core":4,"cpu_ids":"3,1,0,2,4-7"},
		"workload":{"groups":[{"name":"w","count":1,"program":[{"compute":"1s"}]}]},"run":{"duration":"1s","seed":1}}`)
	if s.cpus[3].thread != 0 || s.cpus[1].thread != 1 || s.cpus[3].core != s.cpus[0].core {
		t.Fatalf("set-up: cpu 3 thread %d, cpu 1 thread %d", s.cpus[3].thread, s.cpus[1].thread)
	}
	place(s, 0, 3)
	s.schedule(&s.cpus[3])
	p := s.tasks[0]
	sd := s.t.Domains[3][0] // SMT
	if got := s.selectIdleSMT(p, sd, 3); got != 0 {
		t.Errorf("select_idle_smt(target 3) = %d; want 0, the first idle sibling in cpu_smt_mask()", got)
	}
}

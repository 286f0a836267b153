package sim

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"schedplay/engine/topo"
)

// Kernel semantics the Vera calibration depends on, checked against
// linux-source-6.12 kernel/sched/fair.c (docs/calibration.md, "What the
// spread and the 176-thread runs are not"). Each would be an easy "fix" for a
// calibration gap that the kernel does not make.

// TestSMTAsymPullIgnoresCoreIdle: at the SMT level sched_use_asym_prio()
// returns true without is_core_idle() ("sd->flags & SD_SHARE_CPUCAPACITY ||
// is_core_idle(cpu)"), so under v6-on a newly idle PE0 actively pulls the
// running task of its PE1 (asym_active_balance) even though PE0's own
// thread is merely asleep; mainline (no SMT asym packing) does not.
func TestSMTAsymPullIgnoresCoreIdle(t *testing.T) {
	for _, c := range []struct {
		policy string
		want   bool
	}{
		{`{"preset":"v6-on"}`, true},
		{`{"preset":"mainline"}`, false},
	} {
		s := wakeSim(t, c.policy)
		p := s.wakee(900) // allowed on node 0, both siblings
		p.cpu, p.state = 176, taskRunning
		pe1 := &s.cpus[176]
		pe1.curr, pe1.nrRunning, pe1.inIdle = p, 1, false
		s.schedBalanceRq(0, 0, cpuNewlyIdle, migNewidle) // PE0 (cpu 0) newly idle, SMT domain
		if got := pe1.activeBalance; got != c.want {
			t.Errorf("%s: stopper queued on PE1 176 for idle PE0 0 = %v; want %v", c.policy, got, c.want)
		}
	}
}

// TestAsymFitsKeepsNonFittingTaskOffPrev: with SD_ASYM_CPUCAPACITY active,
// asym_fits_cpu() is util_fits_cpu() > 0, so a task whose utilization is
// above 80% of every capacity (an SGEMM thread, util ≈ 920–1020) is not sent
// back to its idle prev: select_idle_capacity() picks the biggest fully idle
// core every time. A task that fits stays on its idle prev.
func TestAsymFitsKeepsNonFittingTaskOffPrev(t *testing.T) {
	for _, c := range []struct {
		util uint64
		want int
	}{
		{990, 40}, // fits nowhere: the first 1024 core in wrap order from prev
		{700, 12}, // fits its 1000-capacity prev (700·1280 < 1000·1024)
	} {
		s := wakeSim(t, `{"preset":"mainline"}`)
		s.busy(30) // the waker's CPU: target = prev (wake_affine_idle)
		s.llcs[0].hasIdleCores = true
		s.llcs[0].nrIdleScan = 176
		p := s.wakee(c.util)
		p.cpu = 12
		if got := s.selectIdleSibling(p, 12, 12); got != c.want {
			t.Errorf("util %d: select_idle_sibling(prev 12, target 12) = %d; want %d", c.util, got, c.want)
		}
	}
}

// TestV6BudgetedScanStacksOnBusyPE0: with v6-on, once every PE0 is taken and
// the idle-core hint is clear, the SIS_UTIL budget of the SMT-aware
// select_idle_capacity() is spent on busy PE0s in wrap order from a PE0
// target, and the wake-up falls back to the busy target although its own
// PE1 is idle. This is the stacking of the 176-thread runs under v6-on.
func TestV6BudgetedScanStacksOnBusyPE0(t *testing.T) {
	s := wakeSim(t, `{"preset":"v6-on"}`)
	var pe0 []int
	for c := 0; c < 88; c++ {
		pe0 = append(pe0, c)
	}
	s.busy(pe0...)
	s.llcs[0].hasIdleCores = false
	s.llcs[0].nrIdleScan = 20
	p := s.wakee(990)
	p.cpu = 10
	if got := s.selectIdleSibling(p, 10, 10); got != 10 {
		t.Errorf("budget 20 from PE0 target 10: got cpu %d; want the busy target 10", got)
	}
	s.llcs[0].nrIdleScan = 176
	if got := s.selectIdleSibling(p, 10, 10); got < 176 {
		t.Errorf("full budget: got cpu %d; want an idle PE1", got)
	}
}

// TestSelectIdleCapacityClearsHintWhenNothingIdle: the SMT-aware
// select_idle_capacity() ends with "if (has_idle_core && best_fits >
// ASYM_IDLE_COMPLETE_MISFIT) set_idle_cores(target, false)", where
// best_fits starts at ASYM_IDLE_THREAD_MISFIT (0): a scan that finds no idle
// CPU at all clears the stale idle-core hint too, not only one that found a
// partially idle core.
func TestSelectIdleCapacityClearsHintWhenNothingIdle(t *testing.T) {
	// the traced scan (--trace, the step view) is a second walk of its own
	for _, tracing := range []bool{false, true} {
		s := wakeSim(t, `{"preset":"mainline"}`)
		s.tracing = tracing
		var node0 []int
		for c := 0; c < 88; c++ {
			node0 = append(node0, c, c+176)
		}
		s.busy(node0...)
		s.llcs[0].hasIdleCores = true
		p := s.wakee(990)
		p.cpu = 10
		sd := s.t.SDAsymCPUCapacity[10]
		if got := s.selectIdleCapacity(p, sd, 10, 990); got != noCPU {
			t.Fatalf("tracing %v: select_idle_capacity on a busy node = %d; want -1", tracing, got)
		}
		if s.llcs[0].hasIdleCores {
			t.Errorf("tracing %v: has_idle_cores still set after a scan that found no idle CPU", tracing)
		}
	}
}

// TestStopperWakeupRaisesOverload: the active-balance stopper is a task of
// its own; its wake-up on a CPU that runs one task goes through
// add_nr_running() (nr_running 1 → 2) and set_rd_overloaded(), so newidle
// balancing is no longer gated off by the root domain (6.12 sched.h). The
// same holds for a kworker of the kernel noise.
func TestStopperWakeupRaisesOverload(t *testing.T) {
	doc := `{"schedplay":1,"machine":` + veraTestMachine + `,"policy":{"preset":"mainline"},
		"workload":{"groups":[{"name":"hog","count":1,"cpus":"5","program":[{"compute":"100ms"}]}]},
		"run":{"duration":"50ms","seed":1}}`
	doc = strings.Replace(doc, `"workload":{`, `"workload":{"housekeeping":{"period":"10s","run":"20us"},`, 1)
	for _, c := range []struct {
		name string
		wake func(s *sim, cpu int)
	}{
		{"stopper", func(s *sim, cpu int) { s.activeLoadBalanceCPUStop(cpu, 6, migAsym) }},
		{"noise", func(s *sim, cpu int) { s.housekeeping(&s.cpus[cpu]) }},
	} {
		for _, cpu := range []int{5, 7} { // 5 runs the hog, 7 is idle
			s := simOf(t, doc)
			if err := s.runUntil(context.Background(), 10_000_000, 0, 1); err != nil {
				t.Fatal(err)
			}
			if s.cpus[5].nrRunning != 1 || s.cpus[7].nrRunning != 0 {
				t.Fatalf("set-up: nr_running of cpus 5, 7 = %d, %d; want 1, 0", s.cpus[5].nrRunning, s.cpus[7].nrRunning)
			}
			s.rdOverloaded = false
			c.wake(s, cpu)
			if want := cpu == 5; s.rdOverloaded != want {
				t.Errorf("%s woken on cpu %d (nr_running %d before): rd->overloaded = %v; want %v", c.name, cpu, 1-cpu/7, s.rdOverloaded, want)
			}
		}
	}
}

// TestFullScanGenerationNeverStacks: 6.12's select_idle_capacity() has no
// SIS_UTIL budget and takes the first idle CPU that fits, else the best
// idle one, over the whole asym domain: a wake-up never lands on a busy CPU
// while an idle CPU is left in the span, however late the idle CPU comes in
// wrap order and whatever nr_idle_scan says. The tip form the mails
// measured, with nr_idle_scan 0 (a fully loaded LLC), returns the busy
// target instead.
func TestFullScanGenerationNeverStacks(t *testing.T) {
	for _, c := range []struct {
		generation string
		stack      bool
	}{{"6.12", false}, {"tip-2026-09", true}} {
		s := wakeSim(t, `{"generation":"`+c.generation+`","smt_asym_packing":"on","idle_select_asym":true}`)
		var busy []int
		for cpu := 0; cpu < 88; cpu++ {
			busy = append(busy, cpu, cpu+176)
		}
		for _, idle := range []int{263, 176, 9} { // last, middle and first in wrap order from 10
			s.busy(busy...)
			s.cpus[idle].curr, s.cpus[idle].nrRunning, s.cpus[idle].inIdle = nil, 0, true
			s.cpuChanged(&s.cpus[idle])
			s.llcs[0].hasIdleCores = false
			s.llcs[0].nrIdleScan = 0
			p := s.wakee(990)
			p.cpu = 10
			got := s.selectIdleSibling(p, 10, 10)
			if stacked := got != idle; stacked != c.stack {
				t.Errorf("%s, only cpu %d idle: select_idle_sibling(prev 10, target 10) = %d; want stacked on the busy target = %v", c.generation, idle, got, c.stack)
			}
		}
	}
}

// TestAsymCapacitySMTLBFindSrcRq: under SD_ASYM_CPUCAPACITY, 6.12's
// sched_balance_find_src_rq() skips a CPU running one task whose capacity
// the destination does not exceed by capacity_greater(); Vera's ±5 %
// capacities never do, so an idle core's MC balance finds no source in a
// core running two threads. Neri's series (ASYM_CAPACITY_SMT_LB) keeps
// such a CPU when its SMT sibling is busy (smt_degraded_cap).
func TestAsymCapacitySMTLBFindSrcRq(t *testing.T) {
	for _, tc := range []struct {
		policy string
		want   int
	}{
		{`{"preset":"mainline"}`, noCPU},
		{`{"preset":"mainline","features":{"ASYM_CAPACITY_SMT_LB":true}}`, 1},
	} {
		s := wakeSim(t, tc.policy)
		s.busy(1, 177) // both threads of core 1; core 0 (CPUs 0, 176) idle
		sd := s.t.Domains[0][1]
		if sd.Level != "MC" || sd.Flags&topo.SDAsymCPUCapacity == 0 {
			t.Fatalf("CPU 0's second domain is %s (flags %v); want the asym MC", sd.Level, sd.Flags)
		}
		var g *topo.Group
		for i := range sd.Groups {
			if sd.Groups[i].Span.Has(1) {
				g = &sd.Groups[i]
			}
		}
		env := &lbEnv{sd: sd, sdIdx: 1, dst: 0, idle: cpuIdle, migType: migrateTask, imbalance: 1}
		if got := s.schedBalanceFindSrcRq(env, g); got != tc.want {
			t.Errorf("%s: busiest rq = %d; want %d", tc.policy, got, tc.want)
		}
	}
}

// TestAsymCapacitySMTLBMisfitGate: Neri's series counts a group's misfit
// load in update_sg_lb_stats() only when the destination's capacity is
// greater than the group's largest; the misfit task still marks the root
// domain overloaded. On hikey960 an A73 pulling from the A53 cluster
// counts it, an A53 pulling from the A73s does not.
func TestAsymCapacitySMTLBMisfitGate(t *testing.T) {
	for _, tc := range []struct {
		flag      bool
		dst, busy int
		counted   bool
	}{
		{false, 0, 5, true}, // 6.12: always counted
		{true, 4, 1, true},  // A73 (1024) > the A53s' 462
		{true, 0, 5, false}, // A53 (462) < the A73s' 1024
	} {
		s := simOf(t, `{"schedplay":1,"machine":{"preset":"hikey960"},"policy":{"preset":"misfit","features":{"ASYM_CAPACITY_SMT_LB":`+
			strconv.FormatBool(tc.flag)+`}},"workload":{"preset":"idle"},"run":{"duration":"10ms","seed":1}}`)
		s.busy(tc.busy)
		s.cpus[tc.busy].misfitLoad = 900
		var sd *topo.Domain
		idx := -1
		for i, d := range s.t.Domains[tc.dst] {
			if d.Flags&topo.SDAsymCPUCapacity != 0 {
				sd, idx = d, i
			}
		}
		var g *topo.Group
		for i := range sd.Groups {
			if sd.Groups[i].Span.Has(topo.CPU(tc.busy)) {
				g = &sd.Groups[i]
			}
		}
		for _, walk := range []bool{true, false} {
			env := &lbEnv{sd: sd, sdIdx: idx, dst: tc.dst, idle: cpuIdle}
			var sgs sgStats
			if walk {
				s.sgLbStatsWalk(env, g, false, &sgs)
			} else {
				s.flushGroupSums()
				s.sgLbStatsFromSums(env, g, false, &sgs)
			}
			if got := sgs.misfitTaskLoad > 0; got != tc.counted || !env.overloaded {
				t.Errorf("flag %v, dst %d, walk %v: misfit counted %v (overloaded %v); want %v (and overloaded)", tc.flag, tc.dst, walk, got, env.overloaded, tc.counted)
			}
		}
	}
}

// select_idle_smt_cpu() (Olympus series) takes a sibling that
// choose_idle_cpu() accepts: idle, or running only SCHED_IDLE work. A
// SCHED_OTHER task allowed on both PEs of an x86-smt core under v6-on,
// whose PE0 runs only a SCHED_IDLE hog, wakes onto the PE0 and preempts
// the hog; with available_idle_cpu() alone it stayed on the idle PE1.
func TestSelectIdleSMTCPUTakesASchedIdleSibling(t *testing.T) {
	doc := `{"schedplay":1,"machine":{"preset":"x86-smt"},"policy":{"preset":"v6-on"},
		"workload":{"groups":[
			{"name":"bg","count":1,"cpus":"0","policy":"idle","program":[{"compute":"200ms"}]},
			{"name":"fg","count":1,"cpus":"0-1","start":"1ms","program":[{"repeat":20,"do":[{"compute":"1ms"},{"sleep":"1ms"}]}]}]},
		"run":{"duration":"60ms","until":"duration","seed":1}}`
	res := mustRun(t, resolveJSON(t, doc), Options{Timeline: true})
	on0, on1 := 0, 0
	for _, d := range res.Timeline.Decisions {
		if d.Kind != "wakeup" || d.Task != 1 {
			continue
		}
		switch d.To {
		case 0:
			on0++
		case 1:
			on1++
		}
	}
	if on0 < 15 || on1 > 0 {
		t.Errorf("fg wake-ups: %d to CPU 0 (PE0, SCHED_IDLE work only), %d to CPU 1 (idle PE1); want every one on CPU 0", on0, on1)
	}
}

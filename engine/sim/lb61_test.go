package sim

import (
	"testing"

	"schedplay/engine/topo"
)

// The load balancer's forms of Linux 6.5-6.12 against 6.1's, each behind
// a feature the generation 6.1 clears (a side-by-side read of 6.1.192's
// fair.c, Dec 2026): LB_SMT_BALANCE, LB_SIBLING_IMBALANCE, LB_UTIL_BOOST,
// SWB_IDLE_CORE, MISFIT_MAX_ALLOWED_CAP, BUSIEST_TIE_KEEPS_FIRST,
// LB_ASYM_USE_PRIO and MISFIT_FAIL_UNCOUNTED.

// The generation 6.1 clears them; without a generation they are on.
func TestGeneration61BalancesAs61(t *testing.T) {
	for _, c := range []struct {
		policy string
		want   bool
	}{{`{"generation":"6.1"}`, false}, {`{}`, true}, {`{"generation":"6.12"}`, true}} {
		s := taskSimPolicy(t, 1, c.policy)
		for name, got := range map[string]bool{"LB_SMT_BALANCE": s.lbSMTBalance, "LB_SIBLING_IMBALANCE": s.lbSiblingImbalance,
			"LB_UTIL_BOOST": s.lbUtilBoost, "SWB_IDLE_CORE": s.swbIdleCore, "MISFIT_MAX_ALLOWED_CAP": s.misfitMaxAllowedCap,
			"BUSIEST_TIE_KEEPS_FIRST": s.busiestTieKeepsFirst, "LB_ASYM_USE_PRIO": s.lbAsymUsePrio, "MISFIT_FAIL_UNCOUNTED": s.misfitFailUncounted} {
			if got != c.want {
				t.Errorf("policy %s: %s %v; want %v", c.policy, name, got, c.want)
			}
		}
	}
}

// smt_balance() (6.6) makes a non-local SMT group running two tasks
// beside an idle destination group_smt_balance; 6.1 has no such type, so
// the same core (both PEs busy, util at capacity) is fully_busy.
func TestSMTBalanceIs66(t *testing.T) {
	smt := &topo.Group{Weight: 2, Cores: 1, AsymPreferCPU: topo.NoCPU, Flags: topo.SDShareCPUCapacity | topo.SDPreferSibling}
	for _, c := range []struct {
		on   bool
		want groupType
	}{{true, groupSMTBalance}, {false, groupFullyBusy}} {
		s := lbSim(t)
		s.lbSMTBalance = c.on
		env := &lbEnv{sd: llcDom, idle: cpuIdle}
		sgs := sgStats{groupWeight: 2, sumNrRunning: 2, sumHNrRunning: 2, groupCapacity: 2048, groupUtil: 2048, groupRunnable: 2048}
		s.sgLbStatsClassify(env, smt, false, &sgs)
		if sgs.groupType != c.want {
			t.Errorf("LB_SMT_BALANCE %v: a two-task SMT core is %s; want %s", c.on, groupTypeNames[sgs.groupType], groupTypeNames[c.want])
		}
	}
}

// sds->prefer_sibling: 6.6 reads the busiest group's flag, 6.1 the
// balanced domain's child's, whatever group is busiest.
func TestPreferSiblingFromTheChildIn61(t *testing.T) {
	child := &topo.Domain{Flags: topo.SDNUMA}
	sd := &topo.Domain{Child: child}
	busiest := &topo.Group{Flags: topo.SDPreferSibling}
	for _, on := range []bool{true, false} {
		s := &sim{lbSiblingImbalance: on}
		if got := s.preferSibling(&lbEnv{sd: sd, busiest: busiest}); got != on {
			t.Errorf("LB_SIBLING_IMBALANCE %v: a busiest group with SD_PREFER_SIBLING under a child without it: prefer_sibling %v; want %v", on, got, on)
		}
	}
	child.Flags = topo.SDPreferSibling
	if !(&sim{}).preferSibling(&lbEnv{sd: sd, busiest: &topo.Group{}}) {
		t.Error("6.1: a child with SD_PREFER_SIBLING: prefer_sibling false; want true")
	}
}

// should_we_balance() above the SMT level: 6.6 lets the first idle CPU of
// a fully idle core balance; 6.1 the first idle CPU, here one whose
// sibling is busy.
func TestShouldWeBalanceFirstIdleIn61(t *testing.T) {
	for _, c := range []struct {
		dst  int
		on   bool
		want bool
	}{{1, true, false}, {2, true, true}, {1, false, true}, {2, false, false}} {
		s := wakeSim(t, `{"asym_cpucapacity":false}`)
		s.swbIdleCore = c.on
		s.busy(0, 177)
		sd := s.t.Domains[c.dst][2]
		if got := s.shouldWeBalance(sd, c.dst, cpuIdle); got != c.want {
			t.Errorf("SWB_IDLE_CORE %v: should_we_balance(%s, dst %d) = %v; want %v", c.on, sd.Level, c.dst, got, c.want)
		}
	}
}

// sched_balance_find_src_rq() under migrate_util: 6.5's
// cpu_util_cfs_boost() takes the larger of util_avg and runnable_avg, so
// a CPU with many runnable tasks and less util wins; 6.1 compares util.
func TestFindSrcRqUtilBoostIs65(t *testing.T) {
	for _, c := range []struct {
		on   bool
		want int
	}{{true, 1}, {false, 2}} {
		s := taskSimPolicy(t, 1, `{}`)
		s.lbUtilBoost = c.on
		srcRq(s, 1, 3, 600, 1024)
		s.cpus[1].avg.runnableAvg = 1500
		srcRq(s, 2, 2, 800, 1024)
		s.cpus[2].avg.runnableAvg = 900
		g := &topo.Group{Span: topo.NewCPUSet(4), Weight: 2}
		g.Span.Set(1)
		g.Span.Set(2)
		env := &lbEnv{sd: s.t.Domains[0][0], dst: 0, idle: cpuIdle, migType: migrateUtil, imbalance: 500}
		if got := s.schedBalanceFindSrcRq(env, g); got != c.want {
			t.Errorf("LB_UTIL_BOOST %v: busiest CPU %d; want %d", c.on, got, c.want)
		}
	}
}

// update_misfit_status() (6.1) has no max_allowed_capacity exemption: a
// task too big for an A73 is misfit there too; nohz_balancer_kick()'s
// check_misfit_status() then kicks only from a CPU below the root
// domain's largest capacity, so the A73 does not kick for it while an
// A53 does.
func TestMisfitOnTheBiggestCPUIn61(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"preset":"hikey960"},"policy":{"preset":"misfit","generation":"6.1"},
		"workload":{"groups":[{"name":"free","count":1,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
	p := s.tasks[0]
	p.avg.utilAvg, p.utilEst = 900, 0
	big, little := &s.cpus[4], &s.cpus[0]
	if big.cap != s.rdMaxCap || little.cap >= s.rdMaxCap {
		t.Fatalf("set-up: cpu 4 capacity %d, cpu 0 %d, root domain's largest %d", big.cap, little.cap, s.rdMaxCap)
	}
	s.updateMisfitStatus(big, p)
	if big.misfitLoad == 0 {
		t.Error("6.1: a util-900 task on an A73 is not misfit; 6.1's update_misfit_status() sets misfit_task_load")
	}
	if r := s.nohzKickReason(big); r != "" {
		t.Errorf("6.1: the A73 kicks the ILB (%q) for its misfit task; check_misfit_status() needs capacity_orig < max_cpu_capacity", r)
	}
	s.updateMisfitStatus(little, p)
	if r := s.nohzKickReason(little); r != "misfit" {
		t.Errorf("6.1: an A53 with a misfit task kicks for %q; want misfit", r)
	}
	s.misfitMaxAllowedCap = true
	s.updateMisfitStatus(big, p)
	if big.misfitLoad != 0 {
		t.Error("MISFIT_MAX_ALLOWED_CAP: a task on the largest capacity it may use is misfit")
	}
}

// update_sd_pick_busiest() between groups of one type (6.6's SMT rules
// against 6.1's): of two fully_busy groups of equal avg_load, 6.12 lets
// the later replace a busiest that is no SMT group, 6.1 ("if
// (sgs->avg_load <= busiest->avg_load) return false") keeps the first;
// among has_spare groups 6.6 prefers an SMT group running two tasks over
// a non-SMT busiest of as many idle CPUs and tasks
// (smt_vs_nonsmt_groups()), 6.1 compares idle CPUs and task counts only
// and keeps the busiest on the tie.
func TestPickBusiestSMTRulesAre66(t *testing.T) {
	plain := &topo.Group{Weight: 2, Cores: 2, AsymPreferCPU: topo.NoCPU}
	smt := &topo.Group{Weight: 2, Cores: 1, AsymPreferCPU: topo.NoCPU, Flags: topo.SDShareCPUCapacity}
	for _, c := range []struct {
		name string
		g    *topo.Group
		sgs  sgStats
	}{
		{"a fully_busy group tied with a non-SMT busiest", plain, sgStats{groupType: groupFullyBusy, sumNrRunning: 2, sumHNrRunning: 2}},
		{"a two-task SMT group against a non-SMT busiest of as many idle CPUs and tasks", smt, sgStats{groupType: groupHasSpare, idleCPUs: 1, sumNrRunning: 2, sumHNrRunning: 2}},
	} {
		for _, on := range []bool{true, false} {
			s := lbSim(t)
			s.lbSMTBalance = on
			env := &lbEnv{sd: llcDom, idle: cpuIdle, busiest: plain, busiestStat: c.sgs}
			sgs := c.sgs
			if got := s.updateSdPickBusiest(env, c.g, &sgs); got != on {
				t.Errorf("LB_SMT_BALANCE %v: %s replaces it: %v; want %v", on, c.name, got, on)
			}
		}
	}
}

// update_sd_pick_busiest() on a tie: 6.12 keeps the first of two
// asym-packing groups of equal priority and of two misfit groups of equal
// misfit load; 6.1 lets the later win both ("return false" only when the
// candidate is preferred, or its misfit load smaller).
func TestBusiestTieIn61(t *testing.T) {
	first := &topo.Group{Weight: 1, Cores: 1, AsymPreferCPU: 1}
	later := &topo.Group{Weight: 1, Cores: 1, AsymPreferCPU: 2}
	for _, c := range []struct {
		name string
		sgs  sgStats
	}{
		{"asym packing, equal priorities", sgStats{groupType: groupAsymPacking, sumNrRunning: 1, sumHNrRunning: 1}},
		{"misfit, equal misfit load", sgStats{groupType: groupMisfitTask, sumNrRunning: 1, sumHNrRunning: 1, misfitTaskLoad: 500}},
	} {
		for _, on := range []bool{true, false} {
			s := taskSimPolicy(t, 1, `{}`)
			s.cpus[1].prio, s.cpus[2].prio = 7, 7
			s.busiestTieKeepsFirst = on
			env := &lbEnv{sd: llcDom, idle: cpuIdle, dst: 0, busiest: first, busiestStat: c.sgs}
			sgs := c.sgs
			if got := s.updateSdPickBusiest(env, later, &sgs); got == on {
				t.Errorf("BUSIEST_TIE_KEEPS_FIRST %v: %s: the later group replaces the first: %v; want %v", on, c.name, got, !on)
			}
		}
	}
}

// asymSim is the Vera test machine (node 0: PE0s 0-87, PE1s 176-263;
// cores 40-43 rank 1024, the others 1000) under combined-asym-packing
// (asym packing on every level, PE0 priority doubled: 2048 on 40-43, 2000
// on the other PE0s) with the busy CPUs given and no CPU in nohz idle.
func asymSim(t *testing.T, on bool, busy ...int) *sim {
	t.Helper()
	s := wakeSim(t, `{"preset":"combined-asym-packing"}`)
	s.lbAsymUsePrio = on
	if !on {
		s.sdAsymPacking = sdAsymPacking61(s.t)
	}
	for i := range s.cpus {
		s.cpus[i].nohzIdle = false
	}
	s.busy(busy...)
	return s
}

// groupWith is the group of sd that holds cpu, or nil.
func groupWith(sd *topo.Domain, cpu int) *topo.Group {
	for gi := range sd.Groups {
		if sd.Groups[gi].Span.Has(topo.CPU(cpu)) {
			return &sd.Groups[gi]
		}
	}
	return nil
}

// mcLevel is the index of cpu's MC domain.
func mcLevel(t *testing.T, s *sim, cpu int) int {
	t.Helper()
	for i, sd := range s.t.Domains[cpu] {
		if sd.Level == "MC" {
			return i
		}
	}
	t.Fatalf("cpu %d has no MC domain", cpu)
	return 0
}

// Asym packing above the SMT level, 6.12's sched_use_asym_prio() against
// 6.1's asym_smt_can_pull_tasks() and sched_asym_prefer(), at the MC level
// of the Vera test machine. For a PE0 of rank 2048 whose PE1 is busy (dst
// 40, sibling 216):
//   - sched_group_asym(): a core with both PEs busy (0 and 176) is no asym
//     group in 6.12 (more than one busy sibling); in 6.1 it has one busy
//     CPU more than dst's core, so dst pulls by priority;
//   - asym_active_balance() from a PE0 of rank 2000: 6.12 needs dst's core
//     idle, 6.1 priority alone.
//
// For a PE0 of rank 2000 on an idle core (dst 2), sched_balance_find_src_rq()
// skips a one-task CPU of rank 2048 (41) whose PE1 (217) runs too in 6.1,
// not in 6.12, where 41's priority is not used while its core is busy. And
// nohz_balancer_kick() on a busy CPU 1 kicks for an idle CPU 42 of rank
// 2048 whose PE1 (218) is busy in 6.1, not in 6.12.
func TestAsymPackingBetweenCoresIn61(t *testing.T) {
	for _, on := range []bool{true, false} {
		s := asymSim(t, on, 216, 0, 176)
		lvl := mcLevel(t, s, 40)
		sd := s.t.Domains[40][lvl]
		core0 := groupWith(sd, 0)
		if core0 == nil || core0.Flags&topo.SDShareCPUCapacity == 0 || !s.asymPrefer(40, int(core0.AsymPreferCPU)) {
			t.Fatalf("set-up: core 0's group %+v; cpu 40 (prio %d) must outrank its asym_prefer_cpu", core0, s.cpus[40].prio)
		}
		env := &lbEnv{sd: sd, sdIdx: lvl, dst: 40, idle: cpuIdle, local: &sd.Groups[0]}
		s.flushGroupSums()
		s.updateSgLbStats(env, env.local, true, &env.localStat)
		if l := env.localStat; l.groupWeight-l.idleCPUs != 1 {
			t.Fatalf("set-up: dst's core has %d busy CPUs; want 1", l.groupWeight-l.idleCPUs)
		}
		sgs := sgStats{groupWeight: 2, idleCPUs: 0, sumNrRunning: 2, sumHNrRunning: 2}
		if got := s.schedGroupAsym(env, &sgs, core0); got == on {
			t.Errorf("LB_ASYM_USE_PRIO %v: a core with both PEs busy is an asym group for a PE0 whose PE1 is busy: %v; want %v", on, got, !on)
		}
		if !s.asymPrefer(40, 5) {
			t.Fatal("set-up: cpu 40 must outrank cpu 5")
		}
		if got := s.asymActiveBalance(env, 5); got == on {
			t.Errorf("LB_ASYM_USE_PRIO %v: asym_active_balance() to a PE0 whose PE1 is busy: %v; want %v", on, got, !on)
		}

		s = asymSim(t, on, 41, 217, 1)
		if !s.asymPrefer(41, 2) || !s.asymPrefer(42, 1) {
			t.Fatal("set-up: cpus 41 and 42 must outrank cpus 2 and 1")
		}
		if got := s.schedAsymSrc(s.t.Domains[2][lvl], 41, 2); got == on {
			t.Errorf("LB_ASYM_USE_PRIO %v: sched_balance_find_src_rq() of cpu 2 skips cpu 41 (one task, PE1 busy): %v; want %v", on, got, !on)
		}
		s.busy(218)
		s.cpus[42].nohzIdle = true
		if got := s.nohzKickReason(&s.cpus[1]) == "asym packing: idle preferred cpu"; got == on {
			t.Errorf("LB_ASYM_USE_PRIO %v: busy cpu 1 kicks the ILB for idle cpu 42 whose PE1 is busy: %v; want %v", on, got, !on)
		}
	}
}

// asym_smt_can_pull_tasks() (6.1) for a destination without SMT siblings:
// an idle E-core of the hybrid preset (CPU 16, rank 41) pulls from a P-core
// whose two threads run (CPUs 0 and 1, rank 72), whatever the ranks; 6.12's
// sched_group_asym() makes no asym group of an SMT core with two busy
// siblings.
func TestAsymSMTPullToANonSMTCPUIn61(t *testing.T) {
	for _, on := range []bool{true, false} {
		s := simOf(t, `{"schedplay":1,"machine":{"preset":"intel-hybrid"},"policy":{"preset":"itmt"},"workload":{"preset":"idle"},"run":{"duration":"10ms","seed":1}}`)
		s.lbAsymUsePrio = on
		s.busy(0, 1)
		lvl := mcLevel(t, s, 16)
		sd := s.t.Domains[16][lvl]
		pcore := groupWith(sd, 0)
		env := &lbEnv{sd: sd, sdIdx: lvl, dst: 16, idle: cpuIdle, local: &sd.Groups[0]}
		if pcore == nil || pcore.Flags&topo.SDShareCPUCapacity == 0 || env.local.Flags&topo.SDShareCPUCapacity != 0 || s.asymPrefer(16, 0) {
			t.Fatalf("set-up: P-core group %+v, local %+v; want an SMT P-core outranking CPU 16's non-SMT group", pcore, env.local)
		}
		s.flushGroupSums()
		s.updateSgLbStats(env, env.local, true, &env.localStat)
		sgs := sgStats{groupWeight: 2, idleCPUs: 0, sumNrRunning: 2, sumHNrRunning: 2}
		if got := s.schedGroupAsym(env, &sgs, pcore); got == on {
			t.Errorf("LB_ASYM_USE_PRIO %v: an idle E-core makes a P-core running both threads an asym group: %v; want %v", on, got, !on)
		}
	}
}

// sd_asym_packing: with SD_ASYM_PACKING on MC but not on SMT, 6.12's
// highest_flag_domain() finds MC; 6.1's, where the flag is
// SDF_SHARED_CHILD, stops at SMT and finds none, so nohz_balancer_kick()
// has no asym packing check.
func TestSDAsymPackingSharedChildIn61(t *testing.T) {
	for _, c := range []struct {
		gen  string
		want string
	}{{"6.12", "MC"}, {"6.1", ""}} {
		s := wakeSim(t, `{"asym_packing":["MC"],"smt_asym_packing":"off","asym_cpucapacity":false,"generation":"`+c.gen+`"}`)
		got := ""
		if sd := s.sdAsymPacking[1]; sd != nil {
			got = string(sd.Level)
		}
		if got != c.want {
			t.Errorf("generation %s: sd_asym_packing of cpu 1 = %q; want %q", c.gen, got, c.want)
		}
	}
	s := wakeSim(t, `{"preset":"combined-asym-packing"}`)
	if sd := sdAsymPacking61(s.t)[1]; sd != s.t.SDAsymPacking[1] || sd == nil {
		t.Errorf("asym packing on every level: 6.1's sd_asym_packing %v, 6.12's %v; want the same", sd, s.t.SDAsymPacking[1])
	}
}

// A failed periodic pass of migrate_misfit (the misfit task runs, so only
// the stopper can move it) counts in nr_balance_failed in 6.1, not in
// 6.12.
func TestFailedMisfitPassCountsIn61(t *testing.T) {
	for _, on := range []bool{true, false} {
		s := misfitOnA53(t, "6.1", "0-7")
		s.misfitFailUncounted = on
		lvl := len(s.t.Domains[4]) - 1
		moved, _ := s.schedBalanceRq(4, lvl, cpuIdle, migPeriodic)
		if moved != 0 || !s.cpus[0].activeBalance {
			t.Fatalf("MISFIT_FAIL_UNCOUNTED %v: the pass moved %d, stopper %v; want 0 and the stopper", on, moved, s.cpus[0].activeBalance)
		}
		want := 1
		if on {
			want = 0
		}
		if got := s.cpus[4].sd[lvl].nrBalanceFailed; got != want {
			t.Errorf("MISFIT_FAIL_UNCOUNTED %v: nr_balance_failed %d after the failed misfit pass; want %d", on, got, want)
		}
	}
}

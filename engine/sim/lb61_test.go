package sim

import (
	"testing"

	"schedplay/engine/topo"
)

// The load balancer's forms of Linux 6.5-6.10 against 6.1's, each behind
// a feature the generation 6.1 clears (a side-by-side read of 6.1.192's
// fair.c, Dec 2026): LB_SMT_BALANCE, LB_SIBLING_IMBALANCE, LB_UTIL_BOOST,
// SWB_IDLE_CORE and MISFIT_MAX_ALLOWED_CAP.

// The generation 6.1 clears the five; without a generation they are on.
func TestGeneration61BalancesAs61(t *testing.T) {
	for _, c := range []struct {
		policy string
		want   bool
	}{{`{"generation":"6.1"}`, false}, {`{}`, true}, {`{"generation":"6.12"}`, true}} {
		s := taskSimPolicy(t, 1, c.policy)
		for name, got := range map[string]bool{"LB_SMT_BALANCE": s.lbSMTBalance, "LB_SIBLING_IMBALANCE": s.lbSiblingImbalance,
			"LB_UTIL_BOOST": s.lbUtilBoost, "SWB_IDLE_CORE": s.swbIdleCore, "MISFIT_MAX_ALLOWED_CAP": s.misfitMaxAllowedCap,
			"BUSIEST_TIE_KEEPS_FIRST": s.busiestTieKeepsFirst} {
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

package sim

import (
	"testing"

	"schedplay/engine/topo"
)

// group_classify() (fair.c, 6.12): overloaded first, then imbalanced
// (sg_imbalanced(): sgc->imbalance, set by a pass that affinity kept from
// balancing), asym packing,
// SMT balance, misfit, fully busy, has spare. group_is_overloaded() needs
// more tasks than CPUs and then the util or the runnable over capacity by
// imbalance_pct; group_has_capacity() holds with fewer tasks than CPUs, or
// while neither the runnable nor the util reaches capacity over it.
func TestGroupClassify(t *testing.T) {
	const pct = 117
	cases := []struct {
		name       string
		sgs        sgStats
		imbalanced bool
		want       groupType
	}{
		{"overloaded before imbalanced", sgStats{sumNrRunning: 3, groupWeight: 2, groupCapacity: 2048, groupUtil: 1900}, true, groupOverloaded},
		{"imbalanced before asym packing", sgStats{sumNrRunning: 1, groupWeight: 2, asymPacking: true, misfitTaskLoad: 5}, true, groupImbalanced},
		{"imbalanced with capacity to spare", sgStats{sumNrRunning: 1, groupWeight: 2, groupCapacity: 2048, groupUtil: 100}, true, groupImbalanced},
		{"more tasks than CPUs, util over capacity", sgStats{sumNrRunning: 3, groupWeight: 2, groupCapacity: 2048, groupUtil: 1900, misfitTaskLoad: 5, asymPacking: true}, false, groupOverloaded},
		{"more tasks than CPUs, runnable over capacity", sgStats{sumNrRunning: 3, groupWeight: 2, groupCapacity: 2048, groupUtil: 100, groupRunnable: 2500}, false, groupOverloaded},
		{"more tasks than CPUs, room left: not overloaded, capacity to spare", sgStats{sumNrRunning: 3, groupWeight: 2, groupCapacity: 2048, groupUtil: 100, groupRunnable: 300}, false, groupHasSpare},
		{"as many tasks as CPUs, util over capacity: not overloaded", sgStats{sumNrRunning: 2, groupWeight: 2, groupCapacity: 2048, groupUtil: 2048, groupRunnable: 2048}, false, groupFullyBusy},
		{"asym packing before SMT balance and misfit", sgStats{sumNrRunning: 1, groupWeight: 2, asymPacking: true, smtBalance: true, misfitTaskLoad: 5}, false, groupAsymPacking},
		{"SMT balance before misfit", sgStats{sumNrRunning: 1, groupWeight: 2, smtBalance: true, misfitTaskLoad: 5}, false, groupSMTBalance},
		{"misfit", sgStats{sumNrRunning: 1, groupWeight: 2, misfitTaskLoad: 5}, false, groupMisfitTask},
		{"as many tasks as CPUs, runnable over capacity", sgStats{sumNrRunning: 2, groupWeight: 2, groupCapacity: 2048, groupUtil: 100, groupRunnable: 2500}, false, groupFullyBusy},
		{"as many tasks as CPUs, util under capacity", sgStats{sumNrRunning: 2, groupWeight: 2, groupCapacity: 2048, groupUtil: 1000, groupRunnable: 1000}, false, groupHasSpare},
		{"fewer tasks than CPUs", sgStats{sumNrRunning: 1, groupWeight: 2, groupCapacity: 2048, groupUtil: 2048, groupRunnable: 4000}, false, groupHasSpare},
	}
	for _, c := range cases {
		if got := groupClassify(pct, &c.sgs, c.imbalanced); got != c.want {
			t.Errorf("%s: %s; want %s", c.name, groupTypeNames[got], groupTypeNames[c.want])
		}
	}
}

// sibling_imbalance() (6.12): groups of as many cores differ by their
// task counts; otherwise the counts per core are evened, rounded, and a
// busiest group with two tasks or more against an empty local one always
// gives 2, so one task moves. A busy destination balances nothing here.
// 6.1 (LB_SIBLING_IMBALANCE off) takes the plain difference of the task
// counts, for a busy destination too and whatever the cores.
func TestSiblingImbalance(t *testing.T) {
	for _, c := range []struct {
		on             bool
		idle           cpuIdleType
		nb, nl, bn, ln int
		want           int64
	}{
		{true, cpuIdle, 1, 1, 3, 1, 2},
		{true, cpuIdle, 1, 1, 1, 3, 0},
		{true, cpuIdle, 4, 1, 2, 0, 2}, // (2·2 + 5) / 5 = 1 → 2: the empty group's resources
		{true, cpuIdle, 4, 1, 8, 0, 4}, // (2·8 + 5) / 5
		{true, cpuIdle, 4, 1, 1, 0, 1},
		{true, cpuNotIdle, 4, 1, 8, 0, 0},
		{false, cpuNotIdle, 1, 1, 3, 1, 2},
		{false, cpuIdle, 4, 1, 8, 0, 8},
		{false, cpuIdle, 1, 1, 1, 3, 0},
	} {
		env := &lbEnv{idle: c.idle, busiest: &topo.Group{Cores: c.nb}, local: &topo.Group{Cores: c.nl},
			busiestStat: sgStats{sumNrRunning: c.bn}, localStat: sgStats{sumNrRunning: c.ln}}
		if got := (&sim{lbSiblingImbalance: c.on}).siblingImbalance(env); got != c.want {
			t.Errorf("LB_SIBLING_IMBALANCE %v: %d cores with %d tasks against %d with %d (idle %d): %d; want %d", c.on, c.nb, c.bn, c.nl, c.ln, c.idle, got, c.want)
		}
	}
}

// adjust_numa_imbalance() (6.12): while the destination runs no more than
// imb_numa_nr tasks, an imbalance of up to NUMA_IMBALANCE_MIN (2) is
// allowed, so a pair of communicating tasks stays on its node.
func TestAdjustNumaImbalance(t *testing.T) {
	for _, c := range []struct {
		imb             int64
		running, numaNr int
		want            int64
	}{{2, 0, 4, 0}, {3, 0, 4, 3}, {2, 4, 4, 0}, {2, 5, 4, 2}, {1, 5, 4, 1}} {
		if got := adjustNumaImbalance(c.imb, c.running, c.numaNr); got != c.want {
			t.Errorf("imbalance %d, %d running, imb_numa_nr %d: %d; want %d", c.imb, c.running, c.numaNr, got, c.want)
		}
	}
}

// need_active_balance() without asym packing (6.12): migrate_task asks for
// the stopper only after more than cache_nice_tries + 2 failed passes
// (imbalanced_active_balance()); migrate_misfit always; migrate_load never.
func TestNeedActiveBalanceAfterFailures(t *testing.T) {
	s := taskSim(t, 1)
	sd := s.t.Domains[1][0]
	tries := sd.CacheNiceTries
	for _, c := range []struct {
		mt     migrationType
		failed int
		want   bool
	}{{migrateTask, tries + 2, false}, {migrateTask, tries + 3, true}, {migrateLoad, tries + 3, false}, {migrateMisfit, 0, true}} {
		s.cpus[1].sd[0].nrBalanceFailed = c.failed
		env := &lbEnv{sd: sd, sdIdx: 0, this: 1, dst: 1, idle: cpuIdle, migType: c.mt}
		if got, _ := s.needActiveBalance(env, 0); got != c.want {
			t.Errorf("migration type %d after %d failures (cache_nice_tries %d): %v; want %v", c.mt, c.failed, tries, got, c.want)
		}
	}
}

// asym_active_balance() (6.12) on intel-hybrid under ITMT: an idle
// destination that uses asym priority (its core idle) pulls the running
// task of a lower-priority CPU; a lower-priority destination still pulls
// from an SMT core whose sibling is busy (the source does not use asym
// priority then), but not from one whose sibling is idle; a busy
// destination never does.
func TestAsymActiveBalance(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"preset":"intel-hybrid"},"policy":{"preset":"itmt"},
		"workload":{"groups":[{"name":"w","count":1,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
	domainOf := func(dst, src int) *topo.Domain {
		for _, d := range s.t.Domains[dst] {
			if d.Span.Has(topo.CPU(src)) && d.Flags&topo.SDAsymPacking != 0 {
				return d
			}
		}
		t.Fatalf("no asym-packing domain of cpu %d spans cpu %d", dst, src)
		return nil
	}
	for _, c := range []struct {
		name     string
		busy     []int
		dst, src int
		idle     cpuIdleType
		want     bool
	}{
		{"idle P-core pulls from a busy E-core", []int{16}, 4, 16, cpuIdle, true},
		{"a busy destination does not", []int{16}, 4, 16, cpuNotIdle, false},
		{"E-core pulls from a P-core whose sibling is busy", []int{6, 7}, 16, 6, cpuIdle, true},
		{"E-core leaves a P-core whose sibling is idle", []int{6}, 16, 6, cpuNewlyIdle, false},
	} {
		for i := range s.cpus {
			s.cpus[i].curr, s.cpus[i].nrRunning, s.cpus[i].inIdle = nil, 0, true
			s.cpuChanged(&s.cpus[i])
		}
		s.busy(c.busy...)
		env := &lbEnv{sd: domainOf(c.dst, c.src), dst: c.dst, idle: c.idle}
		if got := s.asymActiveBalance(env, c.src); got != c.want {
			t.Errorf("%s (dst %d prio %d, src %d prio %d): %v; want %v", c.name, c.dst, s.cpus[c.dst].prio, c.src, s.cpus[c.src].prio, got, c.want)
		}
	}
}

// update_misfit_status() (6.12) on hikey960 under misfit: a task too big
// for its A53 is misfit there, unless it may run on that CPU alone
// (nr_cpus_allowed 1) or the CPU already has its biggest allowed
// capacity; a task that fits is never misfit.
func TestUpdateMisfitStatus(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"preset":"hikey960"},"policy":{"preset":"misfit"},
		"workload":{"groups":[{"name":"free","count":1,"program":[{"compute":"1s"}]},
			{"name":"pinned","count":1,"cpus":"0","program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
	free, pinned := s.tasks[0], s.tasks[1]
	for _, c := range []struct {
		name   string
		p      *task
		cpu    int
		util   uint64
		misfit bool
	}{
		{"too big for an A53", free, 0, 900, true},
		{"fits the A53", free, 0, 100, false},
		{"too big for an A53, but pinned to it", pinned, 0, 900, false},
		{"on an A73, its biggest allowed capacity", free, 4, 900, false},
	} {
		c.p.avg.utilAvg, c.p.utilEst = c.util, 0
		cs := &s.cpus[c.cpu]
		s.updateMisfitStatus(cs, c.p)
		if got := cs.misfitLoad > 0; got != c.misfit {
			t.Errorf("%s (cpu %d, capacity %d, util %d): misfit %v; want %v", c.name, c.cpu, cs.cap, c.util, got, c.misfit)
		}
	}
}

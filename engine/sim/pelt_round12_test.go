package sim

import "testing"

// Rules of PELT (pelt.go) and cpu_util() that no test held before the
// twelfth mutation round; the group statistics and nohz blocked-load ones
// are in nohz_round12_test.go.

// ___update_load_sum() (pelt.c): when now is behind last_update_time
// ("time goes backwards") it sets last_update_time to now and reports
// nothing; the next update accrues from there.
func TestUpdateLoadSumTimeGoingBackwards(t *testing.T) {
	sa := peltAvg{lastUpdate: 10 << 10}
	if sa.updateLoadSum(4<<10, 1, 1, true, capScale) || sa.lastUpdate != 4<<10 || sa.loadSum != 0 {
		t.Fatalf("now behind last_update_time: last_update_time %d, load_sum %d; want now (%d) and nothing accrued", sa.lastUpdate, sa.loadSum, 4<<10)
	}
	sa.updateLoadSum(7<<10, 1, 1, true, capScale)
	// three 1024 ns units in the first period: contrib 3
	if sa.lastUpdate != 7<<10 || sa.loadSum != 3 || sa.runnableSum != 3<<capShift || sa.utilSum != 3<<capShift {
		t.Errorf("3 units later: last_update_time %d, sums load %d, runnable %d, util %d; want %d, 3, %d, %d",
			sa.lastUpdate, sa.loadSum, sa.runnableSum, sa.utilSum, 7<<10, 3<<capShift, 3<<capShift)
	}
}

// ___update_load_sum() (pelt.c): "if (!load) runnable = running = 0":
// an entity without load (the cfs_rq's curr already dequeued) accrues no
// runnable or util time, within a period or across periods, where its
// sums only decay.
func TestUpdateLoadSumNoLoadAccruesNothing(t *testing.T) {
	for _, units := range []uint64{500, 3000} {
		sa := peltAvg{runnableSum: 100 << capShift, utilSum: 100 << capShift}
		decayed := sa.updateLoadSum(units<<10, 0, 1, true, capScale)
		want := uint64(100 << capShift) // no period boundary: no decay
		if units >= 1024 {
			want = decayLoad(want, units/1024)
		}
		if decayed != (units >= 1024) || sa.loadSum != 0 || sa.runnableSum != want || sa.utilSum != want || sa.periodContrib != units%1024 {
			t.Errorf("%d units without load, runnable and running: decayed %v, sums load %d, runnable %d, util %d, period_contrib %d; want %v, 0, %d, %d, %d",
				units, decayed, sa.loadSum, sa.runnableSum, sa.utilSum, sa.periodContrib, units >= 1024, want, want, units%1024)
		}
	}
}

// ___update_load_avg() (pelt.c): load_avg = load · load_sum / divider,
// load being se_weight() for an entity (1 for a cfs_rq, whose load_sum
// is weighted already); runnable_avg and util_avg are their sums over the
// divider LOAD_AVG_MAX − 1024 + period_contrib.
func TestUpdateLoadAvgWeighsTheLoad(t *testing.T) {
	for _, tc := range []struct{ load, want uint64 }{
		{1, 0},      // 20000 / 46818
		{335, 143},  // nice 5: 335·20000 / 46818
		{1024, 437}, // nice 0: 1024·20000 / 46818
	} {
		sa := peltAvg{loadSum: 20000, runnableSum: 9_000_000, utilSum: 8_000_000, periodContrib: 100}
		sa.updateLoadAvg(tc.load)
		if sa.loadAvg != tc.want || sa.runnableAvg != 192 || sa.utilAvg != 170 {
			t.Errorf("load %d: load_avg %d, runnable_avg %d, util_avg %d; want %d, 192, 170", tc.load, sa.loadAvg, sa.runnableAvg, sa.utilAvg, tc.want)
		}
	}
}

// __update_load_avg_se() (pelt.c) gives a task load !!se->on_rq and
// runnable se_runnable(), which is false for a sched_delayed entity; and
// __update_load_avg_cfs_rq() counts h_nr_queued − h_nr_delayed runnable.
// A task left delayed on its queue 100 ms keeps its load_avg (≈ its
// weight) while its runnable_avg decays, and its cfs_rq, with one task
// running, holds both weights in load_avg but at most one task's
// runnable_avg.
func TestDelayedTaskIsOnRqButNotRunnable(t *testing.T) {
	s, c0, ahead, _ := delayedBehind(t, `{}`)
	s.updateTaskLoadAvg(ahead)
	run0 := ahead.avg.runnableAvg
	if run0 == 0 {
		t.Fatal("set-up: the delayed task has no runnable_avg")
	}
	s.now += 100_000_000
	s.syncCPU(c0)
	s.updateCurr(c0)
	s.updateTaskLoadAvg(ahead)
	s.updateCfsRqLoadAvg(c0)
	if !ahead.delayed {
		t.Fatal("the task is no longer delayed")
	}
	if a := ahead.avg; a.loadAvg < 1000 || a.runnableAvg > run0/4 {
		t.Errorf("delayed 100 ms: load_avg %d, runnable_avg %d (was %d); want the load kept near 1024 and runnable decayed below %d",
			a.loadAvg, a.runnableAvg, run0, run0/4)
	}
	if a := c0.avg; a.loadAvg < 2000 || a.runnableAvg > capScale {
		t.Errorf("the cfs_rq with one running and one delayed task: load_avg %d, runnable_avg %d; want both weights (> 2000) and one runnable task (≤ 1024)",
			a.loadAvg, a.runnableAvg)
	}
}

// remove_entity_load_avg() (fair.c) first syncs the task to its cfs_rq's
// last update (sync_entity_load_avg()): a task that slept 32 periods on a
// CPU whose blocked averages were updated since leaves about half its
// util in cfs_rq->removed, not its util as of its sleep.
func TestRemoveEntityLoadAvgSyncsToTheCfsRq(t *testing.T) {
	s, p, c0 := runFor30ms(t)
	s.dequeueCurr(c0, p, false)
	s.schedule(c0)
	s.updateTaskLoadAvg(p)
	u0 := p.avg.utilAvg
	if u0 < 300 {
		t.Fatalf("set-up: util %d after 30 ms", u0)
	}
	s.now += 32 * peltPeriodNs
	s.updateCfsRqLoadAvg(c0) // the idle CPU's blocked averages
	s.now += 100_000
	wakeOnto(s, p, 1)
	got, want := c0.removed.util, u0/2
	if c0.removed.nr != 1 || got+want/25 < want || got > want+want/25 {
		t.Errorf("removed util %d (nr %d) for a task of util %d idle 32 periods; want ≈ %d", got, c0.removed.nr, u0, want)
	}
}

// attach_entity_load_avg() (fair.c) adds the entity's averages and its
// sums, rebuilt with the cfs_rq's divider, to the cfs_rq: util_sum and
// runnable_sum by avg · divider, load_sum by se_weight · load_sum
// (load_avg · divider when the weight divides it).
func TestAttachEntityLoadAvgAddsTheSums(t *testing.T) {
	s := hikeySim(t, "modern")
	c := &s.cpus[4]
	p := &task{weight: 1024, cpu: 4}
	p.avg = peltAvg{utilAvg: 300, runnableAvg: 350, loadAvg: 1024}
	s.attachEntityLoadAvg(c, p)
	const d = loadAvgMax - 1024 // period_contrib 0
	a := c.avg
	if a.utilAvg != 300 || a.runnableAvg != 350 || a.loadAvg != 1024 || a.utilSum != 300*d || a.runnableSum != 350*d || a.loadSum != 1024*d {
		t.Errorf("after the attach: avgs util %d, runnable %d, load %d, sums %d, %d, %d; want 300, 350, 1024, %d, %d, %d",
			a.utilAvg, a.runnableAvg, a.loadAvg, a.utilSum, a.runnableSum, a.loadSum, 300*d, 350*d, 1024*d)
	}
}

// update_cfs_rq_load_avg() (fair.c) takes removed averages off the sums
// times the cfs_rq's divider, get_pelt_divider() = LOAD_AVG_MAX − 1024 +
// period_contrib, before the PELT_MIN_DIVIDER floor.
func TestRemovedLoadLeavesTheSumsAtTheDivider(t *testing.T) {
	const d = loadAvgMax - 1024 + 800
	sa := peltAvg{periodContrib: 800, utilAvg: 500, utilSum: 500 * d, loadAvg: 2000, loadSum: 2000 * d, runnableAvg: 600, runnableSum: 600 * d}
	sa.subAverages(removedLoad{nr: 1, util: 200, load: 1000, runnable: 250})
	if sa.utilAvg != 300 || sa.utilSum != 300*d || sa.loadAvg != 1000 || sa.loadSum != 1000*d || sa.runnableAvg != 350 || sa.runnableSum != 350*d {
		t.Errorf("after the removal: util %d/%d, load %d/%d, runnable %d/%d; want 300/%d, 1000/%d, 350/%d",
			sa.utilAvg, sa.utilSum, sa.loadAvg, sa.loadSum, sa.runnableAvg, sa.runnableSum, 300*d, 1000*d, 350*d)
	}
}

// post_init_entity_util_avg() (fair.c): a new task's util_avg is its
// weight's share of the cfs_rq's util, cfs util · se_weight /
// (cfs load_avg + 1), capped at cap = (cpu_scale − cfs util) / 2, or cap
// itself on a cfs_rq without util, and 0 when cap ≤ 0; runnable_avg is
// util_avg, and load_avg the weight (init_entity_runnable_average()).
func TestPostInitEntityUtilAvg(t *testing.T) {
	for _, tc := range []struct {
		cpu               int
		weight            int64
		cfsUtil, cfsLoad  uint64
		wantUtil, wantRun uint64
	}{
		{4, 1024, 0, 0, 512, 512},      // cap (1024−0)/2
		{4, 1024, 400, 2048, 199, 199}, // 400·1024/2049 under cap 312
		{4, 335, 400, 2048, 65, 65},    // nice 5: 400·335/2049
		{4, 1024, 600, 1024, 212, 212}, // 599 capped at (1024−600)/2
		{0, 1024, 0, 0, 231, 231},      // an A53: (462−0)/2
		{0, 1024, 500, 1024, 0, 0},     // cap (462−500)/2 < 0
	} {
		s := hikeySim(t, "modern")
		c := &s.cpus[tc.cpu]
		c.avg.utilAvg, c.avg.loadAvg = tc.cfsUtil, tc.cfsLoad
		p := &task{weight: tc.weight, cpu: tc.cpu}
		s.postInitEntityUtilAvg(c, p)
		if a := p.avg; a.utilAvg != tc.wantUtil || a.runnableAvg != tc.wantRun || a.loadAvg != uint64(tc.weight) {
			t.Errorf("cpu %d, weight %d, cfs util %d, load %d: util_avg %d, runnable_avg %d, load_avg %d; want %d, %d, %d",
				tc.cpu, tc.weight, tc.cfsUtil, tc.cfsLoad, a.utilAvg, a.runnableAvg, a.loadAvg, tc.wantUtil, tc.wantRun, tc.weight)
		}
	}
}

// cpu_util() (fair.c): cpu_util_cfs() is max(util_avg, util_est) and
// cpu_util_cfs_boost() max(util_avg, runnable_avg, util_est), both capped
// at arch_scale_cpu_capacity().
func TestCpuUtilCfsAndBoost(t *testing.T) {
	for _, tc := range []struct {
		cpu                 int
		util, runnable, est int
		cfs, boost          int
	}{
		{4, 300, 350, 0, 300, 350},
		{4, 300, 350, 400, 400, 400},
		{4, 100, 150, 300, 300, 300},
		{0, 500, 0, 0, 462, 462},     // an A53: capacity 462
		{0, 100, 100, 700, 462, 462}, // util_est past it
		{0, 100, 600, 0, 100, 462},
	} {
		s := hikeySim(t, "modern")
		c := &s.cpus[tc.cpu]
		c.avg.utilAvg, c.avg.runnableAvg, c.utilEstSum = uint64(tc.util), uint64(tc.runnable), tc.est
		if cfs, boost := s.cpuUtilCfs(c), s.cpuUtilCfsBoost(c); cfs != tc.cfs || boost != tc.boost {
			t.Errorf("cpu %d, util %d, runnable %d, util_est %d: cpu_util_cfs %d, cpu_util_cfs_boost %d; want %d, %d",
				tc.cpu, tc.util, tc.runnable, tc.est, cfs, boost, tc.cfs, tc.boost)
		}
	}
}

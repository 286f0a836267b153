package sim

import (
	"math"
	"testing"
)

// hikeySim builds an idle hikey960 sim (CPUs 0-3 have capacity 462) under
// the given PELT mode.
func hikeySim(t *testing.T, pelt string) *sim {
	t.Helper()
	doc := `{"schedplay":1,"machine":{"preset":"hikey960"},"policy":{"features":{"PELT":"` + pelt + `"}},"workload":{"preset":"idle"},"run":{"duration":"10s","seed":1}}`
	return simOf(t, doc)
}

// runThenSleep forks a nice-0 task onto CPU cpu at time 0, lets it run for
// run ns, puts it to sleep and returns it after sleep more ns, updated.
func runThenSleep(t *testing.T, s *sim, cpu int, run, sleep int64) *task {
	t.Helper()
	c := &s.cpus[cpu]
	p := &task{id: 0, weight: 1024, cpu: cpu, state: taskBlocked, recentUsedCPU: -1}
	s.now = 0
	s.postInitEntityUtilAvg(c, p)
	s.attachEntityLoadAvg(c, p)
	s.enqueueTask(c, p, true, false)
	s.setCurr(c, p)
	s.peBusyChanged(c) // as schedule() does: the core model (and the node's boost) sees the busy PE
	if c.curr != p {
		t.Fatal("task not running")
	}
	s.now = run
	s.blockTask(c, p)
	if c.curr != nil {
		t.Fatal("CPU not idle after the task slept")
	}
	s.now = run + sleep
	s.updateTaskLoadAvg(p)
	return p
}

// PELT arithmetic in real numbers: y^32 = 1/2, one PELT period is 1024 µs
// of 1024 ns (pelt.c shifts ns by 10).
const peltPeriodNs = 1024 * 1024

func yPow(ns float64) float64 { return math.Pow(0.5, ns/peltPeriodNs/32) }

// A task forked onto an idle A53 (util (462−0)/2 = 231, post_init_entity_
// util_avg) runs 10 ms and sleeps 20 ms. While it runs, clock_pelt advances
// 10 ms·462/1024; at idle entry update_idle_rq_clock_pelt() syncs clock_pelt
// to clock_task (util_sum is far from the maximum, so nothing is lost),
// and the wake-up update sees 10 ms − 4.51 ms + 20 ms of PELT time elapsed.
func TestPELTIdleCatchUp(t *testing.T) {
	const run, sleep = 10_000_000, 20_000_000
	s := hikeySim(t, "modern")
	p := runThenSleep(t, s, 0, run, sleep)
	ran := float64(run) * 462 / 1024 // PELT ns while running
	u1 := 1024 - (1024-231)*yPow(ran)
	want := u1 * yPow(run-ran+sleep)
	noCatchUp := u1 * yPow(sleep)
	got := float64(p.avg.utilAvg)
	t.Logf("util %.0f; kernel arithmetic %.1f; without catch-up %.1f", got, want, noCatchUp)
	if math.Abs(got-want) > 0.02*want {
		t.Errorf("util after 10 ms run + 20 ms sleep on a 462 CPU = %.0f; want ≈%.0f (without the idle catch-up it would be %.0f)", got, want, noCatchUp)
	}
	if s.cpus[0].pelt.lostIdleTime != 0 {
		t.Errorf("lost_idle_time = %d; want 0 (util_sum was not at its maximum)", s.cpus[0].pelt.lostIdleTime)
	}
	// The cfs_rq sees the same jump: its util decays with the task's.
	s.updateCfsRqLoadAvg(&s.cpus[0])
	if cu := float64(s.cpus[0].avg.utilAvg); math.Abs(cu-want) > 0.02*want+2 {
		t.Errorf("cfs_rq util = %.0f; want ≈%.0f", cu, want)
	}
}

// A task that kept an A53 busy long enough to saturate util_sum loses the
// idle time it stole (rq->lost_idle_time): after 3 s of running and 1 ms of
// sleep its util has decayed by 1 ms only, as with a 1024 CPU.
func TestPELTLostIdleTime(t *testing.T) {
	const run, sleep = 3_000_000_000, 1_000_000
	s := hikeySim(t, "modern")
	p := runThenSleep(t, s, 0, run, sleep)
	want := 1024 * yPow(sleep)
	t.Logf("util %d; kernel arithmetic %.1f; lost_idle_time %d ns", p.avg.utilAvg, want, s.cpus[0].pelt.lostIdleTime)
	if got := float64(p.avg.utilAvg); math.Abs(got-want) > 3 {
		t.Errorf("util after 3 s busy + 1 ms sleep on a 462 CPU = %.0f; want ≈%.0f", got, want)
	}
	ran := float64(run) * 462 / 1024
	if lost := float64(s.cpus[0].pelt.lostIdleTime); math.Abs(lost-(run-ran)) > 1e6 {
		t.Errorf("lost_idle_time = %.0f ns; want ≈%.0f", lost, run-ran)
	}
}

// legacy2018 has no per-rq clock: a sleeping task decays at wall rate from
// where its contribution-scaled sums left it.
func TestPELTLegacyNoCatchUp(t *testing.T) {
	const run, sleep = 10_000_000, 20_000_000
	s := hikeySim(t, "legacy2018")
	p := runThenSleep(t, s, 0, run, sleep)
	if s.cpus[0].pelt != (rqPeltClock{}) {
		t.Errorf("legacy2018 touched the rq PELT clock: %+v", s.cpus[0].pelt)
	}
	// util converges to capacity: 231 + (462−231)·(1−y^n) over 10 ms, then 20 ms of decay.
	u1 := 462 - (462-231)*yPow(run)
	want := u1 * yPow(sleep)
	if got := float64(p.avg.utilAvg); math.Abs(got-want) > 0.02*want {
		t.Errorf("legacy2018 util = %.0f; want ≈%.0f", got, want)
	}
}

// Four periodic tasks (5 ms of work every 16 ms) on hikey960's A53s, with
// one A73 allowed: an A53 (speed 0.55) runs each burst for 9.1 ms. With the
// idle catch-up each 16 ms period is 16 ms of PELT time, 4.1 of them
// running, so util peaks at 1024·(1−y^3.91)/(1−y^15.26) ≈ 295, below the
// misfit bound 462·1024/1280 = 369.6: no misfit migration. Without it the
// period was 4.1 + 6.9 ms of PELT time and util peaked at ≈408, misfit every
// few periods (155 misfit migrations per 2 s before this model).
func TestPELTCatchUpKeepsDutyCycleFitting(t *testing.T) {
	doc := `{"schedplay":1,"machine":{"preset":"hikey960"},"policy":{"preset":"misfit"},
	 "workload":{"metric":"latency","groups":[{"name":"p","count":4,"cpus":"0-4","parent_cpu":0,
	  "program":[{"periodic":{"every":"16ms","do":[{"compute":"5ms"}]}}]}]},
	 "run":{"duration":"2s","seed":1,"reps":2}}`
	res := mustRun(t, resolveJSON(t, doc), Options{})
	for i, rm := range res.Reps {
		if rm.Migrations.Misfit != 0 {
			t.Errorf("rep %d: %d misfit migrations; want 0 (util ≈295 < 369.6 with the idle catch-up)", i, rm.Migrations.Misfit)
		}
	}
}

// Frequency invariance: with a boost curve the node's frequency is the
// curve's value relative to its maximum (highest_perf), and clock_pelt
// advances by cap_scale(cap_scale(Δ, capacity), freq). One busy core of
// hikey960's eight under [[0,1],[1,0.5]] runs at 1 − 0.5/8 = 0.9375 of
// highest_perf (freq scale 960): an A73 task that runs 10 ms and sleeps
// 20 ms has 10 ms·960/1024 of running PELT time, then the idle catch-up.
func TestPELTFrequencyInvariance(t *testing.T) {
	const run, sleep = 10_000_000, 20_000_000
	doc := `{"schedplay":1,"machine":{"preset":"hikey960","boost":[[0,1],[1,0.5]]},"workload":{"preset":"idle"},"run":{"duration":"10s","seed":1}}`
	s := simOf(t, doc)
	p := runThenSleep(t, s, 4, run, sleep)
	if got := s.nodeFreqScale[0]; got != 1024 {
		t.Errorf("freq scale of an idle node = %d; want 1024", got)
	}
	ran := float64(run) * 960 / 1024
	init := 1024.0 / 2 // post_init_entity_util_avg() on an idle 1024 CPU
	u1 := 1024 - (1024-init)*yPow(ran)
	want := u1 * yPow(run-ran+sleep)
	flat := (1024 - (1024-init)*yPow(run)) * yPow(sleep)
	got := float64(p.avg.utilAvg)
	t.Logf("util %.0f; kernel arithmetic %.1f; at highest_perf %.1f", got, want, flat)
	if math.Abs(got-want) > 0.01*want {
		t.Errorf("util after 10 ms at freq scale 960 + 20 ms sleep = %.0f; want ≈%.0f (%.0f without frequency invariance)", got, want, flat)
	}
}

// update_idle_rq_clock_pelt() (kernel/sched/pelt.h), at idle entry: the
// rq was always running when its util_sum reached
// ((LOAD_AVG_MAX − 1024) << SCHED_CAPACITY_SHIFT) − LOAD_AVG_MAX =
// 47,791,490 (util_sum >= divider), and then the idle time the slower
// clock_pelt did not see is lost (lost_idle_time += clock_task −
// clock_pelt) rather than reflected; either way clock_pelt then syncs to
// clock_task (_update_idle_rq_clock_pelt()). An rq that was already idle
// loses nothing (update_rq_clock_pelt() only syncs it).
func TestUpdateIdleRqClockPelt(t *testing.T) {
	const now, lag = 50_000_000, 4_000_000 // clock_pelt 4 ms behind clock_task
	for _, tc := range []struct {
		utilSum uint64
		busy    bool
		lost    uint64
	}{
		{47_791_489, true, 0},
		{47_791_490, true, lag},
		{loadAvgMax << capShift, true, lag},
		{loadAvgMax << capShift, false, 0},
	} {
		s := hikeySim(t, "modern")
		c := &s.cpus[0]
		s.now = now
		c.curr = nil
		c.avg.utilSum = tc.utilSum
		c.pelt = rqPeltClock{clockPelt: now - lag, wall: now, busy: tc.busy}
		s.updateRqClockPelt(c)
		if c.pelt.lostIdleTime != tc.lost || c.pelt.clockPelt != now || c.pelt.busy {
			t.Errorf("util_sum %d, busy before %v: lost_idle_time %d, clock_pelt %d, busy %v; want %d, %d (clock_task), false",
				tc.utilSum, tc.busy, c.pelt.lostIdleTime, c.pelt.clockPelt, c.pelt.busy, tc.lost, int64(now))
		}
	}
}

// attach_entity_load_avg() (fair.c): the entity takes the cfs_rq's
// last_update_time and period_contrib (its decay window), and its sums are
// rebuilt from its averages with the cfs_rq's divider
// get_pelt_divider() = LOAD_AVG_MAX − 1024 + period_contrib: util_sum =
// util_avg·divider, runnable_sum = runnable_avg·divider, load_sum =
// load_avg·divider / se_weight, or 1 when that product is not above the
// weight.
func TestAttachEntityLoadAvgSums(t *testing.T) {
	for _, tc := range []struct {
		weight                 int64
		util, runnable, load   uint64
		cfsLast, cfsContrib    uint64
		utilSum, runSum, ldSum uint64
	}{
		// divider 46718 + 700 = 47418; load_sum 600·47418/1024 = 27783
		{1024, 300, 350, 600, 123_456_789_000, 700, 14_225_400, 16_596_300, 27_783},
		// nice 19 (weight 15): load_sum 1·46718/15 = 3114
		{15, 0, 0, 1, 7 << 20, 0, 0, 0, 3114},
		// load_avg 0: load_sum 1, not 0
		{1024, 0, 0, 0, 9 << 20, 1000, 0, 0, 1},
	} {
		s := hikeySim(t, "modern")
		c := &s.cpus[4]
		c.avg.lastUpdate, c.avg.periodContrib = tc.cfsLast, tc.cfsContrib
		p := &task{weight: tc.weight}
		p.avg = peltAvg{lastUpdate: 5_000_000, periodContrib: 5, utilAvg: tc.util, runnableAvg: tc.runnable, loadAvg: tc.load,
			utilSum: 1, runnableSum: 1, loadSum: 1}
		attachEntityPeltClock(c, &p.avg, uint64(p.weight))
		a := p.avg
		if a.lastUpdate != tc.cfsLast || a.periodContrib != tc.cfsContrib {
			t.Errorf("weight %d: last_update_time %d, period_contrib %d; want the cfs_rq's %d, %d",
				tc.weight, a.lastUpdate, a.periodContrib, tc.cfsLast, tc.cfsContrib)
		}
		if a.utilSum != tc.utilSum || a.runnableSum != tc.runSum || a.loadSum != tc.ldSum {
			t.Errorf("weight %d, util %d, runnable %d, load %d: sums util %d, runnable %d, load %d; want %d, %d, %d",
				tc.weight, tc.util, tc.runnable, tc.load, a.utilSum, a.runnableSum, a.loadSum, tc.utilSum, tc.runSum, tc.ldSum)
		}
	}
}

package sim

import (
	"math"
	"testing"

	"schedplay/engine/topo"
)

// Two CPU-bound tasks share an A53 (capacity 462) for 1 s, switched by the
// tick. rq->curr is a task throughout (the leaving one until
// context_switch()), so update_rq_clock_pelt() never sees the idle task
// and clock_pelt runs at 462/1024 of wall time: 451 ms. The cfs_rq was
// always running, so its util reaches 1024 and each task's about half.
// (The engine once took the nil curr between put_prev and set_next for
// an idle rq and synced clock_pelt to wall time at every switch: 1 s,
// cfs util 451.)
func TestPELTClockNotSyncedAtTaskSwitch(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"preset":"hikey960"},"policy":{"features":{"PELT":"modern"}},
		"workload":{"groups":[{"name":"w","count":2,"program":[{"compute":"5s"}]}]},"run":{"duration":"10s","seed":1}}`)
	c := &s.cpus[0]
	if c.cap != 462 {
		t.Fatalf("setup: CPU 0 capacity %d, want 462", c.cap)
	}
	place(s, 0, 0)
	place(s, 1, 0)
	s.schedule(c)
	switches, last := 0, c.curr
	const second = 1_000_000_000
	for s.now = s.tickNs; s.now <= second; s.now += s.tickNs {
		s.tick(c)
		if c.curr != last {
			switches++
			last = c.curr
		}
	}
	s.now = second
	if switches < 50 {
		t.Fatalf("setup: only %d switches in 1 s", switches)
	}
	s.updateCfsRqLoadAvg(c)
	want := uint64(second) * 462 / 1024
	if got := c.pelt.clockPelt; math.Abs(float64(got)-float64(want)) > 1e6 {
		t.Errorf("clock_pelt %d ns after 1 s of two tasks on a 462 CPU (%d switches); want ≈%d (capacity-scaled throughout)", got, switches, want)
	}
	if c.avg.utilAvg < 1000 {
		t.Errorf("cfs_rq util %d after 1 s always running; want ≥ 1000", c.avg.utilAvg)
	}
	for k := 0; k < 2; k++ {
		p := s.tasks[k]
		s.updateTaskLoadAvg(p)
		if u := p.avg.utilAvg; u < 450 || u > 575 {
			t.Errorf("task %d util %d; want about half of the CPU's (450-575)", k, u)
		}
	}
}

// On an asym-capacity machine select_idle_sibling() calls
// sync_entity_load_avg(), which brings the waking task to its cfs_rq's
// last_update_time, not to now; remove_entity_load_avg() then puts those
// averages in cfs_rq->removed, the task's share of the cfs_rq's sums, and
// the old CPU is left with nothing. (Synced to now first, the task had
// decayed further than the cfs_rq, removed got half, and the CPU kept a
// quarter of the task's util.)
func TestAsymWakeSyncsToTheCfsRqsLastUpdate(t *testing.T) {
	s := hikeySim(t, "modern")
	if !s.asymCapActive {
		t.Fatal("setup: hikey960 is not asym-capacity")
	}
	p := runThenSleep(t, s, 5, 30_000_000, 0) // 30 ms on an A73, asleep there since
	p.allowed, p.nrAllowed = topo.NewCPUSet(8), 8
	for i := range 8 {
		p.allowed.Set(topo.CPU(i))
	}
	c5 := &s.cpus[5]
	s.updateCfsRqLoadAvg(c5)
	atSleep := c5.avg.utilAvg
	if atSleep < 300 {
		t.Fatalf("setup: CPU 5 util %d after 30 ms", atSleep)
	}
	want := p.avg
	want.updateAt(c5.avg.lastUpdate, 0, 0, false, 1024) // sync_entity_load_avg()
	s.now += 32 * peltPeriodNs                          // CPU 5 stays idle and is not updated
	s.selectIdleSibling(p, 5, 5)
	p.remaining = 1e12
	wakeOnto(s, p, 6)
	if c5.removed.util != want.utilAvg || c5.removed.load != want.loadAvg {
		t.Errorf("removed util %d load %d; want %d and %d (the task synced to the cfs_rq's last update)", c5.removed.util, c5.removed.load, want.utilAvg, want.loadAvg)
	}
	s.updateCfsRqLoadAvg(c5)
	if c5.avg.utilAvg > 2 || c5.avg.loadAvg > 2 {
		t.Errorf("CPU 5 keeps util %d load %d after its only task left; want ≈0", c5.avg.utilAvg, c5.avg.loadAvg)
	}
}

// migrate_task_rq_fair() updates a task that wakes on another CPU with
// __update_load_avg_blocked_se() only (sync_entity_load_avg(),
// migrate_se_pelt_lag()) and sets last_update_time = 0, so the enqueue's
// update_load_avg() attaches it without __update_load_avg_se(): no
// cfs_se_util_change(), and util_est's UTIL_AVG_UNCHANGED survives the
// move. A run that ends before the next PELT period boundary on the new
// CPU then sleeps without util_est_update() (fair.c: "if (ewma &
// UTIL_AVG_UNCHANGED) return").
func TestUtilEstUnchangedSurvivesWakeMigration(t *testing.T) {
	s, p, c0 := runFor30ms(t)
	s.utilEst = true
	s.updateTaskLoadAvg(p) // the dequeue's update below crosses no period boundary
	s.updateCfsRqLoadAvg(c0)
	s.dequeueCurr(c0, p, false)
	p.state = taskBlocked
	s.schedule(c0)
	est := p.utilEst
	if !p.utilEstUnchanged || est < 300 {
		t.Fatalf("setup: util_est %d, UTIL_AVG_UNCHANGED %v after the sleep", est, p.utilEstUnchanged)
	}
	s.now += 20_000_000
	wakeOnto(s, p, 1)
	if !p.utilEstUnchanged {
		t.Errorf("UTIL_AVG_UNCHANGED cleared by the wake-up migration; the kernel keeps it")
	}
	c1 := &s.cpus[1]
	if c1.curr != p {
		t.Fatal("setup: task not running on CPU 1")
	}
	s.now += 50_000
	s.syncCPU(c1)
	s.dequeueCurr(c1, p, false)
	if p.utilEst != est {
		t.Errorf("util_est %d after a migrating wake-up and a 50 µs run; want %d (util_est_update() skipped)", p.utilEst, est)
	}
}

// wake_up_new_task() runs post_init_entity_util_avg() right after
// update_rq_clock(), with no update of the cfs_rq: a CPU whose blocked
// util of 400 has not been updated for 32 periods still reads 400, so a
// new task gets (1024 − 400) / 2 = 312, not the cap of the decayed 200.
func TestPostInitReadsTheCfsRqAsLastUpdated(t *testing.T) {
	s := hikeySim(t, "modern")
	c := &s.cpus[4]
	q := &task{weight: 1024, cpu: 4}
	q.avg = peltAvg{utilAvg: 400, runnableAvg: 400, loadAvg: 1024}
	s.now = 0
	s.attachEntityLoadAvg(c, q) // the blocked averages of a task that slept on CPU 4
	if c.avg.utilAvg != 400 {
		t.Fatalf("setup: CPU 4 util %d", c.avg.utilAvg)
	}
	s.now = 32 * peltPeriodNs
	p := &task{weight: 1024, cpu: 4}
	s.postInitEntityUtilAvg(c, p)
	if p.avg.utilAvg != 312 {
		t.Errorf("new task util %d; want 312 = (1024 − 400)/2 from the cfs_rq as last updated", p.avg.utilAvg)
	}
}

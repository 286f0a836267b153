package sim

import "testing"

// Round 11 of the mutation tests over eevdf.go: each test holds one rule of
// 6.12's fair.c that no earlier test pinned. The values come from the
// kernel's formulas, with the entities set by hand on a runqueue.

// rqOf is a runqueue with curr running (nil: none) and queued in the tree.
func rqOf(curr *task, queued ...*task) *cpuState {
	c := &cpuState{curr: curr, rq: queued, nrRunning: len(queued)}
	if curr != nil {
		c.nrRunning++
	}
	for _, p := range queued {
		c.loadWeight += p.weight
	}
	if curr != nil {
		c.loadWeight += curr.weight
	}
	return c
}

// ent is an entity of weight w at vruntime v with deadline d.
func ent(v, d, w int64) *task { return &task{vruntime: v, deadline: d, weight: w} }

// avg_vruntime() (fair.c:677-711) is Σ w_i·(v_i − v0) / Σ w_i + v0, each
// key weighted by the entity's load (curr's too), and rounded towards −∞:
// "if (runtime < 0) runtime -= (weight - 1)" before div_s64(), which
// truncates. A positive sum is only truncated.
func TestAvgVruntimeWeightedFloor(t *testing.T) {
	for _, c := range []struct {
		name string
		curr *task
		q    []*task
		want int64
	}{
		{"weighted: 1024 at 0, 2048 at 3000", nil, []*task{ent(0, 0, 1024), ent(3000, 0, 2048)}, 2000},
		{"curr weighted too: 2048 at 3000 running", ent(3000, 0, 2048), []*task{ent(0, 0, 1024)}, 2000},
		{"negative sum −1.5 floors to −2", nil, []*task{ent(0, 0, 1024), ent(-3, 0, 1024)}, -2},
		{"positive sum 1.5 truncates to 1", nil, []*task{ent(0, 0, 1024), ent(3, 0, 1024)}, 1},
		{"negative, exact: −2", nil, []*task{ent(0, 0, 1024), ent(-4, 0, 1024)}, -2},
		{"from a base of 5: (5+2)/2 = 3.5 gives 3", nil, []*task{ent(5, 0, 1024), ent(2, 0, 1024)}, 3},
		{"nice 5 and nice 0: (335·(−100) + 0)/1359 = −24.6 gives −25", nil, []*task{ent(-100, 0, 335), ent(0, 0, 1024)}, -25},
	} {
		if got := avgVruntime(rqOf(c.curr, c.q...)); got != c.want {
			t.Errorf("%s: avg_vruntime %d; want %d", c.name, got, c.want)
		}
	}
}

// vruntime_eligible() (fair.c:763-776): avg >= (v − v0)·load, so an entity
// exactly at V (lag 0) is eligible and one a nanosecond past it is not.
func TestVruntimeEligibleAtV(t *testing.T) {
	for _, c := range []struct {
		name string
		rq   *cpuState
		V    int64
	}{
		{"curr 1024 at 0, queued 1024 at 1000", rqOf(ent(0, 0, 1024), ent(1000, 0, 1024)), 500},
		{"queued 1024 at 0 and 2048 at 300", rqOf(nil, ent(0, 0, 1024), ent(300, 0, 2048)), 200},
	} {
		if !vruntimeEligible(c.rq, c.V) {
			t.Errorf("%s: an entity at V = %d is not eligible; want lag 0 eligible", c.name, c.V)
		}
		if vruntimeEligible(c.rq, c.V+1) {
			t.Errorf("%s: an entity at V+1 is eligible; want not", c.name)
		}
	}
}

// running is taskSim(n) with tasks 0..q−1 placed on cpu 0 and one picked;
// curr's clock is restarted at s.now with vruntime v and deadline d, its
// slice protected (set_next_entity() → set_protect_slice()).
func running(t *testing.T, n, q int, v, d int64) (*sim, *cpuState, *task) {
	t.Helper()
	return runningPolicy(t, `{}`, n, q, v, d)
}

// runningPolicy is running() under a policy document.
func runningPolicy(t *testing.T, policy string, n, q int, v, d int64) (*sim, *cpuState, *task) {
	t.Helper()
	s := taskSimPolicy(t, n, policy)
	c0 := &s.cpus[0]
	for k := range q {
		place(s, k, 0)
	}
	s.schedule(c0)
	curr := c0.curr
	curr.execStart = s.now
	curr.vruntime, curr.deadline = v, d
	curr.protected, curr.protect, curr.vprot = true, d, d // set_protect_slice() at the pick, either form
	return s, c0, curr
}

// update_deadline() (fair.c:1022-1043): the deadline is renewed once
// vruntime reaches it, "(s64)(se->vruntime - se->deadline) < 0" being the
// only case kept, as vruntime + calc_delta_fair(slice) (from the vruntime,
// not from the old deadline); update_curr() (fair.c:1230-1275) then
// reschedules, unless curr is alone ("if (cfs_rq->nr_running == 1)
// return").
func TestUpdateDeadlineRenewal(t *testing.T) {
	for _, c := range []struct {
		name    string
		queued  int
		ran     int64 // ns at nice 0: as much vruntime
		renewed bool
		want    bool
		other   int64 // the other task's vruntime
	}{
		{"just short of the deadline", 2, 999_999, false, false, 5_000_000},
		{"exactly at the deadline", 2, 1_000_000, true, true, 5_000_000},
		{"half a millisecond past it", 2, 1_500_000, true, true, 5_000_000},
		{"past it, alone on the CPU", 1, 1_500_000, true, false, 5_000_000},
		// the other task far ahead: curr still eligible after the renewal,
		// so only update_deadline()'s answer reschedules it in 6.12
		{"at the deadline, still eligible", 2, 1_000_000, true, true, 8_000_000},
	} {
		for _, form := range []string{`{"features":{"VPROT":false}}`, `{}`} {
			s, c0, curr := runningPolicy(t, form, 2, c.queued, 5_000_000, 6_000_000)
			if c.queued > 1 {
				// the other task at curr's start: curr, past V, escapes
				// did_preempt_short() by its protection alone
				for _, p := range c0.rq {
					p.vruntime, p.deadline = c.other, 9_000_000
				}
			}
			s.now += c.ran
			got := s.updateCurr(c0)
			wantD := int64(6_000_000)
			if c.renewed {
				wantD = curr.vruntime + vslice(curr)
			}
			if curr.vruntime != 5_000_000+c.ran || curr.deadline != wantD || got != c.want {
				t.Errorf("%s, %s: vruntime %d, deadline %d, resched %v; want %d, %d, %v",
					form, c.name, curr.vruntime, curr.deadline, got, 5_000_000+c.ran, wantD, c.want)
			}
		}
	}
}

// did_preempt_short() (fair.c:1180-1188) returns false while curr's slice
// is protected (protect_slice(): the deadline is still the one stashed at
// pick), however far past V it has run.
func TestDidPreemptShortHonoursProtection(t *testing.T) {
	for _, form := range []string{`{"VPROT":false}`, `{}`} { // 6.12, and 6.17's protect_slice()
		s, ahead, _ := delaySimFeatures(t, form) // ahead ran 2 ms: deadline renewed, not eligible
		c0 := &s.cpus[0]
		ahead.protected, ahead.protect, ahead.vprot = true, ahead.deadline, ahead.deadline // picked again since
		s.now += 100_000
		s.syncCPU(c0)
		if got := s.updateCurr(c0); got || ahead.vruntime >= ahead.deadline {
			t.Errorf("%s: a protected, ineligible curr before its deadline (vruntime %d, deadline %d): resched %v; want false",
				form, ahead.vruntime, ahead.deadline, got)
		}
	}
}

// check_preempt_wakeup_fair() → do_preempt_short() (fair.c:1190-1208):
// curr's protection is cancelled only for a wakee with a strictly shorter
// slice that is eligible (here also with the earlier deadline, so the
// kernel's last two tests agree).
func TestDoPreemptShortCancelsProtection(t *testing.T) {
	for _, c := range []struct {
		name   string
		slice  func(int64) int64
		vlag   int64
		cancel bool
	}{
		{"a quarter slice, at V", func(s int64) int64 { return s / 4 }, 0, true},
		{"an equal slice, at V", func(s int64) int64 { return s }, 0, false},
		{"a quarter slice, 1 ms past V", func(s int64) int64 { return s / 4 }, -1_000_000, false},
	} {
		for _, form := range []string{`{"features":{"VPROT":false}}`, `{}`} { // do_preempt_short(), and 6.17's pick without protection
			s := taskSimPolicy(t, 2, form)
			c0 := &s.cpus[0]
			curr := place(s, 0, 0)
			s.schedule(c0)
			if c0.curr != curr || !s.protectSlice(curr) {
				t.Fatal("set-up: task 0 not running protected")
			}
			s.now += 100_000
			p := s.tasks[1]
			p.cpu, p.remaining = 0, 1e12
			p.slice, p.vlag = c.slice(curr.slice), c.vlag
			s.enqueueTask(c0, p, false, false)
			s.checkPreemptWakeupFair(c0, p, false)
			if got := !s.protectSlice(curr); got != c.cancel {
				t.Errorf("%s, %s (wakee deadline %d, curr's %d): protection cancelled %v; want %v", form, c.name, p.deadline, curr.deadline, got, c.cancel)
			}
		}
	}
}

// place_entity() (fair.c:5294-5395), PLACE_LAG: the lag is inflated by
// (W + w)/W, W counting curr ("if (curr && curr->on_rq) load += ..."),
// and div_s64() truncates towards zero either way.
func TestPlaceLagInflation(t *testing.T) {
	for _, c := range []struct{ vlag, lag int64 }{
		{1001, 1501},   // 1001·3072/2048 = 1501.5
		{-1001, -1501}, // −1501.5 truncated towards zero
		{2048, 3072},
	} {
		s, c0, _ := running(t, 3, 2, 0, 1_000_000) // curr and one queued, nice 0: W = 2048
		p := s.tasks[2]
		p.cpu, p.vlag = 0, c.vlag
		V := avgVruntime(c0)
		s.placeEntity(c0, p, false, false)
		if got := V - p.vruntime; got != c.lag {
			t.Errorf("vlag %d placed with curr and one queued: lag %d; want %d", c.vlag, got, c.lag)
		}
	}
}

// place_entity(): PLACE_REL_DEADLINE applies to an entity that was
// dequeued without DEQUEUE_SLEEP (se->rel_deadline, a move); a woken one
// gets a fresh whole virtual slice whatever its deadline was before.
func TestPlaceRelDeadlineOnlyForMoves(t *testing.T) {
	s, c0, _ := running(t, 3, 2, 0, 1_000_000)
	p := s.tasks[2]
	p.cpu, p.placed, p.relDeadline = 0, true, 12_345
	s.placeEntity(c0, p, false, false)
	if got := p.deadline - p.vruntime; got != vslice(p) {
		t.Errorf("woken after a run: deadline %d after its vruntime; want a whole slice, %d", got, vslice(p))
	}
	p.relDeadline = 12_345
	s.placeEntity(c0, p, false, true)
	if got := p.deadline - p.vruntime; got != 12_345 {
		t.Errorf("moved: deadline %d after its vruntime; want the relative deadline kept, 12345", got)
	}
}

// entity_lag() (fair.c:725-733): the clamp is
// calc_delta_fair(max(2·slice, TICK_NSEC)) — virtual time, so wider for a
// lighter task: nice 5 (weight 335) at HZ=1000, 4.2 ms · 1024/335. (6.12's
// limit; LAG_CLAMP_MAX_SLICE's is in TestLagClampMaxSlice.)
func TestEntityLagClampIsVirtual(t *testing.T) {
	s := taskSimPolicy(t, 2, `{"hz":1000,"features":{"LAG_CLAMP_MAX_SLICE":false}}`)
	c0 := &s.cpus[0]
	a := place(s, 0, 0)
	place(s, 1, 0)
	a.weight = niceWeight(5)
	want := calcDeltaFair(max(2*a.slice, s.tickNs), a.weight)
	if want == max(2*a.slice, s.tickNs) {
		t.Fatal("set-up: the limit is not scaled")
	}
	V := avgVruntime(c0)
	for _, d := range []int64{-1, 1} {
		a.vruntime = V + d*100_000_000
		s.updateEntityLag(c0, a)
		if a.vlag != -d*want {
			t.Errorf("nice 5, vruntime V%+d·100 ms: vlag %d; want %d", d, a.vlag, -d*want)
		}
	}
}

// pick_eevdf() (fair.c:926-984) drops an ineligible curr before anything
// else ("if (curr && (!curr->on_rq || !entity_eligible(cfs_rq, curr)))
// curr = NULL"): neither RUN_TO_PARITY's protection nor an earlier
// deadline keeps it.
func TestPickEEVDFDropsIneligibleCurr(t *testing.T) {
	s := taskSim(t, 1)
	for _, protected := range []bool{false, true} {
		curr := ent(1000, 1500, 1024) // V = 500: curr is ahead of it
		curr.protected, curr.protect = protected, curr.deadline
		if protected {
			curr.vprot = curr.deadline
		}
		q := ent(0, 5000, 1024)
		if got := s.pickEEVDF(rqOf(curr, q), true); got != q {
			t.Errorf("curr past V with the earlier deadline, protected %v: picked curr; want the eligible queued entity", protected)
		}
	}
}

// check_preempt_wakeup_fair() (fair.c:8865-8950) runs update_curr() first,
// and the resched_curr() that update_deadline() asks for there stands
// whatever pick_eevdf() then returns (here curr itself, renewed, over an
// ineligible wakee): ttwu_runnable()'s requeue reaches it with curr's
// clock not brought up to date.
func TestWakeupCheckKeepsUpdateCurrResched(t *testing.T) {
	s, c0, curr := running(t, 2, 2, 0, 1_000_000)
	q := c0.rq[0]
	q.vruntime, q.deadline = 50_000_000, 51_000_000 // far past V: not eligible
	s.now += 1_500_000                              // curr past its deadline, not yet charged
	if !s.checkPreemptWakeupFair(c0, q, false) {
		t.Errorf("curr's deadline passed before the wake-up check (renewed to %d): no resched; want update_curr()'s", curr.deadline)
	}
	if s.pickEEVDF(c0, true) != curr {
		t.Fatal("set-up: pick_eevdf() does not keep curr")
	}
}

// avg_vruntime() of an empty cfs_rq is zero_vruntime (fair.c:677-711),
// which followed V until the last entity left (update_entity_lag() at its
// dequeue): an entity placed there starts at that V (the step view's
// vruntimes carry on from it), not at 0, and whatever its vlag, since
// place_entity() applies the lag only "if (sched_feat(PLACE_LAG) &&
// cfs_rq->nr_running)".
func TestEmptyRqKeepsLastV(t *testing.T) {
	s := taskSim(t, 2)
	c0 := &s.cpus[0]
	a := place(s, 0, 0)
	s.schedule(c0)
	s.now += 3_000_000
	s.dequeueCurr(c0, a, false)
	if c0.nrRunning != 0 || a.vruntime <= 0 {
		t.Fatalf("set-up: nr_running %d, vruntime %d", c0.nrRunning, a.vruntime)
	}
	for _, vlag := range []int64{0, -700_000, 700_000} {
		b := s.tasks[1]
		b.cpu, b.vlag = 0, vlag
		s.placeEntity(c0, b, false, false)
		if b.vruntime != a.vruntime {
			t.Errorf("vlag %d placed on the empty rq: vruntime %d; want %d, the V it kept", vlag, b.vruntime, a.vruntime)
		}
	}
}

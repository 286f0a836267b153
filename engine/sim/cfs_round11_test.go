package sim

import "testing"

// Round 11 of the mutation tests over cfs.go: the rules of 6.1's fair
// class (kernel/sched/fair.c of v6.1) that no earlier test pinned, on
// entities set by hand. cfs61 is taskSim's 4-CPU machine under 6.1:
// sched_latency 18 ms, min_granularity 2.25 ms, wake-up granularity 3 ms.
func cfs61(t *testing.T) *sim {
	t.Helper()
	s := taskSimPolicy(t, 2, `{"generation":"6.1"}`)
	if !s.cfs || s.cfsLatency != 18e6 || s.cfsMinGran != 2.25e6 || s.cfsWakeupGran != 3e6 {
		t.Fatalf("set-up: cfs %v, latency %d, min_granularity %d, wakeup_granularity %d", s.cfs, s.cfsLatency, s.cfsMinGran, s.cfsWakeupGran)
	}
	return s
}

// __pick_first_entity() (6.1): of equal vruntimes the one queued first
// (__enqueue_entity() puts an equal key to the right: entity_before() is
// strict).
func TestCFSLeftmostTie(t *testing.T) {
	a, b := ent(5000, 0, 1024), ent(5000, 0, 1024)
	if got := leftmostCFS(rqOf(nil, ent(9000, 0, 1024), a, b)); got != a {
		t.Error("two entities at the same vruntime: the later queued is leftmost; want the first")
	}
}

// update_min_vruntime() (6.1): the smaller of curr's and the leftmost's
// vruntime, curr counted; never backwards ("max_vruntime(min_vruntime,
// vruntime)").
func TestCFSUpdateMinVruntime(t *testing.T) {
	for _, c := range []struct {
		name      string
		rq        *cpuState
		min, want int64
	}{
		{"curr behind the leftmost", rqOf(ent(3000, 0, 1024), ent(5000, 0, 1024)), 1000, 3000},
		{"the leftmost behind curr", rqOf(ent(5000, 0, 1024), ent(4000, 0, 1024)), 1000, 4000},
		{"curr alone", rqOf(ent(3000, 0, 1024)), 1000, 3000},
		{"both behind min_vruntime", rqOf(ent(3000, 0, 1024), ent(4000, 0, 1024)), 3500, 3500},
	} {
		c.rq.minVruntime = c.min
		updateMinVruntime(c.rq)
		if c.rq.minVruntime != c.want {
			t.Errorf("%s: min_vruntime %d; want %d", c.name, c.rq.minVruntime, c.want)
		}
	}
}

// sched_slice() (6.1): __sched_period(nr_running + !se->on_rq) is
// sched_latency up to sched_nr_latency (8) tasks and nr × min_granularity
// above; the task's share is slice·w/(cfs_rq load, plus w when not
// queued), at least min_granularity (BASE_SLICE).
func TestCFSSchedSlice(t *testing.T) {
	s := cfs61(t)
	w := niceWeight(0)
	for _, c := range []struct {
		name   string
		nr     int
		load   int64
		weight int64
		queued bool
		want   int64
	}{
		{"2 queued, nice 0", 2, 2 * w, w, true, 9e6},
		{"1 queued and the newcomer", 1, w, w, false, 9e6},
		{"8 queued: the latency", 8, 8 * w, w, true, 18e6 / 8},
		{"7 queued and the newcomer: 8", 7, 7 * w, w, false, 18e6 / 8},
		{"9 queued: 9 min_granularities", 9, 9 * w, w, true, 2.25e6},
		{"9 queued, one at nice −5 (3121)", 9, 8*w + 3121, 3121, true, int64(9*2_250_000) * 3121 / (8*1024 + 3121)},
		{"2 queued, one at nice 19 (15): min_granularity", 2, w + 15, 15, true, 2.25e6},
	} {
		c0 := &cpuState{nrRunning: c.nr, loadWeight: c.load}
		if got := s.schedSlice(c0, &task{weight: c.weight}, c.queued); got != c.want {
			t.Errorf("%s: sched_slice %d; want %d", c.name, got, c.want)
		}
	}
}

// wakeup_preempt_entity() (6.1): 1 only when curr's vruntime is more than
// wakeup_gran(se) = calc_delta_fair(3 ms, se) — the wakee's weight — ahead.
func TestCFSWakeupPreemptEntity(t *testing.T) {
	s := cfs61(t)
	light := niceWeight(5) // 335: its granularity is 3 ms·1024/335
	gran := calcDeltaFair(s.cfsWakeupGran, light)
	for _, c := range []struct {
		name  string
		se    *task
		ahead int64
		want  int
	}{
		{"nice 0, exactly 3 ms ahead", ent(0, 0, 1024), 3e6, 0},
		{"nice 0, 3 ms + 1 ns ahead", ent(0, 0, 1024), 3e6 + 1, 1},
		{"nice 5 wakee, 4 ms ahead: within its granularity", ent(0, 0, light), 4e6, 0},
		{"nice 5 wakee, past its granularity", ent(0, 0, light), gran + 1, 1},
		{"not ahead", ent(0, 0, 1024), 0, -1},
	} {
		curr := ent(c.se.vruntime+c.ahead, 0, 1024)
		if got := s.wakeupPreemptEntity(curr, c.se); got != c.want {
			t.Errorf("%s: %d; want %d", c.name, got, c.want)
		}
	}
}

// pick_next_entity() (6.1): the next buddy, else the last buddy, runs
// instead of the leftmost when it is no more than a granularity behind it
// ("wakeup_preempt_entity(buddy, left) < 1").
func TestCFSPickBuddies(t *testing.T) {
	s := cfs61(t)
	left := ent(0, 0, 1024)
	near, near2, far := ent(2e6, 0, 1024), ent(1e6, 0, 1024), ent(4e6, 0, 1024)
	for _, c := range []struct {
		name       string
		next, last *task
		want       *task
	}{
		{"next buddy 2 ms behind", near, nil, near},
		{"last buddy 2 ms behind", nil, near, near},
		{"both within: next first", near, near2, near},
		{"next buddy 4 ms behind, last within", far, near2, near2},
		{"last buddy 4 ms behind", nil, far, left},
	} {
		c0 := rqOf(nil, left, near, near2, far)
		c0.nextBuddy, c0.lastBuddy = c.next, c.last
		if got := s.pickCFS(c0); got != c.want {
			t.Errorf("%s: picked the entity at %d; want %d", c.name, got.vruntime, c.want.vruntime)
		}
	}
}

// place_entity(initial) (6.1), START_DEBIT: a new task starts at
// min_vruntime + sched_vslice(), its sched_slice() in its own virtual
// time (calc_delta_fair()), the newcomer counted in the period's share
// (task_fork_fair() on the parent's runqueue, here cpu 0 with its nice-0
// parent, then enqueue_entity()'s renormalisation there).
func TestCFSStartDebit(t *testing.T) {
	s := cfs61(t)
	c0 := &s.cpus[0]
	c0.minVruntime = 40e6
	c0.nrRunning, c0.loadWeight = 1, 1024
	p := &task{weight: niceWeight(5)}
	s.taskForkFair(c0, p)
	s.placeEntityCFS(c0, p, true, false)
	want := int64(40e6) + calcDeltaFair(int64(18_000_000)*335/(1024+335), 335)
	if p.vruntime != want {
		t.Errorf("new nice-5 task beside one nice-0: vruntime %d; want %d (min_vruntime + its vslice)", p.vruntime, want)
	}
}

// A queued task the balancer moves (6.1: detach_task() → dequeue without
// DEQUEUE_SLEEP, attach_task() → enqueue without ENQUEUE_WAKEUP) is only
// renormalised: place_entity() runs only for ENQUEUE_WAKEUP, so no
// sleeper floor applies, however far behind min_vruntime it is.
func TestCFSMovedTaskGetsNoSleeperFloor(t *testing.T) {
	s := cfs61(t)
	a, b := &s.cpus[1], &s.cpus[2]
	a.minVruntime, b.minVruntime = 50e6, 900e6
	// 40 ms behind a's min_vruntime, as detach_task() leaves it: relative
	p := &task{weight: niceWeight(0), vruntime: 10e6 - a.minVruntime, vrRq: vrNormalised}
	s.placeEntityCFS(b, p, false, true)
	if want := int64(860e6); p.vruntime != want {
		t.Errorf("moved task 40 ms behind: vruntime %d; want %d (still 40 ms behind)", p.vruntime, want)
	}
}

// check_preempt_tick() (6.1): preempt when delta_exec > ideal_runtime
// (strictly), clearing curr's buddies; between min_granularity and the
// slice, when curr's vruntime is more than the slice past the leftmost.
func TestCFSCheckPreemptTick(t *testing.T) {
	s, c0 := cfsSim(t, 2)
	curr := c0.curr
	left := leftmostCFS(c0)
	ideal := s.schedSlice(c0, curr, true)
	curr.vruntime = left.vruntime // no lead
	curr.prevSumExec, curr.sumExec = 0, ideal
	if s.checkPreemptTick(c0) {
		t.Errorf("ran exactly its slice (%d ns): preempted; want not before it is exceeded", ideal)
	}
	c0.nextBuddy, c0.lastBuddy = curr, curr
	curr.sumExec = ideal + 1
	if !s.checkPreemptTick(c0) || c0.nextBuddy != nil || c0.lastBuddy != nil {
		t.Errorf("ran past its slice: buddies next %v, last %v; want preempted and both cleared", c0.nextBuddy != nil, c0.lastBuddy != nil)
	}
	curr.sumExec = s.cfsMinGran + 1
	for _, c := range []struct {
		lead int64
		want bool
	}{{ideal, false}, {ideal + 1, true}} {
		curr.vruntime = left.vruntime + c.lead
		if got := s.checkPreemptTick(c0); got != c.want {
			t.Errorf("past min_granularity, %d ns ahead of the leftmost (slice %d): preempt %v; want %v", c.lead, ideal, got, c.want)
		}
	}
}

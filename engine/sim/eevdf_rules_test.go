package sim

import "testing"

// update_curr() → did_preempt_short() (6.12, PREEMPT_SHORT): once its
// slice protection is gone, a running task that is no longer eligible is
// rescheduled at the next update, before its deadline. Without the
// feature it runs to its deadline. (6.12's form: under VPROT the end of
// the protection alone reschedules, TestVProtReschedsAtEndOfProtection.)
func TestUpdateCurrPreemptShort(t *testing.T) {
	for _, c := range []struct {
		feat string
		want bool
	}{{`{"VPROT":false}`, true}, {`{"VPROT":false,"PREEMPT_SHORT":false}`, false}} {
		s, ahead, _ := delaySimFeatures(t, c.feat) // ahead ran 2 ms: its first deadline renewed, not eligible
		c0 := &s.cpus[0]
		s.now += 100_000
		s.syncCPU(c0)
		if ahead.vruntime >= ahead.deadline || ahead.protected {
			t.Fatalf("%s: set-up: vruntime %d, deadline %d, protected %v", c.feat, ahead.vruntime, ahead.deadline, ahead.protected)
		}
		if got := s.updateCurr(c0); got != c.want {
			t.Errorf("%s: update_curr() of an ineligible, unprotected task before its deadline: resched %v; want %v", c.feat, got, c.want)
		}
	}
}

// place_entity() (6.12): a new task's first deadline is half a virtual
// slice after its vruntime (PLACE_DEADLINE_INITIAL: the others are, on
// average, halfway through theirs); a waking one gets a whole slice.
func TestPlaceDeadlineInitial(t *testing.T) {
	s := taskSim(t, 2)
	a := place(s, 0, 0) // wake_up_new_task(): ENQUEUE_INITIAL
	if got, want := a.deadline-a.vruntime, vslice(a)/2; got != want {
		t.Errorf("a new task's deadline is %d after its vruntime; want half a slice, %d", got, want)
	}
	b := s.tasks[1]
	b.cpu = 1
	c1 := &s.cpus[1]
	s.placeEntity(c1, b, false, false)
	if got, want := b.deadline-b.vruntime, vslice(b); got != want {
		t.Errorf("a woken task's deadline is %d after its vruntime; want a slice, %d", got, want)
	}
}

// update_entity_lag() (6.12, LAG_CLAMP_MAX_SLICE off) clamps the lag to ±max(2·slice, TICK_NSEC)
// in the task's virtual time: at HZ=100 on 4 CPUs (slice 2.1 ms) the tick,
// 10 ms, is the bound.
func TestEntityLagClamp(t *testing.T) {
	for _, c := range []struct {
		hz    int
		limit int64
	}{{100, 10_000_000}, {1000, 4_200_000}} {
		s := taskSimPolicy(t, 2, `{"hz":`+itoa(c.hz)+`,"features":{"LAG_CLAMP_MAX_SLICE":false}}`)
		c0 := &s.cpus[0]
		a := place(s, 0, 0)
		place(s, 1, 0)
		V := avgVruntime(c0)
		for _, d := range []int64{-1, 1} {
			a.vruntime = V + d*50_000_000 // far from V either way
			s.updateEntityLag(c0, a)
			if a.vlag != -d*c.limit {
				t.Errorf("HZ=%d, vruntime V%+d·50 ms: vlag %d; want %d", c.hz, d, a.vlag, -d*c.limit)
			}
		}
	}
}

// A queued task the balancer moves keeps its deadline relative to its
// vruntime (dequeue without DEQUEUE_SLEEP saves rel_deadline; place_entity()
// restores it, PLACE_REL_DEADLINE), rather than a fresh slice.
func TestMigrationKeepsRelativeDeadline(t *testing.T) {
	s := taskSim(t, 2)
	c0 := &s.cpus[0]
	place(s, 0, 0)
	place(s, 1, 0)
	s.schedule(c0)
	q := s.tasks[0]
	if q == c0.curr {
		q = s.tasks[1]
	}
	rel := q.deadline - q.vruntime // half a slice: placed as a new task
	if rel == vslice(q) {
		t.Fatal("set-up: the queued task's deadline is a whole slice ahead")
	}
	s.now = 1_000_000
	s.moveQueuedTask(q, 0, 1, 1, migPeriodic, nil)
	if q.cpu != 1 || q.deadline-q.vruntime != rel {
		t.Errorf("moved to cpu %d with its deadline %d after its vruntime; want %d as before the move", q.cpu, q.deadline-q.vruntime, rel)
	}
}

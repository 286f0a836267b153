package sim

import (
	"context"
	"fmt"
	"testing"
)

// resched_curr() (kernel/sched/core.c) sets TIF_NEED_RESCHED on rq->curr
// and sends one IPI; __schedule() clears prev's flag
// (clear_tsk_need_resched()), so an IPI that lands after the target has
// rescheduled on its own finds no flag and does not schedule. Here cpu 0
// is told to reschedule from cpu 1, then its curr sleeps before the IPI
// arrives: the task picked at the sleep keeps the CPU, though a
// schedule() would now replace it.
func TestReschedIPIAfterAScheduleIsSpent(t *testing.T) {
	s, c0 := hogsOnCPU0(t, 3, 3)
	a := c0.curr
	s.reschedCurr(0, 1) // TIF_NEED_RESCHED on a, the IPI in flight
	s.blockTask(c0, a)  // a sleeps first: __schedule() clears the flag
	b := c0.curr
	if b == nil || b == a || a.delayed || len(c0.rq) != 1 {
		t.Fatal("set-up: no second task picked at a's sleep")
	}
	// b is past the average vruntime: a schedule() now would pick the
	// third task (pick_eevdf() drops an ineligible curr, slice protection
	// or not)
	b.vruntime = c0.rq[0].vruntime + 1_000_000
	if vruntimeEligible(c0, b.vruntime) {
		t.Fatal("set-up: b is still eligible")
	}
	if err := s.runUntil(context.Background(), 1_050_000, 0, 1); err != nil {
		t.Fatal(err)
	}
	if c0.curr != b {
		t.Errorf("the IPI of a resched spent by a's sleep switched cpu 0 from task %d to task %d", b.id, c0.curr.id)
	}
}

// resched_curr() returns at once when the flag is set, and
// check_preempt_wakeup_fair() returns before update_curr() when curr
// already has it: a second wake-up to a CPU that was told to reschedule
// queues no second IPI, so the CPU schedules once.
func TestReschedCurrOnceWhileTheFlagIsSet(t *testing.T) {
	s, c0 := hogsOnCPU0(t, 3, 1)
	s.now += 100_000
	s.reschedCurr(0, 1)
	s.reschedCurr(0, 2)
	p := place(s, 1, 0) // enqueue_entity() runs update_curr()
	curr := c0.curr
	before := curr.sumExec
	s.now += 10_000
	if s.checkPreemptWakeupFair(c0, p, false) || curr.sumExec != before {
		t.Errorf("check_preempt_wakeup_fair() with the flag set: preempt or update_curr() ran (sum_exec %d → %d)", before, curr.sumExec)
	}
	ipis := 0
	for ev, ok := s.q.pop(); ok; ev, ok = s.q.pop() {
		if ev.kind == evResched && ev.a == 0 {
			ipis++
		}
	}
	if ipis != 1 {
		t.Errorf("two resched_curr() of cpu 0 queued %d IPIs, want 1 (the second finds TIF_NEED_RESCHED set)", ipis)
	}
}

// A tick's return from interrupt schedules when curr has
// TIF_NEED_RESCHED, whoever set it: a remote resched_curr() whose IPI is
// still in flight is acted on there, and the IPI then finds the flag
// spent.
func TestTickReturnActsOnARemoteFlag(t *testing.T) {
	s, c0 := hogsOnCPU0(t, 2, 2)
	a := c0.curr
	a.vruntime = c0.rq[0].vruntime + 1_000_000 // past V: a schedule() replaces it
	s.reschedCurr(0, 1)
	s.now += 100 // the IPI is in flight
	s.tick(c0)
	if c0.curr == a || c0.needResched {
		t.Errorf("the tick's return did not act on the flag set from cpu 1 (curr %d, flag %v)", c0.curr.id, c0.needResched)
	}
}

// hogsOnCPU0 is a 4-CPU machine with n hogs pinned to cpu 0, placed of
// them there and cpu 0 scheduled, at t = 1 ms.
func hogsOnCPU0(t *testing.T, n, placed int) (*sim, *cpuState) {
	t.Helper()
	s := simOf(t, fmt.Sprintf(`{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1},
		"workload":{"groups":[{"name":"w","count":%d,"cpus":"0","program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`, n))
	c0 := &s.cpus[0]
	s.now = 1_000_000
	for k := range placed {
		place(s, k, 0)
	}
	s.schedule(c0)
	return s, c0
}

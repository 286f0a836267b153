package sim

import "testing"

// delaySim is taskSim's 4-CPU machine with two tasks queued on cpu 0, the
// running one ahead of the other in virtual time (so not eligible), and
// DELAY_DEQUEUE as given.
func delaySim(t *testing.T, delay bool) (s *sim, ahead, behind *task) {
	t.Helper()
	feat := `{"DELAY_DEQUEUE":false}`
	if delay {
		feat = `{}`
	}
	s = simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1},"policy":{"features":`+feat+`},
		"workload":{"groups":[{"name":"w","count":2,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
	c0 := &s.cpus[0]
	place(s, 0, 0)
	place(s, 1, 0)
	s.schedule(c0)
	ahead = c0.curr
	behind = s.tasks[0]
	if ahead == behind {
		behind = s.tasks[1]
	}
	s.now = 2_000_000 // ahead has run 2 ms: its vruntime is past V
	s.syncCPU(c0)
	s.updateCurr(c0)
	if vruntimeEligible(c0, ahead.vruntime) {
		t.Fatal("set-up: the running task is still eligible after 2 ms")
	}
	return s, ahead, behind
}

// TestDelayDequeueRequeuesInPlace: with DELAY_DEQUEUE (6.12 default) a task
// that sleeps while not eligible stays queued: nr_running keeps it,
// h_nr_runnable does not. Its wake-up is ttwu_runnable(): it is requeued on
// its runqueue without select_task_rq_fair(), so it stays behind the
// running task although three CPUs are idle. Without DELAY_DEQUEUE the
// sleep dequeues it and the wake-up sends it to an idle CPU.
func TestDelayDequeueRequeuesInPlace(t *testing.T) {
	s, ahead, behind := delaySim(t, true)
	c0 := &s.cpus[0]
	s.blockTask(c0, ahead)
	if !ahead.delayed || ahead.state != taskBlocked || c0.curr != behind {
		t.Fatalf("after the sleep: delayed %v, state %d, curr %v; want a delayed sleeper and the other task running", ahead.delayed, ahead.state, c0.curr)
	}
	if c0.nrRunning != 2 || c0.hNrRunnable() != 1 || c0.loadWeight != ahead.weight+behind.weight {
		t.Errorf("nr_running %d, h_nr_runnable %d, load.weight %d; want 2, 1 and both weights", c0.nrRunning, c0.hNrRunnable(), c0.loadWeight)
	}
	s.now += 100_000
	s.tryToWakeUp(ahead, 1, false, true)
	if ahead.delayed || ahead.state != taskRunnable || ahead.cpu != 0 || c0.nrRunning != 2 || c0.nrDelayed != 0 {
		t.Errorf("after the wake-up: delayed %v, state %d, cpu %d, nr_running %d, h_nr_delayed %d; want requeued on cpu 0",
			ahead.delayed, ahead.state, ahead.cpu, c0.nrRunning, c0.nrDelayed)
	}

	s, ahead, _ = delaySim(t, false)
	c0 = &s.cpus[0]
	s.blockTask(c0, ahead)
	if ahead.delayed || c0.nrRunning != 1 {
		t.Fatalf("DELAY_DEQUEUE off: delayed %v, nr_running %d; want dequeued at the sleep", ahead.delayed, c0.nrRunning)
	}
	s.now += 100_000
	s.tryToWakeUp(ahead, 1, false, true)
	if ahead.state != taskWaking || ahead.wakeCPU == 0 {
		t.Errorf("DELAY_DEQUEUE off: the wake-up sends the task to cpu %d (state %d); want select_task_rq_fair() to pick an idle CPU", ahead.wakeCPU, ahead.state)
	}
}

// TestDelayDequeuePickDequeues: a delayed task the pick reaches is
// dequeued then (pick_next_entity() → dequeue_entities(DEQUEUE_DELAYED)),
// with a positive lag clipped to 0 (DELAY_ZERO): when the running task
// sleeps too, the CPU ends idle with nothing queued.
func TestDelayDequeuePickDequeues(t *testing.T) {
	s, ahead, behind := delaySim(t, true)
	c0 := &s.cpus[0]
	s.blockTask(c0, ahead)
	s.now += 100_000
	s.blockTask(c0, behind)
	if c0.nrRunning != 0 || c0.nrDelayed != 0 || len(c0.rq) != 0 || c0.curr != nil {
		t.Fatalf("nr_running %d, h_nr_delayed %d, queued %d, curr %v; want an empty, idle runqueue", c0.nrRunning, c0.nrDelayed, len(c0.rq), c0.curr)
	}
	if ahead.delayed || ahead.state != taskBlocked || ahead.vlag > 0 {
		t.Errorf("the delayed task after the pick: delayed %v, state %d, vlag %d; want blocked, not delayed, lag ≤ 0", ahead.delayed, ahead.state, ahead.vlag)
	}
}

// TestDelayedWakeupLagAgainstStaleCurr: ttwu_runnable() only updates the
// rq clock before enqueue_task(ENQUEUE_DELAYED) (core.c:3764);
// requeue_delayed_entity() then takes the lag against curr as last
// updated, and update_curr() runs afterwards, in wakeup_preempt(). A
// delayed task whose lag is 0 there keeps its vruntime and deadline,
// although curr has run since and would give it a positive lag.
func TestDelayedWakeupLagAgainstStaleCurr(t *testing.T) {
	s, ahead, behind := delaySim(t, true)
	c0 := &s.cpus[0]
	s.blockTask(c0, ahead) // ahead is delayed; behind runs
	if !ahead.delayed || c0.curr != behind {
		t.Fatal("setup: no delayed sleeper")
	}
	s.now += 100_000
	s.syncCPU(c0)
	s.updateCurr(c0)
	ahead.vruntime = behind.vruntime // lag 0 against curr as of now
	v, d := ahead.vruntime, ahead.deadline
	s.now += 1_000_000 // curr runs on: updated, V would pass ahead's vruntime
	s.tryToWakeUp(ahead, 1, false, true)
	if ahead.delayed || ahead.vruntime != v || ahead.deadline != d {
		t.Errorf("requeue moved the task: vruntime %d → %d, deadline %d → %d (delayed %v); want it requeued where it was",
			v, ahead.vruntime, d, ahead.deadline, ahead.delayed)
	}
}

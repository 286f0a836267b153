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
	return delaySimFeatures(t, feat)
}

// delaySimFeatures is delaySim with the policy's feature flags as given.
func delaySimFeatures(t *testing.T, feat string) (s *sim, ahead, behind *task) {
	t.Helper()
	s = taskSimPolicy(t, 2, `{"features":`+feat+`}`)
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

// delayedBehind is delaySimFeatures with the task ahead gone to sleep
// (delayed) and the other running on cpu 0 for 100 µs since, its
// vruntime brought up to date.
func delayedBehind(t *testing.T, feat string) (s *sim, c0 *cpuState, ahead, behind *task) {
	t.Helper()
	s, ahead, behind = delaySimFeatures(t, feat)
	c0 = &s.cpus[0]
	s.blockTask(c0, ahead)
	if !ahead.delayed || c0.curr != behind {
		t.Fatal("set-up: no delayed sleeper")
	}
	s.now += 100_000
	s.syncCPU(c0)
	s.updateCurr(c0)
	return s, c0, ahead, behind
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
	s.tryToWakeUp(ahead, 1, s.cpus[1].curr, false, true)
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
	s.tryToWakeUp(ahead, 1, s.cpus[1].curr, false, true)
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
	s, _, ahead, behind := delayedBehind(t, `{}`) // ahead is delayed; behind runs
	ahead.vruntime = behind.vruntime              // lag 0 against curr as of now
	v, d := ahead.vruntime, ahead.deadline
	s.now += 1_000_000 // curr runs on: updated, V would pass ahead's vruntime
	s.tryToWakeUp(ahead, 1, s.cpus[1].curr, false, true)
	if ahead.delayed || ahead.vruntime != v || ahead.deadline != d {
		t.Errorf("requeue moved the task: vruntime %d → %d, deadline %d → %d (delayed %v); want it requeued where it was",
			v, ahead.vruntime, d, ahead.deadline, ahead.delayed)
	}
}

// TestBalanceReadsDelayedTasks: what the load balancer makes of a delayed
// sleeper. cpu 0 runs one task and holds another delayed; cpu 1, newly
// idle, balances the domain. 6.12 reads h_nr_queued (sum_h_nr_running 2,
// the group overloaded) and pulls the delayed task (can_migrate_task()
// does not look at sched_delayed); since 6.14 (H_NR_RUNNABLE) the group
// holds one runnable task, nothing to pull, and a delayed task would move
// only with load.
func TestBalanceReadsDelayedTasks(t *testing.T) {
	for _, tc := range []struct {
		feat       string
		nr, pulled int
	}{{`{"H_NR_RUNNABLE":false}`, 2, 1}, {`{"H_NR_RUNNABLE":true}`, 1, 0}} {
		s, ahead, _ := delaySimFeatures(t, tc.feat)
		c0 := &s.cpus[0]
		s.blockTask(c0, ahead)
		if !ahead.delayed {
			t.Fatalf("%s: set-up: the sleeper was not delayed", tc.feat)
		}
		s.now += 10_000_000 // past migration_cost: not cache-hot
		if nr := s.lbNrRunning(c0); nr != tc.nr {
			t.Errorf("%s: the balancer reads %d tasks on cpu 0, want %d", tc.feat, nr, tc.nr)
		}
		pulled, _ := s.schedBalanceRq(1, 0, cpuNewlyIdle, migNewidle)
		if pulled != tc.pulled || (pulled == 1) != (ahead.cpu == 1) {
			t.Errorf("%s: cpu 1 pulled %d (the delayed task on cpu %d), want %d", tc.feat, pulled, ahead.cpu, tc.pulled)
		}
	}
}

// TestDelayDequeueEligibleSleeperLeaves: only a task that is not eligible
// is delayed (dequeue_entity(): sched_feat(DELAY_DEQUEUE) && delay &&
// !entity_eligible()). An eligible sleeper is dequeued at once and keeps
// its positive lag for its next placement; a delayed one would have had
// it clipped to 0 at the pick (DELAY_ZERO).
func TestDelayDequeueEligibleSleeperLeaves(t *testing.T) {
	s, c0, _, behind := delayedBehind(t, `{}`)
	if !vruntimeEligible(c0, behind.vruntime) {
		t.Fatal("set-up: the task behind is not eligible")
	}
	s.blockTask(c0, behind)
	if behind.delayed || behind.state != taskBlocked || behind.vlag <= 0 {
		t.Errorf("an eligible sleeper: delayed %v, state %d, vlag %d; want dequeued with its positive lag", behind.delayed, behind.state, behind.vlag)
	}
}

// TestDelayedWakeupDropsPositiveLag: a delayed task whose lag turned
// positive while it slept (the running task moved V past it) is placed
// again at V with lag 0 when it is woken (requeue_delayed_entity() with
// DELAY_ZERO), not requeued at its old vruntime ahead of the others.
func TestDelayedWakeupDropsPositiveLag(t *testing.T) {
	s, _, ahead, behind := delayedBehind(t, `{}`)
	v := behind.vruntime - 2_000_000 // 2 ms of virtual time behind curr: a positive lag
	ahead.vruntime = v
	s.tryToWakeUp(ahead, 1, s.cpus[1].curr, false, true)
	if ahead.delayed || ahead.vlag != 0 || ahead.vruntime <= v {
		t.Errorf("woken with a positive lag: vruntime %d → %d, vlag %d, delayed %v; want placed at V with lag 0", v, ahead.vruntime, ahead.vlag, ahead.delayed)
	}
}

// TestDelayedWakeupPreempts: ttwu_runnable() ends in wakeup_preempt(): a
// requeued delayed task that pick_eevdf() now prefers (eligible, the
// earlier deadline) reschedules the running task. RUN_TO_PARITY is off so
// that curr's protection does not decide it.
func TestDelayedWakeupPreempts(t *testing.T) {
	s, _, ahead, behind := delayedBehind(t, `{"RUN_TO_PARITY":false}`)
	behind.deadline = behind.vruntime + 50_000_000 // far off: the woken task's is earlier
	behind.vprot = behind.vruntime                 // VPROT: NO_RUN_TO_PARITY's quantum is used up too
	ahead.vruntime = behind.vruntime - 2_000_000
	for {
		if _, ok := s.q.pop(); !ok {
			break
		}
	}
	s.tryToWakeUp(ahead, 1, s.cpus[1].curr, false, true)
	resched := false
	for {
		e, ok := s.q.pop()
		if !ok {
			break
		}
		resched = resched || e.kind == evResched && e.a == 0
	}
	if ahead.delayed || !resched {
		t.Errorf("the woken delayed task (deadline %d against curr's %d): delayed %v, cpu 0 rescheduled %v; want requeued and curr preempted",
			ahead.deadline, behind.deadline, ahead.delayed, resched)
	}
}

// TestBalanceLeavesDelayedTaskSince614: since 6.14 (H_NR_RUNNABLE)
// can_migrate_task() refuses a delayed task unless load is migrated. cpu 0
// runs one task, holds a delayed one and a third pinned to it; newly idle
// cpu 1 finds two runnable tasks there, so it migrates a task, and the
// only one it could take is the delayed sleeper: it takes none. 6.12
// takes it (three queued tasks, nothing refused).
func TestBalanceLeavesDelayedTaskSince614(t *testing.T) {
	for _, tc := range []struct {
		feat   string
		pulled int
	}{{`{"H_NR_RUNNABLE":false}`, 1}, {`{"H_NR_RUNNABLE":true}`, 0}} {
		s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1},"policy":{"features":`+tc.feat+`},
			"workload":{"groups":[{"name":"w","count":2,"program":[{"compute":"1s"}]},
				{"name":"pinned","count":1,"cpus":"0","program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
		c0 := &s.cpus[0]
		place(s, 0, 0)
		place(s, 1, 0)
		s.schedule(c0)
		ahead := c0.curr
		s.now = 2_000_000
		s.syncCPU(c0)
		s.updateCurr(c0)
		place(s, 2, 0) // the pinned task, queued behind
		s.blockTask(c0, ahead)
		if !ahead.delayed {
			t.Fatalf("%s: set-up: the sleeper was not delayed", tc.feat)
		}
		s.now += 10_000_000 // past migration_cost: not cache-hot
		pulled, _ := s.schedBalanceRq(1, 0, cpuNewlyIdle, migNewidle)
		if pulled != tc.pulled || (pulled == 1) != (ahead.cpu == 1) {
			t.Errorf("%s: cpu 1 pulled %d (the delayed task on cpu %d), want %d", tc.feat, pulled, ahead.cpu, tc.pulled)
		}
	}
}

// The reduced-capacity rules read h_nr_runnable since 6.14 (1a49104496d3:
// sched_reduced_capacity(), need_active_balance(), nohz_balancer_kick()),
// h_nr_queued in 6.12: cpu 0 runs one task beside a delayed sleeper,
// and RT pressure took half its capacity. Under H_NR_RUNNABLE it is one
// fair task on a CPU of reduced capacity: a misfit source for an idle
// destination and worth an active balance; in 6.12 it holds two tasks and
// is neither. (The kick's rule reads it too, but a CPU holding a delayed
// task has nr_running >= 2, which kicks first.)
func TestReducedCapacityReadsRunnableTasks(t *testing.T) {
	for _, tc := range []struct {
		feat string
		want bool
	}{{`{"H_NR_RUNNABLE":false}`, false}, {`{"H_NR_RUNNABLE":true}`, true}} {
		s, ahead, _ := delaySimFeatures(t, tc.feat)
		c0 := &s.cpus[0]
		s.blockTask(c0, ahead)
		if !ahead.delayed || c0.nrRunning != 2 {
			t.Fatalf("%s: set-up: the sleeper was not delayed", tc.feat)
		}
		c0.capacity = c0.cap / 2
		sd := s.t.Domains[0][0]
		if got := s.schedReducedCapacity(c0, sd); got != tc.want {
			t.Errorf("%s: sched_reduced_capacity() %v, want %v", tc.feat, got, tc.want)
		}
		env := &lbEnv{idle: cpuIdle, sd: sd, dst: 1}
		if got := s.reducedCapacityActiveBalance(env, 0); got != tc.want {
			t.Errorf("%s: need_active_balance()'s reduced-capacity rule %v, want %v", tc.feat, got, tc.want)
		}
	}
}

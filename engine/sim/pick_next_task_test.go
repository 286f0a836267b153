package sim

import "testing"

// delayedTail puts tasks 0–2 on cpu 0 and task 3 running on cpu 1, then
// lets cpu 0's running task block while ineligible: DELAY_DEQUEUE keeps it
// queued, and it is made the tail of cfs_tasks, the first task
// detach_tasks() tries. cpu 0 keeps two runnable tasks.
func delayedTail(t *testing.T, policy string) (s *sim, delayed *task) {
	t.Helper()
	s = taskSimPolicy(t, 4, policy)
	c0, c1 := &s.cpus[0], &s.cpus[1]
	place(s, 0, 0)
	place(s, 1, 0)
	s.schedule(c0)
	delayed = c0.curr
	place(s, 3, 1)
	s.schedule(c1)
	place(s, 2, 0)
	s.now = 2_000_000
	s.syncCPU(c0)
	s.updateCurr(c0)
	s.blockTask(c0, delayed)
	if !delayed.delayed {
		t.Fatal("cpu 0's task was not delayed")
	}
	s.now += 10_000_000
	s.syncCPU(c0)
	s.updateCurr(c0)
	for i := range s.cpus {
		s.updateCfsRqLoadAvg(&s.cpus[i])
	}
	delayed.cfsPos = 0 // the tail of cfs_tasks
	s.rdOverloaded = true
	c1.avgIdle = 1 << 40
	return s, delayed
}

// pick_next_task_fair() (fair.c, 6.12) goes back to "again" after every
// sched_balance_newidle() that leaves a fair task queued. 6.12's
// can_migrate_task() lets a delayed task go, and a newly idle pass stops at
// its first task, so the first pass can pull cpu 0's delayed task; the pick
// dequeues it for good and returns nothing, and a second pass pulls one of
// cpu 0's two runnable tasks. Without the loop cpu 1 would stay idle beside
// a CPU with two runnable tasks.
func TestPickNextTaskFairRetriesNewidleAfterADelayedPull(t *testing.T) {
	s, delayed := delayedTail(t, `{"generation":"6.12","features":{"NI_RANDOM":false}}`)
	c0, c1 := &s.cpus[0], &s.cpus[1]
	s.blockTask(c1, c1.curr)
	if delayed.delayed || delayed.state != taskBlocked || delayed.cpu != 1 {
		t.Errorf("the delayed task: delayed %v, state %v, cpu %d; want it pulled to cpu 1 and dequeued there by the pick", delayed.delayed, delayed.state, delayed.cpu)
	}
	if c1.curr == nil {
		t.Fatalf("cpu 1 idle beside cpu 0's %d runnable tasks: no second newidle pass", c0.hNrRunnable())
	}
	if c0.nrRunning != 1 || c1.nrRunning != 1 {
		t.Errorf("nr_running %d and %d; want 1 and 1", c0.nrRunning, c1.nrRunning)
	}
}

// After the stopper (active_load_balance_cpu_stop()) prev is of a class
// above fair, so __pick_next_task() takes its slow path: balance_fair()
// returns at once while cfs.nr_running counts a task, delayed ones too
// (sched_fair_runnable()), and pick_next_task_fair(rq, prev, NULL) never
// balances. A source left with only a delayed task dequeues it and goes
// idle without a newidle pass; one left with no fair task runs newidle
// (here it pulls from cpu 2, which has two runnable tasks).
func TestStopperLeavesNewidleToBalanceFair(t *testing.T) {
	for _, leaveDelayed := range []bool{true, false} {
		s := taskSimPolicy(t, 5, `{"generation":"6.12","features":{"NI_RANDOM":false}}`)
		c0, c2 := &s.cpus[0], &s.cpus[2]
		a, b := place(s, 0, 0), place(s, 1, 0)
		s.schedule(c0)
		first := c0.curr
		other := b
		if first == b {
			other = a
		}
		place(s, 2, 2)
		place(s, 3, 2)
		s.schedule(c2)
		if leaveDelayed {
			s.now = 2_000_000 // first runs ahead of V
			s.syncCPU(c0)
			s.updateCurr(c0)
			s.blockTask(c0, first) // delayed: other runs
			if !first.delayed || c0.curr != other {
				t.Fatalf("set-up: delayed %v, curr %v", first.delayed, c0.curr)
			}
			first.cfsPos = c0.cfsSeq + 1 // the head: detach_one_task() takes other
		} else {
			s.blockTask(c0, first) // at V: eligible, dequeued
			if first.delayed {
				t.Fatal("set-up: the task was delayed")
			}
		}
		s.now += 10_000_000
		for i := range s.cpus {
			s.syncCPU(&s.cpus[i])
			s.updateCfsRqLoadAvg(&s.cpus[i])
		}
		s.rdOverloaded = true
		c0.avgIdle = 1 << 40
		c0.activeBalance = true
		s.activeLoadBalanceCPUStop(0, 1, migActive)
		if other.cpu != 1 {
			t.Fatalf("leave delayed %v: the stopper pushed nothing to cpu 1: %v / %v / %v", leaveDelayed, tasksOn(s, 0), tasksOn(s, 1), tasksOn(s, 2))
		}
		if leaveDelayed && (c0.curr != nil || c0.nrRunning != 0 || first.delayed) {
			t.Errorf("only a delayed task left: cpu 0 runs %v with %d queued (delayed %v); want it dequeued and cpu 0 idle, no newidle pass", c0.curr != nil, c0.nrRunning, first.delayed)
		}
		if !leaveDelayed && c0.curr == nil {
			t.Errorf("no fair task left: cpu 0 idle; want balance_fair()'s newidle pass to pull from cpu 2")
		}
	}
}

// A task that blocks while ineligible is delayed (dequeue_entity() →
// set_delayed()) and returns before update_entity_lag(): it is still
// cfs_rq->curr, on_rq and protected (vlag == deadline), for the pick that
// follows, until put_prev_entity(). Here the pick first finds another
// delayed task, Q, eligible with the earliest deadline and dequeues it;
// that raises V past prev's vruntime, and pick_eevdf() returns prev under
// RUN_TO_PARITY, so it too is dequeued for good (its next wake-up goes
// through select_task_rq_fair()), before R1 is picked. Treated as any
// queued entity, prev would lose to R1's earlier deadline and stay delayed.
func TestDelayedPrevKeepsItsProtectionForThePick(t *testing.T) {
	for _, gen := range []string{"6.12", "tip-2026-09"} {
		s := taskSimPolicy(t, 4, `{"generation":"`+gen+`"}`)
		c0 := &s.cpus[0]
		for k := range 4 {
			place(s, k, 0)
		}
		s.schedule(c0)
		prev := c0.curr
		q, r1, r2 := c0.rq[0], c0.rq[1], c0.rq[2]
		base, sl := prev.vruntime, vslice(prev)
		q.vruntime, q.deadline = base, base+sl/4
		r1.vruntime, r1.deadline = base+10_000, base+sl/2
		r2.vruntime, r2.deadline = base+40_000, base+40_000+sl
		prev.vruntime, prev.deadline = base+20_000, base+20_000+sl
		prev.protect = prev.deadline
		q.delayed, q.state = true, taskBlocked
		c0.nrDelayed++
		// V = base + 17.5 µs: prev is not eligible and is delayed
		s.blockTask(c0, prev)
		if c0.curr != r1 {
			t.Fatalf("%s: cpu 0 runs %v; want %s", gen, tasksOn(s, 0), r1.name)
		}
		if q.delayed || prev.delayed || c0.nrRunning != 2 || c0.nrDelayed != 0 {
			t.Errorf("%s: q delayed %v, prev delayed %v, nr_running %d (%d delayed); want both dequeued, 2 and 0", gen, q.delayed, prev.delayed, c0.nrRunning, c0.nrDelayed)
		}
		if prev.protected {
			t.Errorf("%s: prev still protected after the pick", gen)
		}
	}
}

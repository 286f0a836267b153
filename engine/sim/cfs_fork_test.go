package sim

import "testing"

// The 6.1 fair-class rules a side-by-side read of 6.1.192's fair.c found
// the engine departing from (Dec 2026): the fork's START_DEBIT on the
// parent's runqueue, SCHED_IDLE's granularities, the wake-up's
// renormalisation at set_task_cpu() and cfs_tasks' MRU order.

// task_fork_fair() (6.1) places the child on the parent's cfs_rq before
// wake_up_new_task() picks its CPU: one vslice of nr_running + 1 tasks
// (the parent counted, with its weight) past that min_vruntime, kept
// relative to it, so that enqueue_entity() adds the target's. Children
// forked from CPU 0 onto an idle CPU 1 each start 18 ms × 1024/2048 = 9 ms
// past CPU 1's min_vruntime when they arrive; the slice of the target's
// runqueue would give 18, 9 and 6 ms there.
func TestCFSForkStartDebitOnTheParentsRq(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1},"policy":{"generation":"6.1"},
		"workload":{"groups":[{"name":"w","count":3,"cpus":"1","parent_cpu":0,"program":[{"compute":"1s"}]}]},"run":{"duration":"1s","seed":1}}`)
	if !s.cfs || s.cfsLatency != 18e6 {
		t.Fatalf("set-up: cfs %v, sched_latency %d", s.cfs, s.cfsLatency)
	}
	s.forkGroup(0)
	c1 := &s.cpus[1]
	if c1.minVruntime != 0 || c1.curr != nil {
		t.Fatalf("set-up: cpu 1 ran a child during the forks (min_vruntime %d)", c1.minVruntime)
	}
	for i, p := range s.tasks {
		if got := p.vruntime - c1.minVruntime; got != 9e6 {
			t.Errorf("child %d starts %d ns past cpu 1's min_vruntime; want 9e6 (18 ms shared by the parent and the child on cpu 0)", i, got)
		}
	}
}

// place_entity() (6.1) gives a SCHED_IDLE sleeper at most half a
// min_granularity of credit (se_is_idle(): thresh = sysctl_sched_min_granularity),
// and sched_slice() gives a SCHED_IDLE task beside tasks of another policy
// at least sysctl_sched_idle_min_granularity (750 µs, unscaled), not
// min_granularity; a task of another policy keeps min_granularity.
func TestCFSSchedIdleGranularities(t *testing.T) {
	s := cfs61(t)
	c := &s.cpus[1]
	c.minVruntime = 100e6
	p := &task{weight: 3, idlePolicy: true, vrRq: c.id + 1}
	s.placeEntityCFS(c, p, false, false)
	if got := c.minVruntime - p.vruntime; got != s.cfsMinGran/2 {
		t.Errorf("a SCHED_IDLE sleeper placed %d ns behind min_vruntime; want min_granularity/2 = %d", got, s.cfsMinGran/2)
	}
	q := &task{weight: 1024, vrRq: c.id + 1}
	s.placeEntityCFS(c, q, false, false)
	if got := c.minVruntime - q.vruntime; got != s.cfsLatency/2 {
		t.Errorf("a normal sleeper placed %d ns behind min_vruntime; want sched_latency/2 = %d", got, s.cfsLatency/2)
	}
	idle := &task{weight: 3, idlePolicy: true}
	mixed := rqOf(ent(0, 0, 1024), ent(0, 0, 1024), idle)
	mixed.idleNr = 1
	if got := s.schedSlice(mixed, idle, true); got != 750_000 {
		t.Errorf("a SCHED_IDLE task beside two normal ones: slice %d; want sysctl_sched_idle_min_granularity 750000", got)
	}
	nice19 := &task{weight: 15}
	if got := s.schedSlice(rqOf(ent(0, 0, 1024), ent(0, 0, 1024), nice19), nice19, true); got != s.cfsMinGran {
		t.Errorf("a nice-19 task beside two nice-0 ones: slice %d; want min_granularity %d", got, s.cfsMinGran)
	}
}

// migrate_task_rq_fair() (6.1) runs under set_task_cpu() in
// try_to_wake_up(): a wakee that changes CPU leaves its old runqueue's
// min_vruntime as it is at the wake-up. Time the old CPU runs on while
// the wake-up is in flight gives it no credit.
func TestCFSWakeRenormalisesAtTheWakeUp(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1},"policy":{"generation":"6.1"},
		"workload":{"groups":[{"name":"w","count":1,"cpus":"2","program":[{"compute":"1s"}]}]},"run":{"duration":"1s","seed":1}}`)
	p := s.tasks[0]
	a, b := &s.cpus[1], &s.cpus[2]
	a.minVruntime, b.minVruntime = 50e6, 900e6
	p.cpu, p.vrRq, p.vruntime, p.state, p.placed = 1, 2, 49e6, taskBlocked, true
	s.tryToWakeUp(p, 0, nil, false, false)
	if p.state != taskWaking {
		t.Fatalf("set-up: the wakee is %v, not in flight", p.state)
	}
	a.minVruntime += 100e3 // cpu 1 runs on while the wake-up is in flight
	s.wakeArrive(p)
	if got := p.vruntime - b.minVruntime; got != -1e6 {
		t.Errorf("woken onto cpu 2: %d ns past its min_vruntime; want -1e6 (1 ms behind cpu 1's at the wake-up)", got)
	}
}

// pick_next_task_fair() (6.1, done:) moves every pick to the head of
// rq->cfs_tasks, prev picked again included; detach_tasks() walks from
// the tail, so that order decides which task a pass takes first.
func TestCFSRepickMovesPrevToTheHead(t *testing.T) {
	_, c0 := cfsSimRepick(t)
	if c0.curr.cfsPos != c0.cfsSeq {
		t.Errorf("prev picked again: cfs_tasks position %d, head %d; want the head", c0.curr.cfsPos, c0.cfsSeq)
	}
}

func cfsSimRepick(t *testing.T) (*sim, *cpuState) {
	t.Helper()
	s, c0 := cfsSim(t, 2)
	curr := c0.curr
	other := c0.rq[0]
	c0.cfsListHead(other)
	curr.vruntime = other.vruntime - 1e6
	c0.needResched = true
	s.schedule(c0)
	if c0.curr != curr {
		t.Fatal("set-up: curr, 1 ms behind the other task, was not picked again")
	}
	return s, c0
}

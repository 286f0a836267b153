package sim

import "schedplay/engine/topo"

// The RT class's push and pull (kernel/sched/rt.c, CONFIG_SMP): an RT
// task queued behind a higher priority on its CPU moves to a CPU that runs
// lower priorities. A CPU with such tasks is "overloaded" (rq->rt.overloaded,
// in the root domain's rto_mask). It pushes them when one of them wakes
// there without preempting (task_woken_rt()) and when it starts running an
// RT task (set_next_task_rt() → rt_queue_push_tasks()); a CPU whose RT
// task sleeps, leaving it to lower priorities, asks the overloaded CPUs
// to push (balance_rt() → pull_rt_task()), which under RT_PUSH_IPI (on by
// default) is a chain of irq_work IPIs from one overloaded CPU to the
// next (tell_cpu_to_push(), rto_push_irq_work_func()).

// rtoState is the root domain's RT-overload state (struct root_domain):
// rto_mask and rto_count, the CPUs with pushable RT tasks, and the push
// IPI loop's rto_cpu (-1 when no loop runs), rto_loop and rto_loop_next.
type rtoState struct {
	mask           topo.CPUSet
	count          int
	cpu            int
	loop, loopNext int
}

// enqueuePushableTask is enqueue_pushable_task() of p, queued on c and
// not running, when it may run elsewhere (nr_cpus_allowed > 1): the first
// such task makes c overloaded (rt_set_overload()).
func (s *sim) enqueuePushableTask(c *cpuState, p *task) {
	if p.nrAllowed < 2 {
		return
	}
	if c.rtPushable++; c.rtPushable == 1 {
		s.rto.mask.Set(topo.CPU(c.id))
		s.rto.count++
	}
}

// dequeuePushableTask is dequeue_pushable_task(): p leaves c's pushable
// tasks (it runs, or leaves c); the last one clears c's overload
// (rt_clear_overload()).
func (s *sim) dequeuePushableTask(c *cpuState, p *task) {
	if p.nrAllowed < 2 {
		return
	}
	if c.rtPushable--; c.rtPushable == 0 {
		s.rto.mask.Clear(topo.CPU(c.id))
		s.rto.count--
	}
}

// pickNextPushableTask is pick_next_pushable_task(): the highest-priority
// queued RT task of c that may run elsewhere.
func pickNextPushableTask(c *cpuState) *task {
	for _, p := range c.rtq {
		if p.nrAllowed > 1 {
			return p
		}
	}
	return nil
}

// pushRTTask is push_rt_task() on c: its highest pushable task moves to a
// CPU whose highest priority is below the task's (find_lock_lowest_rq()),
// whose curr is rescheduled (resched_curr(), an IPI away). A pushable task
// above c's curr (it has just arrived) reschedules c instead. It reports
// whether a task moved.
func (s *sim) pushRTTask(c *cpuState) bool {
	if c.rtPushable == 0 {
		return false
	}
	next := pickNextPushableTask(c)
	if !c.curr.isRT() || next.rtPrio > c.curr.rtPrio {
		s.reschedCurr(c.id, c.id)
		return false
	}
	lowest := s.findLockLowestRq(next, c)
	if lowest < 0 {
		return false
	}
	// deactivate_task(), set_task_cpu(), activate_task()
	s.dequeueQueuedRT(c, next)
	s.m.migration(s, migRTPush)
	s.enqueueTaskRT(&s.cpus[lowest], next)
	s.reschedCurr(lowest, c.id)
	return true
}

// pushRTTasks is push_rt_tasks(): push while tasks move.
func (s *sim) pushRTTasks(c *cpuState) {
	for s.pushRTTask(c) {
	}
}

// findLockLowestRq is find_lock_lowest_rq() of p queued on c, run on c:
// find_lowest_rq(), kept when that CPU is not c; -1 otherwise. (The
// kernel checks the CPU's highest priority again once it holds both rq
// locks, against a race a serial model does not have: find_lowest_rq()
// returns only CPUs below p's priority.)
func (s *sim) findLockLowestRq(p *task, c *cpuState) int {
	if cpu := s.findLowestRq(p, c.id, c.id); cpu != c.id {
		return cpu
	}
	return -1
}

// dequeueQueuedRT is dequeue_task_rt() of p, queued on c and not running,
// as it leaves c (sub_nr_running()).
func (s *sim) dequeueQueuedRT(c *cpuState, p *task) {
	s.rtqRemove(c, p)
	c.rtNr--
	s.cpuChanged(c)
}

// taskWokenRT is task_woken_rt() of p, just activated on c without a
// reschedule: c pushes when its curr is an RT task that p does not
// preempt (of p's priority or higher, or pinned) and p may run elsewhere.
func (s *sim) taskWokenRT(c *cpuState, p *task) {
	curr := c.curr
	if curr == p || c.needResched || p.nrAllowed < 2 || !curr.isRT() ||
		curr.nrAllowed > 1 && curr.rtPrio < p.rtPrio {
		return
	}
	s.pushRTTasks(c)
}

// balanceRT is balance_rt() of the schedule() after an RT task left c by
// sleeping or exiting (prev's class is above fair, so prev_balance() runs
// it): when what is left on c is of a lower priority than prev
// (need_pull_rt_task()), c pulls (pull_rt_task()).
func (s *sim) balanceRT(c *cpuState) {
	prio := c.rtPullPrio
	c.rtPullPrio = 0
	if prio > 0 && c.rtHighestPrio() < prio {
		s.pullRTTask(c)
	}
}

// pullRTTask is pull_rt_task() on c under RT_PUSH_IPI: nothing to do when
// no CPU is overloaded or c is the only one; otherwise c starts the push
// IPI loop over the overloaded CPUs (tell_cpu_to_push()), each of which
// pushes to whichever CPUs run lower priorities, c among them.
func (s *sim) pullRTTask(c *cpuState) {
	if s.rto.count == 0 || s.rto.count == 1 && s.rto.mask.Has(topo.CPU(c.id)) {
		return
	}
	s.tellCPUToPush(c)
}

// tellCPUToPush is tell_cpu_to_push(): rto_loop_next counts the request,
// so that a loop already under way goes round once more; without one,
// the IPI goes to the first overloaded CPU other than c.
func (s *sim) tellCPUToPush(c *cpuState) {
	s.rto.loopNext++
	if s.rto.cpu >= 0 {
		return
	}
	if cpu := s.rtoNextCPU(c.id); cpu >= 0 {
		s.q.push(event{at: s.now + s.ipiLatency(cpu), kind: evRTOPush, a: int32(cpu)})
	}
}

// rtoNextCPU is rto_next_cpu() on CPU this: the next overloaded CPU after
// rto_cpu other than this one; at the end of the mask the loop starts
// again when a request came in since it started (rto_loop_next), else it
// ends (-1, rto_cpu back at -1).
func (s *sim) rtoNextCPU(this int) int {
	for {
		next := s.rto.mask.Next(topo.CPU(s.rto.cpu))
		s.rto.cpu = int(next)
		if s.rto.cpu == this {
			continue
		}
		if next.Valid() {
			return s.rto.cpu
		}
		s.rto.cpu = -1
		if s.rto.loop == s.rto.loopNext {
			return -1
		}
		s.rto.loop = s.rto.loopNext
	}
}

// rtoPushIRQWork is rto_push_irq_work_func() on cpu, the push IPI's
// arrival: cpu pushes its pushable tasks, then passes the IPI on to the
// next overloaded CPU.
func (s *sim) rtoPushIRQWork(cpu int) {
	c := &s.cpus[cpu]
	if c.rtPushable > 0 {
		s.pushRTTasks(c)
	}
	if next := s.rtoNextCPU(cpu); next >= 0 {
		s.q.push(event{at: s.now + s.ipiLatency(next), kind: evRTOPush, a: int32(next)})
	}
}

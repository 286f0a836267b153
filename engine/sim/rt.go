package sim

import (
	"slices"

	"schedplay/engine/scenario"
	"schedplay/engine/topo"
)

// The real-time class (kernel/sched/rt.c) for SCHED_FIFO and SCHED_RR
// tasks (workload.groups[].policy, rt_priority): a CPU runs its queued RT
// tasks before any fair one, the highest priority first and each
// priority's in FIFO order; an RT wake-up preempts a fair curr at once
// (resched_curr(), never lazy) and a lower RT curr too; it stays on its
// CPU unless an RT task of its priority or higher runs there
// (select_task_rq_rt() → find_lowest_rq()); a queued one moves to a CPU
// running lower priorities (push and pull, rt_push.go); from 6.12 on the
// fair deadline server runs starved fair tasks 50 ms a second
// (dl_server.go), where 6.1 throttles the RT class at 950 ms a second
// (rt_throttle.go); the RT class's running time lowers the CPU's capacity
// for the fair class (rt_pressure.go). Not modelled: the capacity fitness
// of uclamp (without CONFIG_UCLAMP_TASK, as Debian builds 6.12, every CPU
// fits).

// kernelPrio is p->prio (normal_prio()): 99 - rt_priority for an RT
// task, 120 + nice (NICE_TO_PRIO()) for a fair one.
func (s *sim) kernelPrio(p *task) int {
	if p.isRT() {
		return 99 - p.rtPrio
	}
	return 120 + s.r.Workload.Groups[p.group].Nice
}

// taskInfo is how a timeline names p.
func (s *sim) taskInfo(p *task) TaskInfo {
	ti := TaskInfo{Name: p.name, Group: p.group, PID: p.pid, TGID: p.tgid, Prio: s.kernelPrio(p)}
	if pol := s.r.Workload.Groups[p.group].Policy; pol != scenario.PolicyNormal {
		ti.Policy = pol.KernelName() // p->policy as sched.h names it
	}
	return ti
}

// rrTimeslice is sched_rr_timeslice: RR_TIMESLICE, 100 ms, in ticks.
func (s *sim) rrTimeslice() int { return max(1, int(100_000_000/s.tickNs)) }

// rtHighestPrio is rq->rt.highest_prio.curr as a sched_priority: the
// highest of c's running and queued RT tasks, 0 without any (the CPU's
// cpupri is then CPUPRI_NORMAL, idle or running fair tasks).
func (c *cpuState) rtHighestPrio() int {
	prio := 0
	if c.curr.isRT() {
		prio = c.curr.rtPrio
	}
	if len(c.rtq) > 0 {
		prio = max(prio, c.rtq[0].rtPrio)
	}
	return prio
}

// rtqInsert queues p in c.rtq among the tasks of its priority: at their
// head (a preempted curr keeps its place, put_prev_task_rt()) or at their
// tail (enqueue_rt_entity(), requeue_task_rt(p, 0)).
func rtqInsert(c *cpuState, p *task, head bool) {
	i := 0
	for i < len(c.rtq) && (c.rtq[i].rtPrio > p.rtPrio || !head && c.rtq[i].rtPrio == p.rtPrio) {
		i++
	}
	c.rtq = slices.Insert(c.rtq, i, p)
}

// rtqRemove takes queued p out of c.rtq and c's pushable tasks
// (dequeue_pushable_task()): it runs, or leaves c.
func (s *sim) rtqRemove(c *cpuState, p *task) {
	i := slices.Index(c.rtq, p)
	c.rtq = slices.Delete(c.rtq, i, i+1)
	s.dequeuePushableTask(c, p)
}

// enqueueTaskRT is enqueue_task_rt(): p joins the tail of its priority's
// list on c (add_nr_running() counts it in rq->nr_running).
func (s *sim) enqueueTaskRT(c *cpuState, p *task) {
	p.cpu = c.id
	p.state = taskRunnable
	rtqInsert(c, p, false)
	c.rtNr++
	s.startRTBandwidth(c.id) // inc_rt_group()
	s.enqueuePushableTask(c, p)
	s.cpuChanged(c)
	s.addNrRunning(c, 1)
}

// dequeueCurrRT is dequeue_task_rt() of the running RT task as it sleeps
// or exits.
func (s *sim) dequeueCurrRT(c *cpuState, p *task, exiting bool) {
	s.syncCPU(c)
	s.updateCurrRT(c)
	s.updateRtRqLoadAvg(c, true) // put_prev_task_rt() in the schedule() that follows
	out := OutSleep
	if exiting {
		out = OutExit
	}
	s.stopRunning(c, p, out)
	c.curr = nil
	c.rtNr--
	c.rtPullPrio = p.rtPrio // balance_rt() in the schedule() that follows
	s.cpuChanged(c)
	p.sleepStart = s.now
}

// putPrevTaskRT is put_prev_task_rt() of a preempted RT task: it stays
// queued at the head of its priority's list, or at the tail when SCHED_RR's
// slice ran out with another task of its priority waiting (task_tick_rt()).
func (s *sim) putPrevTaskRT(c *cpuState, p *task) {
	s.updateRtRqLoadAvg(c, true)
	s.mutexSwitchedOut(p)
	s.stopRunning(c, p, OutPreempt)
	c.curr = nil
	p.state = taskRunnable
	rtqInsert(c, p, !p.rrTail)
	p.rrTail = false
	s.enqueuePushableTask(c, p)
	s.cpuChanged(c)
}

// pickNextTaskRT is pick_next_task_rt(): the first task of the highest
// priority, where prev, preempted and still runnable, heads its own
// priority's list (a SCHED_RR prev whose slice ran out does not).
func pickNextTaskRT(c *cpuState, prev *task) *task {
	if c.rtThrottled { // sched_rt_runnable(): the throttled class is off the rq
		return nil
	}
	if prev.isRT() && prev.state == taskRunning {
		if len(c.rtq) == 0 || c.rtq[0].rtPrio < prev.rtPrio || c.rtq[0].rtPrio == prev.rtPrio && !prev.rrTail && c.rtq[0] != c.rtqAhead {
			return prev
		}
	}
	if len(c.rtq) > 0 {
		return c.rtq[0]
	}
	return nil
}

// setCurrRT is set_next_task_rt(): p becomes rq->curr and leaves the
// pushable tasks; the other pushable ones are pushed once the switch is
// done (rt_queue_push_tasks(), a balance callback). After a prev of
// another class (prevRT false) rq->avg_rt takes the time it did not run.
func (s *sim) setCurrRT(c *cpuState, p *task, prevRT bool) {
	if !prevRT {
		s.updateRtRqLoadAvg(c, false)
	}
	s.rtqRemove(c, p)
	s.becomeCurr(c, p)
	s.contextSwitch(c, p)
	s.switchedIn(c, p)
	if c.rtPushable > 0 {
		s.pushRTTasks(c)
	}
}

// taskTickRT is task_tick_rt(): a SCHED_RR task's slice counts down in
// ticks; when it runs out it is refilled, and with another task of its
// priority queued the task goes to the tail of their list and c
// reschedules (resched_curr()). SCHED_FIFO has no slice.
func (s *sim) taskTickRT(c *cpuState) {
	s.updateCurrRT(c)
	s.updateRtRqLoadAvg(c, true)
	p := c.curr
	if !p.rr {
		return
	}
	if p.rrLeft--; p.rrLeft > 0 {
		return
	}
	p.rrLeft = s.rrTimeslice()
	for _, q := range c.rtq {
		if q.rtPrio == p.rtPrio {
			p.rrTail = true
			c.needResched = true
			return
		}
	}
}

// wakeupPreemptRT is wakeup_preempt() for an RT wakee p on c: a fair or
// idle curr is preempted at once, an RT curr when p's priority is higher
// (wakeup_preempt_rt()), or, at equal priority and with no resched
// pending, when check_preempt_equal_prio() lets p in.
func (s *sim) wakeupPreemptRT(c *cpuState, p *task) bool {
	if !c.curr.isRT() || p.rtPrio > c.curr.rtPrio {
		return true
	}
	return p.rtPrio == c.curr.rtPrio && !c.needResched && s.checkPreemptEqualPrio(c, p)
}

// checkPreemptEqualPrio is check_preempt_equal_prio(): when curr could
// run on a CPU of lower priority and p, queued behind it at its priority,
// could not (pinned, or cpupri_find() finds no CPU for it), p goes to the
// head of its priority's list ahead of curr (requeue_task_rt(rq, p, 1))
// and curr is rescheduled; set_next_task_rt() of p then pushes curr away.
func (s *sim) checkPreemptEqualPrio(c *cpuState, p *task) bool {
	curr := c.curr
	if curr.nrAllowed == 1 || !s.cpupriFind(curr) {
		return false
	}
	if p.nrAllowed != 1 && s.cpupriFind(p) {
		return false
	}
	i := slices.Index(c.rtq, p)
	c.rtq = slices.Delete(c.rtq, i, i+1)
	rtqInsert(c, p, true)
	c.rtqAhead = p
	return true
}

// cpupriFind is cpupri_find() without a lowest mask wanted: whether a CPU
// of p's mask runs only priorities below p's (fair and idle CPUs count as
// CPUPRI_NORMAL, below every RT priority).
func (s *sim) cpupriFind(p *task) bool {
	for i := p.allowed.First(); i.Valid(); i = p.allowed.Next(i) {
		if s.cpus[i].rtHighestPrio() < p.rtPrio {
			return true
		}
	}
	return false
}

// selectTaskRqRT is select_task_rq_rt() for a wake-up or a fork of p whose
// CPU is cpu (task_cpu(), or the parent's), issued from CPU this: p stays
// on cpu unless an RT task of its priority or higher runs there (or a
// pinned one), in which case find_lowest_rq() looks for a CPU running
// lower priorities, taken only when its highest is below p's. A CPU
// outside p's mask becomes select_fallback_rq()'s.
func (s *sim) selectTaskRqRT(p *task, cpu, this int) int {
	if p.nrAllowed == 1 { // select_task_rq(): cpumask_any(p->cpus_ptr)
		return int(p.allowed.First())
	}
	c := &s.cpus[cpu]
	if curr := c.curr; curr.isRT() && (curr.nrAllowed < 2 || curr.rtPrio >= p.rtPrio) {
		if target := s.findLowestRq(p, cpu, this); target >= 0 && p.rtPrio > s.cpus[target].rtHighestPrio() {
			cpu = target
		}
	}
	if !p.allowed.Has(topo.CPU(cpu)) {
		cpu = s.selectFallbackRq(p, cpu)
	}
	return cpu
}

// findLowestRq is find_lowest_rq(): cpupri_find() gives the allowed CPUs
// at the lowest priority level below p's (idle or fair ones first), then
// the task's own CPU if it is one of them, else this CPU if it is and
// shares a wake-affine domain with the task's, else the first of them
// after this CPU's last pick in the smallest such domain
// (cpumask_any_and_distribute()), else any of them. -1 when p is pinned or
// no CPU runs lower priorities.
func (s *sim) findLowestRq(p *task, cpu, caller int) int {
	if p.nrAllowed == 1 {
		return -1
	}
	lowest, level := topo.NewCPUSet(len(s.cpus)), p.rtPrio
	for i := p.allowed.First(); i.Valid(); i = p.allowed.Next(i) {
		switch pr := s.cpus[i].rtHighestPrio(); {
		case pr > level:
		case pr < level:
			lowest = topo.NewCPUSet(len(s.cpus))
			level = pr
			lowest.Set(i)
		case pr < p.rtPrio:
			lowest.Set(i)
		}
	}
	if level >= p.rtPrio {
		return -1
	}
	if lowest.Has(topo.CPU(cpu)) {
		return cpu
	}
	this := caller // smp_processor_id(), skipped when it runs a higher priority
	if !lowest.Has(topo.CPU(this)) {
		this = -1
	}
	for _, sd := range s.t.Domains[cpu] {
		if sd.Flags&topo.SDWakeAffine == 0 {
			continue
		}
		if this >= 0 && sd.Span.Has(topo.CPU(this)) {
			return this
		}
		if best := s.anyAndDistribute(caller, lowest, sd.Span); best >= 0 {
			return best
		}
	}
	if this >= 0 {
		return this
	}
	return s.anyAndDistribute(caller, lowest, lowest) // cpumask_any_distribute()
}

// anyAndDistribute is cpumask_any_and_distribute() on CPU caller (span
// lowest: cpumask_any_distribute()): the first CPU of lowest ∩ span after
// the one caller's last call returned (its per-CPU
// distribute_cpu_mask_prev), wrapping.
func (s *sim) anyAndDistribute(caller int, lowest, span topo.CPUSet) int {
	c := &s.cpus[caller]
	best := -1
	for i := lowest.First(); i.Valid(); i = lowest.Next(i) {
		if !span.Has(i) {
			continue
		}
		if best < 0 || int(i) > c.distPrev && (best <= c.distPrev || int(i) < best) {
			best = int(i)
		}
	}
	if best >= 0 {
		c.distPrev = best
	}
	return best
}

// selectFallbackRq is select_fallback_rq() for a CPU outside p's mask: an
// allowed CPU of its node first, else any allowed one.
func (s *sim) selectFallbackRq(p *task, cpu int) int {
	for i := p.allowed.First(); i.Valid(); i = p.allowed.Next(i) {
		if s.cpus[i].node == s.cpus[cpu].node {
			return int(i)
		}
	}
	return int(p.allowed.First())
}

// ttwuDoActivateRT is ttwu_do_activate() of an RT task p on c (see
// ttwuDoActivate): enqueue_task_rt(), then wakeup_preempt(), whose
// resched_curr() is never lazy for a class above fair.
func (s *sim) ttwuDoActivateRT(p *task, c *cpuState, waker int, reschedAfter int64) {
	if p.cpu != c.id {
		s.m.migration(s, migWakeup)
	}
	if !s.feat.AvgIdleAtIdleExitOn() {
		s.updateAvgIdle(c) // 6.12: ttwu_do_activate() takes the sample
	}
	s.enqueueTaskRT(c, p)
	if c.curr != nil && !s.wakeupPreemptRT(c, p) {
		s.taskWokenRT(c, p)
		if reschedAfter < 0 {
			s.irqExit(c)
		}
		return
	}
	if reschedAfter < 0 {
		s.schedule(c)
		return
	}
	if !c.needResched {
		s.needReschedAt(c, s.now+reschedAfter)
	}
}

// forkTaskRT is wake_up_new_task() of a thread that takes its RT policy
// itself once it runs, as cyclictest's timerthread() and rt-app's threads
// do (sched_setscheduler(0, ...); pthread_create() gives the thread the
// main thread's SCHED_OTHER): the fork is placed by the fair class
// (select_task_rq_fair() with WF_FORK, the slow path), and the policy
// change of the running thread moves it nowhere (switched_to_rt()).
// Simplification: the thread is RT from that first enqueue, so it
// preempts a fair curr there at once (wakeup_preempt()).
func (s *sim) forkTaskRT(p *task, parentCPU int) {
	p.cpu = parentCPU
	p.recentUsedCPU = parentCPU
	target := s.selectTaskRq(p, parentCPU, parentCPU, nil, false, true)
	p.cpu = target
	c := &s.cpus[target]
	s.enqueueTaskRT(c, p)
	if c.curr != nil && !s.wakeupPreemptRT(c, p) {
		s.taskWokenRT(c, p)
		return
	}
	if target == parentCPU {
		s.schedule(c)
		return
	}
	s.reschedCurr(target, parentCPU)
}

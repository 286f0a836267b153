package sim

import (
	"fmt"

	"schedplay/engine/topo"
)

// The core scheduler operations (kernel/sched/core.c and the fair class
// hooks): enqueue/dequeue, schedule(), try_to_wake_up(), the tick.

// availableIdle is available_idle_cpu(): nothing running, queued or arriving.
func (s *sim) availableIdle(cpu int) bool {
	c := &s.cpus[cpu]
	return c.curr == nil && c.nrTasks() == 0 && c.pending == 0 && !c.hkBusy
}

// enqueueTask is enqueue_task_fair() for a task arriving on c. It reports
// whether enqueue_entity()'s update_curr() asked to reschedule c's running
// task (update_curr() → resched_curr(): its slice ran out, or
// PREEMPT_SHORT found it no longer eligible, with another task queued).
func (s *sim) enqueueTask(c *cpuState, p *task, initial, migrated bool) bool {
	s.syncCPU(c)
	resched := s.updateCurr(c)
	s.updateCfsRqLoadAvg(c)
	p.cpu = c.id
	p.state = taskRunnable
	p.avg.lastWall = s.now
	s.placeEntity(c, p, initial, migrated)
	firstFair, idleRq := c.nrRunning == 0, c.nrRunningAll() == 0
	c.rqAdd(p)
	c.utilEstSum += p.utilEst
	s.cpuChanged(c)
	if firstFair {
		s.fairClassStarts(c, idleRq)
	}
	s.addNrRunning(c, 1)
	return resched
}

// addNrRunning is add_nr_running(rq, count)'s root-domain part, after c
// has counted its count new tasks: set_rd_overloaded() when rq->nr_running
// (c's tasks, plus the kernel noise's kworker while it runs) has just gone
// from below 2 to 2 or more.
func (s *sim) addNrRunning(c *cpuState, count int) {
	if n := c.nrRunningAll(); n-count < 2 && n >= 2 {
		s.rdOverloaded = true
	}
}

// nrRunningAll is rq->nr_running over every class: c's fair tasks, plus
// the kernel noise's kworker while it runs (it is no member of c.rq).
func (c *cpuState) nrRunningAll() int {
	if c.hkBusy {
		return c.nrTasks() + 1
	}
	return c.nrTasks()
}

// dequeueCurr takes the running task off c (dequeue_task_fair with
// DEQUEUE_SLEEP, or at exit, where task_dead_fair() leaves its averages
// to c's removed load, remove_entity_load_avg(), as a wake-up migration
// does).
func (s *sim) dequeueCurr(c *cpuState, p *task, exiting bool) {
	if p.isRT() {
		s.dequeueCurrRT(c, p, exiting)
		return
	}
	s.syncCPU(c)
	if !s.cfs {
		s.utilEstDequeueUpdate(c, p)
	}
	s.updateCurr(c)
	s.updateTaskLoadAvg(p)
	s.updateCfsRqLoadAvg(c)
	if s.cfs {
		s.utilEstDequeueUpdate(c, p)
	}
	s.updateEntityLag(c, p)
	out := OutSleep
	if exiting {
		out = OutExit
	}
	s.stopRunning(c, p, out)
	clearBuddies(c, p)
	wasSchedIdle := c.schedIdleRq()
	c.curr = nil
	c.nrRunning--
	c.loadWeight -= p.weight
	c.accountIdle(p, -1)
	s.balanceEarlyOnSchedIdle(c, wasSchedIdle)
	if s.cfs {
		updateMinVruntime(c)
	}
	s.cpuChanged(c)
	p.sleepStart = s.now
	if exiting {
		s.removeEntityLoadAvg(c, p)
	}
}

// blockTask puts the running task to sleep and reschedules its CPU.
func (s *sim) blockTask(c *cpuState, p *task) {
	p.spinning = false
	if p.isRT() || !s.dequeueCurrDelayed(c, p) {
		s.dequeueCurr(c, p, false)
		p.state = taskBlocked
	}
	s.schedule(c)
}

// stopRunning closes the task's run interval on c, out saying why.
func (s *sim) stopRunning(c *cpuState, p *task, out SwitchOut) {
	p.wakeStallUntil = 0 // what is left of it stays on c (stallUntil)
	s.m.runSpan(s, p, c.id, p.runStart, s.now, out)
	c.lastTaskTime = s.now
	s.notePEStop(c)
}

// schedule is __schedule() → pick_next_task_fair(): keep or replace curr,
// run newidle balance when nothing is left, go idle otherwise.
func (s *sim) schedule(c *cpuState) { s.pickNextTask(c, true) }

// scheduleAfterStopper is __schedule() with the stopper as prev (after
// active_load_balance_cpu_stop()): a class above fair, so
// __pick_next_task() takes its slow path. prev_balance() → balance_fair()
// runs sched_balance_newidle() once, and only when no fair task is queued
// (sched_fair_runnable() counts delayed ones); pick_next_task_fair() then
// gets no rq_flags and never balances itself.
func (s *sim) scheduleAfterStopper(c *cpuState) {
	c.schedPrev = true // rq->curr is the stopper: idle_cpu(c) is false in balance_fair()'s pass
	s.pickNextTask(c, false)
}

// pickNextTask is __pick_next_task() for schedule(): fair is prev's class
// or below it (fast, pick_next_task_fair() with its newidle loop) or not
// (balance_fair() first).
func (s *sim) pickNextTask(c *cpuState, fast bool) {
	prev := c.curr
	fromIdle := c.inIdle && !c.schedPrev // rq->curr is the idle task
	if fromIdle && s.smIdle && c.nrRunningAll() == 0 {
		s.schedIdleReenter(c)
		return
	}
	if prev != nil {
		s.syncCPU(c)
		s.updateCurr(c)
		s.updateCurrRT(c) // put_prev_task_rt(), before the pick in 6.1
	}
	// rq->curr stays prev until context_switch(): for the newidle passes
	// below, idle_cpu(c) is false unless prev is the idle task (a CPU with
	// a curr is never inIdle)
	c.schedPrev = c.schedPrev || !c.inIdle
	s.balanceRT(c) // prev_balance(): an RT prev that left asks the overloaded CPUs to push
	// __pick_next_task(): the fair server (pick_task_dl()), then the RT
	// class (pick_next_task_rt()); the fair class, with its newidle
	// balance, only when they have nothing
	wasIdle := c.inIdle
	next := s.pickTaskDL(c, prev, fast)
	c.fs.serving = next != nil // rq->dl_server, reset at every pick
	if next == nil {
		next = pickNextTaskRT(c, prev)
	}
	if next == nil {
		if !fast && c.nrRunning == 0 {
			s.schedBalanceNewidle(c)
		}
		next = s.pickNextEntity(c)
		if dp := c.delayedPrev; dp != nil { // put_prev_entity(): prev leaves cfs_rq->curr
			c.delayedPrev = nil
			dp.protected = false
		}
		// pick_next_task_fair(): "goto again" after every newidle pass that
		// leaves a task queued, where the pick dequeues a pulled delayed task
		// for good (6.12's can_migrate_task() lets a delayed task go)
		for fast && next == nil && s.schedBalanceNewidle(c) > 0 {
			next = pickNextTaskRT(c, nil) // a newidle pass drops the rq lock: an RT wake-up may land
			if next == nil {
				next = s.pickNextEntity(c)
			}
		}
	} else if dp := c.delayedPrev; dp != nil { // put_prev_task_fair() → put_prev_entity() before the RT task runs
		c.delayedPrev = nil
		dp.protected = false
	}
	c.schedPrev = false
	c.needResched = false // clear_tsk_need_resched(prev), after the pick: both flags
	c.needReschedLazy = false
	c.rtqAhead = nil // check_preempt_equal_prio()'s order served this pick
	if next != nil && next == prev {
		if s.cfs && !prev.isRT() { // 6.1 pick_next_task_fair()'s done: moves every pick to the head of cfs_tasks
			c.cfsListHead(prev)
			s.updateMisfitStatus(c, prev) // and refreshes the misfit status, prev re-picked or not
		}
		s.reprogram(c)
		return
	}
	if prev.isRT() {
		s.putPrevTaskRT(c, prev)
	} else if prev != nil {
		s.putPrevTaskFair(c, prev)
	}
	if next == nil {
		s.updateRqClockPelt(c) // prev's time up to the switch, on the task's clock
		c.inIdle = true        // set_next_task_idle(): the idle task becomes rq->curr
		if !wasIdle {
			c.setNextTaskIdle(s.now)
		}
		s.updateRqClockPelt(c) // update_idle_rq_clock_pelt(), then the clock follows clock_task
		if !fromIdle {
			c.idleEnter = s.now // a new idle period: rq->curr was a task, the kworker or the stopper
		}
		c.idleState = s.cpuidleSelect(c)
		if !wasIdle {
			s.enterIdle(c)
		} else if !fromIdle {
			// the kernel noise's kworker slept: set_next_task_idle() →
			// update_idle_core() sets has_idle_cores again
			s.updateIdleCore(c)
		}
		s.peBusyChanged(c)
		s.nohzRunIdleBalance(c) // do_idle()
		return
	}
	if wasIdle {
		s.putPrevTaskIdle(c) // the fair server's idle time (the kernel noise's kworker counts as idle)
	}
	if fromIdle {
		s.cpuidleReflect(c)
		if s.feat.AvgIdleAtIdleExitOn() {
			s.updateAvgIdle(c) // put_prev_task_idle() → update_rq_avg_idle()
		}
	}
	if next.isRT() {
		s.setCurrRT(c, next, prev.isRT())
	} else {
		s.setCurr(c, next)
	}
	s.peBusyChanged(c)
	s.startActivity(c, next)
}

// schedIdleReenter is __schedule(SM_IDLE) with nothing queued (6.12,
// 3dcac251b066): next = prev, the idle task, with no pick, so no
// pick_next_task_fair() and no newidle balance; the flags are cleared
// (picked:), and do_idle() goes round again. Its exit restarted a stopped
// tick (tick_nohz_idle_exit()), which the loop's first pass keeps where
// a single-state driver retains it (IDLE_RETAIN_TICK) and stops again
// otherwise; the CPU stays in nohz.idle_cpus_mask either way
// (rq->nohz_tick_stopped is cleared only at a busy tick).
func (s *sim) schedIdleReenter(c *cpuState) {
	c.needResched = false
	c.needReschedLazy = false
	if s.idleRetainsTick && !c.tickOn {
		s.startTick(c)
	}
}

// setCurr is set_next_entity(): next becomes rq->curr.
func (s *sim) setCurr(c *cpuState, p *task) {
	for i, q := range c.rq {
		if q == p {
			copy(c.rq[i:], c.rq[i+1:])
			c.rq[len(c.rq)-1] = nil
			c.rq = c.rq[:len(c.rq)-1]
			break
		}
	}
	s.updateCfsRqLoadAvg(c)
	s.updateTaskLoadAvg(p)
	c.cfsListHead(p) // __set_next_task_fair(): the MRU task goes to the head
	clearBuddies(c, p)
	p.prevSumExec = p.sumExec
	s.becomeCurr(c, p)
	s.setProtectSlice(c, p)
	s.contextSwitch(c, p)
	s.updateMisfitStatus(c, p)
	s.switchedIn(c, p)
}

// becomeCurr is what set_next_task() of either class does to the rq and
// the task: p is rq->curr from here (nohz_balance_exit_idle() waits for
// the first busy tick), running, its exec_start and run interval starting.
func (s *sim) becomeCurr(c *cpuState, p *task) {
	c.inIdle = false
	c.curr = p
	s.cpuChanged(c)
	p.state = taskRunning
	p.execStart = s.now
	p.runStart = s.now
	p.cpuSince = s.now
	c.lastUpd = s.now
}

// contextSwitch is context_switch() to p: the thread switch, plus
// switch_mm_irqs_off() when p's mm is not the one the CPU last ran (a
// thread group is one mm; the idle task keeps the last mm loaded, as lazy
// TLB does).
func (s *sim) contextSwitch(c *cpuState, p *task) {
	cost := int64(s.r.Machine.Latency.ContextSwitch)
	if c.lastTgid != p.tgid {
		cost += int64(s.r.Machine.Latency.ProcessSwitch)
	}
	cost = s.kernelCost(c.id, cost)
	c.lastTgid = p.tgid
	c.stallUntil = max(c.stallUntil, s.now+s.costs.vary(cost))
	s.m.ctxSwitch(s)
	s.notePEStart(c)
}

// switchedIn records the wake-up latency of p, now running on c, and
// starts c's tick.
func (s *sim) switchedIn(c *cpuState, p *task) {
	if p.recordLatency {
		// the task's first instruction runs once the switch is done
		p.recordLatency = false
		s.recordLatency(c.stallUntil-p.wakeIssued, p.periodicLatency)
	}
	if p.pollExit != nil {
		s.pollFreewait(c, p)
	}
	if !c.tickOn {
		s.startTick(c)
	}
}

// startActivity resumes the task's compute/spin or runs its program.
func (s *sim) startActivity(c *cpuState, p *task) {
	if p.spinning {
		s.reprogram(c)
		return
	}
	if p.remaining >= 0.5 || s.activityDepth >= maxActivityDepth {
		s.reprogram(c)
		return
	}
	p.remaining = 0
	s.activityDepth++
	s.advance(c, p)
	s.activityDepth--
}

// maxActivityDepth bounds the nesting of startActivity(): a task that
// switches in with nothing left to compute runs its next steps at once,
// and with zero-cost IPC a ping-pong on one CPU hands over through
// ttwu_queue()'s local enqueue and the sleep's schedule() without an event
// between, one stack frame deeper per hand-off. Past this depth the next
// task's steps run from the event loop at the same instant (a compute end
// armed now).
const maxActivityDepth = 64

// startTick arms the CPU's tick at the next jiffy boundary.
func (s *sim) startTick(c *cpuState) {
	c.tickOn = true
	next := (s.now/s.tickNs + 1) * s.tickNs
	s.q.pushInOrder(event{at: next, kind: evTick, a: int32(c.id)})
}

// computeEnd handles the end of a compute or spin segment.
func (s *sim) computeEnd(c *cpuState) {
	p := c.curr
	if p == nil {
		return
	}
	s.syncCPU(c)
	if p.spinning {
		if s.now < p.spinEnd {
			s.reprogram(c)
			return
		}
		s.spinEnded(c, p)
		return
	}
	if p.remaining >= 0.5 {
		s.reprogram(c) // woke early (float rounding)
		return
	}
	p.done += p.remaining
	p.remaining = 0
	s.advance(c, p)
}

// tryToWakeUp is try_to_wake_up(): choose the CPU (select_task_rq_fair)
// and send the task there; it arrives after the wake-up latency
// (ttwuLatency), or is queued there at once where ttwu_queue() does not
// use the wake list (ttwuActivatesAtOnce).
//
// waker is the CPU the wake-up is issued from and cur is current there:
// the task that issued it (a send, a barrier release: byTask), or the one
// a timer expiring in hardirq context interrupted (nil if idle).
func (s *sim) tryToWakeUp(p *task, waker int, cur *task, sync, byTask bool) {
	if p.state != taskBlocked {
		return
	}
	if p.delayed {
		s.ttwuRunnable(p, waker, byTask)
		return
	}
	p.blockOn = waitNone
	s.m.wakeups(s)
	prev := p.cpu
	var target int
	if p.isRT() {
		target = s.selectTaskRqRT(p, prev, waker)
	} else {
		target = s.selectTaskRq(p, prev, waker, cur, sync, false)
	}
	if byTask {
		s.recordWaker(p, waker)
	}
	if !p.isRT() && target != prev {
		s.migrateTaskRqFair(p, prev)
	}
	p.state = taskWaking
	p.wakeCPU = target
	p.wakeIssued = s.now
	p.recordLatency = true
	d := s.ttwuLatency(waker, target)
	tc := &s.cpus[target]
	if s.ttwuActivatesAtOnce(waker, tc) {
		s.ttwuDoActivate(p, tc, waker, d)
		return
	}
	tc.pending++
	s.cpuChanged(tc)
	s.q.push(event{at: s.now + d, kind: evWakeArrive, a: int32(p.id)})
}

// migrateTaskRqFair is migrate_task_rq_fair() of a waking fair task
// under try_to_wake_up()'s set_task_cpu(), on the waker's side before the
// task is queued on its new CPU: its averages go to prev's
// cfs_rq->removed now (remove_entity_load_avg()), so an update of prev
// before the task arrives (the waker's own sleep, a balance pass) already
// leaves them out, and migrate_se_pelt_lag() brings the blocked task's
// sums to now (no cfs_se_util_change()). Under CFS its vruntime leaves
// prev's min_vruntime now too.
func (s *sim) migrateTaskRqFair(p *task, prev int) {
	if s.cfs && p.vrRq > 0 {
		p.vruntime -= s.cpus[p.vrRq-1].minVruntime
		p.vrRq = vrNormalised
	}
	s.removeEntityLoadAvg(&s.cpus[prev], p)
	s.updateTaskLoadSums(p)
}

// ttwuActivatesAtOnce is ttwu_queue_cond() false for a busy target:
// ttwu_queue() on waker enqueues the task on target itself (target is
// waker's CPU, or shares its LLC and runs something), so the next
// wake-up of a batch already finds it there. An idle waker CPU (a timer's
// hardirq) activates at once too, but it first leaves its idle state and
// runs try_to_wake_up(), so it keeps the arrival after ttwuLatency; an
// idle target of the LLC, or any of another LLC, gets the task through
// the wake list (TTWU_QUEUE) and activates it itself.
func (s *sim) ttwuActivatesAtOnce(waker int, tc *cpuState) bool {
	if tc.nrRunningAll() == 0 {
		return false
	}
	return tc.id == waker || s.t.SDLLCID[tc.id] == s.t.SDLLCID[waker]
}

// kernelCost is d ns of kernel instructions (a latency.* cost measured on a
// reference core of speed 1.0) run on cpu: they take d ÷ the CPU's class
// speed, as the kernel paths that run as work do (docs/model.md, "The cost
// of IPC and wake-ups"). Cache lines and idle exits are the memory
// system's and the hardware's, and are not scaled.
func (s *sim) kernelCost(cpu int, d int64) int64 {
	if sp := s.cpus[cpu].speed; sp != 1 {
		return int64(float64(d) / sp)
	}
	return d
}

// ipiLatency is latency.ipi for an IPI to target. Most of it is the
// handling there (the IRQ entry, sched_ttwu_pending() or the softirq
// raise), so all of it runs at the target's speed. A target that polls in
// idle gets no IPI (idlePolling): 0.
func (s *sim) ipiLatency(target int) int64 {
	if s.idlePolling(&s.cpus[target]) {
		return 0
	}
	return s.kernelCost(target, int64(s.r.Machine.Latency.IPI))
}

// ttwuLatency is the time from try_to_wake_up() on waker to the task
// queued on target (docs/model.md, "The cost of IPC and wake-ups"):
// ttwu's own work; for another CPU, ttwu_queue_wakelist() or the remote
// enqueue, whose lines come from the target, and the IPI that makes the
// target act (the waker pays the IPI's sending part: endWakeBatch); the
// exit latency of the idle state the target is in.
func (s *sim) ttwuLatency(waker, target int) int64 {
	lat := &s.r.Machine.Latency
	d := s.kernelCost(waker, int64(lat.Wakeup))
	if target != waker {
		d += s.ipiLatency(target) + wakeRemoteLines*s.cachelineCost(waker, target)
	}
	return s.costs.vary(d + s.idleExitCost(&s.cpus[target]))
}

// idlePolling is call_function_single_prep_ipi()'s set_nr_if_polling()
// (and resched_curr()'s set_nr_and_not_polling()) succeeding: c runs its
// idle loop in a state that polls its thread flags
// (machine.latency.idle_polling), so a remote wake-up or resched sets the
// flag and sends no IPI; the CPU leaves mwait on the write and handles the
// wake list from do_idle() (flush_smp_call_function_queue()). Kernel
// noise on an idle CPU is a kworker, which does not poll.
func (s *sim) idlePolling(c *cpuState) bool {
	return s.r.Machine.Latency.IdlePolling && c.curr == nil && !c.hkBusy
}

// reschedCurr is resched_curr() of cpu's running task (or its idle
// task), asked from CPU from: TIF_NEED_RESCHED is set at once (a CPU
// that has it already is left alone: one IPI per flag), and cpu reaches
// schedule() at once when it asked itself, else after the IPI and, when
// it is idle, its idle exit (evResched; a schedule() there first spends
// the flag, reschedIPI).
func (s *sim) reschedCurr(cpu, from int) {
	c := &s.cpus[cpu]
	if c.needResched { // test_tsk_need_resched(curr)
		return
	}
	d := int64(0)
	if cpu != from {
		d = s.ipiLatency(cpu) + s.idleExitCost(c) // smp_send_reschedule() (none to a polling idle CPU); an idle CPU leaves its state first
	}
	s.needReschedAt(c, s.now+d)
}

// needReschedAt sets c's TIF_NEED_RESCHED, which resched_curr() found
// clear, and has c reach schedule() at at (evResched: the IPI's arrival,
// or the CPU's own return from its path).
func (s *sim) needReschedAt(c *cpuState, at int64) {
	c.needResched = true
	s.q.push(event{at: at, kind: evResched, a: int32(c.id)})
}

// reschedIPI is the resched IPI's arrival (scheduler_ipi(), then the
// interrupt's return to schedule()), or a CPU's own resched_curr()
// reaching schedule(): a schedule() since the flag was set has cleared
// it, and the IPI finds nothing to do.
func (s *sim) reschedIPI(c *cpuState) {
	s.irqExit(c)
}

// irqExit is an interrupt's return on c (irqentry_exit()): schedule() on
// TIF_NEED_RESCHED, whoever set it, else on TIF_NEED_RESCHED_LAZY when
// curr was interrupted in user space (lazyIRQExit).
func (s *sim) irqExit(c *cpuState) {
	if c.needResched {
		s.schedule(c)
		return
	}
	s.lazyIRQExit(c)
}

// reschedLazy is resched_curr_lazy() of c's running task under
// PREEMPT_LAZY (kernel/sched/core.c, __resched_curr()): it sets
// TIF_NEED_RESCHED_LAZY, once per flag and not over TIF_NEED_RESCHED, sends
// no IPI, and reports true. It reports false, leaving the caller to
// resched_curr(), without PREEMPT_LAZY and when c runs its idle task (whose
// lazy request __resched_curr() makes a full one).
func (s *sim) reschedLazy(c *cpuState) bool {
	if !s.preemptLazy || c.curr == nil {
		return false
	}
	if !c.needResched {
		c.needReschedLazy = true
	}
	return true
}

// reschedCurrLazy is resched_curr_lazy() of cpu, asked from CPU from: the
// lazy flag (reschedLazy), where c reaches schedule() at its own return
// to user space when from is c itself; otherwise resched_curr().
func (s *sim) reschedCurrLazy(cpu, from int) {
	c := &s.cpus[cpu]
	if !s.reschedLazy(c) {
		s.reschedCurr(cpu, from)
		return
	}
	if cpu == from {
		s.lazyReturnAt(c, s.now)
	}
}

// lazyReturnAt has c look at its lazy flag when the path that set it on c
// itself returns, at at: a return to user space when that path is an
// interrupt taken in user space (lazyIRQExit); a task's own system call
// keeps the flag until the call returns (lazyPreemptPoint).
func (s *sim) lazyReturnAt(c *cpuState, at int64) {
	s.q.push(event{at: at, kind: evResched, a: int32(c.id)})
}

// lazyIRQExit is the return from an interrupt taken on c under
// PREEMPT_LAZY (irqentry_exit_to_user_mode(), exit_to_user_mode_loop()):
// a task interrupted in user space reaches schedule() when
// TIF_NEED_RESCHED_LAZY is set; one interrupted in a kernel path keeps
// the flag until that path returns to user space.
func (s *sim) lazyIRQExit(c *cpuState) {
	if lazyDueAtIRQExit(c) {
		s.schedule(c)
	}
}

// lazyDueAtIRQExit says whether an interrupt's return on c schedules on
// TIF_NEED_RESCHED_LAZY: the flag is set and curr runs in user space.
func lazyDueAtIRQExit(c *cpuState) bool {
	return c.needReschedLazy && c.curr != nil && c.curr.userMode
}

// wakeArrive is sched_ttwu_pending() on the target CPU: the wake list's
// task is activated there (ttwu_do_activate()).
func (s *sim) wakeArrive(p *task) {
	c := &s.cpus[p.wakeCPU]
	c.pending--
	s.cpuChanged(c)
	s.ttwuDoActivate(p, c, c.id, -1)
}

// ttwuDoActivate is ttwu_do_activate() of p on c. Run on c itself
// (reschedAfter < 0), a preemption schedules c at once; run by the waker
// (ttwu_queue()) on CPU waker, wakeup_preempt()'s resched_curr() reaches c
// reschedAfter ns later: the rest of try_to_wake_up()'s work and, for
// another CPU, the IPI. Under PREEMPT_LAZY a busy c only gets its lazy
// flag (reschedLazy): no IPI, and on c itself schedule() waits for the
// return to user space.
func (s *sim) ttwuDoActivate(p *task, c *cpuState, waker int, reschedAfter int64) {
	if p.isRT() {
		s.ttwuDoActivateRT(p, c, waker, reschedAfter)
		return
	}
	prev := p.cpu
	if prev != c.id {
		// its averages left prev at the wake-up (migrateTaskRqFair), with
		// last_update_time = 0, so the enqueue's update_load_avg() skips
		// the entity and attaches it: UTIL_AVG_UNCHANGED survives the move
		s.m.migration(s, migWakeup)
		p.execStart = execStartCold // WF_MIGRATED → ENQUEUE_MIGRATED: no longer cache hot
	} else {
		s.updateTaskLoadAvg(p)
	}
	if !s.feat.AvgIdleAtIdleExitOn() {
		s.updateAvgIdle(c) // 6.12: ttwu_do_activate() takes the sample
	}
	resched := s.enqueueTask(c, p, false, false)
	if prev != c.id {
		s.attachEntityLoadAvg(c, p)
	}
	if c.curr != nil && !resched && !s.checkPreemptWakeupFair(c, p, false) {
		if reschedAfter < 0 {
			s.irqExit(c) // the wake-list IPI's return: a TIF_NEED_RESCHED already set (its own IPI still on the way) schedules here
		}
		return
	}
	if reschedAfter < 0 {
		if s.reschedLazy(c) { // resched_curr_lazy(), then the IPI's return
			s.irqExit(c)
			return
		}
		s.schedule(c)
		return
	}
	if s.reschedLazy(c) {
		if c.id == waker {
			s.lazyReturnAt(c, s.now+reschedAfter)
		}
		return
	}
	if !c.needResched { // resched_curr(): once per flag
		s.needReschedAt(c, s.now+reschedAfter)
	}
}

// forkTask is wake_up_new_task(): place with the slow path, start PELT.
func (s *sim) forkTask(p *task, parentCPU int) {
	if p.isRT() {
		s.forkTaskRT(p, parentCPU)
		return
	}
	p.cpu = parentCPU           // sched_fork(): __set_task_cpu(p, smp_processor_id())
	p.recentUsedCPU = parentCPU // p->recent_used_cpu = task_cpu(p)
	if s.cfs {
		s.taskForkFair(&s.cpus[parentCPU], p)
	}
	target := s.selectTaskRq(p, parentCPU, parentCPU, nil, false, true)
	c := &s.cpus[target]
	p.cpu = target
	s.postInitEntityUtilAvg(c, p)
	s.attachEntityLoadAvg(c, p)
	resched := s.enqueueTask(c, p, true, false)
	if c.curr != nil && !resched && !s.checkPreemptWakeupFair(c, p, true) {
		return
	}
	if target == parentCPU {
		s.schedule(c)
		return
	}
	// wakeup_preempt(rq, p, WF_FORK) → resched_curr() runs on the parent's
	// CPU: another CPU, idle or busy, reschedules after the IPI, and an
	// idle one after its idle exit too (a busy one under PREEMPT_LAZY
	// only gets its lazy flag).
	s.reschedCurrLazy(target, parentCPU)
}

// timerFire handles a sleep's or period's hrtimer at its soft expiry
// (hard false) or when it fires (hard true). hrtimer_nanosleep() arms the
// timer with the task's slack (hrtimer_set_expires_range_ns()): the
// clockevent is programmed for soft + slack, and the timer runs earlier
// only when another interrupt's hrtimer_interrupt() runs the expired soft
// timers first: here the CPU's tick, when it is running (a busy CPU) and
// its next jiffy falls in the window.
func (s *sim) timerFire(p *task, hard bool) {
	if p.state != taskBlocked || p.blockOn != waitTimer {
		return
	}
	if !hard {
		c := &s.cpus[p.cpu]
		fire := s.now + s.timerSlack[p.group]
		// A governor stops an idle CPU's tick on idle entry
		// (tick_nohz_idle_stop_tick()); a single-state driver keeps it until
		// it first fires in idle (idleTick): only a running tick runs the
		// timer early.
		if tb := (s.now + s.tickNs - 1) / s.tickNs * s.tickNs; s.tickRunning(c) && tb < fire {
			fire = tb
		}
		if fire > s.now {
			s.q.push(event{at: fire, kind: evTimer, a: int32(p.id), gen: 1})
			return
		}
	}
	soft := p.timerSoft
	c := &s.cpus[p.cpu]
	pending := c.curr != nil && c.needResched // set by another CPU, its IPI still on the way
	s.tryToWakeUp(p, p.cpu, c.curr, false, false)
	p.wakeIssued = soft // latency counts from the expiry the task asked for
	if pending && c.needResched {
		s.irqExit(c) // the hrtimer interrupt's return schedules on it
	}
}

// tick is sched_tick() → task_tick_fair() plus sched_balance_trigger(),
// in the kernel's order: nohz_balancer_kick() decides in the tick's hard
// irq, SCHED_SOFTIRQ balances at the irq's exit, and the preemption that
// task_tick_fair() asked for (resched_curr()) happens on the return from
// the interrupt, after both.
func (s *sim) tick(c *cpuState) {
	if c.curr == nil {
		s.idleTick(c)
		return
	}
	s.rearmTick(c)
	if c.needReschedLazy { // sched_tick(): a lazy request older than this tick becomes resched_curr()
		c.needResched = true
	}
	s.syncCPU(c)
	if c.curr.isRT() {
		s.taskTickRT(c)
	} else {
		resched := s.updateCurr(c)
		if s.cfs {
			resched = s.checkPreemptTick(c) // entity_tick() → check_preempt_tick()
		}
		s.updateTaskLoadAvg(c.curr)
		s.updateCfsRqLoadAvg(c)
		s.updateMisfitStatus(c, c.curr)
		if resched && !s.reschedLazy(c) { // update_curr() → resched_curr_lazy()
			c.needResched = true // resched_curr(), local: no IPI
		}
	}
	s.nohzBalancerKick(c)
	s.schedBalanceTrigger(c)
	s.irqExit(c) // the interrupt's return; a flag a remote CPU set counts too
}

// enterIdle: the CPU runs the idle task (idle cores) and do_idle()
// decides about its tick: a governor stops it at once
// (tick_nohz_idle_stop_tick() → nohz_balance_enter_idle()); with a
// single-state cpuidle driver the first pass of the idle loop keeps it
// (idleTick stops it). rq->idle_stamp is not set here: only
// sched_balance_newidle() sets it, and not when a wake-up is pending.
func (s *sim) enterIdle(c *cpuState) {
	c.misfitLoad = 0
	s.cpuChanged(c)
	if !s.idleRetainsTick || !c.tickOn {
		s.nohzBalanceEnterIdle(c)
	}
	s.updateIdleCore(c)
}

// tickRunning reports whether c's tick is running now: a busy CPU's, or an
// idle CPU's that do_idle() kept (single-state cpuidle) and that has not
// fired in idle yet. The engine stops a tick lazily (tickOn stays set until
// the next jiffy finds the CPU idle), so tickOn alone is not enough.
func (s *sim) tickRunning(c *cpuState) bool {
	return c.tickOn && (c.curr != nil || s.idleRetainsTick && c.inIdle)
}

// idleTick is a tick that finds the CPU idle. Where the tick stops when
// the CPU goes idle, this is the tick already programmed, which finds
// nothing to do and stops (NO_HZ_IDLE). With a single-state cpuidle driver
// (WFI only) do_idle() passes got_tick to cpuidle_idle_call()
// (kernel/sched/idle.c, f4c31b07b136): the tick keeps running through the
// first pass of the idle loop, so this tick is sched_tick() of an idle CPU
// (rq->idle_balance): sched_balance_trigger() runs the CPU's own periodic
// balance as CPU_IDLE when its next_balance is due, after
// sched_balance_update_blocked_averages(), and nohz_balancer_kick() returns
// at once. The next pass of the idle loop, woken by this tick, stops the
// tick: tick_nohz_idle_stop_tick() → nohz_balance_enter_idle(). A CPU that
// pulled a task keeps its tick.
func (s *sim) idleTick(c *cpuState) {
	if !s.idleRetainsTick || !c.inIdle {
		c.tickOn = false
		return
	}
	if s.fairServer && s.dlServerIdle {
		s.updateCurrIdle(c) // task_tick_idle()
	}
	if !s.idleCPU(c.id) {
		s.nonIdleTick(c)
		return
	}
	if j := s.jiffies(); j >= c.nextBalance {
		if s.tracing {
			s.lbPrefix = append(s.lbPrefix[:0], fmt.Sprintf("sched_balance_trigger(cpu %d, idle: do_idle() kept the tick)", c.id))
		}
		s.schedBalanceUpdateBlockedAverages(c)
		s.schedBalanceDomains(c, c.id, j, cpuIdle, migPeriodic)
		s.lbPrefix = s.lbPrefix[:0]
	}
	s.idleTickEnd(c, c.curr != nil)
}

// nonIdleTick is an idle CPU's retained tick that finds it no longer
// idle_cpu(): a task queued for it (a pull or a fork whose resched IPI is
// in flight) or a wake-up pending (ttwu_pending, the wake list's IPI in
// flight). sched_tick() sets rq->idle_balance = idle_cpu(), false here,
// so nohz_balancer_kick() decides and sched_balance_domains() runs as
// CPU_NOT_IDLE. With a task queued need_resched() is set: do_idle()'s loop
// exits and the tick runs on. With only a wake-up pending the loop goes
// round once more and stops the tick, woken by it (got_tick).
func (s *sim) nonIdleTick(c *cpuState) {
	s.nohzBalancerKick(c)
	s.schedBalanceTrigger(c)
	s.idleTickEnd(c, c.curr != nil || c.nrTasks() > 0)
}

// idleTickEnd is do_idle()'s loop after an idle tick: a CPU that has
// something to run (keep) leaves the loop on need_resched() and its tick
// runs on; otherwise the next pass, woken by the tick (got_tick), stops
// it: tick_nohz_idle_stop_tick() → nohz_balance_enter_idle().
func (s *sim) idleTickEnd(c *cpuState, keep bool) {
	if keep {
		s.rearmTick(c)
		return
	}
	c.tickOn = false
	s.nohzBalanceEnterIdle(c)
}

// rearmTick programs c's next tick, one jiffy on.
func (s *sim) rearmTick(c *cpuState) {
	s.q.pushInOrder(event{at: s.now + s.tickNs, kind: evTick, a: int32(c.id)})
}

// nohzBalanceEnterIdle is nohz_balance_enter_idle(), called when the CPU's
// tick is stopped: assume blocked load; a CPU not yet in
// nohz.idle_cpus_mask joins it, leaves its LLC's nr_busy_cpus
// (set_cpu_sd_state_idle()) and sets nohz.needs_update, so that the next
// busy tick asks an ILB to recompute nohz.next_balance (NOHZ_NEXT_KICK);
// nohz.next_balance itself is not touched here.
func (s *sim) nohzBalanceEnterIdle(c *cpuState) {
	c.hasBlockedLoad = true
	if !c.nohzIdle {
		c.nohzIdle = true
		s.nohzIdleMask.Set(topo.CPU(c.id))
		s.nohzIdleCount++
		s.llcs[s.t.SDLLCID[c.id]].nrBusyCPUs--
		s.nohzNeedsUpdate = true
	}
	s.nohzHasBlocked = true
}

// nohzBalanceExitIdle is nohz_balance_exit_idle(), run by
// nohz_balancer_kick() at the first busy tick after idle: the CPU leaves
// nohz.idle_cpus_mask and counts in its LLC's nr_busy_cpus again
// (set_cpu_sd_state_busy()).
func (s *sim) nohzBalanceExitIdle(c *cpuState) {
	if c.nohzIdle {
		c.nohzIdle = false
		s.nohzIdleMask.Clear(topo.CPU(c.id))
		s.nohzIdleCount--
		s.llcs[s.t.SDLLCID[c.id]].nrBusyCPUs++
	}
}

// updateAvgIdle is update_rq_avg_idle(), the rq->avg_idle sample: the
// idle period since idle_stamp (none without one) enters update_avg(),
// then avg_idle is capped at 2*max_idle_balance_cost. 6.12 takes it in
// ttwu_do_activate(), so at a wake-up only; under AVG_IDLE_AT_IDLE_EXIT
// (Linux 7.0) in put_prev_task_idle(), at every idle exit (pickNextTask).
func (s *sim) updateAvgIdle(c *cpuState) {
	if c.idleStamp == 0 {
		return
	}
	delta := s.now - c.idleStamp
	maxCost := 2 * c.maxIdleBalanceCost
	c.avgIdle += (delta - c.avgIdle) / 8 // update_avg()
	if c.avgIdle > maxCost {
		c.avgIdle = maxCost
	}
	c.idleStamp = 0
}

// updateIdleCore is __update_idle_core(): set has_idle_cores when this
// CPU's whole core is idle.
func (s *sim) updateIdleCore(c *cpuState) {
	if !s.smtActive {
		return
	}
	for _, sib := range s.cores[c.core].cpus {
		if sib != c.id && !s.availableIdle(sib) {
			return
		}
	}
	s.shared[c.id].hasIdleCores = true // set_idle_cores(core, 1)
}

// housekeeping starts kernel noise on a CPU: a busy CPU's task stalls for
// the run time; an idle PE becomes busy (restarting its qualification).
func (s *sim) housekeeping(c *cpuState) {
	hk := s.hk
	s.q.push(event{at: s.now + int64(hk.Period), kind: evHousekeeping, a: int32(c.id)})
	if c.hkBusy {
		return
	}
	s.updateRqClockPelt(c) // the kworker becomes rq->curr: an idle CPU's clock_pelt stops following clock_task
	// the idle task leaves its state for the kworker (a busy CPU is never inIdle)
	if c.inIdle {
		s.cpuidleReflect(c)
	}
	s.updateAvgIdle(c)       // the kworker's ttwu_do_activate() (7.0: its switch from idle; a busy CPU has no idle_stamp then)
	s.addNrRunningNonFair(c) // and add_nr_running()
	s.syncCPU(c)
	c.hkBusy = true
	s.cpuChanged(c)
	c.hkEnd = s.now + int64(hk.Run)
	c.stallUntil = max(c.stallUntil, c.hkEnd)
	s.peBusyChanged(c)
	s.q.push(event{at: c.hkEnd, kind: evHousekeepingEnd, a: int32(c.id)})
}

// initDeviceIRQs routes machine.device_irqs' vectors as the kernel does
// (topo.IRQTargets: group_cpus_evenly(), then gic_set_affinity()) and
// gives each a phase within its period.
func (s *sim) initDeviceIRQs() {
	d := s.r.Machine.DeviceIRQs
	if d == nil || d.Run == 0 { // validation bounds vectors and period
		return
	}
	s.irqs = d
	for _, c := range topo.IRQTargets(s.t, d.Vectors) {
		s.irqTarget = append(s.irqTarget, int32(c))
	}
	for v := range s.irqTarget {
		s.q.push(event{at: s.rng.Int64N(int64(d.Period)), kind: evDeviceIRQ, a: int32(v)})
	}
}

// deviceIRQ is vector v's interrupt on its CPU (handle_irq_event() and
// its softirq, run on top of whatever the CPU runs): a running task, or
// the kernel noise's kworker, is held up for the handler's run; on an
// idle CPU the PE is busy that long while the CPU stays idle (rq->curr is
// still the idle task, so idle_cpu() holds and the scheduler sees
// nothing: no wake-up, no newidle pass, nr_running unchanged).
func (s *sim) deviceIRQ(v int) {
	d := s.irqs
	s.q.push(event{at: s.now + int64(d.Period), kind: evDeviceIRQ, a: int32(v)})
	c := &s.cpus[s.irqTarget[v]]
	run := int64(d.Run)
	switch {
	case c.curr != nil:
		s.syncCPU(c)
		c.stallUntil = max(c.stallUntil, s.now) + run
		s.peBusyChanged(c) // the core re-arms its compute-ends
	case c.hkBusy:
		c.hkEnd += run // the kworker finishes later
		s.q.push(event{at: c.hkEnd, kind: evHousekeepingEnd, a: int32(c.id)})
	default:
		s.idleIRQWork(c, run)
	}
}

// idleIRQWork is interrupt work (a hard irq and its softirq: the ILB's
// SCHED_SOFTIRQ, a device handler) on an idle CPU: its PE is busy run ns
// longer, after any such work already under way, while rq->curr stays the
// idle task, so idle_cpu() still holds and the scheduler sees nothing.
func (s *sim) idleIRQWork(c *cpuState, run int64) {
	c.irqEnd = max(c.irqEnd, s.now) + run
	if !c.irqBusy {
		c.irqBusy = true
		s.peBusyChanged(c)
	}
	s.q.push(event{at: c.irqEnd, kind: evIRQEnd, a: int32(c.id)})
}

// addNrRunningNonFair is add_nr_running(rq, 1) for a task of another class
// (the stopper, a kworker of the kernel noise) woken on c: a CPU that already
// runs a task reaches nr_running 2, and set_rd_overloaded() lets newidle
// balancing run (kernel/sched/sched.h, Linux 6.12). The task itself is not
// modelled as a runqueue member: it only stalls c.
func (s *sim) addNrRunningNonFair(c *cpuState) {
	if c.nrRunningAll() == 1 {
		s.rdOverloaded = true
	}
}

// housekeepingEnd ends the noise burst. On a CPU with no task of its own
// the kworker (SCHED_NORMAL) sleeps through __schedule() with itself as
// prev: pick_next_task_fair() runs sched_balance_newidle(), which does not
// count the CPU idle, and the CPU idles again only if nothing is pulled.
func (s *sim) housekeepingEnd(c *cpuState) {
	s.updateRqClockPelt(c) // the kworker's run, on the task's clock
	c.hkBusy = false
	s.cpuChanged(c)
	s.peBusyChanged(c)
	if c.curr == nil {
		c.schedPrev = true // rq->curr is the kworker
		s.schedule(c)
	}
}

// putPrevTaskFair puts c's running task p back into c's queue, runnable
// (put_prev_task_fair(): its load averages updated, the run closed as a
// preemption).
func (s *sim) putPrevTaskFair(c *cpuState, p *task) {
	s.mutexSwitchedOut(p)
	s.updateTaskLoadAvg(p)
	s.updateCfsRqLoadAvg(c)
	s.stopRunning(c, p, OutPreempt)
	c.curr = nil
	p.state = taskRunnable
	c.rq = append(c.rq, p)
	s.cpuChanged(c)
	p.protected = false
}

package sim

// DELAY_DEQUEUE (kernel/sched/fair.c and core.c, Linux 6.12, on by
// default): a task that goes to sleep while it is not eligible (v > V,
// which needs another task on its runqueue) is not dequeued. It stays in
// the tree with se->sched_delayed set, still counted in nr_running and
// h_nr_queued (not in h_nr_runnable), its weight still in the runqueue's
// load, until either the pick reaches it (it is dequeued then and the pick
// repeated) or it is woken, which requeues it in place without
// select_task_rq_fair() (ttwu_runnable()).

// hNrRunnable is rq->cfs.h_nr_runnable: queued tasks that are not delayed.
func (c *cpuState) hNrRunnable() int { return c.nrRunning - c.nrDelayed }

// lbNrRunning is the task count the load balancer reads of c
// (sum_h_nr_running in update_sg_lb_stats(), nr_running in
// sched_balance_find_src_rq()): h_nr_runnable since 6.14 (H_NR_RUNNABLE),
// h_nr_queued in 6.12.
func (s *sim) lbNrRunning(c *cpuState) int {
	if s.hNrRunnable {
		return c.hNrRunnable()
	}
	return c.nrRunning
}

// dequeueCurrDelayed is dequeue_task_fair(DEQUEUE_SLEEP) of the running
// task p when dequeue_entity() delays it: util_est_dequeue() and
// util_est_update() run as for any sleep, then set_delayed() instead of
// the dequeue; put_prev_entity() puts p back into the tree. It reports
// whether p was delayed (with DELAY_DEQUEUE, p not eligible).
func (s *sim) dequeueCurrDelayed(c *cpuState, p *task) bool {
	if !s.delayDequeue || c.nrRunning < 2 {
		return false // alone on the rq, curr is always eligible
	}
	s.syncCPU(c)
	s.updateCurr(c) // vruntime only: PELT is updated below
	if vruntimeEligible(c, p.vruntime) {
		return false
	}
	s.utilEstDequeueUpdate(c, p) // before dequeue_entities() updates PELT (6.12)
	s.updateTaskLoadAvg(p)
	s.updateCfsRqLoadAvg(c)
	s.stopRunning(c, p, OutSleep)
	c.curr = nil
	c.rq = append(c.rq, p)
	c.delayedPrev = p // still cfs_rq->curr, protected, for the pick
	c.nrDelayed++
	p.delayed = true
	p.state = taskBlocked
	p.sleepStart = s.now
	s.cpuChanged(c)
	return true
}

// pickNextEntity is pick_next_entity(): pick_eevdf(), where a delayed task
// that is picked is dequeued for good and the pick repeated
// (pick_task_fair()'s "goto again").
func (s *sim) pickNextEntity(c *cpuState) *task {
	if s.cfs {
		return s.pickCFS(c) // nothing is ever delayed in CFS
	}
	for {
		p := s.pickEEVDF(c, true)
		if p == nil || !p.delayed {
			return p
		}
		s.dequeueDelayed(c, p)
	}
}

// dequeueDelayed is dequeue_entities(DEQUEUE_SLEEP | DEQUEUE_DELAYED): the
// delayed task's lag is saved now, clipped to 0 when positive
// (finish_delayed_dequeue_entity(), DELAY_ZERO), and it leaves the
// runqueue (__block_task()).
func (s *sim) dequeueDelayed(c *cpuState, p *task) {
	s.syncCPU(c)
	s.updateCurr(c)
	s.updateTaskLoadAvg(p)
	s.updateCfsRqLoadAvg(c)
	s.updateEntityLag(c, p)
	wasSchedIdle := c.schedIdleRq()
	c.rqRemove(p)
	s.balanceEarlyOnSchedIdle(c, wasSchedIdle)
	c.nrDelayed--
	p.delayed = false
	if c.delayedPrev == p {
		c.delayedPrev = nil
		p.protected = false
	}
	if p.vlag > 0 {
		p.vlag = 0
	}
	s.cpuChanged(c)
}

// ttwuRunnable is try_to_wake_up() of a delayed task: ttwu_runnable() finds
// it queued, enqueue_task(ENQUEUE_DELAYED) requeues it where it is
// (util_est_enqueue(), requeue_delayed_entity()) and wakeup_preempt()
// checks it against the running task. select_task_rq_fair() does not run:
// the task cannot leave its CPU at this wake-up. A preemption is
// resched_curr(): the CPU reschedules once the waker is done (at once on
// its own CPU, after an IPI on another).
func (s *sim) ttwuRunnable(p *task, waker int, byTask bool) {
	c := &s.cpus[p.cpu]
	s.m.wakeups(s)
	p.blockOn = waitNone
	s.syncCPU(c)
	s.updateTaskLoadAvg(p)
	s.updateCfsRqLoadAvg(c)
	c.utilEstSum += p.utilEst
	s.requeueDelayedEntity(c, p) // against curr as last updated: update_curr() runs in wakeup_preempt()
	p.state = taskRunnable
	p.wakeIssued = s.now
	p.recordLatency = true
	s.cpuChanged(c)
	if s.tracing {
		s.path = append(s.path[:0], "try_to_wake_up", "ttwu_runnable: sched_delayed, requeue_delayed_entity() on its runqueue")
		s.recordDecision(p, "wakeup", c.id, c.id)
		if byTask {
			s.recordWaker(p, waker)
		}
	}
	if c.curr == nil || s.checkPreemptWakeupFair(c, p, false) {
		s.reschedCurrLazy(c.id, waker)
	}
}

// requeueDelayedEntity is requeue_delayed_entity(): with DELAY_ZERO the
// lag is brought up to date and a positive lag is dropped, the entity
// being placed again at V (out of the tree and of nr_running while
// place_entity() runs); then clear_delayed().
func (s *sim) requeueDelayedEntity(c *cpuState, p *task) {
	s.updateEntityLag(c, p)
	if p.vlag > 0 {
		c.rqRemove(p)
		p.vlag = 0
		s.placeEntity(c, p, false, false)
		// back in, keeping its place in cfs_tasks (not rqAdd)
		c.rq = append(c.rq, p)
		c.nrRunning++
		c.loadWeight += p.weight
		c.accountIdle(p, 1)
	}
	c.nrDelayed--
	p.delayed = false
}

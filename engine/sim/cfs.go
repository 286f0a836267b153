package sim

// The CFS fair class of Linux 6.1 and before (kernel/sched/fair.c until
// 147f3efaa241 replaced it with EEVDF in 6.6), selected by the feature
// EEVDF=false. A task's vruntime counts from its runqueue's min_vruntime;
// the leftmost vruntime runs, a waking sleeper is placed at most half a
// sched_latency behind min_vruntime and preempts when it is more than the
// wake-up granularity ahead, and the tick preempts after sched_slice().
// The functions below replace their EEVDF counterparts when s.cfs is set.

// sched_nr_latency: above this many tasks the period stretches, and from
// this many (nr_running >= 8) a wake-up sets the LAST_BUDDY.
const cfsNrLatency = 8

// leftmostCFS is __pick_first_entity(): the queued task with the smallest
// vruntime (the first queued on a tie, as the rbtree inserts equal keys to
// the right).
func leftmostCFS(c *cpuState) *task {
	var left *task
	for _, p := range c.rq {
		if left == nil || p.vruntime < left.vruntime {
			left = p
		}
	}
	return left
}

// vrNormalised is task.vrRq between detach_task() and attach_task(): the
// vruntime counts from no CPU's min_vruntime (6.1 dequeue_entity()
// subtracted src's; enqueue_entity() adds dst's).
const vrNormalised = -1

// updateMinVruntime is update_min_vruntime(): min_vruntime follows the
// smaller of curr's and the leftmost's vruntime and never goes back.
func updateMinVruntime(c *cpuState) {
	v, have := c.minVruntime, false
	if curr := c.cfsCurr(); curr != nil {
		v, have = curr.vruntime, true
	}
	if left := leftmostCFS(c); left != nil && (!have || left.vruntime < v) {
		v = left.vruntime
	}
	if v > c.minVruntime {
		c.minVruntime = v
	}
}

// schedSlice is sched_slice(): the task's share (by weight) of the period,
// sched_latency or nr_running × min_granularity above sched_nr_latency,
// counting p when it is not queued yet, and at least min_granularity
// (BASE_SLICE).
func (s *sim) schedSlice(c *cpuState, p *task, queued bool) int64 {
	nr, load := int64(c.nrRunning), c.loadWeight
	if !queued {
		nr++
		load += p.weight
	}
	period := s.cfsLatency
	if nr > cfsNrLatency {
		period = nr * s.cfsMinGran
	}
	slice := period
	if load > 0 {
		slice = period * p.weight / load
	}
	minGran := s.cfsMinGran
	if p.idlePolicy && !schedIdleCfsRq(c) {
		minGran = cfsIdleMinGran
	}
	return max(slice, minGran)
}

// cfsIdleMinGran is sysctl_sched_idle_min_granularity (6.1): the shortest
// slice of a SCHED_IDLE task beside tasks of another policy, not scaled by
// the CPU count (update_sysctl() scales only the latency and the two
// granularities).
const cfsIdleMinGran = 750_000

// schedIdleCfsRq is sched_idle_cfs_rq(): c's fair tasks are all SCHED_IDLE
// (and there is one).
func schedIdleCfsRq(c *cpuState) bool { return c.nrRunning > 0 && c.idleNr == c.nrRunning }

// wakeupPreemptEntity is wakeup_preempt_entity(): 1 when se is more than
// the wake-up granularity (in se's virtual time) behind curr, −1 when it
// is not behind at all, 0 in between.
func (s *sim) wakeupPreemptEntity(curr, se *task) int {
	vdiff := curr.vruntime - se.vruntime
	if vdiff <= 0 {
		return -1
	}
	if vdiff > calcDeltaFair(s.cfsWakeupGran, se.weight) {
		return 1
	}
	return 0
}

// pickCFS is pick_next_entity() (6.1): the leftmost of curr and the queue,
// unless the next buddy, else the last buddy, is not a granularity behind
// it.
func (s *sim) pickCFS(c *cpuState) *task {
	left := leftmostCFS(c)
	if curr := c.cfsCurr(); left == nil || (curr != nil && curr.vruntime < left.vruntime) {
		left = curr
	}
	if left == nil {
		return nil
	}
	if n := c.nextBuddy; n != nil && s.wakeupPreemptEntity(n, left) < 1 {
		return n
	}
	if l := c.lastBuddy; l != nil && s.wakeupPreemptEntity(l, left) < 1 {
		return l
	}
	return left
}

// clearBuddies is clear_buddies(): forget p as the next or last buddy.
func clearBuddies(c *cpuState, p *task) {
	if c.nextBuddy == p {
		c.nextBuddy = nil
	}
	if c.lastBuddy == p {
		c.lastBuddy = nil
	}
}

// placeEntityCFS is enqueue_entity()'s renormalisation and place_entity()
// (6.1): a vruntime left relative (by task_fork_fair(), by
// migrate_task_rq_fair() at a wake-up that changes CPU, by detach_task():
// every way a task reaches another runqueue) counts from this runqueue's
// min_vruntime; a waking task is placed no
// further than half a sched_latency behind min_vruntime (half a
// min_granularity for a SCHED_IDLE task; GENTLE_FAIR_SLEEPERS) and never
// earlier than its own vruntime. A new task (placed by taskForkFair()) and
// a task the load balancer moves are only renormalised.
func (s *sim) placeEntityCFS(c *cpuState, p *task, initial, migrated bool) {
	if p.vrRq == vrNormalised {
		p.vruntime += c.minVruntime
	}
	p.vrRq = c.id + 1
	if !initial && !migrated {
		thresh := s.cfsLatency
		if p.idlePolicy {
			thresh = s.cfsMinGran
		}
		p.vruntime = max(p.vruntime, c.minVruntime-thresh/2)
	}
	p.deadline = p.vruntime // no deadline in CFS: the step view orders by vruntime
	p.placed = true
}

// taskForkFair is task_fork_fair() (6.1), run by sched_fork() on the
// parent's CPU before wake_up_new_task() places the child: the child
// starts one vslice after the parent's runqueue's min_vruntime
// (place_entity(cfs_rq, se, 1), START_DEBIT: the slice of nr_running + 1
// tasks, the parent counted) and keeps it relative to that min_vruntime
// (se->vruntime -= cfs_rq->min_vruntime), so enqueue_entity() adds the
// target's. Simplification: the parent is no fair task of the timeline,
// so the kernel's max() with the parent's own vruntime is left out; a
// parent alone on its CPU is its min_vruntime.
func (s *sim) taskForkFair(pc *cpuState, p *task) {
	p.vruntime = calcDeltaFair(s.schedSlice(pc, p, false), p.weight)
	p.vrRq = vrNormalised
}

// checkPreemptWakeupCFS is check_preempt_wakeup() (6.1, WAKEUP_PREEMPTION
// on, NEXT_BUDDY off): the wakee preempts curr when wakeup_preempt_entity()
// says so; it becomes the next buddy, and with sched_nr_latency tasks or
// more the preempted curr the last buddy (LAST_BUDDY).
func (s *sim) checkPreemptWakeupCFS(c *cpuState, p *task) bool {
	curr := c.curr // a fair task: checkPreemptWakeupFair() has taken an idle or RT curr
	if curr == p {
		return false
	}
	if decided, preempt := preemptByPolicy(p, curr); decided {
		return preempt // no buddy: set_last_buddy() skips an idle task
	}
	s.syncCPU(c)
	s.updateCurr(c)
	if s.wakeupPreemptEntity(curr, p) != 1 {
		return false
	}
	c.nextBuddy = p
	if c.nrRunning >= cfsNrLatency {
		c.lastBuddy = curr
	}
	return true
}

// checkPreemptTick is check_preempt_tick() (6.1), run by entity_tick()
// when more than one task is queued: curr is preempted once it has run its
// sched_slice() since it was picked, or, after min_granularity, when it is
// more than a slice of virtual time ahead of the leftmost.
func (s *sim) checkPreemptTick(c *cpuState) bool {
	p := c.cfsCurr()
	if p == nil || c.nrRunning <= 1 {
		return false
	}
	ideal := s.schedSlice(c, p, true)
	ran := p.sumExec - p.prevSumExec
	if ran > ideal {
		clearBuddies(c, p)
		return true
	}
	if ran < s.cfsMinGran {
		return false
	}
	left := leftmostCFS(c)
	if left == nil {
		return false
	}
	d := p.vruntime - left.vruntime
	return d > ideal
}

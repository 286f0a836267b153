package sim

import "math"

// sched_prio_to_weight[] (kernel/sched/core.c), nice -20..19.
var schedPrioToWeight = [40]int64{
	88761, 71755, 56483, 46273, 36291,
	29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906,
	3121, 2501, 1991, 1586, 1277,
	1024, 820, 655, 526, 423,
	335, 272, 215, 172, 137,
	110, 87, 70, 56, 45,
	36, 29, 23, 18, 15,
}

// niceWeight returns the load weight of a nice value (clamped to -20..19).
func niceWeight(nice int) int64 {
	if nice < -20 {
		nice = -20
	}
	if nice > 19 {
		nice = 19
	}
	return schedPrioToWeight[nice+20]
}

// calcDeltaFair is calc_delta_fair(): delta · 1024 / weight.
func calcDeltaFair(delta, w int64) int64 {
	if w == capScale {
		return delta
	}
	return delta * capScale / w
}

// vslice is the entity's slice in virtual time.
func vslice(p *task) int64 { return calcDeltaFair(p.slice, p.weight) }

// avgVruntimeSums returns Σ(v−z)·w and Σw over queued entities and curr,
// with z the first entity's vruntime (avg_vruntime() keeps the same form).
func avgVruntimeSums(c *cpuState) (z, sum, load int64) {
	first := true
	add := func(p *task) {
		if first {
			z, first = p.vruntime, false
		}
		sum += (p.vruntime - z) * (p.weight >> 0)
		load += p.weight
	}
	if curr := c.cfsCurr(); curr != nil {
		add(curr)
	}
	for _, p := range c.rq {
		add(p)
	}
	return
}

// avgVruntime is avg_vruntime(): the load-weighted average vruntime V.
func avgVruntime(c *cpuState) int64 {
	z, sum, load := avgVruntimeSums(c)
	if load == 0 {
		return z
	}
	// floor division, as the kernel rounds towards −∞ for eligibility
	q := sum / load
	if sum < 0 && sum%load != 0 {
		q--
	}
	return z + q
}

// vruntimeEligible is vruntime_eligible(): (v − z)·W ≤ Σ(v_i − z)·w_i.
func vruntimeEligible(c *cpuState, v int64) bool {
	z, sum, load := avgVruntimeSums(c)
	return sum >= (v-z)*load
}

// pickEEVDF is __pick_eevdf(): the eligible entity with the earliest
// deadline, keeping a protected curr when protect is set (pick_eevdf()
// always sets it; 6.12 has no such argument).
func (s *sim) pickEEVDF(c *cpuState, protect bool) *task {
	curr := c.cfsCurr()
	if c.nrRunning == 1 {
		if curr != nil {
			return curr
		}
		if len(c.rq) > 0 {
			return c.rq[0]
		}
		return nil
	}
	z, sum, load := avgVruntimeSums(c)
	eligible := func(p *task) bool { return sum >= (p.vruntime-z)*load }
	if curr == nil {
		// a prev that has just been delayed is still cfs_rq->curr (on_rq,
		// its slice protection intact: dequeue_entity() returned before
		// update_entity_lag()) until put_prev_entity() after the pick
		curr = c.delayedPrev
	}
	if curr != nil && !eligible(curr) {
		curr = nil
	}
	if protect && curr != nil && (s.vprot || s.feat.RunToParityOn()) && s.protectSlice(curr) {
		return curr
	}
	// c.rq is in tree-insertion order, and the tree puts an entity after
	// those of an equal deadline (entity_before() is strict): of equal
	// deadlines the heap search finds the one queued first.
	var best *task
	for _, p := range c.rq {
		if p == curr || !eligible(p) {
			continue
		}
		if best == nil || p.deadline < best.deadline {
			best = p
		}
	}
	if best == nil || (curr != nil && curr.deadline < best.deadline) {
		best = curr
	}
	if best == nil {
		// Nothing eligible (rounding): take the earliest deadline.
		for _, p := range c.rq {
			if best == nil || p.deadline < best.deadline {
				best = p
			}
		}
		if best == nil {
			best = c.cfsCurr()
		}
	}
	return best
}

// updateCurr is update_curr(): charge runtime and virtual runtime to curr,
// renew its deadline when it was reached (EEVDF) or advance min_vruntime
// (CFS); returns whether to resched.
func (s *sim) updateCurr(c *cpuState) bool {
	p := c.cfsCurr() // an RT curr is update_curr_rt()'s
	if p == nil {
		return false
	}
	delta := s.now - p.execStart
	if delta <= 0 {
		return false
	}
	p.execStart = s.now
	p.sumExec += delta
	if s.fairServer {
		s.dlServerUpdate(c, delta) // whether p runs for the server or not
	}
	p.vruntime += calcDeltaFair(delta, p.weight)
	if s.cfs {
		// 6.1: min_vruntime follows; CFS reschedules from the tick and
		// the wake-up check, never here
		p.deadline = p.vruntime // no deadline in CFS: the step view orders by vruntime
		updateMinVruntime(c)
		return false
	}
	resched := false
	if p.vruntime >= p.deadline { // update_deadline()
		p.deadline = p.vruntime + vslice(p)
		p.protected = false
		resched = true
	}
	if c.nrRunning == 1 {
		return false
	}
	if s.vprot {
		return resched || !s.protectSlice(p) // 6.17: at the end of every protected period
	}
	if !resched && s.feat.PreemptShortOn() && !s.protectSlice(p) {
		resched = !vruntimeEligible(c, p.vruntime) // did_preempt_short()
	}
	return resched
}

// protectSlice is protect_slice(): curr runs on without a pick. 6.12
// stashes the deadline of the pick (vlag == deadline; pick_eevdf() honours
// it under RUN_TO_PARITY only); under VPROT it is vruntime < vprot,
// RUN_TO_PARITY having chosen vprot.
func (s *sim) protectSlice(p *task) bool {
	if s.vprot {
		return p.vruntime < p.vprot
	}
	return p.protected && p.protect == p.deadline
}

// setProtectSlice is set_protect_slice() at a pick: protection up to the
// deadline, or the shortest queued slice (RUN_TO_PARITY) or the base
// slice (NO_RUN_TO_PARITY) when that is shorter than the entity's own.
// p has left c.rq (the kernel's cfs_rq->curr is still unset there; here
// it is p, whose slice bounds the result anyway).
func (s *sim) setProtectSlice(c *cpuState, p *task) {
	p.protected = true
	p.protect = p.deadline
	if !s.vprot {
		return
	}
	slice := int64(s.r.Policy.BaseSlice) // normalized_sysctl_sched_base_slice
	if s.feat.RunToParityOn() {
		slice = cfsRqMinSlice(c)
	}
	slice = min(slice, p.slice)
	p.vprot = p.deadline
	if slice != p.slice {
		p.vprot = min(p.vprot, p.vruntime+calcDeltaFair(slice, p.weight))
	}
}

// updateProtectSlice is update_protect_slice(): curr's protection ends no
// later than the shortest queued slice from now.
func (s *sim) updateProtectSlice(c *cpuState, p *task) {
	p.vprot = min(p.vprot, p.vruntime+calcDeltaFair(cfsRqMinSlice(c), p.weight))
}

// cancelProtectSlice is cancel_protect_slice().
func (s *sim) cancelProtectSlice(p *task) {
	if s.vprot {
		if s.protectSlice(p) {
			p.vprot = p.vruntime
		}
		return
	}
	p.protected = false
}

// cfsRqMinSlice is cfs_rq_min_slice(): the shortest slice of the queued
// entities and curr (the largest int64 when there are none).
func cfsRqMinSlice(c *cpuState) int64 {
	m := int64(math.MaxInt64)
	if curr := c.cfsCurr(); curr != nil {
		m = curr.slice
	}
	for _, q := range c.rq {
		m = min(m, q.slice)
	}
	return m
}

// cfsRqMaxSlice is cfs_rq_max_slice() (6e3c0a4e1ad1): the longest slice of
// the queued entities and curr.
func cfsRqMaxSlice(c *cpuState) int64 {
	var m int64
	if curr := c.cfsCurr(); curr != nil {
		m = curr.slice
	}
	for _, q := range c.rq {
		m = max(m, q.slice)
	}
	return m
}

// placeEntity is place_entity(): vruntime = V − lag (inflated by PLACE_LAG),
// deadline one virtual slice later (half a slice for a new task).
func (s *sim) placeEntity(c *cpuState, p *task, initial, migrated bool) {
	if s.cfs {
		s.placeEntityCFS(c, p, initial, migrated)
		return
	}
	V := avgVruntime(c)
	var lag int64
	_, _, load := avgVruntimeSums(c)
	if s.feat.PlaceLagOn() && load > 0 && c.nrRunning > 0 {
		lag = p.vlag * (load + p.weight) / load
	}
	if c.nrRunning == 0 { // no PLACE_LAG on an empty cfs_rq: lag 0 at the V it kept
		V = c.lastV()
		lag = 0
	}
	p.vruntime = V - lag
	vs := vslice(p)
	if migrated && p.placed && p.relDeadline > 0 {
		p.deadline = p.vruntime + p.relDeadline // PLACE_REL_DEADLINE
		return
	}
	if initial {
		vs /= 2 // PLACE_DEADLINE_INITIAL
	}
	p.deadline = p.vruntime + vs
	p.placed = true
}

// lastV is the V an empty rq keeps (zero_vruntime follows the last V).
func (c *cpuState) lastV() int64 { return c.zeroV }

// updateEntityLag is update_entity_lag(): save V − v clamped to
// ±max(2·slice, one tick) in virtual time, or under LAG_CLAMP_MAX_SLICE
// to ±(the queue's largest slice + one tick). p is curr or queued.
func (s *sim) updateEntityLag(c *cpuState, p *task) {
	if s.cfs {
		return // CFS keeps the vruntime (placeEntityCFS renormalises it)
	}
	V := avgVruntime(c)
	limit := 2 * p.slice
	if limit < s.tickNs {
		limit = s.tickNs
	}
	if s.feat.LagClampMaxSliceOn() {
		limit = max(cfsRqMaxSlice(c), p.slice) + s.tickNs
	}
	limit = calcDeltaFair(limit, p.weight)
	lag := V - p.vruntime
	if lag > limit {
		lag = limit
	}
	if lag < -limit {
		lag = -limit
	}
	p.vlag = lag
	p.relDeadline = p.deadline - p.vruntime
	c.zeroV = V
}

// rqAdd puts a task in c's queue (enqueue_entity bookkeeping;
// account_entity_enqueue() list_add()s it at the head of cfs_tasks).
func (c *cpuState) rqAdd(p *task) {
	c.cfsListHead(p)
	c.rq = append(c.rq, p)
	c.nrRunning++
	c.loadWeight += p.weight
	c.accountIdle(p, 1)
}

// cfsListHead is list_add()/list_move() to the head of rq->cfs_tasks: p
// gets the rq's next stamp, so the tail is the task with the smallest.
func (c *cpuState) cfsListHead(p *task) {
	c.cfsSeq++
	p.cfsPos = c.cfsSeq
}

// rqRemove takes a queued (not running) task off c's queue.
func (c *cpuState) rqRemove(p *task) {
	for i, q := range c.rq {
		if q == p {
			copy(c.rq[i:], c.rq[i+1:])
			c.rq[len(c.rq)-1] = nil
			c.rq = c.rq[:len(c.rq)-1]
			c.nrRunning--
			c.loadWeight -= p.weight
			c.accountIdle(p, -1)
			clearBuddies(c, p)
			return
		}
	}
	panic("sim: rqRemove of a task not on the rq")
}

// checkPreemptWakeupFair is check_preempt_wakeup_fair(): preempt curr when
// pick_eevdf() would now choose the wakee. fork is WF_FORK.
func (s *sim) checkPreemptWakeupFair(c *cpuState, p *task, fork bool) bool {
	curr := c.curr
	if curr == nil {
		return true
	}
	if curr.isRT() { // wakeup_preempt(): a class below curr's never preempts it
		return false
	}
	if c.needResched { // test_tsk_need_resched(curr): already told, no update_curr()
		return false
	}
	if s.cfs {
		return s.checkPreemptWakeupCFS(c, p)
	}
	if decided, preempt := preemptByPolicy(p, curr); decided {
		if preempt { // an idle curr keeps no slice protection
			s.cancelProtectSlice(curr)
		}
		return preempt
	}
	s.syncCPU(c)
	if s.vprot {
		return s.wakeupPreemptFair(c, p, curr, fork)
	}
	if s.updateCurr(c) {
		return true
	}
	if s.doPreemptShort(c, p, curr) {
		s.cancelProtectSlice(curr)
	}
	return s.pickEEVDF(c, true) == p
}

// wakeupPreemptFair is check_preempt_wakeup_fair() of 6.17 (VPROT) or,
// under WAKEUP_PREEMPT_ACTION, wakeup_preempt_fair() as of 7.3: a shorter
// slice picks without curr's protection and cancels it only when the
// wakee wins; a fork or a delayed wakee does not preempt (7.3); a wake-up
// that does not preempt caps curr's protection at the shortest slice
// (update_protect_slice(): 6.17 after a shorter-slice wakee only). It
// reports update_curr()'s resched too, which the kernel has already
// issued when it goes on to decide.
func (s *sim) wakeupPreemptFair(c *cpuState, p, curr *task, fork bool) bool {
	resched := s.updateCurr(c)
	short := s.feat.PreemptShortOn() && p.slice < curr.slice
	action := s.feat.WakeupPreemptActionOn()
	if action && !short && (fork || p.delayed) {
		return resched
	}
	if s.pickEEVDF(c, !short) == p { // PREEMPT_WAKEUP_PICK / _SHORT
		if short {
			s.cancelProtectSlice(curr)
		}
		return true
	}
	if s.feat.RunToParityOn() && (short || action) {
		s.updateProtectSlice(c, curr)
	}
	return resched
}

// doPreemptShort is do_preempt_short(): an eligible wakee with a shorter
// slice cancels curr's protection when its deadline is earlier or curr is
// no longer eligible.
func (s *sim) doPreemptShort(c *cpuState, p, curr *task) bool {
	if !s.feat.PreemptShortOn() || p.slice >= curr.slice || !vruntimeEligible(c, p.vruntime) {
		return false
	}
	return p.deadline < curr.deadline || !vruntimeEligible(c, curr.vruntime)
}

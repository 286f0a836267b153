package sim

import "schedplay/engine/scenario"

// rqPeltClock is the per-rq PELT clock of the modern invariance
// (kernel/sched/pelt.h): rq->clock_pelt runs at capacity rate while the rq
// is busy and is synced to clock_task when the rq goes idle, except for the
// idle time lost while the rq was saturated (rq->lost_idle_time).
type rqPeltClock struct {
	clockPelt    uint64 // rq->clock_pelt (ns)
	lostIdleTime uint64 // rq->lost_idle_time (ns)
	wall         int64  // simulated time (clock_task) of the last update
	busy         bool   // rq->curr was not the idle task at the last update
}

// peltIdleDivider is the util_sum bound of update_idle_rq_clock_pelt():
// ((LOAD_AVG_MAX - 1024) << SCHED_CAPACITY_SHIFT) - LOAD_AVG_MAX.
const peltIdleDivider = (loadAvgMax-1024)<<capShift - loadAvgMax

// updateRqClockPelt is update_rq_clock_pelt(): while rq->curr is a task the
// clock advances by Δ·capacity/1024·freq/1024 (cap_scale twice; freq is
// the node's boost relative to the curve's maximum); while it is the idle
// task it follows clock_task (_update_idle_rq_clock_pelt). The rq's state
// since the last update is rqCurrIsTask(): every change of rq->curr is
// preceded by an update at the same instant. The first update that sees
// the idle task after a task is the idle entry (set_next_task_idle()).
func (s *sim) updateRqClockPelt(c *cpuState) {
	if !s.peltModern() {
		return // legacy2018 scales each entity's contribution instead
	}
	k := &c.pelt
	now := s.now
	if now < k.wall {
		return
	}
	if rqCurrIsTask(c) {
		d := uint64(now-k.wall) * uint64(c.cap) >> capShift    // cap_scale(delta, arch_scale_cpu_capacity())
		k.clockPelt += d * s.nodeFreqScale[c.node] >> capShift // cap_scale(delta, arch_scale_freq_capacity())
		k.busy = true
	} else {
		if k.busy {
			s.updateIdleRqClockPelt(c)
		}
		k.clockPelt = uint64(now)
		k.busy = false
	}
	k.wall = now
}

// rqCurrIsTask reports whether rq->curr is a task rather than the idle
// task (is_idle_task()): a task of the CPU's own, the kernel noise's
// kworker, or, inside __schedule(), the task that is leaving. Between
// put_prev and set_next c.curr is nil, but rq->curr stays prev until
// context_switch(), and only set_next_task_idle() makes the idle task
// current (c.inIdle).
func rqCurrIsTask(c *cpuState) bool { return !c.inIdle || c.hkBusy }

// updateIdleRqClockPelt is update_idle_rq_clock_pelt() at idle entry: a rq
// whose util_sum reached the maximum was always running, so the idle time
// it did not get is lost (kept in lost_idle_time) instead of being
// reflected as elapsed PELT time. The caller then syncs the clock to
// clock_task (_update_idle_rq_clock_pelt()).
func (s *sim) updateIdleRqClockPelt(c *cpuState) {
	k := &c.pelt
	if c.avg.utilSum+c.avgRT.utilSum >= peltIdleDivider && uint64(s.now) > k.clockPelt { // cfs + rt (+ dl) util_sum
		k.lostIdleTime += uint64(s.now) - k.clockPelt
	}
}

// rqClockPelt is rq_clock_pelt() (= cfs_rq_clock_pelt() without bandwidth
// control): clock_pelt − lost_idle_time, updated to now.
func (s *sim) rqClockPelt(c *cpuState) uint64 {
	s.updateRqClockPelt(c)
	return c.pelt.clockPelt - c.pelt.lostIdleTime
}

// peltModern reports whether PELT uses the per-rq clock (modern invariance).
func (s *sim) peltModern() bool { return s.peltMode != scenario.PELTLegacy2018 }

// updateAt is __update_load_avg_*() at PELT time now of the entity's rq;
// it reports whether a period boundary was crossed (the averages moved).
func (sa *peltAvg) updateAt(now, load, runnable uint64, running bool, avgLoad uint64) bool {
	if sa.updateLoadSum(now, load, runnable, running, capScale) {
		sa.updateLoadAvg(avgLoad)
		return true
	}
	return false
}

// attachEntityPeltClock is the clock part of attach_entity_load_avg(): the
// entity joins the cfs_rq's PELT clock domain and window, and its sums are
// rebuilt from its averages with the cfs_rq's divider (load_sum per unit
// of weight w, at least 1).
func attachEntityPeltClock(c *cpuState, a *peltAvg, w uint64) {
	a.lastUpdate = c.avg.lastUpdate
	a.periodContrib = c.avg.periodContrib
	d := c.avg.divider()
	a.utilSum = a.utilAvg * d
	a.runnableSum = a.runnableAvg * d
	a.loadSum = a.loadAvg * d
	if w < a.loadSum {
		a.loadSum /= w
	} else {
		a.loadSum = 1
	}
}

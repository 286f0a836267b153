package sim

// SCHED_IDLE and SCHED_BATCH (workload.groups[].policy "idle", "batch"):
// both run in the fair class. A SCHED_IDLE task weighs WEIGHT_IDLEPRIO (3,
// set_load_weight()) whatever its nice value, a non-idle wake-up always
// preempts it, and a CPU that runs only such tasks counts as idle for
// wake-up placement (sched_idle_cpu()) and for the periodic balance's
// interval. Neither policy's wake-ups preempt a SCHED_OTHER task
// (check_preempt_wakeup_fair(): "BATCH and IDLE tasks do not preempt
// others"); only the tick does.

// weightIdlePrio is WEIGHT_IDLEPRIO (kernel/sched/sched.h).
const weightIdlePrio = 3

// accountIdle keeps c.idleNr, cfs.idle_h_nr_running, as p joins (+1) or
// leaves (-1) c's fair tasks.
func (c *cpuState) accountIdle(p *task, d int) {
	if p.idlePolicy {
		c.idleNr += d
	}
}

// schedIdleRq is sched_idle_rq(): c runs tasks, and all of them are
// SCHED_IDLE ones (rq->nr_running == cfs.idle_h_nr_running, the kernel
// noise's kworker included as it runs).
func (c *cpuState) schedIdleRq() bool {
	return c.idleNr > 0 && c.idleNr == c.nrRunningAll()
}

// schedIdleCPU is sched_idle_cpu().
func (s *sim) schedIdleCPU(cpu int) bool { return s.cpus[cpu].schedIdleRq() }

// idleOrSchedIdle is available_idle_cpu(cpu) || sched_idle_cpu(cpu), the
// test of select_idle_sibling() and its scans.
func (s *sim) idleOrSchedIdle(cpu int) bool {
	return s.availableIdle(cpu) || s.schedIdleCPU(cpu)
}

// idleWord says, for a decision's trace, why a CPU that
// idleOrSchedIdle() took counts as idle.
func (s *sim) idleWord(cpu int) string {
	if s.availableIdle(cpu) {
		return "idle"
	}
	return "idle (sched_idle_cpu: only SCHED_IDLE tasks)"
}

// preemptByPolicy is check_preempt_wakeup_fair()'s policy part for wakee
// p and curr, before update_curr() (the same in 6.1's
// check_preempt_wakeup() and the tip's wakeup_preempt_fair()): a non-idle
// wakee preempts a SCHED_IDLE curr (decided: true, preempt: true); an idle
// wakee never preempts a non-idle curr, nor does a SCHED_BATCH or
// SCHED_IDLE wakee preempt its own kind (decided: true, preempt: false).
// Otherwise the EEVDF or CFS comparison decides.
func preemptByPolicy(p, curr *task) (decided, preempt bool) {
	switch {
	case curr.idlePolicy && !p.idlePolicy:
		return true, true
	case curr.idlePolicy != p.idlePolicy, !p.normalPolicy():
		return true, false
	}
	return false, false
}

// balanceEarlyOnSchedIdle is dequeue_entities()'s "balance early to pull
// high priority tasks": a dequeue that leaves c running only SCHED_IDLE
// tasks (was: before it) makes c's next balance due now.
func (s *sim) balanceEarlyOnSchedIdle(c *cpuState, was bool) {
	if !was && c.schedIdleRq() {
		c.nextBalance = s.jiffies()
	}
}

package sim

// The blocked-load side of NOHZ (kernel-model.md §4.3): idle CPUs' PELT
// averages decay only when someone updates them, so the kernel refreshes
// them every LOAD_AVG_PERIOD while nohz.has_blocked is set, through a
// stats-only ILB kick or a newly idle CPU's nohz_run_idle_balance().

// nohz kick flags (NOHZ_BALANCE_KICK, NOHZ_STATS_KICK, NOHZ_NEXT_KICK).
const (
	nohzBalanceKick uint8 = 1 << iota
	nohzStatsKick
	nohzNextKick // only recompute nohz.next_balance (nohz.needs_update)
)

// loadAvgPeriodMs is LOAD_AVG_PERIOD, the stats refresh period (ms).
const loadAvgPeriodMs = 32

// schedBalanceUpdateBlockedAverages is sched_balance_update_blocked_averages():
// decay rq->avg_rt (__update_blocked_others()) and c's cfs_rq averages;
// has_blocked_load stays while load or util is left in either.
func (s *sim) schedBalanceUpdateBlockedAverages(c *cpuState) {
	s.updateRtRqLoadAvg(c, c.curr.isRT()) // update_other_load_avgs()
	s.updateCfsRqLoadAvg(c)
	c.lastBlockedTick = s.jiffies() // update_blocked_load_tick()
	// !others_have_blocked() && !cfs_rq_has_blocked()
	if c.avgRT.utilAvg == 0 && c.avg.loadAvg == 0 && c.avg.utilAvg == 0 {
		c.hasBlockedLoad = false
	}
}

// updateNohzStats is update_nohz_stats(): refresh an idle CPU's blocked
// load at most once a jiffy; reports whether blocked load is left.
func (s *sim) updateNohzStats(c *cpuState) bool {
	if !c.hasBlockedLoad || !c.nohzIdle {
		return false
	}
	if s.jiffies() <= c.lastBlockedTick {
		return true
	}
	s.schedBalanceUpdateBlockedAverages(c)
	return c.hasBlockedLoad
}

// nohzNewidleBalance is nohz_newidle_balance(): a CPU going idle for long
// enough when the idle CPUs' blocked load is due for a refresh does the
// stats pass itself before idling (NOHZ_NEWILB_KICK).
func (s *sim) nohzNewidleBalance(c *cpuState) {
	if !s.feat.NohzIdleOn() || c.avgIdle < s.migCost {
		return
	}
	if !s.nohzHasBlocked || s.jiffies() < s.nohzNextBlocked {
		return
	}
	c.newilbKick = true
}

// nohzRunIdleBalance is nohz_run_idle_balance() from do_idle(): the stats
// pass of a NOHZ_NEWILB_KICK, unless the CPU is already the pending ILB or
// has work again.
func (s *sim) nohzRunIdleBalance(c *cpuState) {
	if !c.newilbKick {
		return
	}
	c.newilbKick = false
	if s.ilbPending && s.ilbCPU == c.id || c.nrRunning > 0 || c.pending > 0 {
		return
	}
	s.nohzIdleBalanceFlags(c.id, nohzStatsKick)
}

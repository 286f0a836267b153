package sim

import "testing"

// Rules of the nohz blocked-load refresh (nohz_stats.go) and of what
// update_sd_lb_stats() does besides finding a source group (group_sums.go's
// shortcut) that no test held before the twelfth mutation round.

// blockedSim: cpu 0 runs a task, and a task ran 20 ticks on cpu 1 and
// slept, so cpu 1 is in nohz.idle_cpus_mask with blocked load (the set-up
// of TestNohzStatsKick and of the round-12 nohz tests).
func blockedSim(t *testing.T) (*sim, *cpuState) {
	t.Helper()
	s := governorSim(t, 3)
	c0, c1 := &s.cpus[0], &s.cpus[1]
	place(s, 0, 0)
	s.schedule(c0)
	p := place(s, 1, 1)
	s.schedule(c1)
	s.now = 20 * s.tickNs
	s.blockTask(c1, p)
	if !c1.nohzIdle || !c1.hasBlockedLoad || c1.avg.utilAvg == 0 {
		t.Fatalf("set-up: cpu 1 nohz idle %v, has_blocked_load %v, util %d", c1.nohzIdle, c1.hasBlockedLoad, c1.avg.utilAvg)
	}
	return s, c1
}

// update_nohz_stats() (fair.c): a CPU out of nohz.idle_cpus_mask is not
// refreshed and reports no blocked load; one refreshed this jiffy
// (!time_after(jiffies, rq->last_blocked_load_update_tick)) is not
// refreshed again but reports its blocked load; a due one has its
// averages decayed (sched_balance_update_blocked_averages()), which
// records the jiffy (update_blocked_load_tick()).
func TestUpdateNohzStatsOnceAJiffy(t *testing.T) {
	s, c1 := blockedSim(t)
	s.now += 10*s.tickNs + s.tickNs/2
	j := s.jiffies()
	u := c1.avg.utilAvg
	c1.lastBlockedTick = j
	if left := s.updateNohzStats(c1); !left || c1.avg.utilAvg != u {
		t.Errorf("refreshed this jiffy: blocked load reported %v, util %d (was %d); want true and no refresh", left, c1.avg.utilAvg, u)
	}
	c1.lastBlockedTick = j - 1
	c1.nohzIdle = false
	if s.updateNohzStats(c1) || c1.avg.utilAvg != u {
		t.Errorf("out of the idle mask: blocked load reported, or util %d (was %d) refreshed", c1.avg.utilAvg, u)
	}
	c1.nohzIdle = true
	if !s.updateNohzStats(c1) || c1.avg.utilAvg >= u || c1.lastBlockedTick != j {
		t.Errorf("due: util %d (was %d), last_blocked_load_update_tick %d, has_blocked_load %v; want decayed, %d, true",
			c1.avg.utilAvg, u, c1.lastBlockedTick, c1.hasBlockedLoad, j)
	}
}

// sched_balance_update_blocked_averages() (fair.c) clears
// rq->has_blocked_load only when the cfs_rq has neither load_avg nor
// util_avg left (cfs_rq_has_blocked()).
func TestBlockedLoadLeftWhileLoadOrUtil(t *testing.T) {
	for _, tc := range []struct {
		load, util uint64
		left       bool
	}{{0, 0, false}, {5, 0, true}, {0, 5, true}} {
		s, c1 := blockedSim(t)
		s.now += s.tickNs
		c1.avg = peltAvg{lastUpdate: s.rqClockPelt(c1), loadAvg: tc.load, utilAvg: tc.util}
		s.schedBalanceUpdateBlockedAverages(c1)
		if c1.hasBlockedLoad != tc.left {
			t.Errorf("load_avg %d, util_avg %d left: has_blocked_load %v; want %v", tc.load, tc.util, c1.hasBlockedLoad, tc.left)
		}
	}
}

// nohz_newidle_balance() (fair.c) sets NOHZ_NEWILB_KICK only when the CPU
// expects to idle at least sysctl_sched_migration_cost, nohz.has_blocked
// is set and nohz.next_blocked is not in the future
// (time_before(jiffies, nohz.next_blocked) returns).
func TestNohzNewidleBalanceKick(t *testing.T) {
	for _, tc := range []struct {
		name       string
		avgIdle    int64 // in sysctl_sched_migration_cost
		hasBlocked bool
		nextIn     int64 // nohz.next_blocked − jiffies
		kick       bool
	}{
		{"due", 2, true, 0, true},
		{"past due", 1, true, -1, true},
		{"short idle", 0, true, -1, false},
		{"no blocked load", 2, false, -1, false},
		{"next_blocked ahead", 2, true, 1, false},
	} {
		s, _ := blockedSim(t)
		c := &s.cpus[2]
		c.avgIdle = tc.avgIdle * s.migCost
		if tc.avgIdle == 0 {
			c.avgIdle = s.migCost - 1
		}
		s.nohzHasBlocked = tc.hasBlocked
		s.nohzNextBlocked = s.jiffies() + tc.nextIn
		c.newilbKick = false
		s.nohzNewidleBalance(c)
		if c.newilbKick != tc.kick {
			t.Errorf("%s: NOHZ_NEWILB_KICK %v; want %v", tc.name, c.newilbKick, tc.kick)
		}
	}
}

// nohz_run_idle_balance() (fair.c) runs the stats pass of a
// NOHZ_NEWILB_KICK only when the kick is the CPU's only nohz flag (not
// the pending ILB) and nothing needs the CPU (!need_resched()); the flag
// is consumed either way. The pass decays the idle CPUs' blocked load and
// sets nohz.next_blocked LOAD_AVG_PERIOD on.
func TestNohzRunIdleBalance(t *testing.T) {
	for _, tc := range []struct {
		name         string
		pending, ilb bool
		runs         bool
	}{
		{"idle", false, false, true},
		{"wake-up pending", true, false, false},
		{"pending ILB", false, true, false},
	} {
		s, c1 := blockedSim(t)
		s.now = 30 * s.tickNs
		c := &s.cpus[2]
		if tc.pending {
			c.pending = 1
		}
		if tc.ilb {
			s.ilbPending, s.ilbCPU = true, 2
		}
		s.nohzHasBlocked, s.nohzNextBlocked = false, 0
		u := c1.avg.utilAvg
		c.newilbKick = true
		s.nohzRunIdleBalance(c)
		ran := c1.avg.utilAvg < u && s.nohzNextBlocked == s.jiffies()+s.msecsToJiffies(loadAvgPeriodMs)
		if c.newilbKick || ran != tc.runs {
			t.Errorf("%s: kick left %v, pass ran %v (cpu 1 util %d, was %d; nohz.next_blocked %d); want the kick consumed and the pass run %v",
				tc.name, c.newilbKick, ran, c1.avg.utilAvg, u, s.nohzNextBlocked, tc.runs)
		}
		if !tc.runs && s.nohzHasBlocked {
			t.Errorf("%s: nohz.has_blocked set: a stats pass began", tc.name)
		}
	}
}

// update_sd_lb_stats() (fair.c) at the root domain sets rd->overloaded
// from its groups (set_rd_overloaded()), even when it finds no busiest
// group: a periodic balance over a 2-CPU machine's root domain, each CPU
// running one task, or a newly idle one from an idle CPU whose sibling
// runs one task, clears an rd->overloaded left from before.
func TestRootBalanceSetsRdOverloaded(t *testing.T) {
	for _, idle := range []cpuIdleType{cpuNotIdle, cpuNewlyIdle} {
		s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":2,"threads_per_core":1},
		"workload":{"groups":[{"name":"w","count":2,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
		if sd := s.t.Domains[0][0]; sd.Parent != nil || len(sd.Groups) != 2 {
			t.Fatalf("set-up: cpu 0's first domain %v is not a root of two groups", sd.Level)
		}
		cause := migPeriodic
		if idle == cpuNotIdle {
			place(s, 0, 0)
			s.schedule(&s.cpus[0])
		} else {
			cause = migNewidle
		}
		place(s, 1, 1)
		s.schedule(&s.cpus[1])
		s.now = 4_000_000
		s.rdOverloaded = true
		s.schedBalanceRq(0, 0, idle, cause)
		if s.rdOverloaded {
			t.Errorf("idle type %d: rd->overloaded still set after a root pass with at most one task per CPU", idle)
		}
	}
}

// update_sd_lb_stats() (fair.c) updates the LLC's SIS_UTIL scan budget
// (update_idle_cpu_scan()) in every pass over the LLC domain that is not
// a newly idle one, even when it finds no busiest group: nr_idle_scan =
// llc_weight · (1024 − min(x²·pct²/(10000·1024), 1024)) / 1024, x the
// LLC's util over its weight.
func TestLLCBalanceUpdatesIdleCPUScan(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":2,"cores_per_node":2,"threads_per_core":1},
		"workload":{"groups":[{"name":"w","count":1,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
	sd := s.t.Domains[0][0]
	if sd != s.sharedDom[0] || sd.Parent == nil || sd.Span.Weight() != 2 {
		t.Fatalf("set-up: cpu 0's first domain %v is not a 2-CPU LLC below the root", sd.Level)
	}
	place(s, 0, 1)
	s.schedule(&s.cpus[1])
	s.now = 4_000_000
	s.syncCPU(&s.cpus[1])
	s.updateCfsRqLoadAvg(&s.cpus[1])
	s.shared[0].nrIdleScan = 99
	s.schedBalanceRq(0, 0, cpuIdle, migPeriodic)
	x := int64(s.cpuUtilCfs(&s.cpus[0])+s.cpuUtilCfs(&s.cpus[1])) / 2
	pct := int64(sd.ImbalancePct)
	want := int(2 * (capScale - min(x*x*pct*pct/(10000*capScale), capScale)) / capScale)
	if x == 0 || s.shared[0].nrIdleScan != want {
		t.Errorf("nr_idle_scan %d after an idle pass over the LLC (util %d per CPU); want %d", s.shared[0].nrIdleScan, x, want)
	}
}

// nohz_balancer_kick() reads rq->nr_running, every class: a busy CPU
// whose one task shares it with the kernel noise's kworker has 2.
func TestNohzKickCountsTheKworker(t *testing.T) {
	s := taskSim(t, 1)
	c := &s.cpus[0]
	place(s, 0, 0)
	s.schedule(c)
	if r := s.nohzKickReason(c); r == "nr_running >= 2" {
		t.Fatal("one task: nr_running >= 2")
	}
	c.hkBusy = true
	if r := s.nohzKickReason(c); r != "nr_running >= 2" {
		t.Errorf("one task and the kworker: reason %q; want nr_running >= 2", r)
	}
}

package sim

import "testing"

// update_newidle_cost() (fair.c): a newidle pass's cost counts in the
// NI_RANDOM statistics; a cost above the domain's max becomes the max and
// restarts the decay clock; otherwise, once more than HZ jiffies have
// passed, the max decays by 253/256 and the call reports it.
func TestUpdateNewidleCost(t *testing.T) {
	s := lbSim(t)
	hz := int64(s.r.Policy.HZ)
	for _, tc := range []struct {
		name              string
		max, last, now    int64
		cost              int64
		wantMax, wantLast int64
		wantDecay         bool
		wantCall          int
	}{
		{"a higher cost becomes the max", 5000, 0, 10 * hz, 9000, 9000, 10 * hz, false, 1},
		{"a lower cost, a second gone: decay", 5000, 0, hz + 1, 4000, 5000 * 253 / 256, hz + 1, true, 1},
		{"a lower cost within the second", 5000, 0, hz, 4000, 5000, 0, false, 1},
		{"the periodic visit (cost 0) decays", 5000, 3, hz + 4, 0, 5000 * 253 / 256, hz + 4, true, 0},
		{"the periodic visit within the second", 5000, 3, hz + 3, 0, 5000, 3, false, 0},
	} {
		st := &sdState{maxNewidleLBCost: tc.max, lastDecayMaxLB: tc.last}
		decay := s.updateNewidleCost(st, tc.now, tc.cost, 0)
		if decay != tc.wantDecay || st.maxNewidleLBCost != tc.wantMax || st.lastDecayMaxLB != tc.wantLast || st.newidleCall != tc.wantCall {
			t.Errorf("%s: decay %v, max %d, last_decay %d, calls %d; want %v, %d, %d, %d", tc.name,
				decay, st.maxNewidleLBCost, st.lastDecayMaxLB, st.newidleCall, tc.wantDecay, tc.wantMax, tc.wantLast, tc.wantCall)
		}
	}
}

// sched_balance_domains() (fair.c) visits the domains above one whose
// balance stopped (continue_balancing = 0) as long as each needs a decay,
// and then sets rq->max_idle_balance_cost to the sum of the domains'
// max_newidle_lb_cost, at least sysctl_sched_migration_cost.
func TestSchedBalanceDomainsDecaysAboveAStop(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":2,"cores_per_node":4,"threads_per_core":2,"clusters_per_node":2},
		"workload":{"preset":"idle"},"run":{"duration":"10s","seed":1}}`)
	// CPU 0, CPU 1's idle sibling, balances the CLS domain for their core
	// (should_we_balance()): MC and NUMA above it are visited for the
	// decay alone, the second because the first needed one.
	c := &s.cpus[1]
	if len(c.sd) != 4 {
		t.Fatalf("setup: CPU 1 has %d domains; want SMT, CLS, MC and NUMA", len(c.sd))
	}
	hz := int64(s.r.Policy.HZ)
	s.now = 5 * s.tickNs * hz
	j := s.jiffies()
	var sum int64
	for i := range c.sd {
		c.sd[i].maxNewidleLBCost = 400_000
		c.sd[i].lastDecayMaxLB = 0
		sum += 400_000 * 253 / 256
	}
	s.schedBalanceDomains(c, c.id, j, cpuIdle, migPeriodic)
	for i := range c.sd {
		if st := c.sd[i]; st.maxNewidleLBCost != 400_000*253/256 || st.lastDecayMaxLB != j {
			t.Errorf("domain %d: max_newidle_lb_cost %d, last_decay %d; want %d, %d (decayed on the visit)",
				i, st.maxNewidleLBCost, st.lastDecayMaxLB, 400_000*253/256, j)
		}
	}
	if c.maxIdleBalanceCost != max(sum, s.migCost) {
		t.Errorf("max_idle_balance_cost %d; want Σ max_newidle_lb_cost %d (floor %d)", c.maxIdleBalanceCost, sum, s.migCost)
	}
	if c.sd[1].lastBalance != j || c.sd[2].lastBalance == j || c.sd[3].lastBalance == j {
		t.Errorf("last_balance: CLS %d, MC %d, NUMA %d at jiffy %d; want CLS's pass to stop the balancing",
			c.sd[1].lastBalance, c.sd[2].lastBalance, c.sd[3].lastBalance, j)
	}
}

// sched_balance_newidle() (fair.c) raises rq->max_idle_balance_cost to the
// pass's total cost, and ttwu_do_activate() (core.c) caps avg_idle at
// twice rq->max_idle_balance_cost, not at twice any one domain's max.
func TestAvgIdleCapIsTwiceMaxIdleBalanceCost(t *testing.T) {
	s := lbSim(t)
	c := &s.cpus[1]
	c.maxIdleBalanceCost = 3 * s.migCost
	for i := range c.sd {
		c.sd[i].maxNewidleLBCost = 5 * s.migCost // not the cap's input
	}
	c.idleStamp = 1
	s.now = 1 + 1000*s.migCost
	s.updateAvgIdle(c)
	if c.avgIdle != 6*s.migCost {
		t.Errorf("avg_idle after a long idle %d; want 2·max_idle_balance_cost = %d", c.avgIdle, 6*s.migCost)
	}
}

// sched_balance_newidle() (fair.c) raises rq->max_idle_balance_cost to
// the pass's total cost (curr_cost) when that is higher.
func TestNewidlePassRaisesMaxIdleBalanceCost(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1},
		"policy":{"features":{"NI_RANDOM":false}},"workload":{"preset":"idle"},"run":{"duration":"10s","seed":1}}`)
	c := &s.cpus[1]
	want := newidleCost(s.t.Domains[1][0])
	for _, tc := range []struct{ before, after int64 }{{want / 2, want}, {2 * want, 2 * want}} {
		c.maxIdleBalanceCost = tc.before
		s.rdOverloaded = true
		c.avgIdle = 1_000_000_000
		s.now += 1_000_000
		s.schedBalanceNewidle(c)
		if c.maxIdleBalanceCost != tc.after {
			t.Errorf("max_idle_balance_cost %d before a newidle pass costing %d: %d after; want %d", tc.before, want, c.maxIdleBalanceCost, tc.after)
		}
	}
}

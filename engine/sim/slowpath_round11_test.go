package sim

import (
	"testing"

	"schedplay/engine/topo"
)

// Round 11 of the mutation tests over slowpath.go: the rules of 6.12's
// fork/exec slow path (fair.c:7541-7650, 10747-11010) that no earlier test
// pinned, on CPU states set by hand.

// slowSim is a sim of machine m, at time 0, with its task 0 to place.
func slowSim(t *testing.T, m string) (*sim, *task) {
	t.Helper()
	s := simOf(t, `{"schedplay":1,"machine":`+m+`,"workload":{"groups":[{"name":"w","count":1,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
	return s, s.tasks[0]
}

// loadCPU sets cpu i running nr tasks with that cfs_rq load and util
// (runnable as util); nr 0 leaves it idle.
func (s *sim) loadCPU(i, nr int, load, util uint64) {
	c := &s.cpus[i]
	c.curr = nil
	if nr > 0 {
		c.curr = &task{id: -1 - i, weight: 1024, cpu: i, state: taskRunning}
	}
	c.nrRunning, c.inIdle = nr, nr == 0
	c.avg.loadAvg, c.avg.utilAvg, c.avg.runnableAvg = load, util, util
	s.cpuChanged(c)
}

// domainOf is cpu's domain at level (the lowest of that name).
func domainOf(t *testing.T, s *sim, cpu int, level topo.Level) *topo.Domain {
	t.Helper()
	for _, sd := range s.t.Domains[cpu] {
		if sd.Level == level {
			return sd
		}
	}
	t.Fatalf("no %s domain", level)
	return nil
}

// allowOnly restricts p to the given CPUs.
func allowOnly(s *sim, p *task, cpus ...int) {
	m := topo.NewCPUSet(s.t.NumCPUs())
	for _, c := range cpus {
		m.Set(topo.CPU(c))
	}
	p.allowed, p.nrAllowed = m, m.Weight()
}

const (
	clusterMachine = `{"nodes":1,"cores_per_node":4,"clusters_per_node":2,"threads_per_core":1}` // MC 0-3: groups 0-1, 2-3
	numaMachine    = `{"nodes":2,"cores_per_node":2,"threads_per_core":1}`                       // NUMA 0-3: groups 0-1, 2-3; imb_numa_nr 1
	numa16Machine  = `{"nodes":2,"cores_per_node":16,"threads_per_core":1}`                      // NUMA 0-31: groups 0-15, 16-31; imb_numa_nr 2
)

// update_pick_idlest() (fair.c:10800-10850): of two fully busy or
// overloaded groups with the same avg_load the first found stays
// ("if (idlest_sgs->avg_load <= sgs->avg_load) return false").
func TestUpdatePickIdlestLoadTie(t *testing.T) {
	for _, gt := range []groupType{groupFullyBusy, groupOverloaded} {
		idlest, sgs := sgStats{groupType: gt, avgLoad: 800}, sgStats{groupType: gt, avgLoad: 800}
		if updatePickIdlest(&idlest, &sgs) {
			t.Errorf("group type %d, equal avg_load: the later group replaces the idlest; want the first kept", gt)
		}
	}
}

// sched_balance_find_dst_group_cpu() (fair.c:7547-7600): of busy CPUs the
// first with the least load ("if (load < min_load)"), in span order.
func TestFindDstGroupCPULoadTie(t *testing.T) {
	s, p := slowSim(t, clusterMachine)
	g := &topo.Group{Span: domainOf(t, s, 0, "MC").Span, Weight: 4}
	for i, l := range []uint64{900, 500, 500, 800} {
		s.loadCPU(i, 1, l, 500)
	}
	if got := s.schedBalanceFindDstGroupCPU(g, p, 2); got != 1 {
		t.Errorf("busy CPUs with load 900, 500, 500, 800, this cpu 2: cpu %d; want 1, the first least loaded", got)
	}
}

// update_sg_wakeup_stats() (fair.c:10747-10797) sums load, util and
// nr_running over the CPUs p may run on, but takes group_capacity and
// group_weight from the whole group (sgc->capacity, group_weight).
func TestSgWakeupStatsWalkWholeGroupCapacity(t *testing.T) {
	s, p := slowSim(t, clusterMachine)
	allowOnly(s, p, 0, 2, 3)
	sd := domainOf(t, s, 0, "MC")
	var sgs sgStats
	s.updateSgWakeupStats(sd, &sd.Groups[0], p, &sgs) // CPUs 0-1, p allowed on 0 only
	if sgs.groupCapacity != 2048 || sgs.groupWeight != 2 {
		t.Errorf("group 0-1 with p allowed on cpu 0: capacity %d, weight %d; want 2048 and 2, the whole group's", sgs.groupCapacity, sgs.groupWeight)
	}
}

// sched_balance_find_dst_group() (fair.c:10862-11010) after the idlest
// group is found: a local group of a lower type keeps the task; of fully
// busy groups the task moves only when the local avg_load is more than
// imbalance_pct (117 %) of the idlest's, and across NUMA only when the
// idlest's plus the imbalance (1024·17 %, 174) is below the local's.
func TestFindDstGroupLocalVersusIdlest(t *testing.T) {
	for _, c := range []struct {
		name          string
		machine       string
		level         topo.Level
		local, remote [2]uint64 // load of each CPU; 0: idle
		move          bool
	}{
		{"local has spare, remote fully busy", clusterMachine, "MC", [2]uint64{1000, 0}, [2]uint64{1000, 1000}, false},
		{"fully busy, local 110 % of remote", clusterMachine, "MC", [2]uint64{1100, 1100}, [2]uint64{1000, 1000}, false},
		{"fully busy, local 120 % of remote", clusterMachine, "MC", [2]uint64{1200, 1200}, [2]uint64{1000, 1000}, true},
		{"NUMA fully busy, local = remote + 174", numaMachine, "NUMA", [2]uint64{1174, 1174}, [2]uint64{1000, 1000}, false},
		{"NUMA fully busy, local = remote + 250", numaMachine, "NUMA", [2]uint64{1250, 1250}, [2]uint64{1000, 1000}, true},
	} {
		s, p := slowSim(t, c.machine)
		for i, l := range append(c.local[:], c.remote[:]...) {
			if l > 0 {
				s.loadCPU(i, 1, l, 1000)
			} else {
				s.loadCPU(i, 0, 0, 0)
			}
		}
		sd := domainOf(t, s, 0, c.level)
		g := s.schedBalanceFindDstGroup(sd, p, 0)
		if got := g != nil; got != c.move {
			t.Errorf("%s: moved %v; want %v", c.name, got, c.move)
		}
	}
}

// sched_balance_find_dst_group(), group_has_spare across NUMA: the task
// stays local when adjust_numa_imbalance() allows it — the local
// nr_running counting the task (sum_nr_running + 1) within imb_numa_nr,
// that capped by the CPUs of the local group p may use — and the idle
// CPUs differ by at most NUMA_IMBALANCE_MIN (2).
func TestFindDstGroupNUMAImbalance(t *testing.T) {
	// imb_numa_nr 1: the parent running on cpu 0 and p make 2 > 1, so p
	// goes to the node with more idle CPUs.
	s, p := slowSim(t, numaMachine)
	s.loadCPU(0, 1, 1000, 1000)
	if s.schedBalanceFindDstGroup(domainOf(t, s, 0, "NUMA"), p, 0) == nil {
		t.Error("NUMA, local node 1 of 2 CPUs busy, remote idle, imb_numa_nr 1: stayed; want moved (2 running with p)")
	}
	// imb_numa_nr 2, but p may use only cpu 0 of the local node: capped
	// to 1, and p moves; allowed a second, idle, local CPU it stays.
	s, p = slowSim(t, numa16Machine)
	s.loadCPU(0, 1, 1000, 1000)
	sd := domainOf(t, s, 0, "NUMA")
	if sd.ImbNUMANr != 2 {
		t.Fatalf("set-up: imb_numa_nr %d", sd.ImbNUMANr)
	}
	allowOnly(s, p, 0, 16, 17)
	if s.schedBalanceFindDstGroup(sd, p, 0) == nil {
		t.Error("NUMA, p allowed cpu 0 (busy) locally and two idle remote CPUs: stayed; want moved (imb_numa_nr capped to 1)")
	}
	allowOnly(s, p, 0, 1, 16, 17)
	if g := s.schedBalanceFindDstGroup(sd, p, 0); g != nil {
		t.Errorf("NUMA, p allowed cpus 0 (busy) and 1 locally, two idle remote ones: moved to %s; want kept (2 running ≤ imb_numa_nr 2, 1 idle CPU of difference)", g.Span)
	}
}

// sched_balance_find_dst_group(), group_misfit_task: the task moves only
// to a group of a strictly higher max capacity ("if
// (local->sgc->max_capacity >= idlest->sgc->max_capacity) return NULL").
// hikey960's PKG, a task too big for any CPU: from the little cluster it
// goes to the big one, but not when the little CPUs are made as big.
func TestFindDstGroupMisfitNeedsBiggerCPU(t *testing.T) {
	for _, c := range []struct {
		name    string
		littles int
		move    bool
	}{{"little cluster local", 0, true}, {"as big locally", 1024, false}} {
		s, p := slowSim(t, `{"preset":"hikey960"}`)
		allowOnly(s, p, 0, 1, 2, 4, 5, 6) // the walk of the span, which reads each CPU's capacity
		if c.littles > 0 {
			for i := range 4 {
				s.cpus[i].cap = c.littles
			}
			syncBuildCapacities(s)
		}
		p.avg.utilAvg, p.utilEst = 1024, 1024
		g := s.schedBalanceFindDstGroup(domainOf(t, s, 0, "PKG"), p, 0)
		if got := g != nil; got != c.move {
			t.Errorf("%s: moved %v; want %v", c.name, got, c.move)
		}
	}
}

// sched_balance_find_dst_cpu() (fair.c:7603-7650): after moving to
// new_cpu it descends into new_cpu's domains strictly smaller than the
// level it left ("if (weight <= tmp->span_weight) break"), never new_cpu's
// domain of the same weight. On a ring of four one-CPU nodes (neighbours
// at distance 20, opposite nodes at 40, beyond node_reclaim_distance) cpu
// 0's SD_BALANCE_FORK domain spans nodes 3, 0, 1 and cpu 1's spans 0, 1,
// 2: the task forked on cpu 0 goes to cpu 1, the idlest of its level,
// and stays there although cpu 2, in cpu 1's level only, is idler.
func TestFindDstCPUDescendsBelowTheLevel(t *testing.T) {
	s, p := slowSim(t, `{"nodes":4,"cores_per_node":1,"threads_per_core":1,
		"distances":[[10,20,40,20],[20,10,20,40],[40,20,10,20],[20,40,20,10]]}`)
	for i, l := range []uint64{2000, 500, 100, 2000} {
		s.loadCPU(i, 1, l, 1000)
	}
	var sd *topo.Domain
	for _, d := range s.t.Domains[0] {
		if d.Flags&topo.SDBalanceFork != 0 {
			sd = d
		}
	}
	if sd == nil || sd.Span.Weight() != 3 || !sd.Span.Has(3) || sd.Span.Has(2) {
		t.Fatalf("set-up: cpu 0's fork domain %v", sd)
	}
	if got := s.schedBalanceFindDstCPU(sd, p, 0); got != 1 {
		t.Errorf("fork on cpu 0 (load 2000; cpu 1 500, cpu 2 100, cpu 3 2000): cpu %d; want 1", got)
	}
}

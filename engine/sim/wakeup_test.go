package sim

import (
	"testing"

	"schedplay/engine/topo"
)

// wakeSim builds a sim of veraTestMachine (no tasks) under a policy document.
func wakeSim(t *testing.T, policy string) *sim {
	t.Helper()
	doc := `{"schedplay":1,"machine":` + veraTestMachine + `,"policy":` + policy + `,"workload":{"preset":"idle"},"run":{"duration":"10ms","seed":1}}`
	return simOf(t, doc)
}

// busy makes a CPU run a dummy task.
func (s *sim) busy(cpus ...int) {
	for _, c := range cpus {
		cs := &s.cpus[c]
		cs.curr = &task{id: -1 - c, weight: 1024, cpu: c, state: taskRunning}
		cs.nrRunning, cs.inIdle = 1, false
		s.cpuChanged(cs) // as the engine marks every change of curr and nr_running
	}
}

// wakee is a task allowed on node 0 of Vera (both siblings), with util u.
func (s *sim) wakee(u uint64) *task {
	n := s.t.NumCPUs()
	al, _ := topo.ParseCPUList("0-87,176-263", n)
	p := &task{id: 0, weight: 1024, allowed: al, nrAllowed: al.Weight(), maxAllowedCap: 1024, recentUsedCPU: -1, state: taskBlocked}
	p.avg.utilAvg = u
	p.avg.lastWall = 0
	return p
}

func TestSelectIdleSibling(t *testing.T) {
	noCap := `{"asym_cpucapacity":false}`
	v6NoCap := `{"asym_cpucapacity":false,"smt_asym_packing":"on","idle_select_asym":true}`
	allPE0BusyBut := func(idle ...int) []int {
		var b []int
	next:
		for c := 0; c < 88; c++ {
			for _, i := range idle {
				if c == i {
					continue next
				}
			}
			b = append(b, c)
		}
		return b
	}
	cases := []struct {
		name       string
		policy     string
		busy       []int
		idleCores  bool
		nrIdleScan int
		util       uint64
		prev, targ int
		want       int
	}{
		{"target idle", noCap, nil, true, 176, 100, 3, 3, 3},
		{"prev idle, target busy", noCap, []int{7}, true, 176, 100, 3, 7, 3},
		// Vera numbering: scanning from target+1 = 11 meets core 5 via its PE1 (181) first.
		{"wrap order enters an idle core on PE1", noCap, allPE0BusyBut(5), true, 176, 100, 10, 10, 181},
		{"v6: select_idle_smt_cpu moves to PE0", v6NoCap, allPE0BusyBut(5), true, 176, 100, 10, 10, 5},
		{"v6: idle PE1 target → its idle PE0", v6NoCap, nil, true, 176, 100, 176, 176, 0},
		{"no idle core hint: select_idle_smt on prev", noCap, append(allPE0BusyBut(), 12), false, 176, 100, 10, 12, 186},
		{"SIS_UTIL budget 0: LLC overloaded → target", noCap, append(allPE0BusyBut(), 188), false, 0, 100, 12, 12, 12},
		// asym capacity (Vera mainline): a task that fits nowhere goes to the
		// biggest idle core (the 1024 cores 40-43), not its idle prev.
		{"select_idle_capacity prefers capacity", `{}`, nil, true, 176, 900, 10, 10, 40},
		{"select_idle_capacity: small task stays on target", `{}`, nil, true, 176, 100, 10, 10, 10},
		{"v6 + capacity: PE1 target of an idle core → PE0", `{"preset":"v6-on"}`, nil, true, 176, 100, 186, 186, 10},
	}
	for _, c := range cases {
		s := wakeSim(t, c.policy)
		s.busy(c.busy...)
		llc := &s.llcs[s.t.SDLLCID[c.targ]]
		llc.hasIdleCores = c.idleCores
		llc.nrIdleScan = c.nrIdleScan
		p := s.wakee(c.util)
		p.cpu = c.prev
		if got := s.selectIdleSibling(p, c.prev, c.targ); got != c.want {
			t.Errorf("%s: select_idle_sibling(prev %d, target %d) = %d; want %d", c.name, c.prev, c.targ, got, c.want)
		}
	}
}

// With has_idle_cores and SMT-aware select_idle_capacity (TIP7), an idle PE
// whose sibling is busy (216) is passed over for the next fully idle core
// (217, core 41's PE1 in wrap order); K612 takes the fitting target itself.
func TestSelectIdleCapacitySMTAware(t *testing.T) {
	for _, c := range []struct {
		policy string
		want   int
	}{
		{`{}`, 217},
		{`{"features":{"SMT_AWARE_ASYM_CAPACITY":false}}`, 216},
	} {
		s := wakeSim(t, c.policy)
		s.busy(40) // core 40's PE0 busy: 216 is an idle PE on a busy core
		p := s.wakee(100)
		p.cpu = 216
		s.llcs[0].hasIdleCores = true
		if got := s.selectIdleCapacity(p, s.t.SDAsymCPUCapacity[216], 216, 100); got != c.want {
			t.Errorf("policy %s: select_idle_capacity from 216 = %d; want %d", c.policy, got, c.want)
		}
	}
}

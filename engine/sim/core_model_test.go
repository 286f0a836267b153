package sim

import (
	"math"
	"testing"
)

// coreSim builds a one-core sim of the given SMT model (no tasks).
func coreSim(t *testing.T, threads int, smt string) *sim {
	t.Helper()
	doc := `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":1,"threads_per_core":` + itoa(threads) + `,"smt":` + smt + `},
		"workload":{"preset":"idle"},"run":{"duration":"1s","seed":1}}`
	return simOf(t, doc)
}

// setBusy makes a PE busy (a dummy running task) or idle at time at.
func (s *sim) setBusy(at int64, cpu int, busy bool) {
	s.now = at
	c := &s.cpus[cpu]
	if busy {
		c.curr = &task{id: -1 - cpu, weight: 1024, cpu: cpu, state: taskRunning}
	} else {
		c.curr = nil
	}
	s.peBusyChanged(c)
}

// evalAt runs the core's pending re-evaluation if it is due by at.
func (s *sim) evalAt(at int64) {
	for {
		ev, ok := s.q.peek()
		if !ok || ev.at > at {
			break
		}
		s.q.pop()
		if ev.kind == evCoreEval {
			s.now = ev.at
			s.coreEvaluate(int(ev.a))
		}
	}
	s.now = at
}

func TestSpatialStateMachine(t *testing.T) {
	s := coreSim(t, 2, `{"model":"spatial","yield":[1,1.064],"qual":"3us","hold":"1ms","partitioned_single":0.6}`)
	k := &s.cores[0]
	ms := int64(1_000_000)
	steps := []struct {
		name        string
		do          func()
		mode        Mode
		factor      float64 // of the busy PE (or both)
		transitions int64
	}{
		{"PE0 alone: ST", func() { s.setBusy(0, 0, true) }, ModeST, 1, 0},
		{"PE0 idle", func() { s.setBusy(1*ms, 0, false) }, ModeIdle, 1, 0},
		{"PE1 100 µs later, no recent transition: free switch", func() { s.setBusy(1*ms+100_000, 1, true) }, ModeST, 1, 0},
		{"PE1 idle", func() { s.setBusy(2*ms, 1, false) }, ModeIdle, 1, 0},
		{"PE0 within T_qual: repartition", func() { s.setBusy(2*ms+1000, 0, true) }, ModePartitioned, 0.6, 1},
		{"still within hold", func() { s.evalAt(2*ms + 500_000) }, ModePartitioned, 0.6, 1},
		{"re-qualified after hold", func() { s.evalAt(3*ms + 200_000) }, ModeST, 1, 2},
		{"PE0 idle again", func() { s.setBusy(3*ms+500_000, 0, false) }, ModeIdle, 1, 2},
		{"PE1 after T_qual but within T_hold of the last transition: repartition", func() { s.setBusy(3*ms+600_000, 1, true) }, ModePartitioned, 0.6, 3},
		{"back to ST after the hold", func() { s.evalAt(5 * ms) }, ModeST, 1, 4},
		{"both busy: SMT", func() { s.setBusy(6*ms, 0, true) }, ModeSMT, 0.532, 5},
		{"PE0 leaves: the owner stays partitioned until T_qual", func() { s.setBusy(7*ms, 0, false) }, ModePartitioned, 0.6, 5},
		{"back to ST", func() { s.evalAt(7*ms + 100_000) }, ModeST, 1, 6},
		{"PE1 idle a long time", func() { s.setBusy(8*ms, 1, false) }, ModeIdle, 1, 6},
		{"PE0 after T_qual and T_hold: free switch", func() { s.setBusy(10*ms, 0, true) }, ModeST, 1, 6},
	}
	for _, st := range steps {
		st.do()
		if Mode(k.mode) != st.mode {
			t.Fatalf("%s: mode %d; want %d", st.name, k.mode, st.mode)
		}
		if st.mode != ModeIdle {
			busy := 0
			if k.busy&1 == 0 {
				busy = 1
			}
			if math.Abs(k.factor[busy]-st.factor) > 1e-9 {
				t.Fatalf("%s: factor %.3f; want %.3f", st.name, k.factor[busy], st.factor)
			}
		}
		if s.m.transitions != st.transitions {
			t.Fatalf("%s: %d transitions; want %d", st.name, s.m.transitions, st.transitions)
		}
	}
}

// POWER7 folding: the mode follows the highest busy thread (SMT1, SMT2,
// SMT4), and every thread runs at yield[m-1]/m.
func TestFoldingModes(t *testing.T) {
	s := coreSim(t, 4, `{"model":"folding","yield":[1,1.24,1.4,1.6]}`)
	k := &s.cores[0]
	cases := []struct {
		busy   []bool
		factor float64
		mode   Mode
	}{
		{[]bool{true, false, false, false}, 1, ModeST},
		{[]bool{true, true, false, false}, 0.62, ModeSMT},
		{[]bool{true, false, true, false}, 0.4, ModeSMT},  // thread 2 busy: SMT4 even with 1 idle
		{[]bool{false, false, false, true}, 0.4, ModeSMT}, // a lone thread 3 still means SMT4
		{[]bool{false, true, false, false}, 0.62, ModeSMT},
	}
	for i, c := range cases {
		for cpu, b := range c.busy {
			s.setBusy(int64(i+1)*1000, cpu, b)
		}
		for cpu, b := range c.busy {
			if b && math.Abs(k.factor[cpu]-c.factor) > 1e-9 {
				t.Errorf("case %d: thread %d factor %.3f; want %.3f", i, cpu, k.factor[cpu], c.factor)
			}
		}
		if Mode(k.mode) != c.mode {
			t.Errorf("case %d: mode %d; want %d", i, k.mode, c.mode)
		}
	}
}

// Classic HT: no hysteresis, yield[k-1]/k per busy thread.
func TestCompetitiveRates(t *testing.T) {
	s := coreSim(t, 2, `{"model":"competitive","yield":[1,1.2]}`)
	k := &s.cores[0]
	s.setBusy(0, 0, true)
	if k.factor[0] != 1 {
		t.Errorf("one busy: factor %v; want 1", k.factor[0])
	}
	s.setBusy(10, 1, true)
	if math.Abs(k.factor[0]-0.6) > 1e-9 || math.Abs(k.factor[1]-0.6) > 1e-9 {
		t.Errorf("two busy: factors %v; want 0.6 each", k.factor)
	}
	s.setBusy(20, 1, false)
	if k.factor[0] != 1 || Mode(k.mode) != ModeST {
		t.Errorf("back to one: factor %v mode %d; want 1, ST at once", k.factor[0], k.mode)
	}
}

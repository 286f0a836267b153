package explain

import (
	"strings"
	"testing"

	"schedplay/engine/sim"
	"schedplay/engine/topo"
)

// twoCores is a 2-core × 2-thread machine: core 0 = CPUs 0,2; core 1 = 1,3.
var twoCores = [][]topo.CPU{{0, 2}, {1, 3}}

func result(busy []int64, res []sim.ModeResidency, tl *sim.Timeline, reps int) *sim.Result {
	r := &sim.Result{Timeline: tl}
	for i := 0; i < reps; i++ {
		r.Reps = append(r.Reps, sim.RepMetrics{BusyNs: busy, ModeResidency: res})
	}
	return r
}

func TestCoreDeltas(t *testing.T) {
	a := result([]int64{10, 20, 30, 40},
		[]sim.ModeResidency{{ST: 100, SMT: 100}, {ST: 0, SMT: 50, Idle: 10}},
		&sim.Timeline{Modes: [][]sim.ModeInterval{
			{{Mode: sim.ModeST}, {Mode: sim.ModeSwitching}, {Mode: sim.ModeSMT}, {Mode: sim.ModePartitioned}, {Mode: sim.ModeST}},
			{{Mode: sim.ModeSMT}},
		}}, 2)
	b := result([]int64{15, 20, 30, 0},
		[]sim.ModeResidency{{ST: 150, SMT: 50}, {ST: 25, Partitioned: 75}},
		&sim.Timeline{Modes: [][]sim.ModeInterval{{{Mode: sim.ModeST}}, {{Mode: sim.ModeST}, {Mode: sim.ModeIdle}, {Mode: sim.ModeSMT}}}}, 1)
	ds, err := CoreDeltas(a, b, twoCores)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 {
		t.Fatalf("%d cores", len(ds))
	}
	c0, c1 := ds[0], ds[1]
	// Core 0: busy = cpu0 + cpu2.
	if c0.A.BusyNs != 40 || c0.B.BusyNs != 45 || c0.Diff.BusyNs != 5 {
		t.Errorf("core 0 busy %+v", c0)
	}
	if c1.A.BusyNs != 60 || c1.B.BusyNs != 20 || c1.Diff.BusyNs != -40 {
		t.Errorf("core 1 busy %+v", c1)
	}
	if c0.A.STShare != 0.5 || c0.B.STShare != 0.75 || c1.B.STShare != 0.25 || c1.Diff.STNs != 25 {
		t.Errorf("ST: %+v %+v", c0, c1)
	}
	// ST → switching → SMT → partitioned → ST: two family changes.
	if c0.A.Transitions != 2 || c0.B.Transitions != 0 || c0.Diff.Transitions != -2 {
		t.Errorf("core 0 transitions %+v", c0)
	}
	if c1.A.Transitions != 0 || c1.B.Transitions != 1 {
		t.Errorf("core 1 transitions %+v", c1)
	}
	if strings.Join([]string{itoa(c1.CPUs[0]), itoa(c1.CPUs[1])}, ",") != "1,3" {
		t.Errorf("cpus %v", c1.CPUs)
	}
	b.Timeline = nil
	ds, _ = CoreDeltas(a, b, twoCores)
	if ds[0].B.Transitions != -1 || ds[0].Diff.Transitions != -1 {
		t.Errorf("no timeline: %+v", ds[0])
	}
}

func itoa(i int) string { return string(rune('0' + i)) }

func TestCoreDeltasMismatch(t *testing.T) {
	a := result([]int64{1, 2, 3, 4}, make([]sim.ModeResidency, 2), nil, 1)
	b := result([]int64{1, 2}, make([]sim.ModeResidency, 1), nil, 1)
	if _, err := CoreDeltas(a, b, twoCores); err == nil {
		t.Error("different machines accepted")
	}
	if _, err := CoreDeltas(a, &sim.Result{}, twoCores); err == nil {
		t.Error("empty result accepted")
	}
}

package site

import (
	"testing"

	"schedplay/engine/topo"
)

// hybridMachine is intel-hybrid's shape: 8 two-thread P-cores, 8
// one-thread E-cores, core-major.
func hybridMachine() topo.Machine {
	return topo.Machine{Nodes: 1, CoresPerNode: 16, ThreadsPerCore: 2, Numbering: topo.CoreMajor,
		CoreClasses: []topo.CoreClass{{Name: "p-core", Cores: 8, Capacity: 1024, Speed: 1, Threads: 2},
			{Name: "e-core", Cores: 8, Capacity: 1024, Speed: 0.6, Threads: 1}}}
}

// TestMachineCPUsClassThreads: the drawing numbers CPUs with each class's
// own thread count, as topo.Build does.
func TestMachineCPUsClassThreads(t *testing.T) {
	m := hybridMachine()
	cpus, err := MachineCPUs(m)
	if err != nil {
		t.Fatal(err)
	}
	tp, err := topo.Build(m, topo.DomainPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cpus) != 24 || len(cpus) != tp.NumCPUs() {
		t.Fatalf("%d lane CPUs, topo %d; want 24", len(cpus), tp.NumCPUs())
	}
	for i, c := range cpus {
		want := tp.CPUs[i]
		if c.CPU != i || c.Core != want.Core || c.Thread != want.Thread || c.Class != want.Class {
			t.Errorf("CPU %d: %+v; topo says core %d thread %d class %s", i, c, want.Core, want.Thread, want.Class)
		}
	}
	if c := cpus[16]; c.Core != 8 || c.Thread != 0 || c.Class != "e-core" {
		t.Errorf("CPU 16 = %+v; want E-core 8, thread 0", c)
	}
	// sibling-major with mixed classes, compared with topo the same way
	m.Numbering = topo.SiblingMajor
	cpus, _ = MachineCPUs(m)
	tp, _ = topo.Build(m, topo.DomainPolicy{})
	for i, c := range cpus {
		if want := tp.CPUs[i]; c.Core != want.Core || c.Thread != want.Thread {
			t.Errorf("sibling-major CPU %d: core %d thread %d; topo core %d thread %d", i, c.Core, c.Thread, want.Core, want.Thread)
		}
	}
	if got := threadsLabel(m); got != "up to 2 threads per core" {
		t.Errorf("label %q", got)
	}
	if got := threadsLabel(veraMachine()); got != "2 threads per core" {
		t.Errorf("vera label %q", got)
	}
	m.CoreClasses[1].Threads = 3
	if _, err := MachineCPUs(m); err == nil {
		t.Error("a class with 3 threads on a 2-thread machine was drawn")
	}
	// The lanes: one row per CPU, the E-cores with one row each.
	l := LayoutLanes(mustCPUs(t, hybridMachine()), 2000, false)
	if l.Aggregated || len(l.Rows) != 24 || len(l.Bands) != 16 || l.Rows[16].Threads != 1 || l.Rows[0].Threads != 2 {
		t.Errorf("hybrid layout: aggregated %v, %d rows, %d bands", l.Aggregated, len(l.Rows), len(l.Bands))
	}
}

func mustCPUs(t *testing.T, m topo.Machine) []LaneCPU {
	t.Helper()
	cpus, err := MachineCPUs(m)
	if err != nil {
		t.Fatal(err)
	}
	return cpus
}

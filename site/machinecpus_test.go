package site

import (
	"encoding/json"
	"testing"

	"schedplay/engine/topo"
	"schedplay/presets"
)

// hybridMachine is intel-hybrid's shape: 8 two-thread P-cores with their
// own L2, 8 one-thread E-cores sharing an L2 per 4-core module, core-major.
func hybridMachine() topo.Machine {
	return topo.Machine{Nodes: 1, CoresPerNode: 16, ThreadsPerCore: 2, Numbering: topo.CoreMajor,
		CoreClasses: []topo.CoreClass{{Name: "p-core", Cores: 8, Capacity: 1024, Speed: 1, Threads: 2, ClusterCores: 1},
			{Name: "e-core", Cores: 8, Capacity: 1024, Speed: 0.6, Threads: 1, ClusterCores: 4}}}
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
		if c.CPU != i || c.Core != want.Core || c.Thread != want.Thread || c.Class != want.Class || c.Cluster != want.Cluster {
			t.Errorf("CPU %d: %+v; topo says core %d thread %d class %s cluster %d", i, c, want.Core, want.Thread, want.Class, want.Cluster)
		}
	}
	// each P-core its own cluster (0-7), the E-core modules 8 and 9
	if c := cpus[16]; c.Core != 8 || c.Thread != 0 || c.Class != "e-core" || c.Cluster != 8 || cpus[23].Cluster != 9 || cpus[15].Cluster != 7 {
		t.Errorf("CPU 16 = %+v, CPU 15 cluster %d, CPU 23 cluster %d; want E-core 8, thread 0, clusters 8, 7, 9", c, cpus[15].Cluster, cpus[23].Cluster)
	}
	// sibling-major with mixed classes, compared with topo the same way
	m.Numbering = topo.SiblingMajor
	cpus, _ = MachineCPUs(m)
	tp, _ = topo.Build(m, topo.DomainPolicy{})
	for i, c := range cpus {
		if want := tp.CPUs[i]; c.Core != want.Core || c.Thread != want.Thread || c.Cluster != want.Cluster {
			t.Errorf("sibling-major CPU %d: core %d thread %d cluster %d; topo core %d thread %d cluster %d",
				i, c.Core, c.Thread, c.Cluster, want.Core, want.Thread, want.Cluster)
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

// TestMachineCPUsPresets: for every machine preset the drawing places each
// CPU in the node, cluster, core and thread topo.Build gives it.
func TestMachineCPUsPresets(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range ps.Names(presets.Machine) {
		p, _ := ps.Get(presets.Machine, name)
		var m topo.Machine
		if err := json.Unmarshal(p.Body, &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		tp, err := topo.Build(m, topo.DomainPolicy{AsymConfig: topo.AsymConfig{Priority: topo.PriorityDefault}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cpus := mustCPUs(t, m)
		if len(cpus) != tp.NumCPUs() {
			t.Fatalf("%s: %d drawn CPUs, topo %d", name, len(cpus), tp.NumCPUs())
		}
		for i, c := range cpus {
			w := tp.CPUs[i]
			if c.Node != w.Node || c.Cluster != w.Cluster || c.Core != w.Core || c.Thread != w.Thread {
				t.Errorf("%s CPU %d: drawn %+v; topo node %d cluster %d core %d thread %d", name, i, c, w.Node, w.Cluster, w.Core, w.Thread)
				break
			}
		}
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

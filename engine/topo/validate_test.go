package topo_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"schedplay/engine/topo"
	"schedplay/presets"
)

// TestBuildErrors: impossible machines and policies are errors naming the field.
func TestBuildErrors(t *testing.T) {
	ok := func() topo.Machine { return topo.Machine{Nodes: 2, CoresPerNode: 44, ThreadsPerCore: 2} }
	levels := func(l ...topo.Level) *[]topo.Level { return &l }
	tests := []struct {
		name   string
		edit   func(m *topo.Machine, p *topo.DomainPolicy)
		path   string
		substr string
	}{
		{"no nodes", func(m *topo.Machine, _ *topo.DomainPolicy) { m.Nodes = 0 }, "machine.nodes", "0 nodes"},
		{"negative cores", func(m *topo.Machine, _ *topo.DomainPolicy) { m.CoresPerNode = -3 }, "machine.cores_per_node", "-3"},
		{"3 threads", func(m *topo.Machine, _ *topo.DomainPolicy) { m.ThreadsPerCore = 3 }, "machine.threads_per_core", "1, 2, 4 or 8"},
		{"too many CPUs", func(m *topo.Machine, _ *topo.DomainPolicy) { m.CoresPerNode = 2000; m.ThreadsPerCore = 2 }, "machine", "8000 CPUs"},
		{"huge product", func(m *topo.Machine, _ *topo.DomainPolicy) { m.Nodes = 4096; m.CoresPerNode = 4096 }, "machine", "limit is 4096"},
		{"uneven clusters", func(m *topo.Machine, _ *topo.DomainPolicy) { m.ClustersPerNode = 5 }, "machine.clusters_per_node", "evenly"},
		{"bad llc", func(m *topo.Machine, _ *topo.DomainPolicy) { m.LLC = "socket" }, "machine.llc", "socket"},
		{"bad numbering", func(m *topo.Machine, _ *topo.DomainPolicy) { m.Numbering = "random" }, "machine.numbering", "random"},
		{"cpu_ids short", func(m *topo.Machine, _ *topo.DomainPolicy) { m.CPUIDs = "0-174" }, "machine.cpu_ids", "175 CPU numbers; the machine has 176"},
		{"cpu_ids twice", func(m *topo.Machine, _ *topo.DomainPolicy) { m.CPUIDs = "0-174,3" }, "machine.cpu_ids", "CPU 3 appears twice"},
		{"cpu_ids range", func(m *topo.Machine, _ *topo.DomainPolicy) { m.CPUIDs = "1-176" }, "machine.cpu_ids", "CPU 176 does not exist"},
		{"classes short", func(m *topo.Machine, _ *topo.DomainPolicy) {
			m.CoreClasses = []topo.CoreClass{{Name: "a", Cores: 80, Capacity: 1024, Speed: 1}}
		}, "machine.core_classes", "classes cover 80 cores; the machine has 88"},
		{"capacity 0", func(m *topo.Machine, _ *topo.DomainPolicy) {
			m.CoreClasses = []topo.CoreClass{{Name: "a", Cores: 88, Capacity: 0, Speed: 1}}
		}, "machine.core_classes[0].capacity", "1..1024"},
		{"capacity 2048", func(m *topo.Machine, _ *topo.DomainPolicy) {
			m.CoreClasses = []topo.CoreClass{{Name: "a", Cores: 8, Capacity: 1024, Speed: 1}, {Name: "b", Cores: 80, Capacity: 2048, Speed: 1}}
		}, "machine.core_classes[1].capacity", "2048"},
		{"speed 0", func(m *topo.Machine, _ *topo.DomainPolicy) {
			m.CoreClasses = []topo.CoreClass{{Name: "a", Cores: 88, Capacity: 512}}
		}, "machine.core_classes[0].speed", "speed 0"},
		{"priorities length", func(m *topo.Machine, _ *topo.DomainPolicy) { m.Priorities = []int{1, 2, 3} }, "machine.priorities", "3 values; the machine has 176 CPUs"},
		{"class threads above threads_per_core", func(m *topo.Machine, _ *topo.DomainPolicy) {
			m.CoreClasses = []topo.CoreClass{{Name: "p", Cores: 8, Capacity: 1024, Speed: 1}, {Name: "e", Cores: 80, Capacity: 1024, Speed: 1, Threads: 4}}
		}, "machine.core_classes[1].threads", "want 1..2"},
		{"class threads negative", func(m *topo.Machine, _ *topo.DomainPolicy) {
			m.CoreClasses = []topo.CoreClass{{Name: "p", Cores: 88, Capacity: 1024, Speed: 1, Threads: -1}}
		}, "machine.core_classes[0].threads", "-1 threads"},
		{"priorities count the class threads", func(m *topo.Machine, _ *topo.DomainPolicy) {
			// 8 cores × 2 threads + 80 cores × 1 thread = 96 CPUs, not 88 × 2
			m.CoreClasses = []topo.CoreClass{{Name: "p", Cores: 8, Capacity: 1024, Speed: 1, Threads: 2}, {Name: "e", Cores: 80, Capacity: 1024, Speed: 1, Threads: 1}}
			m.Priorities = make([]int, 176)
		}, "machine.priorities", "176 values; the machine has 96 CPUs"},
		{"too many CPUs with class threads", func(m *topo.Machine, _ *topo.DomainPolicy) {
			m.Nodes, m.CoresPerNode, m.ThreadsPerCore = 1, 4000, 2
			m.CoreClasses = []topo.CoreClass{{Name: "p", Cores: 200, Capacity: 1024, Speed: 1}, {Name: "e", Cores: 3800, Capacity: 1024, Speed: 1, Threads: 1}}
		}, "machine", "4200 CPUs"},
		{"cluster_cores on one class only", func(m *topo.Machine, _ *topo.DomainPolicy) {
			m.CoreClasses = []topo.CoreClass{{Name: "p", Cores: 8, Capacity: 1024, Speed: 1}, {Name: "e", Cores: 80, Capacity: 1024, Speed: 1, ClusterCores: 4}}
		}, "machine.core_classes[0].cluster_cores", "core_classes[1] sets cluster_cores"},
		{"cluster_cores not dividing the class", func(m *topo.Machine, _ *topo.DomainPolicy) {
			m.CoreClasses = []topo.CoreClass{{Name: "p", Cores: 8, Capacity: 1024, Speed: 1, ClusterCores: 1}, {Name: "e", Cores: 80, Capacity: 1024, Speed: 1, ClusterCores: 3}}
		}, "machine.core_classes[1].cluster_cores", "3 cores per cluster do not split the class's 80 cores"},
		{"cluster_cores negative", func(m *topo.Machine, _ *topo.DomainPolicy) {
			m.CoreClasses = []topo.CoreClass{{Name: "p", Cores: 88, Capacity: 1024, Speed: 1, ClusterCores: -4}}
		}, "machine.core_classes[0].cluster_cores", "-4 cores per cluster"},
		{"cluster_cores above the class", func(m *topo.Machine, _ *topo.DomainPolicy) {
			m.CoreClasses = []topo.CoreClass{{Name: "p", Cores: 8, Capacity: 1024, Speed: 1, ClusterCores: 16}, {Name: "e", Cores: 80, Capacity: 1024, Speed: 1, ClusterCores: 4}}
		}, "machine.core_classes[0].cluster_cores", "16 cores per cluster"},
		{"cluster_cores with clusters_per_node", func(m *topo.Machine, _ *topo.DomainPolicy) {
			m.ClustersPerNode = 2
			m.CoreClasses = []topo.CoreClass{{Name: "p", Cores: 8, Capacity: 1024, Speed: 1, ClusterCores: 1}, {Name: "e", Cores: 80, Capacity: 1024, Speed: 1, ClusterCores: 4}}
		}, "machine.core_classes[0].cluster_cores", "clusters_per_node 1 (it is 2)"},
		{"a cluster straddling nodes", func(m *topo.Machine, _ *topo.DomainPolicy) {
			m.CoreClasses = []topo.CoreClass{{Name: "p", Cores: 2, Capacity: 1024, Speed: 1, ClusterCores: 1}, {Name: "e", Cores: 86, Capacity: 1024, Speed: 1, ClusterCores: 43}}
		}, "machine.core_classes[1].cluster_cores", "cores 2-44 straddles nodes 0 and 1"},
		{"arch priority without table", func(_ *topo.Machine, p *topo.DomainPolicy) { p.Priority = topo.PriorityArch }, "machine.priorities", "arch"},
		{"bad level", func(_ *topo.Machine, p *topo.DomainPolicy) { p.AsymPacking = levels("SMT", "L3") }, "policy.asym_packing[1]", "L3"},
		{"bad arch level", func(m *topo.Machine, _ *topo.DomainPolicy) { m.Arch.AsymPacking = levels("DIE") }, "machine.arch.asym_packing[0]", "DIE"},
		{"bad priority", func(_ *topo.Machine, p *topo.DomainPolicy) { p.Priority = "random" }, "policy.priority", "random"},
		{"bad smt option", func(_ *topo.Machine, p *topo.DomainPolicy) { p.SMTAsymPacking = "maybe" }, "policy.smt_asym_packing", "maybe"},
		{"distance rows", func(m *topo.Machine, _ *topo.DomainPolicy) { m.Distances = [][]int{{10}} }, "machine.distances", "1 rows"},
		{"distance diagonal", func(m *topo.Machine, _ *topo.DomainPolicy) { m.Distances = [][]int{{10, 20}, {20, 12}} }, "machine.distances[1][1]", "itself"},
		{"distance asymmetric", func(m *topo.Machine, _ *topo.DomainPolicy) { m.Distances = [][]int{{10, 20}, {30, 10}} }, "machine.distances[0][1]", "differs"},
	}
	for _, tc := range tests {
		m, p := ok(), topo.DomainPolicy{}
		tc.edit(&m, &p)
		_, err := topo.Build(m, p)
		var fe *topo.Error
		if !errors.As(err, &fe) {
			t.Errorf("%s: err = %v; want a *topo.Error", tc.name, err)
			continue
		}
		if fe.Path != tc.path || !strings.Contains(fe.Msg, tc.substr) {
			t.Errorf("%s: %q; want path %q and a message containing %q", tc.name, err, tc.path, tc.substr)
		}
	}
	if _, err := topo.Build(ok(), topo.DomainPolicy{}); err != nil {
		t.Errorf("valid machine: %v", err)
	}
}

// TestMachinePresetsBuild: every machine preset decodes strictly and builds
// under every policy preset (an ITMT policy needs the machine's priorities).
func TestMachinePresetsBuild(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	machines, policies := ps.Names(presets.Machine), ps.Names(presets.Policy)
	if len(machines) < 7 || len(policies) < 11 {
		t.Fatalf("%d machine and %d policy presets; want at least 7 and 11", len(machines), len(policies))
	}
	for _, m := range machines {
		for _, p := range policies {
			mach, pol := loadMachine(t, m), loadPolicy(t, p)
			if p == "itmt" && mach.Priorities == nil {
				if _, err := topo.Build(mach, pol); err == nil || !strings.Contains(err.Error(), "machine.priorities") {
					t.Errorf("%s + itmt: err %v; want a machine.priorities error (no ITMT table)", m, err)
				}
				continue
			}
			if _, err := topo.Build(mach, pol); err != nil {
				t.Errorf("%s + %s: %v", m, p, err)
			}
		}
	}
}

// FuzzMachineJSON decodes arbitrary machine JSON strictly and builds it:
// never a panic, and every error names a field.
func FuzzMachineJSON(f *testing.F) {
	for _, name := range []string{"vera-node", "hikey960", "power7", "intel-hybrid"} {
		m := loadMachine(f, name)
		b, _ := json.Marshal(m)
		f.Add(b, "")
	}
	f.Add([]byte(`{"nodes": 1, "cores_per_node": 4, "threads_per_core": 8, "clusters_per_node": 2}`), "on")
	f.Add([]byte(`{"nodes": 3, "cores_per_node": 2, "distances": [[10,20,30],[20,10,40],[30,40,10]]}`), "off")
	f.Add([]byte(`{"nodes": 2, "cores_per_node": 4, "core_classes": [{"name":"a","cores":9,"capacity":5,"speed":1}]}`), "auto")
	f.Add([]byte(`{"nodes": 1, "cores_per_node": 4, "arch": {"asym_packing": ["SMT","NUMA"], "priority": "thread"}}`), "")
	f.Add([]byte(`{"nodes": 1e3}`), "")
	f.Fuzz(func(t *testing.T, data []byte, smt string) {
		var m topo.Machine
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&m); err != nil {
			if err.Error() == "" {
				t.Fatal("empty decode error")
			}
			return
		}
		// Keep each input cheap: the CPU limit itself is tested elsewhere.
		if m.Nodes > 0 && m.CoresPerNode > 0 && m.Nodes*m.CoresPerNode > 512 {
			return
		}
		tp, err := topo.Build(m, topo.DomainPolicy{SMTAsymPacking: topo.SMTAsymPacking(smt)})
		if err != nil {
			var fe *topo.Error
			if !errors.As(err, &fe) || !strings.HasPrefix(fe.Path, "machine") && !strings.HasPrefix(fe.Path, "policy") || fe.Msg == "" {
				t.Fatalf("error %q does not name a field", err)
			}
			return
		}
		checkInvariants(t, tp)
	})
}

// checkInvariants verifies structural facts any kernel-built hierarchy has.
func checkInvariants(t *testing.T, tp *topo.Topology) {
	t.Helper()
	for cpu := range tp.CPUs {
		c := topo.CPU(cpu)
		if !tp.SiblingMask[c].Has(c) {
			t.Fatalf("CPU %d not in its own SMT mask", c)
		}
		var prev *topo.Domain
		for i, d := range tp.Domains[c] {
			if d.Depth != i || d.Child != prev || !d.Span.Has(c) {
				t.Fatalf("CPU %d domain %d (%s): depth %d, bad links or span %s", c, i, d.Level, d.Depth, d.Span)
			}
			if prev != nil && (!prev.Span.SubsetOf(d.Span) || prev.Span.Equal(d.Span) && d.Flags&^prev.Flags == 0) {
				t.Fatalf("CPU %d %s over %s: not a proper, non-degenerate parent", c, d.Level, prev.Level)
			}
			if len(d.Groups) == 0 || !d.Groups[0].Span.Has(c) {
				t.Fatalf("CPU %d %s: local group is not first", c, d.Level)
			}
			covered := topo.NewCPUSet(tp.NumCPUs())
			for _, g := range d.Groups {
				covered = covered.Or(g.Span)
			}
			if !covered.Equal(d.Span) {
				t.Fatalf("CPU %d %s: groups cover %s; span %s", c, d.Level, covered, d.Span)
			}
			prev = d
		}
	}
}

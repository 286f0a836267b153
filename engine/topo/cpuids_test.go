package topo_test

import (
	"slices"
	"testing"

	"schedplay/engine/topo"
)

// TestCPUSequenceRoundTrip: the order of pieces is kept; ascending runs
// print as ranges.
func TestCPUSequenceRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []topo.CPU
		out  string
	}{
		{"8-11,0-3", []topo.CPU{8, 9, 10, 11, 0, 1, 2, 3}, "8-11,0-3"},
		{"3,2,1", []topo.CPU{3, 2, 1}, "3,2,1"},
		{"0-6:1/2, 1", []topo.CPU{0, 2, 4, 6, 1}, "0,2,4,6,1"},
		{"5", []topo.CPU{5}, "5"},
	} {
		got, err := topo.ParseCPUSequence(tc.in, 16)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParseCPUSequence(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
			continue
		}
		if s := topo.FormatCPUSequence(got); s != tc.out {
			t.Errorf("FormatCPUSequence(%v) = %q; want %q", got, s, tc.out)
		}
	}
	for _, bad := range []string{"", "all", "0-3,x", "9-2", "16"} {
		if _, err := topo.ParseCPUSequence(bad, 16); err == nil {
			t.Errorf("ParseCPUSequence(%q): no error", bad)
		}
	}
}

// TestCPUIDs: cpu_ids renumbers the CPUs the numbering scheme gives, so a
// machine whose NUMA nodes interleave in blocks (SG2042: node 0 is CPUs
// 0-7 and 16-23) keeps its own numbers; everything downstream (sibling
// masks, nodes, domain spans) follows.
func TestCPUIDs(t *testing.T) {
	m := topo.Machine{Nodes: 2, CoresPerNode: 4, ThreadsPerCore: 1, Numbering: topo.CoreMajor, CPUIDs: "0-1,4-5,2-3,6-7"}
	tp, err := topo.Build(m, topo.DomainPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	for cpu, node := range []int{0, 0, 1, 1, 0, 0, 1, 1} {
		if got := tp.CPUs[cpu].Node; got != node || tp.CPUs[cpu].CPU != topo.CPU(cpu) {
			t.Errorf("CPU %d: node %d (CPU field %d); want node %d", cpu, got, tp.CPUs[cpu].CPU, node)
		}
	}
	if got := tp.Domains[4][0].Span.String(); got != "0-1,4-5" {
		t.Errorf("CPU 4's lowest domain spans %s; want 0-1,4-5 (its node)", got)
	}
	// With SMT: sibling-major numbering, then renumbered.
	m = topo.Machine{Nodes: 1, CoresPerNode: 2, ThreadsPerCore: 2, Numbering: topo.SiblingMajor, CPUIDs: "0,2,1,3"}
	tp, err = topo.Build(m, topo.DomainPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	if got := tp.SiblingMask[0].String(); got != "0-1" {
		t.Errorf("cpu_smt_mask(0) = %s; want 0-1 (core 0's threads are CPUs 0 and 2 before renumbering to 0 and 1)", got)
	}
}

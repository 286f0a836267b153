package main

import (
	"strings"
	"testing"
)

// TestTopoIntelHybrid: 2-thread P-cores, 1-thread E-cores; an E-core CPU's
// SMT domain degenerates, so its chain is MC alone (PKG = MC on one node).
func TestTopoIntelHybrid(t *testing.T) {
	code, out, errs := topoRun(t, "topo", "intel-hybrid", "--policy", "itmt", "--cpus", "1,16")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"1 node(s) × 16 cores × ≤2 thread(s) = 24 CPUs, core-major numbering",
		"p-core ×8 (cpu_scale 1024, speed 1, 2 thread(s)), e-core ×8 (cpu_scale 1024, speed 0.6, 1 thread(s))",
		"sched_smt_present=true",
		"CPU1 attaching sched-domain(s):\n domain-0: span=0-1 level=SMT",
		"  domain-1: span=0-23 level=MC",
		"CPU16 attaching sched-domain(s):\n domain-0: span=0-23 level=MC",
		"  groups: 16:{ span=16 }, 17:{ span=17 },",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if i := strings.Index(out, "CPU16 attaching"); i >= 0 && strings.Contains(out[i:], "level=SMT") {
		t.Error("CPU 16 (an E-core) has an SMT domain")
	}
}

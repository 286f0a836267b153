package main

import (
	"strings"
	"testing"
)

// TestTopoIntelHybrid: 2-thread P-cores with their own L2, 1-thread E-cores
// sharing an L2 per 4-core module; an E-core CPU's SMT domain degenerates,
// so its chain is CLS (the module) then MC, and a P-core CPU's CLS (its SMT
// pair) degenerates (PKG = MC on one node).
func TestTopoIntelHybrid(t *testing.T) {
	code, out, errs := topoRun(t, "topo", "intel-hybrid", "--policy", "itmt", "--cpus", "1,16")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"1 node(s) × 16 cores × ≤2 thread(s) = 24 CPUs, core-major numbering, clusters by core class",
		"p-core ×8 (cpu_scale 1024, speed 1, 2 thread(s), 1 core(s) per cluster), e-core ×8 (cpu_scale 1024, speed 0.6, 1 thread(s), 4 core(s) per cluster)",
		"sched_smt_present=true",
		"sched_cluster_active=true",
		"CPU1 attaching sched-domain(s):\n domain-0: span=0-1 level=SMT",
		"  domain-1: span=0-23 level=MC",
		"CPU16 attaching sched-domain(s):\n domain-0: span=16-19 level=CLS flags=SD_BALANCE_NEWIDLE|SD_BALANCE_EXEC|SD_BALANCE_FORK|SD_WAKE_AFFINE|SD_CLUSTER|SD_SHARE_LLC|SD_ASYM_PACKING|SD_PREFER_SIBLING\n",
		"  groups: 16:{ span=16 }, 17:{ span=17 }, 18:{ span=18 }, 19:{ span=19 }\n  domain-1: span=0-23 level=MC",
		"   groups: 16:{ span=16-19 cap=4096 asym_prefer_cpu=16 }, 20:{ span=20-23 cap=4096 asym_prefer_cpu=20 }, 0:{ span=0-1 cap=2048 asym_prefer_cpu=0 },",
		"sd_share_id=16",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if i := strings.Index(out, "CPU16 attaching"); i >= 0 && strings.Contains(out[i:], "level=SMT") {
		t.Error("CPU 16 (an E-core) has an SMT domain")
	}
	if i := strings.Index(out, "CPU16 attaching"); i >= 0 && strings.Contains(out[:i], "level=CLS") {
		t.Error("CPU 1 (a P-core with its own L2) has a CLS domain")
	}
}

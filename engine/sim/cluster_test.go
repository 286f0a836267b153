package sim

import (
	"testing"

	"schedplay/engine/topo"
)

// TestSelectIdleCPUClusterFirst: with sched_cluster_active (intel-hybrid's
// E-core modules share an L2: CLS spans 4 CPUs), select_idle_cpu() scans
// the target's cluster (the LLC domain's local group, SD_CLUSTER) before
// the rest of the LLC, and select_idle_sibling() takes an idle prev or
// recent_used_cpu at once only when it shares the target's cluster
// (cpus_share_resources()); otherwise it is the fallback after the scan.
func TestSelectIdleCPUClusterFirst(t *testing.T) {
	cases := []struct {
		name       string
		busy       []int
		idleCores  bool
		prev, targ int
		want       int
	}{
		// wrap order from target+1 = 20 would take CPU 20 (the other module)
		{"cluster scan wraps inside the module first", []int{19}, false, 19, 19, 16},
		{"select_idle_core in the module first", []int{19}, true, 19, 19, 16},
		{"prev idle in another module: the target's module wins", []int{17}, false, 20, 17, 18},
		{"prev idle in the same module: prev at once", []int{17}, false, 19, 17, 19},
		{"module busy: the LLC scan, then prev_aff", []int{16, 17, 18, 19}, false, 20, 17, 20},
		{"module busy, nothing idle: prev_aff", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23}, false, 20, 17, 20},
		// a P-core's CLS degenerated: MC's local group is its SMT pair,
		// no SD_CLUSTER, so the plain LLC scan from target+1
		{"P-core target: no cluster scan", []int{2, 3}, false, 2, 2, 4},
	}
	for _, c := range cases {
		s := clusterSim(t, "6.12")
		if !s.t.ClusterActive {
			t.Fatal("intel-hybrid: sched_cluster_active off")
		}
		s.busy(c.busy...)
		llc := &s.llcs[s.t.SDLLCID[c.targ]]
		llc.hasIdleCores = c.idleCores
		llc.nrIdleScan = 24
		p := clusterWakee(c.prev)
		if got := s.selectIdleSibling(p, c.prev, c.targ); got != c.want {
			t.Errorf("%s: select_idle_sibling(prev %d, target %d) = %d; want %d", c.name, c.prev, c.targ, got, c.want)
		}
	}
}

// TestSelectIdleSiblingBeforeClusters: the cluster-aware wake-up path came
// with Linux 6.8 (SIS_CLUSTER); the kernels before it (generation 6.1)
// take an idle prev or recent_used_cpu of the LLC at once and scan the LLC
// from target + 1, clusters or not.
func TestSelectIdleSiblingBeforeClusters(t *testing.T) {
	cases := []struct {
		name       string
		busy       []int
		prev, targ int
		want       int
	}{
		{"no cluster scan: the LLC from target + 1", []int{19}, 19, 19, 20},
		{"prev idle in another module: prev at once", []int{17}, 20, 17, 20},
	}
	for _, gen := range []string{"6.1", "6.12"} {
		for _, c := range cases {
			s := clusterSim(t, gen)
			s.busy(c.busy...)
			llc := &s.llcs[s.t.SDLLCID[c.targ]]
			llc.nrIdleScan = 24
			p := clusterWakee(c.prev)
			got := s.selectIdleSibling(p, c.prev, c.targ)
			if gen == "6.1" && got != c.want {
				t.Errorf("6.1, %s: select_idle_sibling(prev %d, target %d) = %d; want %d", c.name, c.prev, c.targ, got, c.want)
			}
			if gen == "6.12" && got == c.want {
				t.Errorf("6.12, %s: select_idle_sibling(prev %d, target %d) = %d, the answer without clusters", c.name, c.prev, c.targ, got)
			}
		}
	}
}

// clusterSim is intel-hybrid with E-core modules of 4 CPUs sharing an L2
// (CLS: 16-19, 20-23) and one P-core per cluster, under policy none and a
// kernel generation.
func clusterSim(t *testing.T, generation string) *sim {
	t.Helper()
	return simOf(t, `{"schedplay":1,"machine":{"preset":"intel-hybrid","core_classes":[
		{"name":"p-core","cores":8,"capacity":1024,"speed":1,"threads":2,"cluster_cores":1},
		{"name":"e-core","cores":8,"capacity":1024,"speed":0.6,"threads":1,"cluster_cores":4}]},
		"policy":{"preset":"none","generation":"`+generation+`"},"workload":{"preset":"idle"},"run":{"duration":"10ms","seed":1}}`)
}

// clusterWakee is a task allowed on all of clusterSim's CPUs, last run on prev.
func clusterWakee(prev int) *task {
	al, _ := topo.ParseCPUList("0-23", 24)
	return &task{id: 0, weight: 1024, allowed: al, nrAllowed: al.Weight(), maxAllowedCap: 1024, recentUsedCPU: -1, state: taskBlocked, cpu: prev}
}

// TestSelectIdleSiblingClusterFallbacks: with sched_cluster_active an idle
// prev or recent_used_cpu outside the target's cluster is kept as
// prev_aff / recent_used_cpu and returned only when select_idle_cpu()
// finds nothing; here the LLC's nr_idle_scan is 0, so the scan returns at
// once. select_idle_sibling() also records prev as the next wake-up's
// recent_used_cpu.
func TestSelectIdleSiblingClusterFallbacks(t *testing.T) {
	for _, c := range []struct {
		name         string
		busy         []int
		prev, recent int
		want         int
	}{
		{"prev idle in another module: prev_aff", []int{17}, 20, -1, 20},
		{"prev busy, recent_used_cpu idle in another module: it", []int{17, 20}, 20, 21, 21},
		{"prev_aff before recent_used_cpu", []int{17}, 20, 21, 20},
		{"nothing idle to fall back to: target", []int{17, 20, 21}, 20, 21, 17},
	} {
		s := clusterSim(t, "6.12")
		s.busy(c.busy...)
		s.llcs[s.t.SDLLCID[17]].nrIdleScan = 0 // the LLC looked overloaded at its last balance
		p := clusterWakee(c.prev)
		p.recentUsedCPU = c.recent
		if got := s.selectIdleSibling(p, c.prev, 17); got != c.want {
			t.Errorf("%s: select_idle_sibling(prev %d, target 17) = %d; want %d", c.name, c.prev, got, c.want)
		}
		if p.recentUsedCPU != c.prev {
			t.Errorf("%s: recent_used_cpu %d after the wake-up; want prev %d", c.name, p.recentUsedCPU, c.prev)
		}
	}
	// Two wake-ups: the first (prev 16, target 20) records 16; the second
	// (prev = target = 17, busy) takes 16, idle in 17's module, at once,
	// before the module's scan from 18.
	s := clusterSim(t, "6.12")
	s.busy(17, 20)
	s.llcs[s.t.SDLLCID[17]].nrIdleScan = 24
	p := clusterWakee(16)
	if got := s.selectIdleSibling(p, 16, 20); got != 21 {
		t.Fatalf("first wake-up: %d; want 21, the target's module first", got)
	}
	if got := s.selectIdleSibling(p, 17, 17); got != 16 {
		t.Errorf("second wake-up: %d; want 16, the first wake-up's prev", got)
	}
}

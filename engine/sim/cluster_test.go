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
		doc := `{"schedplay":1,"machine":{"preset":"intel-hybrid","core_classes":[
			{"name":"p-core","cores":8,"capacity":1024,"speed":1,"threads":2,"cluster_cores":1},
			{"name":"e-core","cores":8,"capacity":1024,"speed":0.6,"threads":1,"cluster_cores":4}]},
			"policy":{"preset":"none"},"workload":{"preset":"idle"},"run":{"duration":"10ms","seed":1}}`
		r := resolveJSON(t, doc)
		tp, err := topo.Build(r.Machine, r.Policy.DomainPolicy)
		if err != nil {
			t.Fatal(err)
		}
		if !tp.ClusterActive {
			t.Fatal("intel-hybrid: sched_cluster_active off")
		}
		s, err := newSim(r, tp, Options{}, 1, false)
		if err != nil {
			t.Fatal(err)
		}
		s.busy(c.busy...)
		llc := &s.llcs[s.t.SDLLCID[c.targ]]
		llc.hasIdleCores = c.idleCores
		llc.nrIdleScan = 24
		al, _ := topo.ParseCPUList("0-23", 24)
		p := &task{id: 0, weight: 1024, allowed: al, nrAllowed: al.Weight(), maxAllowedCap: 1024, recentUsedCPU: -1, state: taskBlocked, cpu: c.prev}
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
		doc := `{"schedplay":1,"machine":{"preset":"intel-hybrid","core_classes":[
			{"name":"p-core","cores":8,"capacity":1024,"speed":1,"threads":2,"cluster_cores":1},
			{"name":"e-core","cores":8,"capacity":1024,"speed":0.6,"threads":1,"cluster_cores":4}]},
			"policy":{"preset":"none","generation":"` + gen + `"},"workload":{"preset":"idle"},"run":{"duration":"10ms","seed":1}}`
		for _, c := range cases {
			s := simOf(t, doc)
			s.busy(c.busy...)
			llc := &s.llcs[s.t.SDLLCID[c.targ]]
			llc.nrIdleScan = 24
			al, _ := topo.ParseCPUList("0-23", 24)
			p := &task{id: 0, weight: 1024, allowed: al, nrAllowed: al.Weight(), maxAllowedCap: 1024, recentUsedCPU: -1, state: taskBlocked, cpu: c.prev}
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

package site

import (
	"strings"
	"testing"
)

// The drawing has every CPU once, grouped by node, cluster and core, with
// each core's own thread count, the priorities in the titles and the
// selected CPU marked.
func TestBuildLstopo(t *testing.T) {
	for _, c := range []struct {
		name            string
		cpus, nodes     int
		compact         bool
		pesOfFirst      int
		pesOfLast       int
		firstLabelShape string
		label           string
	}{
		{"vera", 352, 2, true, 2, 2, "0", "2 threads per core, 352 CPUs"},
		{"hybrid", 24, 1, false, 2, 1, "PE0 · 0", "up to 2 threads per core, 24 CPUs"},
	} {
		m := veraMachine()
		if c.name == "hybrid" {
			m = hybridMachine()
		}
		cpus := mustCPUs(t, m)
		prio := map[int]int{0: 72}
		d := BuildLstopo(m, cpus, prio, 1, false)
		if d.Compact != c.compact || len(d.Nodes) != c.nodes {
			t.Errorf("%s: compact %v, %d nodes", c.name, d.Compact, len(d.Nodes))
		}
		seen := map[int]bool{}
		var cores []LstopoCore
		for _, n := range d.Nodes {
			for _, cl := range n.Clusters {
				cores = append(cores, cl.Cores...)
			}
		}
		sel := 0
		for _, k := range cores {
			for _, pe := range k.PEs {
				if seen[pe.CPU] {
					t.Errorf("%s: CPU %d drawn twice", c.name, pe.CPU)
				}
				seen[pe.CPU] = true
				if pe.Selected {
					sel++
					if pe.CPU != 1 {
						t.Errorf("%s: CPU %d marked selected", c.name, pe.CPU)
					}
				}
			}
		}
		if len(seen) != c.cpus || sel != 1 {
			t.Errorf("%s: %d CPUs drawn (want %d), %d selected", c.name, len(seen), c.cpus, sel)
		}
		if n := len(cores[0].PEs); n != c.pesOfFirst {
			t.Errorf("%s: first core has %d PEs", c.name, n)
		}
		if n := len(cores[len(cores)-1].PEs); n != c.pesOfLast {
			t.Errorf("%s: last core has %d PEs", c.name, n)
		}
		pe := cores[0].PEs[0]
		if pe.Label != c.firstLabelShape || !strings.Contains(pe.Title, "arch_asym_cpu_priority 72") {
			t.Errorf("%s: first PE %+v", c.name, pe)
		}
		// intel-hybrid: each P-core its own cluster (L2), then 2 E-core
		// modules of 4; titled because the node has more than one.
		if c.name == "hybrid" {
			cl := d.Nodes[0].Clusters
			if len(cl) != 10 || len(cl[0].Cores) != 1 || len(cl[8].Cores) != 4 || cl[8].Title != "Cluster 8" {
				t.Errorf("hybrid: %d clusters, first %d cores, ninth %d cores titled %q; want 10, 1, 4, Cluster 8",
					len(cl), len(cl[0].Cores), len(cl[len(cl)-1].Cores), cl[len(cl)-1].Title)
			}
		} else if len(d.Nodes[0].Clusters) != 1 || d.Nodes[0].Clusters[0].Title != "" {
			t.Errorf("%s: node 0 has %d clusters (title %q); want one, untitled", c.name, len(d.Nodes[0].Clusters), d.Nodes[0].Clusters[0].Title)
		}
		if !strings.HasSuffix(d.Label, c.label) {
			t.Errorf("%s: label %q, want …%q", c.name, d.Label, c.label)
		}
	}
}

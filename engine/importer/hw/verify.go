package hw

import (
	"fmt"

	"schedplay/engine/topo"
)

// verify builds m and checks it against the description, CPU by CPU:
// the SMT siblings, the node, the cluster (the LLC when it is smaller
// than the node, else the CLS span, else the node) and cpu_scale.
func (b *builder) verify(m topo.Machine) error {
	tp, err := topo.Build(m, topo.DomainPolicy{})
	if err != nil {
		return err
	}
	n := len(b.o.cpus)
	if tp.NumCPUs() != n {
		return fmt.Errorf("%d CPUs; want %d", tp.NumCPUs(), n)
	}
	clusterSpan := make(map[int]topo.CPUSet)
	for c := 0; c < n; c++ {
		ci := tp.CPUs[c]
		s, ok := clusterSpan[ci.Cluster]
		if !ok {
			s = topo.NewCPUSet(n)
			clusterSpan[ci.Cluster] = s
		}
		s.Set(topo.CPU(c))
	}
	for c := 0; c < n; c++ {
		ci := tp.CPUs[c]
		id := b.o.ids[c]
		want := b.span[c]
		if clusterNone(b) {
			want = b.mk.node[c]
		}
		got := clusterSpan[ci.Cluster]
		switch {
		case !tp.SiblingMask[c].Equal(b.mk.smt[c]):
			return fmt.Errorf("CPU %d: threads %s; want %s", id, idSet(b.o, tp.SiblingMask[c]), idSet(b.o, b.mk.smt[c]))
		case ci.Node != b.nodeOf[b.core[c]]:
			return fmt.Errorf("CPU %d: node index %d; want %d", id, ci.Node, b.nodeOf[b.core[c]])
		case !got.Equal(want):
			return fmt.Errorf("CPU %d: cluster %s; want %s", id, idSet(b.o, got), idSet(b.o, want))
		case ci.Capacity != b.perf.capacity[c]:
			return fmt.Errorf("CPU %d: capacity %d; want %d", id, ci.Capacity, b.perf.capacity[c])
		}
	}
	return nil
}

// clusterNone reports a machine without a cluster level.
func clusterNone(b *builder) bool { return b.clusterLevel().none }

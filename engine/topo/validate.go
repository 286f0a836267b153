package topo

import (
	"fmt"
	"math"
	"slices"

	"schedplay/engine/quote"
)

// Error is a problem with one field of the input; Path uses the scenario
// error-path syntax ("machine.core_classes[2].capacity").
type Error struct {
	Path string
	Msg  string
}

func (e *Error) Error() string { return e.Path + ": " + e.Msg }

func fieldErr(path, format string, args ...any) *Error {
	return &Error{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// Local and remote node distances (include/linux/topology.h LOCAL_DISTANCE,
// REMOTE_DISTANCE) and the generic node_reclaim_distance (RECLAIM_DISTANCE;
// a machine may set its architecture's, Machine.NodeReclaimDistance).
const (
	LocalDistance       = 10
	RemoteDistance      = 20
	NodeReclaimDistance = 30
	MaxDistance         = 254
)

// normalizeMachine returns m with the scenario-independent defaults topo
// needs (0 clusters = 1, "" llc = node, "" numbering = core-major, 0 threads
// = 1, no core classes = all 1024 / 1.0, no distances = 10/20), or the first
// problem found, naming the field.
func normalizeMachine(m Machine) (Machine, error) {
	if m.Nodes < 1 || m.Nodes > MaxCPUs {
		return m, fieldErr("machine.nodes", "%d nodes; want 1..%d", m.Nodes, MaxCPUs)
	}
	if m.CoresPerNode < 1 || m.CoresPerNode > MaxCPUs {
		return m, fieldErr("machine.cores_per_node", "%d cores per node; want 1..%d", m.CoresPerNode, MaxCPUs)
	}
	if m.ThreadsPerCore == 0 {
		m.ThreadsPerCore = 1
	}
	switch m.ThreadsPerCore {
	case 1, 2, 4, 8:
	default:
		return m, fieldErr("machine.threads_per_core", "%d threads per core; want 1, 2, 4 or 8", m.ThreadsPerCore)
	}
	if n := m.Nodes * m.CoresPerNode; n > MaxCPUs {
		return m, fieldErr("machine", "%d nodes × %d cores = %d cores; the limit is %d CPUs",
			m.Nodes, m.CoresPerNode, n, MaxCPUs)
	}
	if m.ClustersPerNode == 0 {
		m.ClustersPerNode = 1
	}
	if m.ClustersPerNode < 1 || m.ClustersPerNode > m.CoresPerNode || m.CoresPerNode%m.ClustersPerNode != 0 {
		return m, fieldErr("machine.clusters_per_node",
			"%d clusters do not split %d cores per node evenly", m.ClustersPerNode, m.CoresPerNode)
	}
	if m.LLC == "" {
		m.LLC = LLCNode
	}
	if m.LLC != LLCNode && m.LLC != LLCCluster {
		return m, fieldErr("machine.llc", "unknown llc %s; want \"node\" or \"cluster\"", quote.Short(string(m.LLC)))
	}
	if m.Numbering == "" {
		m.Numbering = CoreMajor
	}
	if m.Numbering != CoreMajor && m.Numbering != SiblingMajor {
		return m, fieldErr("machine.numbering", "unknown numbering %s; want \"sibling-major\" or \"core-major\"", quote.Short(string(m.Numbering)))
	}
	if err := checkCoreClasses(&m); err != nil {
		return m, err
	}
	if err := checkClusterCores(m); err != nil {
		return m, err
	}
	ncpu := m.NumCPUs()
	if ncpu > MaxCPUs {
		return m, fieldErr("machine", "%d nodes × %d cores make %d CPUs; the limit is %d",
			m.Nodes, m.CoresPerNode, ncpu, MaxCPUs)
	}
	if _, err := cpuIDs(m.CPUIDs, ncpu); err != nil {
		return m, fieldErr("machine.cpu_ids", "%v", err)
	}
	if m.Priorities != nil && len(m.Priorities) != ncpu {
		return m, fieldErr("machine.priorities", "%d values; the machine has %d CPUs", len(m.Priorities), ncpu)
	}
	if err := checkAsymConfig("machine.arch", m.Arch); err != nil {
		return m, err
	}
	if err := checkDistances(&m); err != nil {
		return m, err
	}
	if d := m.NodeReclaimDistance; d != 0 && (d < LocalDistance || d > MaxDistance) {
		return m, fieldErr("machine.node_reclaim_distance", "%d; want %d..%d (the generic RECLAIM_DISTANCE is %d, powerpc's 10, AMD Zen's 32)",
			d, LocalDistance, MaxDistance, NodeReclaimDistance)
	}
	return m, nil
}

// checkCoreClasses validates core_classes (or fills the single default
// class). A class's threads may be absent (0: threads_per_core) or 1 up to
// threads_per_core.
func checkCoreClasses(m *Machine) error {
	total := m.Nodes * m.CoresPerNode
	if len(m.CoreClasses) == 0 {
		m.CoreClasses = []CoreClass{{Name: "core", Cores: total, Capacity: 1024, Speed: 1}}
		return nil
	}
	sum := 0
	for i, c := range m.CoreClasses {
		p := fmt.Sprintf("machine.core_classes[%d]", i)
		if c.Cores < 1 || c.Cores > total {
			return fieldErr(p+".cores", "%d cores; want 1..%d", c.Cores, total)
		}
		if c.Capacity < 1 || c.Capacity > 1024 {
			return fieldErr(p+".capacity", "capacity %d; want 1..1024 (cpu_scale)", c.Capacity)
		}
		if !(c.Speed > 0) || math.IsInf(c.Speed, 0) || c.Speed > 64 {
			return fieldErr(p+".speed", "speed %v; want a number in (0, 64]", c.Speed)
		}
		if c.Threads < 0 || c.Threads > m.ThreadsPerCore {
			return fieldErr(p+".threads", "%d threads; want 1..%d (threads_per_core is the maximum)", c.Threads, m.ThreadsPerCore)
		}
		sum += c.Cores
	}
	if sum != total {
		return fieldErr("machine.core_classes", "classes cover %d cores; the machine has %d", sum, total)
	}
	return nil
}

// checkClusterCores validates the classes' cluster_cores (once the classes
// cover the cores): all classes or none set it; a class's clusters split its
// cores evenly and stay inside one node; and it does not combine with
// clusters_per_node > 1 (the two ways of drawing clusters are exclusive).
func checkClusterCores(m Machine) error {
	if !m.ClassClusters() {
		return nil
	}
	first := slices.IndexFunc(m.CoreClasses, func(c CoreClass) bool { return c.ClusterCores != 0 })
	start := 0
	for i, c := range m.CoreClasses {
		p := fmt.Sprintf("machine.core_classes[%d].cluster_cores", i)
		k := c.ClusterCores
		switch {
		case k == 0:
			return fieldErr(p, "missing; core_classes[%d] sets cluster_cores, so every class must", first)
		case k < 1 || k > c.Cores || c.Cores%k != 0:
			return fieldErr(p, "%d cores per cluster do not split the class's %d cores evenly", k, c.Cores)
		case m.ClustersPerNode > 1:
			return fieldErr(p, "cluster_cores needs clusters_per_node 1 (it is %d); set the clusters one way", m.ClustersPerNode)
		}
		for lo := start; lo < start+c.Cores; lo += k {
			if a, b := lo/m.CoresPerNode, (lo+k-1)/m.CoresPerNode; a != b {
				return fieldErr(p, "the cluster of cores %d-%d straddles nodes %d and %d", lo, lo+k-1, a, b)
			}
		}
		start += c.Cores
	}
	return nil
}

// checkDistances validates the SLIT-like matrix (or fills 10/20).
func checkDistances(m *Machine) error {
	n := m.Nodes
	if len(m.Distances) == 0 {
		d := make([][]int, n)
		for i := range d {
			d[i] = make([]int, n)
			for j := range d[i] {
				d[i][j] = RemoteDistance
			}
			d[i][i] = LocalDistance
		}
		m.Distances = d
		return nil
	}
	if len(m.Distances) != n {
		return fieldErr("machine.distances", "%d rows; the machine has %d nodes", len(m.Distances), n)
	}
	for i, row := range m.Distances {
		if len(row) != n {
			return fieldErr(fmt.Sprintf("machine.distances[%d]", i), "%d entries; want %d", len(row), n)
		}
		for j, d := range row {
			p := fmt.Sprintf("machine.distances[%d][%d]", i, j)
			switch {
			case i == j && d != LocalDistance:
				return fieldErr(p, "distance %d; a node's distance to itself is %d", d, LocalDistance)
			case i != j && (d <= LocalDistance || d > MaxDistance):
				return fieldErr(p, "distance %d; want %d..%d", d, LocalDistance+1, MaxDistance)
			case d != m.Distances[j][i]:
				return fieldErr(p, "distance %d differs from distances[%d][%d] = %d", d, j, i, m.Distances[j][i])
			}
		}
	}
	return nil
}

// checkAsymConfig validates the level names and priority mode of a or p.
func checkAsymConfig(path string, a AsymConfig) error {
	if a.AsymPacking != nil {
		for i, l := range *a.AsymPacking {
			switch l {
			case LevelSMT, LevelCLS, LevelMC, LevelPKG, LevelNUMA:
			default:
				return fieldErr(fmt.Sprintf("%s.asym_packing[%d]", path, i),
					"unknown level %s; want one of SMT, CLS, MC, PKG, NUMA", quote.Short(string(l)))
			}
		}
	}
	switch a.Priority {
	case "", PriorityDefault, PriorityArch, PriorityCapacity, PriorityCapacityPE0, PriorityThread:
	default:
		return fieldErr(path+".priority", "unknown priority %s; want default, arch, capacity, capacity-pe0x2 or thread", quote.Short(string(a.Priority)))
	}
	return nil
}

// checkPolicy validates the domain-shaping part of a policy.
func checkPolicy(p DomainPolicy) error {
	if err := checkAsymConfig("policy", p.AsymConfig); err != nil {
		return err
	}
	switch p.SMTAsymPacking {
	case "", SMTAsymAuto, SMTAsymOn, SMTAsymOff:
	default:
		return fieldErr("policy.smt_asym_packing", "unknown value %s; want auto, on or off", quote.Short(string(p.SMTAsymPacking)))
	}
	return nil
}

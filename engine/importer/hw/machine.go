package hw

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"schedplay/engine/topo"
)

// Mapped is a description turned into a schedplay machine.
type Mapped struct {
	Machine topo.Machine
	// IDs[i] is the Linux number of schedplay CPU i (they differ only
	// when offline CPUs were left out).
	IDs []int
	// Notes announce every default taken and everything left out.
	Notes []string
	// Summary is one line: "96 CPUs: 8 nodes × 6 cores × 2 threads, …".
	Summary string
}

// Map turns t into a machine whose sched domains are the ones the kernel
// builds from the same masks, or explains why the format cannot hold it.
// The result is checked: topo.Build of the machine reproduces every
// CPU's core, node, cluster and capacity.
func Map(t *Topology) (*Mapped, error) {
	var notes []string
	notes = append(notes, t.Notes...)
	o, err := onlineCPUs(t, &notes)
	if err != nil {
		return nil, err
	}
	core, members, err := cores(o, &notes)
	if err != nil {
		return nil, err
	}
	nodeOf, nodeIDs, err := nodes(o, members, &notes)
	if err != nil {
		return nil, err
	}
	mk, err := kernelMasks(t, o, core, members, nodeOf)
	if err != nil {
		return nil, err
	}
	if !mk.llcKnown {
		notes = append(notes, "no cache information: the LLC (MC level) spans the node")
	}
	b := &builder{t: t, o: o, core: core, members: members, nodeOf: nodeOf, mk: mk, notes: &notes}
	if err := b.layout(); err != nil {
		return nil, err
	}
	smt := false
	for _, ms := range members {
		smt = smt || len(ms) > 1
	}
	b.perf = capacities(t, o, smt, &notes)
	m, err := b.machine(nodeIDs)
	if err != nil {
		return nil, err
	}
	if err := b.verify(m); err != nil {
		return nil, fmt.Errorf("internal error: the machine does not reproduce the description: %v", err)
	}
	return &Mapped{Machine: m, IDs: o.ids, Notes: notes, Summary: summary(m)}, nil
}

// builder carries the mapping's state.
type builder struct {
	t       *Topology
	o       *online
	core    []int   // CPU → core
	members [][]int // core → CPUs
	nodeOf  []int   // core → node index
	mk      *masks
	notes   *[]string
	perf    perf

	llcCluster bool          // MC is the cluster (LLC smaller than the node)
	group      []int         // core → its cluster's first CPU (-1: no cluster level)
	order      []int         // cores in machine order
	groupSize  []int         // core → cores in its cluster (1 without clusters)
	span       []topo.CPUSet // CPU → its cluster (the CLS span, or the LLC's)
}

// layout picks the cluster level (the LLC when it is smaller than the
// node, else the CLS spans) and orders the cores: node by node, cluster by
// cluster, by first CPU.
func (b *builder) layout() error {
	n := len(b.o.cpus)
	for i := 0; i < n; i++ {
		if !b.mk.mc[i].Equal(b.mk.node[i]) {
			b.llcCluster = true
		}
	}
	span := b.mk.cls
	if b.llcCluster {
		span = b.mk.mc
		for i := 0; i < n; i++ {
			if !b.mk.cls[i].Equal(b.mk.smt[i]) {
				b.mk.clusterDropped = true
			}
		}
		if b.mk.clusterDropped {
			*b.notes = append(*b.notes, "the clusters inside each LLC are left out: with an LLC smaller than the node the format has one level between core and node")
		}
	}
	b.span = span
	b.group = make([]int, len(b.members))
	b.groupSize = make([]int, len(b.members))
	for k, ms := range b.members {
		s := span[ms[0]]
		b.group[k] = int(s.First())
		if !b.mk.smt[ms[0]].SubsetOf(s) {
			return fmt.Errorf("the cluster %s splits a core", idSet(b.o, s))
		}
	}
	b.order = make([]int, len(b.members))
	for k := range b.order {
		b.order[k] = k
	}
	slices.SortFunc(b.order, func(x, y int) int {
		return cmp.Or(cmp.Compare(b.nodeOf[x], b.nodeOf[y]), cmp.Compare(b.group[x], b.group[y]),
			cmp.Compare(b.members[x][0], b.members[y][0]))
	})
	// Group sizes count cores, and every core of a cluster must count the same.
	for k := range b.members {
		cnt := 0
		for j := range b.members {
			if b.group[j] == b.group[k] && b.nodeOf[j] == b.nodeOf[k] {
				cnt++
			}
		}
		b.groupSize[k] = cnt
	}
	return nil
}

// machine assembles the topo.Machine.
func (b *builder) machine(nodeIDs []int) (topo.Machine, error) {
	var m topo.Machine
	m.Nodes = len(nodeIDs)
	perNode := make([]int, m.Nodes)
	for _, nd := range b.nodeOf {
		perNode[nd]++
	}
	for i, c := range perNode {
		if c != perNode[0] {
			return m, fmt.Errorf("node %d has %d cores and node %d has %d: schedplay machines have the same number of cores on every node",
				nodeIDs[0], perNode[0], nodeIDs[i], c)
		}
	}
	m.CoresPerNode = perNode[0]
	tpc := 0
	for _, ms := range b.members {
		tpc = max(tpc, len(ms))
	}
	switch tpc {
	case 1, 2, 4, 8:
	default:
		return m, fmt.Errorf("cores with %d threads: schedplay machines have 1, 2, 4 or 8 threads per core", tpc)
	}
	m.ThreadsPerCore = tpc
	m.LLC = topo.LLCNode
	if b.llcCluster {
		m.LLC = topo.LLCCluster
	}
	clusters := b.clusterLevel()
	if err := b.classes(&m, clusters); err != nil {
		return m, err
	}
	if !clusters.byClass {
		m.ClustersPerNode = clusters.perNode
	}
	b.numbering(&m)
	if b.perf.priority != nil {
		m.Priorities = b.perf.priority
		levels := []topo.Level{topo.LevelCLS, topo.LevelMC, topo.LevelPKG}
		no := false
		m.Arch = topo.AsymConfig{AsymPacking: &levels, Priority: topo.PriorityArch, AsymCPUCapacity: &no}
	}
	if b.t.Arch == ArchPower && tpc > 1 && isPower7(b.t.Model) {
		levels := []topo.Level{topo.LevelSMT}
		m.Arch = topo.AsymConfig{AsymPacking: &levels, Priority: topo.PriorityThread}
		*b.notes = append(*b.notes, "POWER7 (CPU_FTR_ASYM_SMT): SMT asym packing onto lower threads, as the power7 preset")
	}
	if b.t.Arch == ArchPower && tpc > 1 {
		m.SMT = topo.SMTModel{Model: topo.SMTFolding}
		*b.notes = append(*b.notes, "POWER SMT: smt.model folding with its default yields (the description cannot say)")
	} else if tpc > 1 {
		*b.notes = append(*b.notes, "smt.model left at its default, competitive, with yield [1, 1.2] (the description cannot say how a core shares its resources)")
	}
	d, err := b.distances(nodeIDs)
	if err != nil {
		return m, err
	}
	m.Distances = d
	if m.Nodes > 1 {
		b.reclaimDistance(&m)
	}
	return m, nil
}

// reclaimDistance sets the node_reclaim_distance the architecture code
// gives the machine where it is not the generic RECLAIM_DISTANCE (30):
// powerpc's 10 (arch/powerpc/include/asm/topology.h) and AMD Zen's 32
// (init_amd_zen_common() for family 17h and later, arch/x86/kernel/cpu/
// amd.c). sd_init() takes fork, exec and wake-affine balancing off a NUMA
// level farther than it.
func (b *builder) reclaimDistance(m *topo.Machine) {
	switch {
	case b.t.Arch == ArchPower:
		m.NodeReclaimDistance = 10
		*b.notes = append(*b.notes, "powerpc: node_reclaim_distance 10 (RECLAIM_DISTANCE), so a NUMA level beyond it has no fork, exec or wake-affine balancing")
	case b.t.Arch == ArchX86 && b.t.Vendor == "AuthenticAMD" && b.t.Family >= 0x17:
		m.NodeReclaimDistance = 32
		*b.notes = append(*b.notes, "AMD Zen (family 17h or later): node_reclaim_distance 32 (init_amd_zen_common()), so a NUMA level up to 32 keeps fork, exec and wake-affine balancing")
	case b.t.Vendor == "" && (b.t.Arch == ArchX86 || b.t.Arch == ArchUnknown):
		*b.notes = append(*b.notes, "the description does not say the CPU vendor and family: node_reclaim_distance is the generic 30 (on AMD Zen it is 32: set machine.node_reclaim_distance)")
	}
}

// clusterPlan is how the clusters are written: clusters_per_node when
// every cluster has the same size, else cluster_cores per class.
type clusterPlan struct {
	none    bool
	byClass bool
	perNode int
}

func (b *builder) clusterLevel() clusterPlan {
	sizes := map[int]bool{}
	for _, k := range b.order {
		sizes[b.groupSize[k]] = true
	}
	cpn := 0
	for _, nd := range b.nodeOf {
		if nd == 0 {
			cpn++
		}
	}
	if len(sizes) == 1 {
		for s := range sizes {
			if s == cpn || s == 1 && !b.llcCluster {
				return clusterPlan{none: true, perNode: 1}
			}
			return clusterPlan{perNode: cpn / s}
		}
	}
	return clusterPlan{byClass: true}
}

// classes deals the cores into core classes: runs of cores in machine
// order with the same name, capacity, speed, threads and cluster size.
func (b *builder) classes(m *topo.Machine, cl clusterPlan) error {
	capsVary := varies(b.perf.capacity)
	khz := make([]int, len(b.o.cpus))
	for i, c := range b.o.cpus {
		khz[i] = c.MaxKHz
	}
	freqsVary := varies(khz)
	threadsVary := false
	for _, ms := range b.members {
		threadsVary = threadsVary || len(ms) != m.ThreadsPerCore
	}
	names := make([]string, len(b.members))
	for k, ms := range b.members {
		names[k] = className(b.o.cpus[ms[0]], b.perf.capacity[ms[0]], capsVary, freqsVary)
	}
	if cl.byClass {
		b.mergeClusterNames(names)
	}
	for _, k := range b.order {
		ms := b.members[k]
		first := ms[0]
		for _, c := range ms[1:] {
			if b.perf.capacity[c] != b.perf.capacity[first] {
				*b.notes = append(*b.notes, sprintf("the threads of core %s have different capacities: the first thread's is used", idString(b.o, ms)))
				break
			}
		}
		cc := topo.CoreClass{Name: names[k], Cores: 1,
			Capacity: b.perf.capacity[first], Speed: b.perf.speed[first]}
		if threadsVary {
			cc.Threads = len(ms)
		}
		if cl.byClass {
			cc.ClusterCores = b.groupSize[k]
		}
		if n := len(m.CoreClasses); n > 0 {
			last := &m.CoreClasses[n-1]
			same := *last
			same.Cores = 1
			if same == cc {
				last.Cores++
				continue
			}
		}
		m.CoreClasses = append(m.CoreClasses, cc)
	}
	if cl.byClass {
		for i, cc := range m.CoreClasses {
			if cc.Cores%cc.ClusterCores != 0 {
				return fmt.Errorf("core class %d (%s, %d cores) does not hold whole clusters of %d cores: a cluster mixes core kinds, which the format cannot express with clusters of different sizes",
					i, cc.Name, cc.Cores, cc.ClusterCores)
			}
		}
	}
	if len(m.CoreClasses) == 1 && m.CoreClasses[0].Name == "core" && m.CoreClasses[0].Capacity == 1024 && m.CoreClasses[0].Speed == 1 && !cl.byClass {
		m.CoreClasses = nil // the default class
	}
	return nil
}

// mergeClusterNames gives the cores of one cluster one class name when
// they differ only by name (Cortex-A715 and Cortex-A710 sharing a cluster
// at one capacity): classes carry the cluster size, so a class must hold
// whole clusters.
func (b *builder) mergeClusterNames(names []string) {
	byGroup := map[[2]int][]int{}
	for k := range b.members {
		g := [2]int{b.nodeOf[k], b.group[k]}
		byGroup[g] = append(byGroup[g], k)
	}
	for _, ks := range byGroup {
		var uniq []string
		same := true
		for _, k := range ks {
			c, f := b.members[k][0], b.members[ks[0]][0]
			same = same && b.perf.capacity[c] == b.perf.capacity[f] && b.perf.speed[c] == b.perf.speed[f] &&
				len(b.members[k]) == len(b.members[ks[0]])
			if !slices.Contains(uniq, names[k]) {
				uniq = append(uniq, names[k])
			}
		}
		if !same || len(uniq) < 2 {
			continue
		}
		joined := strings.Join(uniq, "/")
		if len(joined) > 32 {
			joined = joined[:32]
		}
		for _, k := range ks {
			names[k] = joined
		}
	}
}

// numbering chooses core-major or sibling-major, whichever reproduces the
// CPU numbers, else the shorter cpu_ids on top of one of them.
func (b *builder) numbering(m *topo.Machine) {
	actual := make([][]int, len(b.order))
	for i, k := range b.order {
		actual[i] = b.members[k]
	}
	best, bestIDs := topo.CoreMajor, ""
	for _, nb := range []topo.Numbering{topo.CoreMajor, topo.SiblingMajor} {
		mm := *m
		mm.Numbering, mm.CPUIDs = nb, ""
		seq := make([]topo.CPU, len(b.o.cpus))
		same := true
		for core, cpus := range mm.CPUNumbers() {
			for th, c := range cpus {
				seq[c] = topo.CPU(actual[core][th])
				same = same && int(c) == actual[core][th]
			}
		}
		if same {
			m.Numbering, m.CPUIDs = nb, ""
			return
		}
		if ids := topo.FormatCPUSequence(seq); bestIDs == "" || len(ids) < len(bestIDs) {
			best, bestIDs = nb, ids
		}
	}
	m.Numbering, m.CPUIDs = best, bestIDs
	*b.notes = append(*b.notes, "the CPU numbering follows neither core-major nor sibling-major order: written out in cpu_ids")
}

// distances is the node distance table of the nodes with CPUs, made
// symmetric (the larger of d[i][j] and d[j][i], noted); absent, the
// default 10/20.
func (b *builder) distances(nodeIDs []int) ([][]int, error) {
	if len(nodeIDs) < 2 {
		return nil, nil
	}
	t := b.t
	if t.Distances == nil {
		*b.notes = append(*b.notes, "no node distances: 10 local, 20 remote")
		return nil, nil
	}
	row := func(id int) []int {
		i := slices.Index(t.NodeIDs, id)
		if i < 0 || i >= len(t.Distances) {
			return nil
		}
		return t.Distances[i]
	}
	d := make([][]int, len(nodeIDs))
	asym := false
	for i, a := range nodeIDs {
		d[i] = make([]int, len(nodeIDs))
		for j, c := range nodeIDs {
			ra, rc := row(a), row(c)
			ja, jc := slices.Index(t.NodeIDs, c), slices.Index(t.NodeIDs, a)
			if ra == nil || rc == nil || ja >= len(ra) || jc >= len(rc) || ja < 0 || jc < 0 {
				return nil, fmt.Errorf("the distance table has no entry for nodes %d and %d", a, c)
			}
			d[i][j] = max(ra[ja], rc[jc])
			asym = asym || ra[ja] != rc[jc]
			if i != j && (d[i][j] <= topo.LocalDistance || d[i][j] > 254) {
				return nil, fmt.Errorf("node distance %d between nodes %d and %d; want %d..254", d[i][j], a, c, topo.LocalDistance+1)
			}
		}
		if d[i][i] != topo.LocalDistance {
			return nil, fmt.Errorf("node %d's distance to itself is %d; want %d", a, d[i][i], topo.LocalDistance)
		}
	}
	if asym {
		*b.notes = append(*b.notes, "the node distance table is not symmetric: the larger of each pair is used")
	}
	return d, nil
}

// isPower7 reports a POWER7 model name (CPU_FTR_ASYM_SMT).
func isPower7(model string) bool {
	for i := 0; i+6 <= len(model); i++ {
		if model[i:i+6] == "POWER7" {
			return true
		}
	}
	return false
}

// summary is the one-line description of m.
func summary(m topo.Machine) string {
	s := sprintf("%d CPUs: %d node(s) × %d cores × ≤%d thread(s)", m.NumCPUs(), m.Nodes, m.CoresPerNode, m.ThreadsPerCore)
	if m.LLC == topo.LLCCluster {
		s += ", LLC per cluster"
	}
	if len(m.CoreClasses) > 1 {
		s += sprintf(", %d core classes", len(m.CoreClasses))
	}
	return s
}

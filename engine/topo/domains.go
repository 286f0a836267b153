package topo

import "context"

// topoLevel is one entry of the sched_domain_topology_level table.
type topoLevel struct {
	name      Level
	flags     SDFlags  // tl->sd_flags(), already limited to TopologySDFlags
	overlap   bool     // SDTL_OVERLAP (NUMA levels)
	numaLevel int      // index into the distance table (NUMA levels)
	distance  int      // sched_domains_numa_distance[numaLevel]
	mask      []CPUSet // tl->mask(cpu), indexed by CPU
}

// sdBuild is one CPU's sched_domain while the hierarchy is being built.
type sdBuild struct {
	tl             int // index into builder.levels
	level          int // sd->level
	span           CPUSet
	flags          SDFlags
	child, parent  *sdBuild
	minInterval    int
	maxInterval    int
	busyFactor     int
	imbalancePct   int
	cacheNiceTries int
	imbNUMANr      int
	sharedID       int
	ring           *groupRing // the group ring; local group at ring.groups[local]
	local          int
}

// sgBuild is a sched_group; non-overlapping levels share one per child span
// among all CPUs, as get_group() claims sdd->sg of the child's first CPU.
type sgBuild struct {
	span CPUSet
	// balance is group_balance_mask(sg) of an overlapping group when it
	// differs from span (build_balance_mask()); else it is left empty.
	balance    CPUSet
	flags      SDFlags
	weight     int
	cores      int
	capacity   int
	asymPrefer CPU
	sgc        int32 // Group.SGC
	inited     bool
}

// groupRing is the circular sched_group list of one domain.
type groupRing struct {
	groups []*sgBuild
	out    []Group // the final groups, twice over, so a rotation is a sub-slice
	// Overlap rings are interned (overlapRings): refs domains use this
	// one; copied marks a copy made by setLocalGroupFlags (shared through
	// its cache, so never written in place).
	interned, copied bool
	refs             int
}

// builder holds the state of one build_sched_domains() call.
type builder struct {
	t              *Topology
	n              int
	all            CPUSet // cpu_map
	levels         []topoLevel
	capList        []CPUSet // asym_cap_list: one set per distinct cpu_scale, descending
	smtOption      SMTAsymPacking
	sd             [][]*sdBuild // [cpu][tl], nil above the CPU's top level
	sg             [][]*sgBuild // [tl][first cpu of the child span]
	rings          [][]*groupRing
	hasAsym        bool
	hasCluster     bool
	attachedBase   []*sdBuild // rq->sd per CPU after cpu_attach_domain()
	coreSeen       []int      // scratch for counting cores: generation per core
	seenGen        int
	groupIDs       map[groupKey][]int             // Group.ID by span (ids with that key)
	balanceMasks   map[balanceMaskKey]balanceMask // buildBalanceMask's, by level and span
	sgcs           map[sgcKey]int32               // the sched_group_capacity numbers, by level and CPU
	childSets      [][]childSet                   // [tl]: CPUs by the child span of their domain there
	groupStats     map[groupStatsKey]groupStats
	ctx            context.Context
	err            error // ctx's error once it is done: the build stops
	overlap        overlapRings
	covered        CPUSet    // scratch of build_overlap_sched_groups()
	overlapScratch []sgBuild // its groups before interning
}

// groupKey buckets group spans for numbering them (spanID).
type groupKey struct {
	first  CPU
	weight int
	hash   uint64
}

func newBuilder(t *Topology, p DomainPolicy) *builder {
	n := t.NumCPUs()
	b := &builder{t: t, n: n, all: NewCPUSet(n), smtOption: p.SMTAsymPacking,
		coreSeen: make([]int, t.TotalCores), seenGen: 1, groupStats: map[groupStatsKey]groupStats{}}
	for c := 0; c < n; c++ {
		b.all.Set(CPU(c))
	}
	b.levels = schedDomainTopology(t, asymPackingLevels(t.Machine, p))
	if asymCPUCapacityEnabled(t.Machine, p) {
		b.capList = asymCPUCapacityScan(t)
	}
	return b
}

// asymPackingLevels is where the arch (or the policy replacing it) puts
// SD_ASYM_PACKING: policy.asym_packing when set, else machine.arch.
func asymPackingLevels(m Machine, p DomainPolicy) []Level {
	if p.AsymPacking != nil {
		return *p.AsymPacking
	}
	if m.Arch.AsymPacking != nil {
		return *m.Arch.AsymPacking
	}
	return nil
}

// asymCPUCapacityEnabled models arch_asym_cpu_capacity_enabled() (Olympus
// combined-asym-packing hook): the policy's value, else the arch's, else true.
func asymCPUCapacityEnabled(m Machine, p DomainPolicy) bool {
	switch {
	case p.AsymCPUCapacity != nil:
		return *p.AsymCPUCapacity
	case m.Arch.AsymCPUCapacity != nil:
		return *m.Arch.AsymCPUCapacity
	}
	return true
}

// sched_domain_topology builds the level table: default_topology[] (SMT, CLS,
// MC, PKG) followed by the NUMA levels sched_init_numa() appends, one per
// distinct remote distance. The NODE level (span = node) is left out: its
// span equals PKG's here and it always degenerates.
func schedDomainTopology(t *Topology, asym []Level) []topoLevel {
	m := t.Machine
	n := t.NumCPUs()
	nclusters := 0
	for _, c := range t.CPUs {
		nclusters = max(nclusters, c.Cluster+1)
	}
	clusterMask := make([]CPUSet, nclusters)
	nodeMask := make([]CPUSet, m.Nodes)
	for i := range clusterMask {
		clusterMask[i] = NewCPUSet(n)
	}
	for i := range nodeMask {
		nodeMask[i] = NewCPUSet(n)
	}
	for _, c := range t.CPUs {
		clusterMask[c.Cluster].Set(c.CPU)
		nodeMask[c.Node].Set(c.CPU)
	}
	smt := make([]CPUSet, n)
	cls := make([]CPUSet, n)
	mc := make([]CPUSet, n)
	pkg := make([]CPUSet, n)
	for _, c := range t.CPUs {
		smt[c.CPU] = t.SiblingMask[c.CPU]
		pkg[c.CPU] = nodeMask[c.Node]
		// cpu_coregroup_mask(): the LLC siblings.
		mc[c.CPU] = nodeMask[c.Node]
		if m.LLC == LLCCluster {
			mc[c.CPU] = clusterMask[c.Cluster]
		}
		// cpu_clustergroup_mask(): the cluster (x86: cpu_l2c_shared_mask(),
		// the CPUs sharing the L2); arm64 gives the SMT mask instead when
		// the cluster covers the whole coregroup. A one-core cluster is the
		// SMT mask either way, so its CLS degenerates into SMT.
		cls[c.CPU] = clusterMask[c.Cluster]
		if mc[c.CPU].SubsetOf(clusterMask[c.Cluster]) {
			cls[c.CPU] = smt[c.CPU]
		}
	}
	with := func(l Level, f SDFlags) SDFlags {
		for _, a := range asym {
			if a == l {
				return f | SDAsymPacking
			}
		}
		return f
	}
	levels := []topoLevel{
		{name: LevelSMT, flags: with(LevelSMT, cpuSMTFlags()), mask: smt},
		{name: LevelCLS, flags: with(LevelCLS, cpuClusterFlags()), mask: cls},
		{name: LevelMC, flags: with(LevelMC, cpuCoreFlags()), mask: mc},
		{name: LevelPKG, flags: with(LevelPKG, 0), mask: pkg},
	}
	dists := numaDistances(m)
	for j := 1; j < len(dists); j++ {
		masks := make([]CPUSet, m.Nodes)
		for node := range masks {
			masks[node] = NewCPUSet(n)
			for other := 0; other < m.Nodes; other++ {
				if m.Distances[node][other] <= dists[j] {
					setAll(masks[node], nodeMask[other])
				}
			}
		}
		mask := make([]CPUSet, n)
		for _, c := range t.CPUs {
			mask[c.CPU] = masks[c.Node]
		}
		levels = append(levels, topoLevel{name: LevelNUMA, flags: with(LevelNUMA, cpuNUMAFlags()),
			overlap: true, numaLevel: j, distance: dists[j], mask: mask})
	}
	return levels
}

// numaDistances is sched_domains_numa_distance[]: the distinct distances, ascending.
func numaDistances(m Machine) []int {
	var d []int
	for _, row := range m.Distances {
		for _, v := range row {
			d = insertSorted(d, v)
		}
	}
	return d
}

func insertSorted(d []int, v int) []int {
	for i, x := range d {
		if x == v {
			return d
		}
		if x > v {
			return append(d[:i], append([]int{v}, d[i:]...)...)
		}
	}
	return append(d, v)
}

// cpuSMTFlags models cpu_smt_flags().
func cpuSMTFlags() SDFlags { return SDShareCPUCapacity | SDShareLLC }

// cpuClusterFlags models cpu_cluster_flags().
func cpuClusterFlags() SDFlags { return SDCluster | SDShareLLC }

// cpuCoreFlags models cpu_core_flags().
func cpuCoreFlags() SDFlags { return SDShareLLC }

// cpuNUMAFlags models cpu_numa_flags().
func cpuNUMAFlags() SDFlags { return SDNUMA }

// asymCPUCapacityScan models asym_cpu_capacity_scan(): one entry per exact
// cpu_scale value, largest first; a single value means no asymmetry (nil).
func asymCPUCapacityScan(t *Topology) []CPUSet {
	var caps []int
	for _, c := range t.CPUs {
		caps = insertSorted(caps, c.Capacity)
	}
	if len(caps) < 2 {
		return nil
	}
	list := make([]CPUSet, len(caps))
	for i := range list {
		list[i] = NewCPUSet(t.NumCPUs())
	}
	for _, c := range t.CPUs {
		for i, v := range caps {
			if v == c.Capacity {
				list[len(caps)-1-i].Set(c.CPU)
			}
		}
	}
	return list
}

// asymCPUCapacityClassify models asym_cpu_capacity_classify().
func (b *builder) asymCPUCapacityClassify(span CPUSet) SDFlags {
	count, miss := 0, 0
	for _, e := range b.capList {
		if span.Intersects(e) {
			count++
		} else if b.all.Intersects(e) {
			miss++
		}
	}
	switch {
	case count < 2:
		return 0
	case miss > 0:
		return SDAsymCPUCapacity
	}
	return SDAsymCPUCapacity | SDAsymCPUCapacityFull
}

// sdInit models sd_init(): default flags and parameters, the arch flags, the
// capacity classification, and "convert topological properties into
// behaviour". The sched_smt_asym_packing= override (v6 series) acts on every
// level with SD_SHARE_CPUCAPACITY.
func (b *builder) sdInit(tl int, child *sdBuild, cpu CPU) *sdBuild {
	l := &b.levels[tl]
	// cpu_map is every CPU, so the span is the level's mask itself,
	// shared by the CPUs that share it (never modified in place).
	span := l.mask[cpu]
	w := l.mask[cpu].Weight()
	sd := &sdBuild{tl: tl, span: span, child: child, sharedID: -1,
		minInterval: w, maxInterval: 2 * w, busyFactor: 16, imbalancePct: 117,
		flags: SDBalanceNewidle | SDBalanceExec | SDBalanceFork | SDWakeAffine | SDPreferSibling |
			l.flags&TopologySDFlags}
	if sd.flags&SDShareCPUCapacity != 0 {
		switch b.smtOption {
		case SMTAsymOn:
			sd.flags |= SDAsymPacking
		case SMTAsymOff:
			sd.flags &^= SDAsymPacking
		}
	}
	sd.flags |= b.asymCPUCapacityClassify(span)
	if sd.flags&SDAsymCPUCapacity != 0 && child != nil {
		child.flags &^= SDPreferSibling
	}
	switch {
	case sd.flags&SDShareCPUCapacity != 0:
		sd.imbalancePct = 110
	case sd.flags&SDShareLLC != 0:
		sd.imbalancePct = 117
		sd.cacheNiceTries = 1
	case sd.flags&SDNUMA != 0:
		sd.cacheNiceTries = 2
		sd.flags &^= SDPreferSibling
		sd.flags |= SDSerialize
		if l.distance > b.t.Machine.ReclaimDistance() {
			sd.flags &^= SDBalanceExec | SDBalanceFork | SDWakeAffine
		}
	default:
		sd.cacheNiceTries = 1
	}
	if sd.flags&SDShareLLC != 0 {
		sd.sharedID = int(span.First())
	}
	return sd
}

// buildSchedDomain models build_sched_domain(): sd_init() plus linking.
func (b *builder) buildSchedDomain(tl int, child *sdBuild, cpu CPU) *sdBuild {
	sd := b.sdInit(tl, child, cpu)
	if child != nil {
		sd.level = child.level + 1
		child.parent = sd
		if !child.span.SubsetOf(sd.span) {
			sd.span = sd.span.Or(child.span)
		}
	}
	return sd
}

// buildSchedDomains models build_sched_domains(): every CPU's chain
// bottom-up until a span covers cpu_map, then groups, imb_numa_nr, group
// capacities, cpu_attach_domain() and the static keys.
func (b *builder) buildSchedDomains() {
	b.sd = make([][]*sdBuild, b.n)
	for i := 0; i < b.n; i++ {
		if b.cancelled(i) {
			return
		}
		b.sd[i] = make([]*sdBuild, len(b.levels))
		var sd *sdBuild
		for tl := range b.levels {
			sd = b.buildSchedDomain(tl, sd, CPU(i))
			b.sd[i][tl] = sd
			if sd.flags&SDAsymCPUCapacity != 0 {
				b.hasAsym = true
			}
			if b.levels[tl].overlap {
				sd.flags |= SDOverlap
			}
			if sd.span.Equal(b.all) {
				break
			}
		}
	}
	if b.buildGroups(); b.err != nil {
		return
	}
	b.computeImbNUMANr()
	b.initSchedGroupsCapacity()
	b.attachedBase = make([]*sdBuild, b.n)
	for i := 0; i < b.n; i++ {
		b.attachedBase[i] = b.cpuAttachDomain(b.sd[i][0])
		if lowestFlag(b.attachedBase[i], SDCluster) != nil {
			b.hasCluster = true
		}
	}
	b.export()
}

// computeImbNUMANr models the imb_numa_nr loop of build_sched_domains().
func (b *builder) computeImbNUMANr() {
	for i := 0; i < b.n; i++ {
		imb, imbSpan := 0, 1
		for sd := b.sd[i][0]; sd != nil; sd = sd.parent {
			child := sd.child
			w := sd.span.Weight()
			if sd.flags&SDShareLLC == 0 && child != nil && child.flags&SDShareLLC != 0 {
				nrLLCs := w / child.span.Weight()
				if nrLLCs == 1 {
					imb = w >> 3
				} else {
					imb = nrLLCs
				}
				imb = max(1, imb)
				sd.imbNUMANr = imb
				top := sd.parent
				for top != nil && top.flags&SDNUMA == 0 {
					top = top.parent
				}
				imbSpan = w
				if top != nil {
					imbSpan = top.span.Weight()
				}
			} else {
				sd.imbNUMANr = imb * max(1, w/imbSpan)
			}
		}
	}
}

// cancelled reports whether the build must stop, checking the context at
// every 64th CPU i of a pass.
func (b *builder) cancelled(i int) bool {
	if b.err == nil && i&63 == 0 && b.ctx != nil {
		b.err = b.ctx.Err()
	}
	return b.err != nil
}

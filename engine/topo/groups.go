package topo

// buildGroups builds the group ring of every domain: build_sched_groups()
// for ordinary levels, build_overlap_sched_groups() for NUMA levels.
func (b *builder) buildGroups() {
	b.sg = make([][]*sgBuild, len(b.levels))
	b.rings = make([][]*groupRing, len(b.levels))
	for tl := range b.levels {
		b.sg[tl] = make([]*sgBuild, b.n)
		b.rings[tl] = make([]*groupRing, b.n)
	}
	for i := 0; i < b.n; i++ {
		if b.cancelled(i) {
			return
		}
		for sd := b.sd[i][0]; sd != nil; sd = sd.parent {
			if sd.flags&SDOverlap != 0 {
				b.buildOverlapSchedGroups(sd, CPU(i))
			} else {
				b.buildSchedGroups(sd, CPU(i))
			}
		}
	}
}

// buildSchedGroups models build_sched_groups(): the child spans of the
// domain's CPUs, walked with for_each_cpu_wrap() from cpu. Group objects are
// shared, and each CPU's build relinks the one ring, so the ring every CPU
// sees is the one built last (by the span's highest CPU), entered at the
// CPU's local group.
func (b *builder) buildSchedGroups(sd *sdBuild, cpu CPU) {
	key := sd.span.First()
	r := b.rings[sd.tl][key]
	if r == nil {
		r = &groupRing{}
		last := lastCPU(sd.span)
		covered := NewCPUSet(b.n)
		sd.span.ForEachWrap(last, func(i CPU) bool {
			if covered.Has(i) {
				return true
			}
			sg := b.getGroup(sd.tl, i)
			setAll(covered, sg.span)
			r.groups = append(r.groups, sg)
			return true
		})
		b.rings[sd.tl][key] = r
	}
	sd.ring = r
	for k, sg := range r.groups {
		if sg.span.Has(cpu) {
			sd.local = k
			break
		}
	}
}

// getGroup models get_group(): the group of CPU i at level tl is its child
// domain's span (one CPU at the bottom), claimed by the span's first CPU.
func (b *builder) getGroup(tl int, i CPU) *sgBuild {
	sd := b.sd[i][tl]
	child := sd.child
	first := i
	if child != nil {
		first = child.span.First()
	}
	if sg := b.sg[tl][first]; sg != nil {
		return sg
	}
	sg := &sgBuild{asymPrefer: NoCPU, sgc: b.newSGC()} // get_group(): the level's sgc of first
	if child != nil {
		sg.span = child.span
		sg.flags = child.flags
	} else {
		sg.span = NewCPUSet(b.n)
		sg.span.Set(i)
	}
	b.sg[tl][first] = sg
	return sg
}

// buildOverlapSchedGroups models build_overlap_sched_groups(): one group per
// sibling domain's child span, each built for this domain alone. The
// for_each_cpu_wrap() walk skips covered CPUs a word at a time, and domains
// whose rings come out identical (the CPUs of one node, mostly) share one
// ring (see overlapRings), so a 64-node machine does not hold a copy of
// every ring per CPU.
func (b *builder) buildOverlapSchedGroups(sd *sdBuild, cpu CPU) {
	if b.covered.Size() == 0 {
		b.covered = NewCPUSet(b.n)
	}
	covered := b.covered
	clear(covered.words)
	groups := b.overlapScratch[:0]
	visit := func(i CPU) {
		sibling := b.sd[i][sd.tl]
		if sibling == nil || !sibling.span.Has(i) {
			return
		}
		if sibling.child != nil && !sibling.child.span.SubsetOf(sd.span) {
			sibling = findDescendedSibling(sd, sibling)
		}
		g := sgBuild{asymPrefer: NoCPU, span: sibling.span}
		if sibling.child != nil {
			g.span = sibling.child.span
			g.flags = sibling.child.flags
		}
		g.balance, g.sgc = b.buildBalanceMask(sibling.tl, g.span)
		setAll(covered, g.span)
		groups = append(groups, g)
	}
	for i := sd.span.nextAndNot(cpu-1, covered); i.Valid(); i = sd.span.nextAndNot(i, covered) {
		visit(i)
	}
	for i := sd.span.nextAndNot(NoCPU, covered); i.Valid() && i < cpu; i = sd.span.nextAndNot(i, covered) {
		visit(i)
	}
	b.overlapScratch = groups
	sd.ring = b.overlap.intern(sd.tl, groups)
	sd.local = 0
}

// buildBalanceMask models build_balance_mask() for a group of span built
// at level tl: the CPUs of span whose own domain at tl has a child spanning
// span exactly ("if we would not end up here, we can't continue from
// here"). It returns the empty set when that is span itself, as on every
// level whose CPUs see the same child spans, and span when no CPU
// qualifies (the kernel's WARN_ON_ONCE(cpumask_empty(mask)) case). It is
// computed once per level and span, so rings compare masks by identity.
// With it comes the group's sched_group_capacity (init_overlap_sched_group():
// the level's sgc of the mask's first CPU).
func (b *builder) buildBalanceMask(tl int, span CPUSet) (CPUSet, int32) {
	k := balanceMaskKey{tl: tl, span: &span.words[0]} // spans are shared, never modified in place
	if m, ok := b.balanceMasks[k]; ok {
		return m.mask, m.sgc
	}
	if b.balanceMasks == nil {
		b.balanceMasks = map[balanceMaskKey]balanceMask{}
	}
	// The sgc is the level's of the mask's first CPU (an empty mask stands
	// for span itself): groups of equal masks share it, also when their
	// spans are separate CPU sets (one per node at a NUMA level, as where
	// several nodes of a socket see the same socket span).
	m := balanceMask{mask: b.balanceMaskOf(tl, span)}
	first := m.mask.First()
	if !first.Valid() {
		first = span.First()
	}
	sk := sgcKey{tl: tl, cpu: first}
	sgc, ok := b.sgcs[sk]
	if !ok {
		if b.sgcs == nil {
			b.sgcs = map[sgcKey]int32{}
		}
		sgc = b.newSGC()
		b.sgcs[sk] = sgc
	}
	m.sgc = sgc
	b.balanceMasks[k] = m
	return m.mask, m.sgc
}

// sgcKey names a sched_group_capacity: *per_cpu_ptr(sdd->sgc, cpu) of a
// level and CPU.
type sgcKey struct {
	tl  int
	cpu CPU
}

// balanceMask is buildBalanceMask's answer for one level and span.
type balanceMask struct {
	mask CPUSet
	sgc  int32
}

// newSGC numbers a new sched_group_capacity (*per_cpu_ptr(sdd->sgc, cpu)
// of a level and CPU not met before): the groups that share it get one
// Group.SGC.
func (b *builder) newSGC() int32 {
	b.t.NumSGC++
	return int32(b.t.NumSGC - 1)
}

// balanceMaskKey names a group span built at a level.
type balanceMaskKey struct {
	tl   int
	span *uint64
}

// balanceMaskOf computes buildBalanceMask's mask: the union of the CPU
// sets of level tl whose child span equals span (childSetsAt); a CPU whose
// child spans span is in span, so the kernel's walk over span finds the same.
func (b *builder) balanceMaskOf(tl int, span CPUSet) CPUSet {
	var mask CPUSet
	for _, c := range b.childSetsAt(tl) {
		if &c.span.words[0] != &span.words[0] && !c.span.Equal(span) {
			continue
		}
		if mask.Size() == 0 {
			mask = NewCPUSet(b.n)
		}
		setAll(mask, c.cpus)
	}
	if mask.Size() == 0 || mask.Equal(span) {
		return CPUSet{}
	}
	return mask
}

// childSet is the CPUs whose domain at one level has the child span span.
type childSet struct {
	span, cpus CPUSet
}

// childSetsAt groups the CPUs by the child span of their domain at level
// tl (once per level: the CPUs of a node share one).
func (b *builder) childSetsAt(tl int) []childSet {
	if b.childSets == nil {
		b.childSets = make([][]childSet, len(b.levels))
	}
	if cs := b.childSets[tl]; cs != nil {
		return cs
	}
	idx := map[*uint64]int{}
	cs := []childSet{}
	for i := 0; i < b.n; i++ {
		sib := b.sd[i][tl]
		if sib == nil || sib.child == nil {
			continue
		}
		p := &sib.child.span.words[0]
		k, ok := idx[p]
		if !ok {
			k = len(cs)
			idx[p] = k
			cs = append(cs, childSet{span: sib.child.span, cpus: NewCPUSet(b.n)})
		}
		cs[k].cpus.Set(CPU(i))
	}
	b.childSets[tl] = cs
	return cs
}

// findDescendedSibling models find_descended_sibling().
func findDescendedSibling(sd, sibling *sdBuild) *sdBuild {
	for sibling.child != nil && !sibling.child.span.SubsetOf(sd.span) {
		sibling = sibling.child
	}
	for sibling.child != nil && sibling.child.span.Equal(sibling.span) {
		sibling = sibling.child
	}
	return sibling
}

// initSchedGroupsCapacity models init_sched_groups_capacity() plus the
// build-time update_group_capacity(): weight, SMT cores, asym_prefer_cpu
// (only under SD_ASYM_PACKING; highest priority, first found on ties) and
// the sum of cpu_scale.
func (b *builder) initSchedGroupsCapacity() {
	for i := 0; i < b.n; i++ {
		for sd := b.sd[i][0]; sd != nil; sd = sd.parent {
			for _, sg := range sd.ring.groups {
				if !sg.inited {
					b.initGroup(sd, sg)
				}
			}
		}
	}
}

func (b *builder) initGroup(sd *sdBuild, sg *sgBuild) {
	sg.inited = true
	asym := sd.flags&SDAsymPacking != 0
	key := groupStatsKey{span: &sg.span.words[0], asym: asym}
	st, ok := b.groupStats[key]
	if !ok {
		st = b.groupStatsOf(sg.span, asym)
		b.groupStats[key] = st
	}
	sg.weight, sg.cores, sg.capacity, sg.asymPrefer = st.weight, st.cores, st.capacity, st.asymPrefer
}

// groupStatsKey names a group span (spans are shared, never modified in
// place) and whether its domain has SD_ASYM_PACKING.
type groupStatsKey struct {
	span *uint64
	asym bool
}

// groupStats is what init_sched_groups_capacity() derives from a span.
type groupStats struct {
	weight, cores, capacity int
	asymPrefer              CPU
}

// groupStatsOf computes the group statistics of span: weight, SMT cores,
// the sum of cpu_scale and, under SD_ASYM_PACKING, asym_prefer_cpu.
func (b *builder) groupStatsOf(span CPUSet, asym bool) groupStats {
	st := groupStats{weight: span.Weight(), asymPrefer: NoCPU}
	for c := span.First(); c.Valid(); c = span.Next(c) {
		st.capacity += b.t.CPUs[c].Capacity
		if core := b.t.CPUs[c].Core; b.coreSeen[core] != b.seenGen {
			b.coreSeen[core] = b.seenGen
			st.cores++
		}
	}
	b.seenGen++
	if !asym {
		return st
	}
	for c := span.First(); c.Valid(); c = span.Next(c) {
		if st.asymPrefer < 0 || SchedAsymPrefer(b.t, c, st.asymPrefer) {
			st.asymPrefer = c
		}
	}
	return st
}

// setAll adds every CPU of o to s (cpumask_or in place).
func setAll(s, o CPUSet) {
	for i := range s.words {
		if i < len(o.words) {
			s.words[i] |= o.words[i]
		}
	}
}

// lastCPU is cpumask_last().
func lastCPU(s CPUSet) CPU {
	last := NoCPU
	for c := s.First(); c.Valid(); c = s.Next(c) {
		last = c
	}
	return last
}

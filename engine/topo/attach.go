package topo

// nrGroups is the length of the domain's group ring.
func (sd *sdBuild) nrGroups() int { return len(sd.ring.groups) }

// localGroup is sd->groups.
func (sd *sdBuild) localGroup() *sgBuild { return sd.ring.groups[sd.local] }

// sdDegenerate models sd_degenerate(): a single CPU, or one group and no
// flag that works without groups (SD_WAKE_AFFINE).
func sdDegenerate(sd *sdBuild) bool {
	if sd.span.Weight() == 1 {
		return true
	}
	if sd.flags&SDDegenerateGroupsMask != 0 && sd.nrGroups() > 1 {
		return false
	}
	return sd.flags&SDWakeAffine == 0
}

// sdParentDegenerate models sd_parent_degenerate(): the parent adds nothing
// over sd (same span, no flag sd lacks once group-needing flags of a
// one-group parent are ignored).
func sdParentDegenerate(sd, parent *sdBuild) bool {
	cflags, pflags := sd.flags, parent.flags
	if sdDegenerate(parent) {
		return true
	}
	if !sd.span.Equal(parent.span) {
		return false
	}
	if parent.nrGroups() == 1 {
		pflags &^= SDDegenerateGroupsMask
	}
	return ^cflags&pflags == 0
}

// cpuAttachDomain models the degenerate-domain removal of
// cpu_attach_domain() and returns the CPU's new rq->sd.
func (b *builder) cpuAttachDomain(sd *sdBuild) *sdBuild {
	for tmp := sd; tmp != nil; {
		parent := tmp.parent
		if parent == nil {
			break
		}
		if sdParentDegenerate(tmp, parent) {
			tmp.parent = parent.parent
			if parent.parent != nil {
				parent.parent.child = tmp
				b.setLocalGroupFlags(parent.parent, tmp.flags)
			}
			if parent.flags&SDPreferSibling != 0 {
				tmp.flags |= SDPreferSibling
			}
		} else {
			tmp = tmp.parent
		}
	}
	if sd != nil && sdDegenerate(sd) {
		sd = sd.parent
		if sd != nil {
			b.setLocalGroupFlags(sd, 0)
			sd.child = nil
		}
	}
	return sd
}

// highestFlag models highest_flag_domain() (kernel/sched/sched.h): the
// highest domain with flag; the climb stops at the first level without it
// for SD_SHARED_CHILD flags.
func highestFlag(sd *Domain, flag SDFlags) *Domain {
	var hsd *Domain
	for ; sd != nil; sd = sd.Parent {
		if sd.Flags&flag != 0 {
			hsd = sd
			continue
		}
		if flag&SDSharedChild != 0 {
			break
		}
	}
	return hsd
}

// lowestFlagDomain models lowest_flag_domain(): the first domain with flag.
func lowestFlagDomain(sd *Domain, flag SDFlags) *Domain {
	for ; sd != nil; sd = sd.Parent {
		if sd.Flags&flag != 0 {
			return sd
		}
	}
	return nil
}

// lowestFlag is lowestFlagDomain over a build-time chain.
func lowestFlag(sd *sdBuild, flag SDFlags) *sdBuild {
	for ; sd != nil; sd = sd.parent {
		if sd.flags&flag != 0 {
			return sd
		}
	}
	return nil
}

// export turns the attached chains into the Topology's Domains, then sets
// the shortcuts (update_top_cache_domain()) and the static keys.
func (b *builder) export() {
	t := b.t
	t.Domains = make([][]*Domain, b.n)
	t.SDLLC = make([]*Domain, b.n)
	t.SDLLCSize = make([]int, b.n)
	t.SDLLCID = make([]CPU, b.n)
	t.SDShareID = make([]CPU, b.n)
	t.SDNUMA = make([]*Domain, b.n)
	t.SDAsymPacking = make([]*Domain, b.n)
	t.SDAsymCPUCapacity = make([]*Domain, b.n)
	for i := 0; i < b.n; i++ {
		var prev *Domain
		for sd := b.attachedBase[i]; sd != nil; sd = sd.parent {
			d := &Domain{Level: b.levels[sd.tl].name, Depth: len(t.Domains[i]), Span: sd.span,
				Flags: sd.flags, Groups: b.ringGroups(sd), MinInterval: sd.minInterval,
				MaxInterval: sd.maxInterval, BusyFactor: sd.busyFactor, ImbalancePct: sd.imbalancePct,
				CacheNiceTries: sd.cacheNiceTries, ImbNUMANr: sd.imbNUMANr, SharedID: sd.sharedID,
				Child: prev}
			if prev != nil {
				prev.Parent = d
			}
			t.Domains[i] = append(t.Domains[i], d)
			prev = d
		}
		b.updateTopCacheDomain(CPU(i))
	}
	t.SMTActive = false
	for _, cpus := range t.CoreCPUs {
		// sched_smt_present_inc(): a CPU whose cpu_smt_mask has 2 CPUs
		if len(cpus) > 1 {
			t.SMTActive = true
			break
		}
	}
	t.AsymCPUCapacityActive = b.hasAsym
	t.ClusterActive = b.hasCluster
}

// ringGroups returns the domain's groups, local group first, as a view of
// the ring's exported groups (shared by every CPU of the domain's span).
func (b *builder) ringGroups(sd *sdBuild) []Group {
	r := sd.ring
	k := len(r.groups)
	if r.out == nil {
		r.out = make([]Group, 2*k)
		for j, sg := range r.groups {
			g := Group{Span: sg.span, BalanceMask: sg.span, Flags: sg.flags, Weight: sg.weight, Cores: sg.cores,
				Capacity: sg.capacity, AsymPreferCPU: sg.asymPrefer, ID: b.spanID(sg.span, sg.weight), SGC: int(sg.sgc)}
			if sg.balance.Size() != 0 {
				g.BalanceMask = sg.balance
			}
			r.out[j], r.out[j+k] = g, g
		}
	}
	return r.out[sd.local : sd.local+k : sd.local+k]
}

// spanID is the Group.ID of a group span of weight CPUs: the first
// group with an equal span gave it a new one.
func (b *builder) spanID(span CPUSet, weight int) int {
	h := uint64(14695981039346656037) // FNV-1a over the words
	for _, w := range span.words {
		h = (h ^ w) * 1099511628211
	}
	k := groupKey{first: span.First(), weight: weight, hash: h}
	for _, id := range b.groupIDs[k] {
		if b.t.GroupSpans[id].Equal(span) {
			return id
		}
	}
	if b.groupIDs == nil {
		b.groupIDs = map[groupKey][]int{}
	}
	id := len(b.t.GroupSpans)
	b.t.GroupSpans = append(b.t.GroupSpans, span)
	b.groupIDs[k] = append(b.groupIDs[k], id)
	return id
}

// updateTopCacheDomain models update_top_cache_domain().
func (b *builder) updateTopCacheDomain(cpu CPU) {
	t := b.t
	var base *Domain
	if len(t.Domains[cpu]) > 0 {
		base = t.Domains[cpu][0]
	}
	id, size := cpu, 1
	sd := highestFlag(base, SDShareLLC)
	if sd != nil {
		id = sd.Span.First()
		size = sd.Span.Weight()
	}
	t.SDLLC[cpu] = sd
	t.SDLLCSize[cpu] = size
	t.SDLLCID[cpu] = id
	if sd := lowestFlagDomain(base, SDCluster); sd != nil {
		id = sd.Span.First()
	}
	t.SDShareID[cpu] = id
	t.SDNUMA[cpu] = lowestFlagDomain(base, SDNUMA)
	t.SDAsymPacking[cpu] = highestFlag(base, SDAsymPacking)
	t.SDAsymCPUCapacity[cpu] = lowestFlagDomain(base, SDAsymCPUCapacityFull)
}

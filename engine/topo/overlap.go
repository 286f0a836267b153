package topo

import "encoding/binary"

// overlapRings interns the group rings of overlapping (NUMA) domains.
// build_overlap_sched_groups() allocates a ring per domain per CPU; here
// domains whose rings come out identical (same level, same groups and
// flags, in the same order: the CPUs of one node, mostly) share one, which
// keeps a 64-node, 4096-CPU machine at one ring per node and level instead
// of one per CPU and level. cpu_attach_domain() writes the flags of a
// domain's local group; on a ring other domains share, setLocalGroupFlags
// copies it first, so every domain sees exactly what a private ring would
// hold.
type overlapRings struct {
	rings   map[string]*groupRing
	copies  map[ringCopyKey]*groupRing
	key     []byte
	private bool // a ring per domain, never shared (the tests' reference)
}

// ringCopyKey names the copy of a shared ring with its local group's
// flags replaced.
type ringCopyKey struct {
	from  *groupRing
	flags SDFlags
}

// intern returns the ring of groups at level tl, shared with every other
// domain whose groups are the same.
func (o *overlapRings) intern(tl int, groups []sgBuild) *groupRing {
	if o.private {
		return newRing(groups)
	}
	if o.rings == nil {
		o.rings = map[string]*groupRing{}
		o.copies = map[ringCopyKey]*groupRing{}
	}
	// A group's sgc names its level and span, and with them its balance
	// mask (buildBalanceMask()), so it and the flags are the group's key.
	k := binary.LittleEndian.AppendUint32(o.key[:0], uint32(tl))
	for i := range groups {
		k = binary.LittleEndian.AppendUint32(k, uint32(groups[i].sgc))
		k = binary.LittleEndian.AppendUint32(k, uint32(groups[i].flags))
	}
	o.key = k
	if r, ok := o.rings[string(k)]; ok {
		r.refs++
		return r
	}
	r := newRing(groups)
	r.interned = true
	o.rings[string(k)] = r
	return r
}

// newRing makes a ring of its own of copies of groups.
func newRing(groups []sgBuild) *groupRing {
	r := &groupRing{groups: make([]*sgBuild, len(groups)), refs: 1}
	for i := range groups {
		sg := groups[i]
		r.groups[i] = &sg
	}
	return r
}

// setLocalGroupFlags sets the flags of sd's local group, as
// cpu_attach_domain() does (sd->groups->flags = …). The groups of ordinary
// levels are shared by the kernel too (get_group()), so they are written
// in place; an interned overlap ring other domains also use is copied
// first (one copy per ring and flags, shared by the domains that write the
// same flags).
func (b *builder) setLocalGroupFlags(sd *sdBuild, flags SDFlags) {
	r := sd.ring
	if sd.localGroup().flags == flags {
		return
	}
	if !r.interned || r.refs == 1 && !r.copied {
		sd.localGroup().flags = flags
		return
	}
	key := ringCopyKey{r, flags}
	c, ok := b.overlap.copies[key]
	if !ok {
		c = &groupRing{groups: append([]*sgBuild(nil), r.groups...), interned: true, copied: true}
		local := *r.groups[sd.local]
		local.flags = flags
		c.groups[sd.local] = &local
		b.overlap.copies[key] = c
	}
	r.refs--
	c.refs++
	sd.ring = c
}

package sim

import (
	"fmt"

	"schedplay/engine/topo"
)

// Per-group sums of the CPU statistics update_sg_lb_stats() adds up, kept
// up to date as CPUs change instead of re-added over the whole span at
// every balance pass. The kernel sums the span each time (its cost grows
// with the span, so a newidle pass on a 352-CPU machine reads every CPU);
// the sums are the same integers added in another order, so the result is
// the same. A CPU whose statistics may have changed is marked (cpuChanged)
// at every place that changes them; the marks are folded into the sums
// when a balance pass reads them (flushGroupSums).

// cpuLbStats is one CPU's share of its groups' sums.
type cpuLbStats struct {
	load, util, runnable int64 // cpu_load(), cpu_util_cfs(), runnable_avg
	nr                   int   // nr_running
	hnr                  int   // sum_h_nr_running's share: h_nr_runnable or h_nr_queued (lbNrRunning)
	idle                 bool  // idle_cpu()
	overloaded           bool  // nr_running > 1
	misfit               int64 // rq->misfit_task_load of a busy CPU (0 when idle)
	capacity             int   // capacity_of() (a lone task at a reduced one is a misfit)
}

// groupLbSums is the sum of its CPUs' cpuLbStats over one group span.
type groupLbSums struct {
	load, util, runnable int64
	nr, hnr, idle        int
	overloaded           int
	// misfitMax is the largest misfit share; misfitStale says the CPU
	// that held it lowered its share, so it is found again when read.
	misfitMax      int64
	misfitStale    bool
	minCap, maxCap int // capacity_orig extremes (static)
}

// keptSgLbStats is one group span's sg_lb_stats as a balance pass
// computed them for a non-local group (the sums, then the flags and
// group_classify()), kept while the span's sums and what else they read
// (keptKey) are the same. They sit apart from the sums (groupSums.kept)
// in 128-byte entries whose first cache line holds what a newidle pass
// reads of most groups (the key, with keptOverloaded, and sgStats' first
// fields); the fold writes only the sums and the key.
type keptSgLbStats struct {
	key uint64 // keptKey when computed, with keptOverloaded; 0 (none) once the fold changes the span's sums
	sgs sgStats
	_   [16]byte
}

// groupSums holds the sums of every group span (topo.Group.ID) and the
// CPUs whose share is not folded in yet.
type groupSums struct {
	sums    []groupLbSums
	kept    []keptSgLbStats // span ID → the statistics kept for it
	of      [][]int32       // CPU → the IDs of the group spans holding it
	share   []cpuLbStats    // CPU → its share as folded into sums
	dirty   []bool
	pending []int32 // CPUs marked dirty, in marking order
	// synced holds the CPUs whose update_cfs_rq_load_avg() would change
	// nothing at time syncedAt (wakeup_sums.go).
	synced   []uint64
	syncedAt int64
	// verify makes every read check the sums against a fresh walk of
	// the span (tests).
	verify bool
	// finalStops counts, in the verify mode, the passes whose group loop
	// would have stopped at a final busiest group (sdLbStatsKept).
	finalStops int
}

// initGroupSums sizes the sums for the topology (every CPU idle, empty).
func (s *sim) initGroupSums() {
	g := &s.gs
	spans := s.t.GroupSpans
	n := len(s.cpus)
	g.sums = make([]groupLbSums, len(spans))
	g.kept = make([]keptSgLbStats, len(spans))
	g.of = make([][]int32, n)
	g.share = make([]cpuLbStats, n)
	g.dirty = make([]bool, n)
	g.pending = make([]int32, 0, n)
	g.synced, g.syncedAt = make([]uint64, (n+63)/64), -1
	for id, span := range spans {
		gs := &g.sums[id]
		gs.minCap = 1 << 30
		for c := span.First(); c.Valid(); c = span.Next(c) {
			g.of[c] = append(g.of[c], int32(id))
			capv := s.cpus[c].cap
			gs.minCap = min(gs.minCap, capv)
			gs.maxCap = max(gs.maxCap, capv)
		}
	}
	for i := range s.cpus {
		s.cpuChanged(&s.cpus[i])
		for j, sd := range s.t.Domains[i] {
			s.cpus[i].sd[j].spanSums = domainSpanSums(sd)
			s.cpus[i].sd[j].cpuPair = cpuPair(sd)
			s.cpus[i].sd[j].smtFinal = s.cpus[i].sd[j].spanSums >= 0 && sd.Flags&topo.SDAsymPacking == 0
		}
	}
}

// domainSpanSums is the group-sums ID of sd's span when sd's groups split
// it (no SD_OVERLAP, their weights add up to it) and the span is the
// parent's local group, as build_sched_groups() makes it; else -1 (the
// root domain, NUMA overlap).
func domainSpanSums(sd *topo.Domain) int32 {
	if sd.Parent == nil || sd.Flags&topo.SDOverlap != 0 {
		return -1
	}
	w := 0
	for gi := range sd.Groups {
		w += sd.Groups[gi].Weight
	}
	p := &sd.Parent.Groups[0]
	if w != sd.Span.Weight() || !p.Span.Equal(sd.Span) {
		return -1
	}
	return int32(p.ID)
}

// cpuPair says sd is two groups of one CPU each, with no SMT, prefer-
// sibling, asymmetric capacity or asym packing in the domain or its groups
// (an SMT2 core's domain): noSrcGroup's second case.
func cpuPair(sd *topo.Domain) bool {
	const no = topo.SDShareCPUCapacity | topo.SDPreferSibling
	if len(sd.Groups) != 2 || sd.Flags&(topo.SDAsymCPUCapacity|topo.SDAsymPacking) != 0 {
		return false
	}
	for gi := range sd.Groups {
		g := &sd.Groups[gi]
		if g.Weight != 1 || g.Flags&no != 0 || g.AsymPreferCPU >= 0 {
			return false
		}
	}
	return true
}

// noSrcGroup says from the group sums that sched_balance_find_src_group()
// would return NULL, in two cases:
//   - no group of env's domain but the local one has a task the balancer
//     counts (sum_h_nr_running), so update_sd_pick_busiest() picks none;
//     the span's sums tell (domainSpanSums);
//   - a domain of two single CPUs (an SMT2 core's domain, cpuPair) whose
//     other CPU runs at most one task: its group is neither overloaded
//     nor misfit nor asym_packing nor smt_balance, and without
//     SD_PREFER_SIBLING nothing forces the balance, so a busiest group,
//     if picked, has group_weight 1 and sum_h_nr_running 1, and
//     find_busiest_group() returns NULL for it ("busiest->sum_h_nr_running
//     == 1"; before that, a local group_type above the busiest's, or an
//     overloaded local group, whose avg_load is at least the busiest's 0,
//     return NULL too).
//
// It answers only where nothing else update_sd_lb_stats() computes is
// read after that: untraced, env->cpus whole (a first pass), below the root
// (set_rd_overloaded()), and no SIS_UTIL update (update_idle_cpu_scan()).
// An idle SMT thread's pass over its core, most of the nohz idle
// balance's passes, ends here. In a cpuPair domain both cases read only
// the other CPU's share of the sums, so it is read from that CPU and the
// marked CPUs are not folded. The verify mode runs
// sched_balance_find_src_group() at every answer and panics if it returns
// a group.
func (s *sim) noSrcGroup(sd *topo.Domain, sdIdx, dst int, idle cpuIdleType) bool {
	st := &s.cpus[dst].sd[sdIdx]
	if st.spanSums < 0 && !st.cpuPair || sd.Parent == nil || s.tracing || idle != cpuNewlyIdle && sd == s.sharedDom[dst] {
		return false
	}
	if st.cpuPair {
		// Two one-CPU groups: the sums of the other group and the span
		// less the local group are the other CPU's share, read from it
		// without folding the marked CPUs. A lone task on it at a reduced
		// capacity is a misfit (sched_reduced_capacity()), which
		// find_busiest_group() balances whatever its count.
		o := &s.cpus[sd.Groups[1].Span.First()]
		if s.capReduced.Has(topo.CPU(o.id)) {
			return false
		}
		if h := s.lbNrRunning(o); !(st.spanSums >= 0 && h == 0 || o.nrRunningAll() <= 1 && h <= 1) {
			return false
		}
	} else {
		s.flushGroupSums()
		if sums := s.gs.sums; sums[st.spanSums].hnr != sums[sd.Groups[0].ID].hnr {
			return false
		}
	}
	if s.gs.verify {
		var env lbEnv
		env.reset(sd, sdIdx, dst, idle, 0, topo.CPUSet{}, migrateLoad)
		if g := s.schedBalanceFindSrcGroup(&env); g != nil {
			panic(fmt.Sprintf("sim: no source group by the sums of %s at t=%d, but sched_balance_find_src_group() returns %s", sd.Span, s.now, g.Span))
		}
	}
	return true
}

// cpuChanged marks c: something update_sg_lb_stats() reads of it may
// have changed (its load averages, nr_running, util_est, curr, wake-ups
// pending, housekeeping, misfit load); and an update_cfs_rq_load_avg()
// of c at this instant may no longer be a no-op (peltSynced).
func (s *sim) cpuChanged(c *cpuState) {
	s.markIdle(c)
	g := &s.gs
	g.synced[c.id>>6] &^= 1 << (uint(c.id) & 63)
	if !g.dirty[c.id] {
		g.dirty[c.id] = true
		g.pending = append(g.pending, int32(c.id))
	}
}

// lbStatsOf is c's share of the sums now.
func (s *sim) lbStatsOf(c *cpuState) cpuLbStats {
	idle := s.idleCPU(c.id)
	st := cpuLbStats{load: cpuLoad(c), util: int64(s.cpuUtilCfs(c)), runnable: int64(c.avg.runnableAvg),
		nr: c.nrRunningAll(), hnr: s.lbNrRunning(c), idle: idle, overloaded: c.nrRunningAll() > 1, capacity: c.capacity}
	if !idle {
		st.misfit = c.misfitLoad
	}
	return st
}

// flushGroupSums folds the marked CPUs' new shares into the sums (small
// enough to inline where nothing is marked).
func (s *sim) flushGroupSums() {
	if len(s.gs.pending) > 0 {
		s.foldGroupSums()
	}
}

// foldGroupSums is flushGroupSums when CPUs are marked.
func (s *sim) foldGroupSums() {
	g := &s.gs
	for _, cpu := range g.pending {
		g.dirty[cpu] = false
		c := &s.cpus[cpu]
		now := s.lbStatsOf(c)
		old := &g.share[cpu]
		if sameLbStats(&now, old) {
			continue
		}
		// The differences in locals: a groupLbSums literal zeroed the
		// whole entry, kept statistics included, at every fold.
		dLoad, dUtil, dRunnable := now.load-old.load, now.util-old.util, now.runnable-old.runnable
		dNr, dHnr := now.nr-old.nr, now.hnr-old.hnr
		dIdle, dOverloaded := b2i(now.idle)-b2i(old.idle), b2i(now.overloaded)-b2i(old.overloaded)
		for _, id := range g.of[cpu] {
			gs := &g.sums[id]
			g.kept[id].key = 0
			gs.load += dLoad
			gs.util += dUtil
			gs.runnable += dRunnable
			gs.nr += dNr
			gs.hnr += dHnr
			gs.idle += dIdle
			gs.overloaded += dOverloaded
			if now.misfit >= gs.misfitMax {
				gs.misfitMax = now.misfit
			} else if old.misfit == gs.misfitMax {
				gs.misfitStale = true
			}
		}
		*old = now
	}
	g.pending = g.pending[:0]
}

// sameLbStats is *a == *b, field by field (the compiler's comparison of
// the struct is a call).
func sameLbStats(a, b *cpuLbStats) bool {
	return a.load == b.load && a.util == b.util && a.runnable == b.runnable && a.nr == b.nr &&
		a.hnr == b.hnr && a.idle == b.idle && a.overloaded == b.overloaded && a.misfit == b.misfit && a.capacity == b.capacity
}

// b2i is 1 for true.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sgLbStatsFromSums is update_sg_lb_stats()'s walk of the group's span,
// read from the group's sums: the same sg_lb_stats fields (before the
// flags and the classification) and the same env->overloaded. The sums
// must be flushed.
func (s *sim) sgLbStatsFromSums(env *lbEnv, g *topo.Group, local bool, sgs *sgStats) {
	gs := &s.gs.sums[g.ID]
	// Field by field, every field: a composite literal is built on the
	// stack and copied in 16-byte moves that cannot be forwarded from its
	// 8-byte stores.
	sgs.avgLoad, sgs.groupType, sgs.asymPacking, sgs.smtBalance, sgs.misfitTaskLoad = 0, groupHasSpare, false, false, 0
	sgs.groupCapacity, sgs.minCap, sgs.maxCap = s.groupCap(g) // the group's sgc
	sgs.groupWeight = g.Weight
	sgs.groupLoad, sgs.groupUtil, sgs.groupRunnable = gs.load, gs.util, gs.runnable
	sgs.sumNrRunning, sgs.sumHNrRunning, sgs.idleCPUs = gs.nr, gs.hnr, gs.idle
	if gs.overloaded > 0 {
		env.overloaded = true
	}
	if local {
		return
	}
	if env.sd.Flags&topo.SDAsymCPUCapacity == 0 {
		if env.idle != cpuNotIdle && s.nrCapReduced > 0 {
			sgs.misfitTaskLoad = s.reducedCapacityMisfit(env, g)
		}
		return
	}
	if gs.misfitStale {
		s.refreshMisfitMax(gs, g)
	}
	if gs.misfitMax > 0 {
		env.overloaded = true
		if s.misfitCountsFor(env, sgs.maxCap) {
			sgs.misfitTaskLoad = gs.misfitMax
		}
	}
}

// keptKey is what a non-local group's sg_lb_stats read of the pass
// besides the group's span, its sums and its SD_SHARE_CPUCAPACITY (the
// low 32 bits): imbalance_pct, whether the CPU is idle
// (smt_balance()), SD_ASYM_CPUCAPACITY (the misfit load) and, under
// ASYM_CAPACITY_SMT_LB, the destination's capacity (misfitCountsFor). In the
// verify mode it has keptVerify, which no kept key has, so that every
// group is computed.
func (s *sim) keptKey(env *lbEnv) uint64 {
	k := keptSome | uint64(env.sd.ImbalancePct)<<34 | uint64(b2i(env.idle != cpuNotIdle))<<33 |
		uint64(b2i(env.sd.Flags&topo.SDAsymCPUCapacity != 0))<<32
	if s.asymCapSMTLB && env.sd.Flags&topo.SDAsymCPUCapacity != 0 {
		k |= uint64(s.cpus[env.dst].capacity) << 42 // capacity_of() ≤ 1024: bits 42–52
	}
	if s.gs.verify {
		k |= keptVerify
	}
	return k
}

// keptVerify marks a verify-mode keptKey.
const keptVerify = 1 << 63

// keptSome is in every keptKey, so that no key is 0 (nothing kept).
const keptSome = 1 << 62

// keptOverloaded is in a kept key when the group set env->overloaded.
const keptOverloaded = 1 << 61

// keepSgLbStats is update_sg_lb_stats() of non-local group g (env->cpus
// whole) when the statistics kept for g's span are not for its sums now
// or for key (keptKey with g's SD_SHARE_CPUCAPACITY in the low 32 bits):
// it computes and keeps them. A group with an asym_prefer_cpu is not kept (sched_group_asym() reads
// env->dst_cpu). The verify mode computes every group and checks one it
// would have kept against it.
func (s *sim) keepSgLbStats(env *lbEnv, g *topo.Group, key uint64) *sgStats {
	k := &s.gs.kept[g.ID]
	key &^= keptVerify
	hit := k.key&^keptOverloaded == key
	var old keptSgLbStats
	if hit {
		old = *k
	}
	was := env.overloaded
	env.overloaded = false
	s.sgLbStatsSum(env, g, false, &k.sgs)
	s.sgLbStatsClassify(env, g, false, &k.sgs)
	if hit && (old.sgs != k.sgs || old.key&keptOverloaded != 0 != env.overloaded) {
		panic(fmt.Sprintf("sim: kept statistics of %s at t=%d: %+v (overloaded %v), computed %+v (overloaded %v)", g.Span, s.now, old.sgs, old.key&keptOverloaded != 0, k.sgs, env.overloaded))
	}
	k.key = key
	if env.overloaded {
		k.key |= keptOverloaded
	}
	if g.AsymPreferCPU >= 0 {
		k.key = 0
	}
	env.overloaded = env.overloaded || was
	return &k.sgs
}

// refreshMisfitMax finds the group's largest misfit share again.
func (s *sim) refreshMisfitMax(gs *groupLbSums, g *topo.Group) {
	gs.misfitMax, gs.misfitStale = 0, false
	for ci := g.Span.First(); ci.Valid(); ci = g.Span.Next(ci) {
		gs.misfitMax = max(gs.misfitMax, s.gs.share[ci].misfit)
	}
}

// verifySgLbStats panics when the sums gave other statistics than a walk
// of the span (tests set groupSums.verify).
// overloaded is env->overloaded before the group.
func (s *sim) verifySgLbStats(env *lbEnv, g *topo.Group, local bool, sgs *sgStats, overloaded bool) {
	var walk sgStats
	e := *env
	e.overloaded = overloaded
	s.sgLbStatsWalk(&e, g, local, &walk)
	if walk != *sgs || e.overloaded != env.overloaded {
		panic(fmt.Sprintf("sim: group sums of %s at t=%d: %+v, a walk gives %+v", g.Span, s.now, *sgs, walk))
	}
}

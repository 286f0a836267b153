package sim

import (
	"fmt"

	"schedplay/engine/topo"
)

// Load-balancing statistics and the busiest-group decision
// (update_sd_lb_stats() … calculate_imbalance(), kernel-model.md §4.5–4.6).

// groupType is enum group_type, ordered by balancing urgency.
type groupType uint8

const (
	groupHasSpare groupType = iota
	groupFullyBusy
	groupMisfitTask
	groupSMTBalance
	groupAsymPacking
	groupImbalanced
	groupOverloaded
)

var groupTypeNames = [...]string{"has_spare", "fully_busy", "misfit_task", "smt_balance", "asym_packing", "imbalanced", "overloaded"}

// migrationType is enum migration_type.
type migrationType uint8

const (
	migrateLoad migrationType = iota
	migrateUtil
	migrateTask
	migrateMisfit
)

// cpuIdleType is enum cpu_idle_type.
type cpuIdleType uint8

const (
	cpuNotIdle cpuIdleType = iota
	cpuIdle
	cpuNewlyIdle
)

// sgStats is struct sg_lb_stats. The fields a newidle pass reads of
// most groups (the totals, sum_h_nr_running and smtBalanceTie's) come
// first: with keptSgLbStats's key they fill one cache line.
type sgStats struct {
	avgLoad, groupLoad       int64
	groupCapacity, groupUtil int64
	sumHNrRunning, idleCPUs  int
	groupType                groupType
	asymPacking, smtBalance  bool
	groupRunnable            int64
	sumNrRunning             int
	groupWeight              int
	misfitTaskLoad           int64
	minCap, maxCap           int
}

// lbEnv is struct lb_env plus struct sd_lb_stats.
type lbEnv struct {
	sd    *topo.Domain
	sdIdx int
	// this is this_cpu, whose domain sd is, and on the CPU the pass runs
	// on; dst is env->dst_cpu: this, or a new_dst_cpu of its group.
	this, on, dst int
	// LBF_SOME_PINNED, LBF_DST_PINNED and new_dst_cpu, which a redo keeps
	// (reset clears them, redo leaves them).
	somePinned, dstPinned bool
	newDst                int
	idle                  cpuIdleType
	cause                 int
	imbalance             int64
	migType               migrationType
	// sd_lb_stats
	busiest, local         *topo.Group
	busiestStat, localStat sgStats
	totalLoad, totalCap    int64
	avgLoad                int64
	preferSibling          bool
	overloaded             bool
	sumUtil                int64
	excluded               topo.CPUSet // CPUs cleared from env->cpus after all-pinned (zero: none)
}

// reset starts lb_env and sd_lb_stats for one pass of sched_balance_rq()
// by dst, run on dst (init_sd_lb_stats()), every field written.
// sched_balance_rq() keeps its lbEnv on the stack, where this inlines into
// plain stores: zeroing or storing pointers into a heap struct ran the
// collector's write barrier whenever a collection was marking (wasm: 4-8%
// of Vera + sgemm-nvpl's samples; a wasm run seldom lets a collection
// finish).
func (env *lbEnv) reset(sd *topo.Domain, sdIdx, dst int, idle cpuIdleType, cause int, excluded topo.CPUSet, mt migrationType) {
	env.sd, env.sdIdx, env.this, env.on, env.dst, env.idle, env.cause = sd, sdIdx, dst, dst, dst, idle, cause
	env.somePinned, env.dstPinned, env.newDst = false, false, noCPU
	env.excluded, env.migType = excluded, mt
	env.redo()
}

// redo is the redo label of sched_balance_rq(): sd_lb_stats starts again,
// over env->cpus less env.excluded; env->dst_cpu, env->migration_type and
// the flags stay.
func (env *lbEnv) redo() {
	env.imbalance = 0
	env.busiest, env.local = nil, &env.sd.Groups[0]
	env.busiestStat, env.localStat = sgStats{}, sgStats{}
	env.totalLoad, env.totalCap, env.avgLoad, env.sumUtil = 0, 0, 0, 0
	env.preferSibling, env.overloaded = false, false
}

// capacityGreater is capacity_greater(): a more than ~5% above b.
func capacityGreater(a, b int) bool { return a*1024 > b*1078 }

// schedUseAsymPrio is sched_use_asym_prio().
func (s *sim) schedUseAsymPrio(sd *topo.Domain, cpu int) bool {
	if sd.Flags&topo.SDAsymPacking == 0 {
		return false
	}
	if !s.smtActive {
		return true
	}
	return sd.Flags&topo.SDShareCPUCapacity != 0 || s.isCoreIdle(cpu)
}

// schedAsym is sched_asym(sd, dst, src).
func (s *sim) schedAsym(sd *topo.Domain, dst, src int) bool {
	return s.schedUseAsymPrio(sd, dst) && s.asymPrefer(dst, src)
}

// schedAsymSrc is the source side of asym packing in
// sched_balance_find_src_rq() and nohz_balancer_kick(): whether cpu i
// outranks cpu for sd. 6.12 asks sched_asym(sd, i, cpu), so between cores
// an SMT CPU outranks only from an idle core; 6.1 (LB_ASYM_USE_PRIO off)
// asks sched_asym_prefer(i, cpu) alone.
func (s *sim) schedAsymSrc(sd *topo.Domain, i, cpu int) bool {
	if !s.lbAsymUsePrio {
		return s.asymPrefer61(sd, i, cpu)
	}
	return s.schedAsym(sd, i, cpu)
}

// asymPrefer61 is 6.1's asym-packing test of a over b in sd (find_busiest_queue(),
// asym_active_balance(), nohz_balancer_kick()): SD_ASYM_PACKING and
// sched_asym_prefer(a, b), whether or not a's core is idle.
func (s *sim) asymPrefer61(sd *topo.Domain, a, b int) bool {
	return sd.Flags&topo.SDAsymPacking != 0 && s.asymPrefer(a, b)
}

// idleCPU is idle_cpu(): nothing running, nothing queued, no wake pending.
func (s *sim) idleCPU(cpu int) bool { return s.availableIdle(cpu) }

// updateSgLbStats is update_sg_lb_stats(): the span's sums from the
// group sums (group_sums.go), or from a walk of the span when an
// all-pinned pass left CPUs out of env->cpus; then the group's flags and
// type.
func (s *sim) updateSgLbStats(env *lbEnv, g *topo.Group, local bool, sgs *sgStats) {
	s.sgLbStatsSum(env, g, local, sgs)
	// idle_cpu(dst) is false: rq->curr is still __schedule()'s prev. Only
	// dst's own pass can run inside that window, and of what it reads only
	// its local group's idle count holds dst, so the count is mended here
	// rather than in idleCPU(), whose every change would refold the sums.
	if local && env.idle == cpuNewlyIdle && s.cpus[env.dst].schedPrev && s.idleCPU(env.dst) {
		sgs.idleCPUs--
	}
	s.sgLbStatsClassify(env, g, local, sgs)
}

// sgLbStatsSum is the span loop of update_sg_lb_stats(): from the group
// sums, or a walk of the span when env->cpus leaves CPUs out.
func (s *sim) sgLbStatsSum(env *lbEnv, g *topo.Group, local bool, sgs *sgStats) {
	if env.excluded.Size() != 0 {
		s.sgLbStatsWalk(env, g, local, sgs)
		return
	}
	overloaded := env.overloaded
	s.sgLbStatsFromSums(env, g, local, sgs)
	if s.gs.verify {
		s.verifySgLbStats(env, g, local, sgs, overloaded)
	}
}

// sgLbStatsClassify is the end of update_sg_lb_stats(), once the span is
// summed: the group's flags (sched_group_asym(), smt_balance()) and
// group_classify().
func (s *sim) sgLbStatsClassify(env *lbEnv, g *topo.Group, local bool, sgs *sgStats) {
	if !local && env.idle != cpuNotIdle {
		// sched_group_asym(): asym_prefer_cpu is set only with SD_ASYM_PACKING
		if sgs.sumHNrRunning > 0 && g.AsymPreferCPU >= 0 && s.schedGroupAsym(env, sgs, g) {
			sgs.asymPacking = true
		}
		if s.lbSMTBalance && g.Flags&topo.SDShareCPUCapacity != 0 && sgs.sumHNrRunning > 1 {
			sgs.smtBalance = true // smt_balance() (6.6; LB_SMT_BALANCE)
		}
	}
	sgs.groupType = groupClassify(env.sd.ImbalancePct, sgs, s.sgImbalanced(g))
	if sgs.groupType == groupOverloaded {
		sgs.avgLoad = sgs.groupLoad * capScale / max(sgs.groupCapacity, 1)
	}
}

// sgLbStatsWalk is the for_each_cpu_and(i, sched_group_span(group),
// env->cpus) loop of update_sg_lb_stats().
func (s *sim) sgLbStatsWalk(env *lbEnv, g *topo.Group, local bool, sgs *sgStats) {
	*sgs = sgStats{}
	asymCap := env.sd.Flags&topo.SDAsymCPUCapacity != 0
	for ci := g.Span.First(); ci.Valid(); ci = g.Span.Next(ci) {
		i := int(ci)
		c := &s.cpus[i]
		// group_weight is the group's; the rest sums over the span ∩
		// env->cpus
		sgs.groupWeight++
		if env.excluded.Has(ci) {
			continue
		}
		sgs.groupLoad += cpuLoad(c)
		u := int64(s.cpuUtilCfs(c))
		sgs.groupUtil += u
		sgs.groupRunnable += int64(c.avg.runnableAvg)
		sgs.sumHNrRunning += s.lbNrRunning(c)
		sgs.sumNrRunning += c.nrRunningAll() // rq->nr_running: the kworker counts
		if c.nrRunningAll() > 1 {
			env.overloaded = true
		}
		if s.idleCPU(i) {
			sgs.idleCPUs++
			continue
		}
		if local {
			continue
		}
		if asymCap {
			if sgs.misfitTaskLoad < c.misfitLoad {
				sgs.misfitTaskLoad = c.misfitLoad
				env.overloaded = true
			}
		} else if env.idle != cpuNotIdle && s.schedReducedCapacity(c, env.sd) {
			// a task running on a CPU of reduced capacity
			sgs.misfitTaskLoad = max(sgs.misfitTaskLoad, cpuLoad(c))
		}
	}
	// group_capacity and the min/max capacity are the group's (sgc)
	sgs.groupCapacity, sgs.minCap, sgs.maxCap = s.groupCap(g)
	if asymCap && sgs.misfitTaskLoad > 0 && !s.misfitCountsFor(env, sgs.maxCap) {
		sgs.misfitTaskLoad = 0 // env->overloaded stays set
	}
}

// misfitCountsFor is Neri's gate (ASYM_CAPACITY_SMT_LB) on a group's
// misfit load in update_sg_lb_stats(): it counts only when the
// destination's capacity is greater than the group's largest
// (capacity_greater(capacity_of(dst), sgc->max_capacity)); 6.12 counts it
// always.
func (s *sim) misfitCountsFor(env *lbEnv, groupMaxCap int) bool {
	return !s.asymCapSMTLB || capacityGreater(s.capacityOf(env.dst), groupMaxCap)
}

// schedGroupAsym is sched_group_asym(), or under 6.1 (LB_ASYM_USE_PRIO
// off) its sched_asym(env, sds, sgs, group).
func (s *sim) schedGroupAsym(env *lbEnv, sgs *sgStats, g *topo.Group) bool {
	if g.AsymPreferCPU < 0 {
		return false
	}
	if !s.lbAsymUsePrio {
		return s.schedAsym61(env, sgs, g)
	}
	if g.Flags&topo.SDShareCPUCapacity != 0 && sgs.groupWeight-sgs.idleCPUs != 1 {
		return false
	}
	return s.schedAsym(env.sd, env.dst, int(g.AsymPreferCPU))
}

// schedAsym61 is 6.1's sched_asym(env, sds, sgs, group): the SMT rules of
// asym_smt_can_pull_tasks() when the local group or g is an SMT core,
// else sched_asym_prefer(dst, g's asym_prefer_cpu), whether or not dst's
// core is idle.
func (s *sim) schedAsym61(env *lbEnv, sgs *sgStats, g *topo.Group) bool {
	if env.local.Flags&topo.SDShareCPUCapacity != 0 || g.Flags&topo.SDShareCPUCapacity != 0 {
		return s.asymSMTCanPullTasks(env, sgs, g)
	}
	return s.asymPrefer(env.dst, int(g.AsymPreferCPU))
}

// asymSMTCanPullTasks is asym_smt_can_pull_tasks() (5.16-6.4): without SMT
// siblings dst pulls from a group with two or more busy CPUs, else by
// priority; an SMT dst pulls from an SMT group with exactly one busy CPU
// more than its own core, by priority, and from a non-SMT group only while
// its core runs nothing, by priority.
func (s *sim) asymSMTCanPullTasks(env *lbEnv, sgs *sgStats, g *topo.Group) bool {
	prefer := s.asymPrefer(env.dst, int(g.AsymPreferCPU))
	sgBusy := sgs.groupWeight - sgs.idleCPUs
	if env.local.Flags&topo.SDShareCPUCapacity == 0 {
		return sgBusy >= 2 || prefer
	}
	if g.Flags&topo.SDShareCPUCapacity != 0 {
		l := &env.localStat
		return sgBusy-(l.groupWeight-l.idleCPUs) == 1 && prefer
	}
	return env.localStat.sumNrRunning == 0 && prefer
}

// groupIsOverloaded is group_is_overloaded().
func groupIsOverloaded(pct int, sgs *sgStats) bool {
	if sgs.sumNrRunning <= sgs.groupWeight {
		return false
	}
	if sgs.groupCapacity*100 < sgs.groupUtil*int64(pct) {
		return true
	}
	return sgs.groupCapacity*int64(pct) < sgs.groupRunnable*100
}

// groupHasCapacity is group_has_capacity().
func groupHasCapacity(pct int, sgs *sgStats) bool {
	if sgs.sumNrRunning < sgs.groupWeight {
		return true
	}
	if sgs.groupCapacity*int64(pct) < sgs.groupRunnable*100 {
		return false
	}
	return sgs.groupCapacity*100 > sgs.groupUtil*int64(pct)
}

// groupClassify is group_classify(); imbalanced is sg_imbalanced().
func groupClassify(pct int, sgs *sgStats, imbalanced bool) groupType {
	switch {
	case groupIsOverloaded(pct, sgs):
		return groupOverloaded
	case imbalanced:
		return groupImbalanced
	case sgs.asymPacking:
		return groupAsymPacking
	case sgs.smtBalance:
		return groupSMTBalance
	case sgs.misfitTaskLoad > 0:
		return groupMisfitTask
	case !groupHasCapacity(pct, sgs):
		return groupFullyBusy
	}
	return groupHasSpare
}

// smtVsNonsmtGroups is smt_vs_nonsmt_groups().
func smtVsNonsmtGroups(a, b *topo.Group) bool {
	if a == nil || b == nil {
		return false
	}
	return (a.Flags^b.Flags)&topo.SDShareCPUCapacity != 0
}

// updateSdPickBusiest is update_sd_pick_busiest().
func (s *sim) updateSdPickBusiest(env *lbEnv, g *topo.Group, sgs *sgStats) bool {
	busiest := &env.busiestStat
	if sgs.sumHNrRunning == 0 {
		return false
	}
	asymCap := env.sd.Flags&topo.SDAsymCPUCapacity != 0
	if asymCap && sgs.groupType == groupMisfitTask &&
		(s.smtActive && !s.isCoreIdle(env.dst) || !capacityGreater(s.capacityOf(env.dst), sgs.maxCap) || env.localStat.groupType != groupHasSpare) {
		return false
	}
	if asymCap && sgs.groupType <= groupFullyBusy && capacityGreater(sgs.minCap, s.capacityOf(env.dst)) {
		return false
	}
	if env.busiest == nil {
		return true
	}
	if sgs.groupType > busiest.groupType {
		return true
	}
	if sgs.groupType < busiest.groupType {
		return false
	}
	switch sgs.groupType {
	case groupOverloaded:
		return sgs.avgLoad > busiest.avgLoad
	case groupImbalanced:
		return false
	case groupAsymPacking:
		if !s.busiestTieKeepsFirst { // 6.1: the later group wins a tie
			return !s.asymPrefer(int(g.AsymPreferCPU), int(env.busiest.AsymPreferCPU))
		}
		return s.asymPrefer(int(env.busiest.AsymPreferCPU), int(g.AsymPreferCPU))
	case groupMisfitTask:
		if !s.busiestTieKeepsFirst {
			return sgs.misfitTaskLoad >= busiest.misfitTaskLoad // 6.1 misfit tie
		}
		return sgs.misfitTaskLoad > busiest.misfitTaskLoad
	case groupSMTBalance:
		if sgs.idleCPUs != 0 || busiest.idleCPUs != 0 {
			return hasSpareBusier(sgs, busiest)
		}
		fallthrough
	case groupFullyBusy:
		if !s.lbSMTBalance { // 6.1: "avg_load <= busiest->avg_load" keeps the busiest
			return sgs.avgLoad > busiest.avgLoad // 6.1 fully_busy
		}
		if sgs.avgLoad < busiest.avgLoad {
			return false
		}
		if sgs.avgLoad == busiest.avgLoad && env.busiest.Flags&topo.SDShareCPUCapacity != 0 {
			return false
		}
		return true
	case groupHasSpare:
		if s.lbSMTBalance && smtVsNonsmtGroups(env.busiest, g) {
			return !(g.Flags&topo.SDShareCPUCapacity != 0 && sgs.sumHNrRunning <= 1)
		}
		return hasSpareBusier(sgs, busiest)
	}
	return true
}

// smtBalanceTie is update_sd_pick_busiest()'s answer, false, for the
// commonest pair of a busy machine's passes, inlined into the group loop:
// sgs and the busiest group both smt_balance without an idle CPU fall
// through to the group_fully_busy rule, where an equal avg_load (0: only
// an overloaded group's is computed) keeps a busiest SMT group. The
// checks before the switch cannot answer true once a busiest group
// exists, and sum_h_nr_running > 1 holds for an smt_balance group.
func smtBalanceTie(env *lbEnv, sgs *sgStats) bool {
	b := &env.busiestStat
	return sgs.groupType == groupSMTBalance && b.groupType == groupSMTBalance &&
		sgs.idleCPUs == 0 && b.idleCPUs == 0 && sgs.avgLoad == b.avgLoad &&
		env.busiest.Flags&topo.SDShareCPUCapacity != 0
}

// hasSpareBusier is the has_spare tie rule of update_sd_pick_busiest().
func hasSpareBusier(sgs, busiest *sgStats) bool {
	if sgs.idleCPUs > busiest.idleCPUs {
		return false
	}
	if sgs.idleCPUs == busiest.idleCPUs && sgs.sumNrRunning <= busiest.sumNrRunning {
		return false
	}
	return true
}

// pickBusiest is update_sd_lb_stats()'s "if (update_sd_pick_busiest())"
// for non-local group g, with smtBalanceTie's answer first.
func (s *sim) pickBusiest(env *lbEnv, g *topo.Group, st *sgStats) {
	if env.busiest != nil && smtBalanceTie(env, st) {
		if s.gs.verify && s.updateSdPickBusiest(env, g, st) {
			panic(fmt.Sprintf("sim: smtBalanceTie kept busiest %s at t=%d, update_sd_pick_busiest() picks %s", env.busiest.Span, s.now, g.Span))
		}
		return
	}
	if s.updateSdPickBusiest(env, g, st) {
		env.busiest = g
		env.busiestStat = *st
	}
}

// sdLbStatsKept is update_sd_lb_stats()'s loop over the non-local groups,
// untraced with env->cpus whole: it returns their load, capacity and
// util sums. Below the root, where the domain's groups split its span
// (domainSpanSums), the sums are the span's less the local group's
// (sdNonLocalSums), env->overloaded is not read (set_rd_overloaded() is
// the root's), and the loop only picks the busiest group
// (sdPickBusiestKept), stopping at one no later group can replace
// (smtBusiestFinal). The verify mode runs the whole loop (sdLbStatsAllKept)
// on a copy of env and panics if it picks another group or other sums.
func (s *sim) sdLbStatsKept(env *lbEnv) (load, capacity, util int64) {
	st := &s.cpus[env.dst].sd[env.sdIdx]
	if st.spanSums < 0 {
		return s.sdLbStatsAllKept(env)
	}
	var whole lbEnv
	if s.gs.verify {
		whole = *env
	}
	if s.sdPickBusiestKept(env, st.smtFinal && s.smtBusiestCanBeFinal(env, st)) && s.gs.verify {
		s.gs.finalStops++
	}
	load, capacity, util = s.sdNonLocalSums(env)
	if s.gs.verify {
		l, c, u := s.sdLbStatsAllKept(&whole)
		if whole.busiest != env.busiest || whole.busiestStat != env.busiestStat || l != load || c != capacity || u != util {
			panic(fmt.Sprintf("sim: update_sd_lb_stats() of %s at t=%d: busiest %v, sums %d %d %d; the whole loop picks %v, sums %d %d %d",
				env.sd.Span, s.now, env.busiest, load, capacity, util, whole.busiest, l, c, u))
		}
	}
	return load, capacity, util
}

// sdLbStatsAllKept is sdLbStatsKept's loop over every non-local group.
// env->overloaded is kept in a local across the groups read from their
// kept statistics (update_sd_pick_busiest() does not read it), and a
// group whose statistics are not kept is computed (keepSgLbStats).
func (s *sim) sdLbStatsAllKept(env *lbEnv) (load, capacity, util int64) {
	groups := env.sd.Groups
	kept := s.gs.kept
	key := s.keptKey(env)
	ov, verify := env.overloaded, s.gs.verify
	for gi := 1; gi < len(groups); gi++ {
		g := &groups[gi]
		kp := &kept[g.ID]
		st := &kp.sgs
		if kk, k := kp.key, key|uint64(g.Flags&topo.SDShareCPUCapacity); kk&^keptOverloaded == k {
			ov = ov || kk&keptOverloaded != 0
		} else {
			env.overloaded = ov
			st = s.keepSgLbStats(env, g, k)
			ov = env.overloaded
		}
		load += st.groupLoad
		capacity += st.groupCapacity
		util += st.groupUtil
		if st.sumHNrRunning == 0 {
			continue
		}
		if env.busiest != nil && smtBalanceTie(env, st) {
			if verify {
				s.pickBusiest(env, g, st)
			}
			continue
		}
		s.pickBusiest(env, g, st)
	}
	env.overloaded = ov
	return load, capacity, util
}

// sdPickBusiestKept is the update_sd_pick_busiest() part of
// sdLbStatsKept's loop; with final it stops at a final busiest group
// (smtBusiestFinal) and says so.
func (s *sim) sdPickBusiestKept(env *lbEnv, final bool) bool {
	groups := env.sd.Groups
	kept := s.gs.kept
	key := s.keptKey(env)
	for gi := 1; gi < len(groups); gi++ {
		g := &groups[gi]
		st := &kept[g.ID].sgs
		if k := key | uint64(g.Flags&topo.SDShareCPUCapacity); kept[g.ID].key&^keptOverloaded != k {
			st = s.keepSgLbStats(env, g, k)
		}
		if st.sumHNrRunning == 0 || env.busiest != nil && smtBalanceTie(env, st) {
			continue
		}
		s.pickBusiest(env, g, st)
		if final && smtBusiestFinal(env) {
			return true
		}
	}
	return false
}

// smtBusiestCanBeFinal says that in env's pass no non-local group can be
// group_overloaded or group_asym_packing, so that an smt_balance busiest
// group without idle CPUs is final (smtBusiestFinal): none has an
// asym_prefer_cpu (sched_group_asym(); st.smtFinal: span sums and no
// SD_ASYM_PACKING, which alone gives groups one), and
// no CPU outside the local group runs more than one task
// (group_is_overloaded() needs sum_nr_running above group_weight).
func (s *sim) smtBusiestCanBeFinal(env *lbEnv, st *sdState) bool {
	sums := s.gs.sums
	return sums[st.spanSums].overloaded == sums[env.local.ID].overloaded
}

// smtBusiestFinal says update_sd_pick_busiest() picks no later group over
// env's busiest one, an smt_balance group without idle CPUs, when none
// can be group_overloaded, group_asym_packing (smtBusiestCanBeFinal) or
// group_imbalanced (no sgc->imbalance is set while the kept statistics are
// read): a group of a lower type is not picked,
// and an smt_balance group either has idle CPUs (has_spare's rule: more
// idle CPUs than the busiest's none) or ties on avg_load (smtBalanceTie).
func smtBusiestFinal(env *lbEnv) bool {
	b := &env.busiestStat
	return b.groupType == groupSMTBalance && b.idleCPUs == 0 && b.avgLoad == 0 &&
		env.busiest.Flags&topo.SDShareCPUCapacity != 0
}

// sdNonLocalSums is the load, capacity and util of env's non-local groups
// from the domain's span sums less the local group's (the groups split
// the span; the parent's local group is the span, its capacity theirs).
func (s *sim) sdNonLocalSums(env *lbEnv) (load, capacity, util int64) {
	sp := &s.gs.sums[s.cpus[env.dst].sd[env.sdIdx].spanSums]
	l := &env.localStat
	capacity = int64(env.sd.Parent.Groups[0].Capacity) - l.groupCapacity
	if s.sgcCapDiffer > 0 { // each group's sgc as last updated
		capacity = 0
		for gi := 1; gi < len(env.sd.Groups); gi++ {
			c, _, _ := s.groupCap(&env.sd.Groups[gi])
			capacity += c
		}
	}
	return sp.load - l.groupLoad, capacity, sp.util - l.groupUtil
}

// updateSdLbStats is update_sd_lb_stats(): local group first, then the rest.
func (s *sim) updateSdLbStats(env *lbEnv) {
	s.flushGroupSums()
	if s.tracing {
		s.lbGroups = s.lbGroups[:0]
	}
	groups := env.sd.Groups // env->local is groups[0] (lbEnv.reset)
	s.updateSgLbStats(env, env.local, true, &env.localStat)
	totalLoad, totalCap, sumUtil := env.localStat.groupLoad, env.localStat.groupCapacity, env.localStat.groupUtil
	// Untraced, with env->cpus whole, a non-local group's statistics are
	// kept for its span (groupSums.kept) and read again while its sums
	// have not changed (the fold clears the key) and the pass reads them
	// the same way (key):
	// in a fully loaded machine's newidle passes over 88 core groups,
	// most cores have not changed since the last pass. Else they are
	// computed (keepSgLbStats; sdLbStatsKept). Traced, every group is
	// computed and recorded.
	if env.excluded.Size() == 0 && !s.tracing && s.sgcImbalanced == 0 {
		l, c, u := s.sdLbStatsKept(env)
		totalLoad, totalCap, sumUtil = totalLoad+l, totalCap+c, sumUtil+u
	} else {
		var sgs sgStats
		for gi := 1; gi < len(groups); gi++ {
			g := &groups[gi]
			s.sgLbStatsSum(env, g, false, &sgs)
			totalLoad += sgs.groupLoad
			totalCap += sgs.groupCapacity
			sumUtil += sgs.groupUtil
			if sgs.sumHNrRunning == 0 && !s.tracing {
				continue
			}
			s.sgLbStatsClassify(env, g, false, &sgs)
			if s.tracing {
				s.lbRecordGroup(g, &sgs)
			}
			s.pickBusiest(env, g, &sgs)
		}
	}
	env.totalLoad, env.totalCap, env.sumUtil = totalLoad, totalCap, sumUtil
	env.preferSibling = s.preferSibling(env)
	if env.idle != cpuNewlyIdle && env.sd != nil && env.sd == s.sharedDom[env.dst] {
		s.updateIdleCPUScan(env) // the domain holds dst's sched_domain_shared
	}
}

// preferSibling is sds->prefer_sibling at the end of update_sd_lb_stats():
// the busiest group's SD_PREFER_SIBLING (6.6, which a group takes from its
// child domain when the domains are attached), or under 6.1
// (LB_SIBLING_IMBALANCE off) the balanced domain's child's ("child &&
// child->flags & SD_PREFER_SIBLING"), whatever group is busiest.
func (s *sim) preferSibling(env *lbEnv) bool {
	if !s.lbSiblingImbalance {
		return env.sd.Child != nil && env.sd.Child.Flags&topo.SDPreferSibling != 0
	}
	return env.busiest != nil && env.busiest.Flags&topo.SDPreferSibling != 0
}

// updateIdleCPUScan is update_idle_cpu_scan(): the SIS_UTIL scan budget.
func (s *sim) updateIdleCPUScan(env *lbEnv) {
	w := int64(env.sd.Span.Weight())
	x := env.sumUtil / max(w, 1)
	pct := int64(env.sd.ImbalancePct)
	y := x * x * pct * pct / (10000 * capScale)
	if y > capScale {
		y = capScale
	}
	nr := w * (capScale - y) / capScale
	s.shared[env.dst].nrIdleScan = int(nr)
}

// siblingImbalance is sibling_imbalance() (6.6), or without
// LB_SIBLING_IMBALANCE 6.1's difference of the groups' sum_nr_running
// (lsub_positive()), whatever the destination and the cores.
func (s *sim) siblingImbalance(env *lbEnv) int64 {
	b, l := &env.busiestStat, &env.localStat
	if !s.lbSiblingImbalance {
		return max(int64(b.sumNrRunning-l.sumNrRunning), 0)
	}
	if env.idle == cpuNotIdle || b.sumNrRunning == 0 {
		return 0
	}
	nb, nl := int64(env.busiest.Cores), int64(env.local.Cores)
	if nb == nl {
		return max(int64(b.sumNrRunning-l.sumNrRunning), 0)
	}
	imb := max(nl*int64(b.sumNrRunning)-nb*int64(l.sumNrRunning), 0)
	imb = (2*imb + nl + nb) / (nl + nb)
	if imb <= 1 && l.sumNrRunning == 0 && b.sumNrRunning > 1 {
		imb = 2
	}
	return imb
}

// adjustNumaImbalance is adjust_numa_imbalance().
func adjustNumaImbalance(imb int64, dstRunning, imbNumaNr int) int64 {
	if dstRunning > imbNumaNr {
		return imb
	}
	if imb <= 2 {
		return 0
	}
	return imb
}

// calculateImbalance is calculate_imbalance().
func (s *sim) calculateImbalance(env *lbEnv) {
	local, busiest := &env.localStat, &env.busiestStat
	sd := env.sd
	switch busiest.groupType {
	case groupMisfitTask:
		if sd.Flags&topo.SDAsymCPUCapacity != 0 {
			env.migType, env.imbalance = migrateMisfit, 1
		} else {
			env.migType, env.imbalance = migrateLoad, busiest.misfitTaskLoad
		}
		return
	case groupAsymPacking:
		env.migType, env.imbalance = migrateTask, int64(busiest.sumHNrRunning)
		return
	case groupSMTBalance, groupImbalanced:
		env.migType, env.imbalance = migrateTask, 1
		return
	}
	if local.groupType == groupHasSpare {
		if busiest.groupType > groupFullyBusy && sd.Flags&topo.SDShareLLC == 0 {
			env.migType = migrateUtil
			env.imbalance = max(local.groupCapacity, local.groupUtil) - local.groupUtil
			if env.idle != cpuNotIdle && env.imbalance == 0 {
				env.migType, env.imbalance = migrateTask, 1
			}
			return
		}
		env.migType = migrateTask
		if busiest.groupWeight == 1 || env.preferSibling {
			env.imbalance = s.siblingImbalance(env)
		} else {
			// max_t(long, 0, local->idle_cpus - busiest->idle_cpus): the
			// unsigned int difference wraps before the cast, so it is never
			// below 0, and fewer local idle CPUs give a huge imbalance
			env.imbalance = int64(uint32(local.idleCPUs - busiest.idleCPUs))
		}
		if sd.Flags&topo.SDNUMA != 0 {
			env.imbalance = adjustNumaImbalance(env.imbalance, local.sumNrRunning+1, sd.ImbNUMANr)
		}
		env.imbalance >>= 1
		return
	}
	if local.groupType < groupOverloaded {
		local.avgLoad = local.groupLoad * capScale / max(local.groupCapacity, 1)
		if local.avgLoad >= busiest.avgLoad {
			env.imbalance = 0
			return
		}
		env.avgLoad = env.totalLoad * capScale / max(env.totalCap, 1)
		if local.avgLoad >= env.avgLoad {
			env.imbalance = 0
			return
		}
	}
	// unsigned long arithmetic: a busiest avg_load below the domain's wraps
	// the first term to a huge value and min() takes the second.
	env.migType = migrateLoad
	env.imbalance = int64(min(uint64(busiest.avgLoad-env.avgLoad)*uint64(busiest.groupCapacity),
		uint64(env.avgLoad-local.avgLoad)*uint64(local.groupCapacity)) / capScale)
}

// schedBalanceFindSrcGroup is sched_balance_find_src_group() (find_busiest_group).
// The caller has asked noSrcGroup() first.
func (s *sim) schedBalanceFindSrcGroup(env *lbEnv) *topo.Group {
	s.updateSdLbStats(env)
	return s.findSrcGroupFromStats(env)
}

// findSrcGroupFromStats is the rest of sched_balance_find_src_group(),
// after update_sd_lb_stats(): whether the busiest group found is worth a
// pull (force_balance, out_balanced), and calculate_imbalance().
func (s *sim) findSrcGroupFromStats(env *lbEnv) *topo.Group {
	if env.busiest == nil {
		return nil
	}
	busiest, local := &env.busiestStat, &env.localStat
	force := false
	switch {
	case busiest.groupType == groupMisfitTask,
		busiest.groupType == groupAsymPacking,
		busiest.groupType == groupImbalanced:
		force = true
	case local.groupType > busiest.groupType:
		return nil
	}
	if !force && local.groupType == groupOverloaded {
		if local.avgLoad >= busiest.avgLoad {
			return nil
		}
		env.avgLoad = env.totalLoad * capScale / max(env.totalCap, 1)
		if local.avgLoad >= env.avgLoad {
			return nil
		}
		if 100*busiest.avgLoad <= int64(env.sd.ImbalancePct)*local.avgLoad {
			return nil
		}
	}
	if !force && env.preferSibling && local.groupType == groupHasSpare && s.siblingImbalance(env) > 1 {
		force = true
	}
	if !force && busiest.groupType != groupOverloaded {
		if env.idle == cpuNotIdle {
			return nil
		}
		if busiest.groupType == groupSMTBalance && smtVsNonsmtGroups(env.local, env.busiest) {
			force = true
		} else {
			if busiest.groupWeight > 1 && local.idleCPUs <= busiest.idleCPUs+1 {
				return nil
			}
			if busiest.sumHNrRunning == 1 {
				return nil
			}
		}
	}
	s.calculateImbalance(env)
	if s.tracing {
		s.lbImbalance = env.imbalance // detach_tasks() decrements env.imbalance
	}
	if env.imbalance <= 0 {
		return nil
	}
	return env.busiest
}

package sim

import (
	"fmt"

	"schedplay/engine/topo"
)

// One balance pass and its helpers (kernel-model.md §4.4, §4.7, §4.8).

// Migration causes (Result.Migrations).
const (
	migWakeup = iota
	migPeriodic
	migNewidle
	migNohz
	migActive
	migMisfit
	migAsym
	migRTPush
)

var migCauseNames = [...]string{"wakeup", "periodic", "newidle", "nohz", "active", "misfit", "asym", "rt"}

// shouldWeBalance is should_we_balance() of dst's pass over sd, with
// env->cpus whole. With a one-CPU local group (an SMT domain's pass) it is
// true without the walk (shouldWeBalanceWalk), which meets dst first and
// returns true whether it is idle or busy; small enough to inline.
func (s *sim) shouldWeBalance(sd *topo.Domain, dst int, idle cpuIdleType) bool {
	if idle != cpuNewlyIdle && sd.Groups[0].Weight == 1 {
		return true
	}
	return s.shouldWeBalanceWalk(sd, dst, idle, topo.CPUSet{})
}

// shouldWeBalanceWalk is should_we_balance()'s body; excluded is the CPUs
// a redo has cleared from env->cpus (the zero set: none).
func (s *sim) shouldWeBalanceWalk(sd *topo.Domain, dst int, idle cpuIdleType, excluded topo.CPUSet) bool {
	if excluded.Has(topo.CPU(dst)) {
		return false // !cpumask_test_cpu(env->dst_cpu, env->cpus)
	}
	if idle == cpuNewlyIdle {
		d := &s.cpus[dst]
		return d.nrTasks() == 0 && d.pending == 0
	}
	mask := sd.Groups[0].BalanceMask // group_balance_mask() of the local group
	idleSMT := noCPU
	for ci := mask.First(); ci.Valid(); ci = mask.Next(ci) {
		c := int(ci)
		if excluded.Has(ci) || !s.idleCPU(c) {
			continue
		}
		if s.swbIdleCore && sd.Flags&topo.SDShareCPUCapacity == 0 && !s.isCoreIdle(c) {
			if idleSMT == noCPU {
				idleSMT = c
			}
			continue
		}
		return c == dst
	}
	if idleSMT != noCPU {
		return idleSMT == dst
	}
	return int(mask.First()) == dst // group_balance_cpu()
}

// schedBalanceFindSrcRq is sched_balance_find_src_rq() (find_busiest_queue).
func (s *sim) schedBalanceFindSrcRq(env *lbEnv, g *topo.Group) int {
	busiest := noCPU
	var busiestLoad, busiestUtil int64
	busiestCap, busiestNr := int64(1), 0
	dstCap := s.capacityOf(env.dst)
	for ci := g.Span.First(); ci.Valid(); ci = g.Span.Next(ci) {
		i := int(ci)
		c := &s.cpus[i]
		nr := s.lbNrRunning(c)
		if nr == 0 || env.excluded.Has(ci) {
			continue
		}
		if env.sd.Flags&topo.SDAsymCPUCapacity != 0 && !capacityGreater(dstCap, c.capacity) && nr == 1 &&
			!s.asymCapSimilarSource(dstCap, i) {
			continue
		}
		if nr == 1 && s.schedAsymSrc(env.sd, i, env.dst) {
			continue
		}
		switch env.migType {
		case migrateLoad:
			load := cpuLoad(c)
			if nr == 1 && load > env.imbalance && !checkCPUCapacity(c, env.sd) {
				continue
			}
			if load*busiestCap > busiestLoad*int64(c.capacity) {
				busiestLoad, busiestCap, busiest = load, int64(c.capacity), i
			}
		case migrateUtil:
			u := s.findSrcRqUtil(c)
			if nr <= 1 {
				continue
			}
			if busiestUtil < u {
				busiestUtil, busiest = u, i
			}
		case migrateTask:
			if busiestNr < nr {
				busiestNr, busiest = nr, i
			}
		case migrateMisfit:
			if c.misfitLoad > busiestLoad {
				busiestLoad, busiest = c.misfitLoad, i
			}
		}
	}
	return busiest
}

// asymCapSimilarSource is the exemption Neri's series (ASYM_CAPACITY_SMT_LB)
// adds to sched_balance_find_src_rq()'s asym-capacity skip of a CPU
// running one task of a capacity not smaller than dst's: keep it when its
// SMT sibling is busy (smt_degraded_cap: it runs below its capacity) or,
// with clusters, when its capacity equals dst's (cluster_equal_cap).
func (s *sim) asymCapSimilarSource(dstCap, src int) bool {
	if !s.asymCapSMTLB {
		return false
	}
	smtDegradedCap := s.smtActive && !s.isCoreIdle(src)
	clusterEqualCap := s.t.ClusterActive && dstCap == s.cpus[src].capacity // capacity_of() both
	return smtDegradedCap || clusterEqualCap
}

// taskHot is task_hot(): on a non-SMT level, a buddy of its runqueue when
// dst is busy (CACHE_HOT_BUDDY: CFS's next and last buddies; EEVDF keeps
// no buddy without NEXT_BUDDY), or ran within migration_cost. A task that
// migrated since it last ran is cold: its exec_start is 0. A SCHED_IDLE
// task is never hot.
func (s *sim) taskHot(p *task, env *lbEnv) bool {
	if p.idlePolicy || env.sd.Flags&topo.SDShareCPUCapacity != 0 {
		return false
	}
	if src := &s.cpus[p.cpu]; s.cpus[env.dst].nrRunningAll() > 0 && (p == src.nextBuddy || p == src.lastBuddy) { // env->dst_rq->nr_running
		return true
	}
	if s.migCost == 0 || p.execStart == execStartCold {
		return false
	}
	return s.now-p.execStart < s.migCost
}

// canMigrateTask is can_migrate_task() for a queued task. Since 6.14
// (H_NR_RUNNABLE) a delayed task moves only when load is migrated. A task
// that may not run on dst sets LBF_SOME_PINNED and, outside newidle, the
// first CPU of dst's group it may run on becomes new_dst_cpu
// (LBF_DST_PINNED).
func (s *sim) canMigrateTask(p *task, env *lbEnv, pinned *bool) bool {
	if p.delayed && s.hNrRunnable && env.migType != migrateLoad {
		return false
	}
	if !p.allowed.Has(topo.CPU(env.dst)) {
		env.somePinned = true
		if env.idle != cpuNewlyIdle && !env.dstPinned {
			env.newDst = s.newDstCPU(p, env)
			env.dstPinned = env.newDst != noCPU
		}
		return false
	}
	*pinned = false
	if p.state == taskRunning {
		return false
	}
	if !s.taskHot(p, env) {
		return true
	}
	return s.cpus[env.this].sd[env.sdIdx].nrBalanceFailed > env.sd.CacheNiceTries
}

// newDstCPU is can_migrate_task()'s search for new_dst_cpu: the first CPU
// of env->dst_grpmask (the local group's balance mask) still in env->cpus
// that p may run on, or noCPU.
func (s *sim) newDstCPU(p *task, env *lbEnv) int {
	mask := env.sd.Groups[0].BalanceMask
	for c := mask.First(); c.Valid(); c = mask.Next(c) {
		if !env.excluded.Has(c) && p.allowed.Has(c) {
			return int(c)
		}
	}
	return noCPU
}

// detachTasks is detach_tasks() + attach_tasks(): walk cfs_tasks from the
// tail (the running task included), detach the tasks that
// can_migrate_task() and the imbalance allow and list_move() the others to
// the head, then attach the detached ones to env.dst. Returns the number
// moved.
func (s *sim) detachTasks(env *lbEnv, src int, pinned *bool) int {
	return s.detachTasksUpTo(env, src, min(32, s.cpus[src].nrTasks()), pinned)
}

// detachTasksUpTo is detach_tasks() with env->loop_max given: the
// LBF_DST_PINNED round keeps the first round's.
func (s *sim) detachTasksUpTo(env *lbEnv, src, loopMax int, pinned *bool) int {
	sc := &s.cpus[src]
	if env.imbalance <= 0 {
		return 0
	}
	loop := 0
	failed := s.cpus[env.this].sd[env.sdIdx].nrBalanceFailed
	for sc.cfsCurr() != nil || len(sc.rq) > 0 { // !list_empty(tasks)
		if env.idle != cpuNotIdle && sc.nrTasks() <= 1 {
			break
		}
		loop++
		if loop > loopMax {
			break
		}
		p := cfsTasksTail(sc) // list_last_entry(tasks), scanned only when used
		if !s.canMigrateTask(p, env, pinned) || !s.detachTaskFits(env, p, src, failed) {
			sc.cfsListHead(p) // next: list_move(&p->se.group_node, tasks)
			continue
		}
		s.detachTask(p, src, env.dst)
		s.detached = append(s.detached, p) // list_add(&p->se.group_node, &env->tasks)
		if env.idle == cpuNewlyIdle {
			break // CONFIG_PREEMPTION: one task per newidle pass
		}
		if env.imbalance <= 0 {
			break
		}
	}
	moved := len(s.detached)
	s.attachTasks(env, src)
	return moved
}

// attachTasks is attach_tasks(): the detached tasks join env.dst from the
// head of env->tasks, the last detached first; dst reschedules once after.
// An idle dst that is the balancing CPU is left to its caller; a
// new_dst_cpu (LBF_DST_PINNED) is another CPU, rescheduled from env.on
// (by IPI, or when it is the nohz ILB itself once its softirq returns:
// _nohz_idle_balance() then stops at need_resched()).
func (s *sim) attachTasks(env *lbEnv, src int) {
	if len(s.detached) == 0 {
		return // sched_balance_rq() attaches only if (cur_ld_moved)
	}
	need := false
	for i := len(s.detached) - 1; i >= 0; i-- {
		p := s.detached[i]
		s.detached[i] = nil
		need = s.attachTask(p, env.dst, env.cause, need)
		s.traceMove(p, src, env.dst, env.cause, env)
	}
	s.detached = s.detached[:0]
	if env.dst != env.this {
		if dc := &s.cpus[env.dst]; dc.curr == nil {
			s.reschedCurr(env.dst, env.on)
		} else if need {
			s.reschedAfterAttach(env.dst, env.on)
		}
		return
	}
	if need {
		s.reschedAfterAttach(env.dst, env.dst)
	}
}

// detachTaskFits is the migration_type switch of detach_tasks(): whether p
// fits the remaining imbalance (which it then consumes).
func (s *sim) detachTaskFits(env *lbEnv, p *task, src, failed int) bool {
	switch env.migType {
	case migrateLoad:
		load := max(s.taskHLoad(p), 1)
		if load>>uint(min(failed, 62)) > env.imbalance {
			return false
		}
		env.imbalance -= load
	case migrateUtil:
		u := int64(s.taskUtilEst(p))
		if u>>uint(min(failed, 62)) > env.imbalance {
			return false
		}
		env.imbalance -= u
	case migrateTask:
		env.imbalance--
	case migrateMisfit:
		if s.utilFitsCPU(s.taskUtilEst(p), src) > 0 {
			return false
		}
		env.imbalance = 0
	}
	return true
}

// cfsTasksTail is list_last_entry(&rq->cfs_tasks): the task on c (running
// or queued) with the smallest list stamp.
func cfsTasksTail(c *cpuState) *task {
	p := c.cfsCurr()
	for _, q := range c.rq {
		if p == nil || q.cfsPos < p.cfsPos {
			p = q
		}
	}
	return p
}

// moveQueuedTask is detach_task() + attach_task() of one queued task, run
// on CPU on (dst for a balance pass, src for the stopper).
func (s *sim) moveQueuedTask(p *task, src, dst, on, cause int, env *lbEnv) {
	s.detachTask(p, src, on)
	if s.attachTask(p, dst, cause, false) {
		s.reschedAfterAttach(dst, on)
	}
	s.traceMove(p, src, dst, cause, env)
}

// detachTask is detach_task(): deactivate_task() on src, run on CPU on. A
// delayed task stays delayed, and its util_est, taken off at its sleep, is
// not moved (the task is migrating). Under CFS its vruntime leaves
// relative to src's min_vruntime, before update_min_vruntime().
func (s *sim) detachTask(p *task, src, on int) {
	sc := &s.cpus[src]
	s.syncCPU(sc)
	if s.updateCurr(sc) { // dequeue_entity() → update_curr() → resched_curr_lazy(src)
		s.reschedCurrLazy(src, on)
	}
	s.updateTaskLoadAvg(p)
	// update_load_avg(cfs_rq, se, UPDATE_TG | DO_DETACH) ages src's cfs_rq
	// while the task still counts in its weight and runnable count, then
	// detaches the task (detachEntityLoadAvg() below)
	s.updateCfsRqLoadAvg(sc)
	s.updateEntityLag(sc, p)
	wasSchedIdle := sc.schedIdleRq()
	sc.rqRemove(p)
	s.balanceEarlyOnSchedIdle(sc, wasSchedIdle)
	if p.delayed {
		sc.nrDelayed--
	} else {
		sc.utilEstSum = max(sc.utilEstSum-p.utilEst, 0)
	}
	s.cpuChanged(sc)
	s.detachEntityLoadAvg(sc, p)
	if s.cfs { // dequeue_entity() without DEQUEUE_SLEEP (6.1)
		p.vruntime -= sc.minVruntime
		p.vrRq = vrNormalised
		updateMinVruntime(sc)
	}
}

// attachTask is attach_task(): activate_task() on dst (ENQUEUE_MIGRATED;
// 6.1: migrate_task_rq_fair() left it cache cold) and wakeup_preempt().
// need is dst's TIF_NEED_RESCHED so far, which check_preempt_wakeup_fair()
// returns on at once; it reports the flag after p.
func (s *sim) attachTask(p *task, dst, cause int, need bool) bool {
	dc := &s.cpus[dst]
	delayed := p.delayed
	resched := s.enqueueTask(dc, p, false, true)
	p.execStart = execStartCold
	if delayed {
		dc.utilEstSum = max(dc.utilEstSum-p.utilEst, 0)
		dc.nrDelayed++
		p.state = taskBlocked
	}
	s.attachEntityLoadAvg(dc, p)
	s.m.migration(s, cause)
	if dc.curr == nil {
		return false
	}
	return need || resched || s.checkPreemptWakeupFair(dc, p, false)
}

// reschedAfterAttach is the resched_curr(dst_rq) of wakeup_preempt() after
// attach_task() run on CPU on: a balance pass schedules its own CPU at
// once; the stopper's push reaches a busy dst by IPI (under PREEMPT_LAZY,
// resched_curr_lazy(): a busy dst gets its lazy flag and no IPI).
func (s *sim) reschedAfterAttach(dst, on int) {
	if on == dst {
		s.schedule(&s.cpus[dst])
		return
	}
	s.reschedCurrLazy(dst, on)
}

// traceMove records a balance migration with the pass that made it.
func (s *sim) traceMove(p *task, src, dst, cause int, env *lbEnv) {
	if !s.tracing {
		return
	}
	s.path = append(s.path[:0], s.lbPrefix...)
	if env != nil {
		s.note("sched_balance_rq(%s, %s)", env.sd.Level, idleName(env.idle))
		s.path = s.appendLbStats(s.path, env)
		s.note("find_src_group: busiest %s (%s)", env.busiest.Span.String(), groupTypeNames[env.busiestStat.groupType])
		s.note("find_src_rq → cpu %d", src)
		s.path = append(s.path, s.lbDstNotes...) // the LBF_DST_PINNED rounds so far
		s.note("detach_tasks → cpu %d", dst)
	}
	s.recordDecision(p, migCauseNames[cause], src, dst)
}

// idleName prints enum cpu_idle_type.
func idleName(i cpuIdleType) string {
	switch i {
	case cpuIdle:
		return "CPU_IDLE"
	case cpuNewlyIdle:
		return "CPU_NEWLY_IDLE"
	}
	return "CPU_NOT_IDLE"
}

// asymActiveBalance is asym_active_balance(): 6.12's lets a lower-priority
// CPU help an SMT core with busy siblings; 6.1's (LB_ASYM_USE_PRIO off)
// follows priority alone.
func (s *sim) asymActiveBalance(env *lbEnv, src int) bool {
	if env.idle == cpuNotIdle {
		return false
	}
	if !s.lbAsymUsePrio {
		return s.asymPrefer61(env.sd, env.dst, src)
	}
	return s.schedUseAsymPrio(env.sd, env.dst) &&
		(s.asymPrefer(env.dst, src) || !s.schedUseAsymPrio(env.sd, src))
}

// needActiveBalance is need_active_balance(); cause tells which rule fired.
func (s *sim) needActiveBalance(env *lbEnv, src int) (bool, int) {
	if s.asymActiveBalance(env, src) {
		return true, migAsym
	}
	if s.imbalancedActiveBalance(env) || s.reducedCapacityActiveBalance(env, src) {
		return true, migActive
	}
	if env.migType == migrateMisfit {
		return true, migMisfit
	}
	return false, 0
}

// imbalancedActiveBalance is imbalanced_active_balance(): a migrate_task
// pass that has failed more than cache_nice_tries + 2 times.
func (s *sim) imbalancedActiveBalance(env *lbEnv) bool {
	return env.migType == migrateTask && s.cpus[env.this].sd[env.sdIdx].nrBalanceFailed > env.sd.CacheNiceTries+2
}

// reducedCapacityActiveBalance is need_active_balance()'s reduced-capacity
// rule: dst is idle and src runs one fair task (h_nr_queued, or
// h_nr_runnable under H_NR_RUNNABLE), worth moving when other classes
// took src's capacity (check_cpu_capacity()) and dst has more left.
func (s *sim) reducedCapacityActiveBalance(env *lbEnv, src int) bool {
	sc := &s.cpus[src]
	return env.idle != cpuNotIdle && s.lbNrRunning(sc) == 1 && checkCPUCapacity(sc, env.sd) &&
		sc.capacity*env.sd.ImbalancePct < s.capacityOf(env.dst)*100
}

// maxPinnedInterval is MAX_PINNED_INTERVAL (ms).
const maxPinnedInterval = 512

// schedBalanceRq is sched_balance_rq() (load_balance()) for one domain,
// run on cpu itself (schedBalanceRqOn).
func (s *sim) schedBalanceRq(cpu, sdIdx int, idle cpuIdleType, cause int) (int, bool) {
	return s.schedBalanceRqOn(cpu, cpu, sdIdx, idle, cause)
}

// schedBalanceRqOn is sched_balance_rq() of cpu's domain sdIdx, run on CPU
// on (the nohz idle balance runs it for other CPUs). It returns the number
// of tasks moved and continue_balancing. The commonest passes (most of the
// nohz idle balance's) end at should_we_balance() or with no source group
// by the sums (noSrcGroup) before lb_env is needed: they take the
// out_balanced exit at once.
func (s *sim) schedBalanceRqOn(cpu, on, sdIdx int, idle cpuIdleType, cause int) (int, bool) {
	sd := s.t.Domains[cpu][sdIdx]
	st := &s.cpus[cpu].sd[sdIdx]
	if !s.shouldWeBalance(sd, cpu, idle) {
		s.outBalanced(sd, st, idle, migrateLoad, false)
		return 0, false // *continue_balancing = 0
	}
	s.updateLocalGroupCapacity(sd, cpu, cpu, sdIdx, idle)
	if s.noSrcGroup(sd, sdIdx, cpu, idle) {
		s.outBalanced(sd, st, idle, migrateLoad, false)
		return 0, true
	}
	var envOnStack lbEnv // on the stack: its stores need no write barrier (lbEnv.reset)
	env := &envOnStack
	env.reset(sd, sdIdx, cpu, idle, cause, topo.CPUSet{}, migrateLoad)
	env.on = on
	allPinned := false // LBF_ALL_PINNED
	for {
		// The first pass asked should_we_balance() and refreshed the local
		// group's capacity above; a redo does both again (noSrcGroup()
		// never answers with env->cpus cut), for env->dst_cpu, which
		// LBF_DST_PINNED may have changed.
		if env.excluded.Size() != 0 {
			if !s.shouldWeBalanceWalk(sd, env.dst, idle, env.excluded) {
				s.outBalanced(sd, st, idle, env.migType, allPinned)
				return 0, false // *continue_balancing = 0
			}
			s.updateLocalGroupCapacity(sd, cpu, env.dst, sdIdx, idle)
		}
		g := s.schedBalanceFindSrcGroup(env)
		if sd.Parent == nil { // set_rd_overloaded() at the root domain
			s.rdOverloaded = env.overloaded
		}
		if g == nil {
			s.outBalanced(sd, st, idle, env.migType, allPinned)
			return 0, true
		}
		busiest := s.schedBalanceFindSrcRq(env, g)
		if busiest == noCPU {
			s.outBalanced(sd, st, idle, env.migType, allPinned)
			return 0, true
		}
		moved := 0
		allPinned = true
		if s.cpus[busiest].nrTasks() > 1 {
			loopMax := min(32, s.cpus[busiest].nrTasks())
			moved = s.detachTasksUpTo(env, busiest, loopMax, &allPinned)
			for env.dstPinned && env.imbalance > 0 {
				// more_balance with new_dst_cpu: env->cpus loses the old dst
				s.lbExclude(env, env.dst)
				if s.tracing {
					s.lbDstNotes = append(s.lbDstNotes, fmt.Sprintf("can_migrate_task: cpu %d not allowed, LBF_DST_PINNED → more_balance for new_dst_cpu %d", env.dst, env.newDst))
				}
				env.dst, env.dstPinned = env.newDst, false
				moved += s.detachTasksUpTo(env, busiest, loopMax, &allPinned)
			}
			s.lbDstNotes = s.lbDstNotes[:0]
			if env.somePinned && env.imbalance > 0 {
				s.setGroupImbalance(sd, true) // failed because of affinity
			}
			if allPinned {
				// __cpumask_clear_cpu(busiest, cpus); redo while a CPU
				// outside the local group is left (env->migration_type survives)
				s.lbExclude(env, busiest)
				if s.lbCPUsLeft(sd, env.excluded) {
					env.redo()
					continue
				}
				lbOutBalanced(sd, st, idle, s.misfitBackoffSkipped(env.migType), allPinned, true) // out_all_pinned
				return 0, true
			}
		}
		if moved > 0 {
			st.nrBalanceFailed = 0
			st.balanceInterval = sd.MinInterval
			return moved, true
		}
		// a failed misfit pass counts in 6.1 (MISFIT_FAIL_UNCOUNTED off)
		if idle != cpuNewlyIdle && (env.migType != migrateMisfit || !s.misfitFailUncounted) {
			st.nrBalanceFailed++
		}
		if ok, why := s.needActiveBalance(env, busiest); ok {
			bc := &s.cpus[busiest]
			if bc.curr == nil || !bc.curr.allowed.Has(topo.CPU(cpu)) {
				lbOutBalanced(sd, st, idle, s.misfitBackoffSkipped(env.migType), allPinned, false) // out_one_pinned (the idle task is pinned too)
				return 0, true
			}
			if !bc.activeBalance {
				bc.activeBalance = true
				s.q.push(event{at: s.now + s.ipiLatency(busiest), kind: evStopper, a: int32(busiest), b: int32(cpu), gen: uint32(why)})
				if s.tracing {
					bc.stopPath = append(append(bc.stopPath[:0], s.lbPrefix...), "sched_balance_rq("+string(sd.Level)+", "+idleName(idle)+")",
						"busiest group "+groupTypeNames[env.busiestStat.groupType])
					rule := migCauseNames[why]
					if why == migActive && !s.imbalancedActiveBalance(env) {
						rule = "reduced capacity"
					}
					bc.stopPath = append(s.appendLbStats(bc.stopPath, env), "need_active_balance: "+rule)
				}
			}
		}
		st.balanceInterval = sd.MinInterval // unbalanced: reset the interval
		return 0, true
	}
}

// outBalanced is sched_balance_rq()'s out_balanced exit: balance was
// reached, so unless every task was pinned the parent's local group is no
// longer imbalanced by affinity (sd_parent->groups->sgc->imbalance = 0);
// then out_all_pinned (lbOutBalanced).
func (s *sim) outBalanced(sd *topo.Domain, st *sdState, idle cpuIdleType, mt migrationType, allPinned bool) {
	if !allPinned {
		s.setGroupImbalance(sd, false)
	}
	lbOutBalanced(sd, st, idle, s.misfitBackoffSkipped(mt), allPinned, true)
}

// setGroupImbalance writes sd_parent->groups->sgc->imbalance, the flag
// group_classify() reads as group_imbalanced (sgImbalanced).
func (s *sim) setGroupImbalance(sd *topo.Domain, on bool) {
	if sd.Parent == nil {
		return
	}
	id := sd.Parent.Groups[0].SGC
	if s.sgcImbalance[id] == on {
		return
	}
	s.sgcImbalance[id] = on
	if on {
		s.sgcImbalanced++
	} else {
		s.sgcImbalanced--
	}
}

// sgImbalanced is sg_imbalanced(): g's sgc->imbalance.
func (s *sim) sgImbalanced(g *topo.Group) bool {
	return s.sgcImbalanced > 0 && s.sgcImbalance[g.SGC]
}

// lbExclude is __cpumask_clear_cpu(c, env->cpus): c joins env.excluded,
// the emptied scratch set at a pass's first exclusion.
func (s *sim) lbExclude(env *lbEnv, c int) {
	if env.excluded.Size() == 0 {
		env.excluded = s.lbExcludedScratch()
	}
	env.excluded.Set(topo.CPU(c))
}

// lbExcludedScratch returns the emptied scratch set for the CPUs an
// all-pinned pass clears from env->cpus.
func (s *sim) lbExcludedScratch() topo.CPUSet {
	x := s.lbExcluded
	if x.Size() == 0 {
		x = topo.NewCPUSet(len(s.cpus))
		s.lbExcluded = x
	}
	for c := x.First(); c.Valid(); c = x.Next(c) {
		x.Clear(c)
	}
	return x
}

// lbCPUsLeft is !cpumask_subset(cpus, env.dst_grpmask) of the all-pinned
// redo: a CPU of the domain outside the local group's balance mask is not
// yet excluded.
func (s *sim) lbCPUsLeft(sd *topo.Domain, excluded topo.CPUSet) bool {
	local := sd.Groups[0].BalanceMask
	for c := sd.Span.First(); c.Valid(); c = sd.Span.Next(c) {
		if !local.Has(c) && !excluded.Has(c) {
			return true
		}
	}
	return false
}

// lbOutBalanced is the out_balanced / out_all_pinned (resetFailed) and
// out_one_pinned exits of sched_balance_rq(): clear nr_balance_failed, then
// double balance_interval unless newidle or (misfit) a misfit pass that
// backs off (misfitBackoffSkipped).
func lbOutBalanced(sd *topo.Domain, st *sdState, idle cpuIdleType, misfit, allPinned, resetFailed bool) {
	if resetFailed {
		st.nrBalanceFailed = 0
	}
	if idle == cpuNewlyIdle || misfit {
		return
	}
	if allPinned && st.balanceInterval < maxPinnedInterval || st.balanceInterval < sd.MaxInterval {
		st.balanceInterval *= 2
	}
}

// misfitBackoffSkipped says a pass of migration type mt keeps its
// balance_interval however it ends: 6.12 skips the doubling for
// migrate_misfit as it skips the nr_balance_failed count (both
// MISFIT_FAIL_UNCOUNTED); 6.1's out_one_pinned skips it for newidle
// passes only.
func (s *sim) misfitBackoffSkipped(mt migrationType) bool {
	return mt == migrateMisfit && s.misfitFailUncounted
}

// activeLoadBalanceCPUStop is active_load_balance_cpu_stop(): the stopper
// on src preempts the running task (put_prev_task_fair keeps it queued),
// then, if a CFS task is left (busiest_rq->nr_running > 1 with the stopper
// counted), detach_one_task() pushes one to dst over the lowest domain of
// dst spanning src, resetting that domain's nr_balance_failed.
func (s *sim) activeLoadBalanceCPUStop(src, dst, why int) {
	sc := &s.cpus[src]
	s.updateAvgIdle(sc)       // the stopper thread's ttwu_do_activate() (7.0: its switch from idle)
	s.addNrRunningNonFair(sc) // and add_nr_running()
	if p := sc.curr; p.isRT() {
		s.syncCPU(sc)
		s.putPrevTaskRT(sc, p)
	} else if p != nil {
		s.syncCPU(sc)
		s.updateCurr(sc)
		s.putPrevTaskFair(sc, p)
	}
	var p *task
	if sc.activeBalance && sc.nrRunning > 0 {
		for i, sd := range s.t.Domains[dst] {
			if !sd.Span.Has(topo.CPU(src)) {
				continue
			}
			if p = s.detachOneTask(sc, dst); p != nil {
				s.cpus[dst].sd[i].nrBalanceFailed = 0
			}
			break
		}
	}
	sc.activeBalance = false
	if p != nil {
		if s.tracing {
			s.path = append(s.path[:0], sc.stopPath...)
			s.note("active_load_balance_cpu_stop: cpu %d → cpu %d", src, dst)
		}
		s.moveQueuedTaskTraced(p, src, dst, src, why) // attach_one_task() on src: wakeup_preempt()
	}
	s.scheduleAfterStopper(sc) // the stopper is done
	if dc := &s.cpus[dst]; p != nil && dc.curr == nil {
		s.reschedIdle(dc, src)
	}
}

// detachOneTask is detach_one_task(): the first task from the tail of
// cfs_tasks that can_migrate_task() allows; with LBF_ACTIVE_LB only the
// affinity counts (the preempted task is no longer on the CPU).
func (s *sim) detachOneTask(sc *cpuState, dst int) *task {
	var p *task
	for _, q := range sc.rq {
		if q.allowed.Has(topo.CPU(dst)) && (p == nil || q.cfsPos < p.cfsPos) {
			p = q
		}
	}
	return p
}

// moveQueuedTaskTraced moves a task keeping the already-built decision path.
func (s *sim) moveQueuedTaskTraced(p *task, src, dst, on, cause int) {
	tr := s.tracing
	s.tracing = false
	s.moveQueuedTask(p, src, dst, on, cause, nil)
	s.tracing = tr
	if tr {
		s.recordDecision(p, migCauseNames[cause], src, dst)
	}
}

// findSrcRqUtil is the utilization sched_balance_find_src_rq() compares
// under migrate_util: cpu_util_cfs_boost(), the runnable boosting of 6.5
// (LB_UTIL_BOOST), or 6.1's cpu_util_cfs().
func (s *sim) findSrcRqUtil(c *cpuState) int64 {
	if s.lbUtilBoost {
		return int64(s.cpuUtilCfsBoost(c))
	}
	return int64(s.cpuUtilCfs(c))
}

// updateMisfitStatus is update_misfit_status().
func (s *sim) updateMisfitStatus(c *cpuState, p *task) {
	if !s.asymCapActive {
		return
	}
	s.cpuChanged(c)
	if p == nil || p.nrAllowed == 1 || (s.misfitMaxAllowedCap && c.cap == p.maxAllowedCap) ||
		s.utilFitsCPU(s.taskUtilEst(p), c.id) > 0 {
		c.misfitLoad = 0
		return
	}
	c.misfitLoad = max(s.taskHLoad(p), 1)
}

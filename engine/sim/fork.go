package sim

import (
	"math/rand/v2"

	"schedplay/engine/scenario"
	"schedplay/engine/topo"
)

// The parent that forks a group: a benchmark's main thread calls
// pthread_create()/fork() once per task while it runs on some CPU, so each
// child goes through wake_up_new_task() → select_task_rq_fair(WF_FORK) from
// that CPU with the parent still on it (nr_running, load and util include
// the parent). Then the parent waits in pthread_join()/wait() or exits.

// drawParentCPUs picks each group's parent CPU for one repetition: the
// group's parent_cpu, or one CPU of its pool (parent_cpus, else the
// group's allowed CPUs) drawn from a PCG stream of its own (seeded by the
// repetition's seed, so the other random draws — jitter, housekeeping —
// are the same as without it).
func drawParentCPUs(gs []scenario.Group, pools [][]topo.CPU, seed uint64, shared bool) []int {
	rng := rand.New(rand.NewPCG(seed, seed^0x2545f4914f6cdd1d))
	out := make([]int, len(gs))
	for gi := range gs {
		cpus := pools[gi]
		pick := rng.IntN(len(cpus)) // always drawn: groups keep their stream position
		out[gi] = int(cpus[pick])
		if gs[gi].ParentCPU != nil {
			out[gi] = *gs[gi].ParentCPU
		}
		if shared && gi > 0 {
			out[gi] = out[0] // workload.shared_parent: group 0's parent forks them all
		}
	}
	return out
}

// forkGroup is the parent's loop of pthread_create()s: every task of group
// gi is forked (wake_up_new_task()) from the parent's CPU while the parent
// runs there; then the parent leaves that CPU. Under
// workload.shared_parent the one parent forks, in group order, gi and
// every group after it that starts at the same time before it leaves
// (their own fork events then do nothing).
func (s *sim) forkGroup(gi int) {
	gs := s.r.Workload.Groups
	last := gi
	if s.r.Workload.SharedParent {
		if gi > 0 && gs[gi-1].Start == gs[gi].Start {
			return // forked with the group before it
		}
		for last+1 < len(gs) && gs[last+1].Start == gs[gi].Start {
			last++
		}
	}
	par := &s.parent
	*par = task{id: -1, group: gi, weight: niceWeight(gs[gi].Nice), recentUsedCPU: -1, lastWakee: -1, decision: -1, onRunCPU: -1}
	if s.parentExecs() {
		to := s.schedExec(par, gi, s.parentCPU[gi])
		s.parentCPU[gi] = to
		if s.r.Workload.SharedParent { // group 0's parent forks them all
			s.parentExeced = true
			for k := range s.parentCPU {
				s.parentCPU[k] = to
			}
		}
	}
	cpu := s.parentCPU[gi]
	c := &s.cpus[cpu]
	s.parentArrive(c, par)
	for _, p := range s.tasks {
		if p.group >= gi && p.group <= last && p.state == taskNew {
			s.forkTask(p, cpu)
		}
	}
	s.parentLeave(c, par)
}

// schedExec is sched_exec(): the benchmark's main thread, exec'ed on the
// CPU the shell left it on (the drawn cpu), is placed by
// select_task_rq_fair(WF_EXEC) from there before it forks its workers: the
// slow path (which keeps it where it is on an idle machine, since
// update_sg_wakeup_stats() counts the exec'ing CPU idle) and the v6 exit
// (which moves it to the idle PE0 of its core). Its mask is the group's
// parent_cpus, else the group's cpus; a parent_cpu pins it. The placement
// is recorded as an "exec" decision of task -1, unless the mask pins the
// parent (select_task_rq() then decides nothing).
func (s *sim) schedExec(par *task, gi, cpu int) int {
	m := s.parentMask[gi]
	par.allowed, par.nrAllowed = m, m.Weight()
	for c := m.First(); c.Valid(); c = m.Next(c) {
		par.maxAllowedCap = max(par.maxAllowedCap, s.t.CPUs[c].Capacity)
	}
	if par.nrAllowed == 1 { // select_task_rq(): cpumask_any(), nothing to record
		return int(m.First())
	}
	if s.tracing {
		s.path = s.path[:0]
		s.note("sched_exec: group %d's parent, exec'ed on cpu %d", gi, cpu)
		s.note("select_task_rq_fair")
		s.note("WF_EXEC from cpu %d (the parent runs there)", cpu)
	}
	to := s.selectTaskRqSlow(par, cpu)
	// Task -1: the parent is no task of the timeline; it has no runs.
	s.recordDecision(par, "exec", cpu, to)
	return to
}

// parentExecs reports whether the next group fork exec's its parent first:
// always, but under workload.shared_parent only the first time.
func (s *sim) parentExecs() bool {
	return !s.r.Workload.SharedParent || !s.parentExeced
}

// parentArrive puts the parent on c as a running entity for the forks: one
// more nr_running (so c is not idle to the slow path), its weight in
// cfs_rq->load (which 6.1's sched_slice() for the children's START_DEBIT
// reads) and the PELT load and utilization of a task that has just
// started there (init_entity_runnable_average() +
// post_init_entity_util_avg()).
func (s *sim) parentArrive(c *cpuState, par *task) {
	s.syncCPU(c)
	s.updateCurr(c)
	s.postInitEntityUtilAvg(c, par)
	s.attachEntityLoadAvg(c, par)
	c.nrRunning++
	c.loadWeight += par.weight
	s.cpuChanged(c)
	s.addNrRunning(c, 1)
	if c.nrRunning == 1 { // the parent is a fair task: enqueue_task_fair()
		s.fairClassStarts(c, c.nrRunningAll() == 1)
	}
}

// parentLeave takes the parent off c: it blocks in pthread_join() or
// wait(), a dequeue_task_fair() without DO_DETACH (it does not migrate),
// so its load and util stay in c's cfs_rq as blocked load that decays
// there. A CPU the parent leaves empty schedules: sched_balance_newidle()
// stamps idle_stamp and may pull.
func (s *sim) parentLeave(c *cpuState, par *task) {
	s.updateCfsRqLoadAvg(c)
	c.nrRunning--
	c.loadWeight -= par.weight
	s.cpuChanged(c)
	if c.curr == nil && len(c.rq) == 0 {
		c.schedPrev = true // the parent is __schedule()'s prev
		s.schedule(c)
	}
}

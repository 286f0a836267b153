// Package sim is schedplay's discrete-event simulator of the Linux fair
// scheduler on SMT and asymmetric machines. Its files follow the kernel's
// seams (kernel/sched/fair.c, pelt.c, core.c); see docs/model.md.
package sim

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"

	"schedplay/engine/scenario"
	"schedplay/engine/topo"
	"schedplay/engine/units"
)

// ErrEventBudget is returned when a repetition exceeds its event budget.
var ErrEventBudget = errors.New("sim: event budget exceeded")

// budgetError is the error of a repetition that ran out of events while p
// took its steps-th instant step in a row: p's program is to blame when
// those steps are most of the budget (a loop that never computes or
// blocks), the run's size otherwise.
func (s *sim) budgetError(p *task, steps int64) error {
	if steps >= min(1<<20, s.budget/2) {
		return fmt.Errorf("%w: task %s took %d steps in a row without computing or blocking (at t=%dns)", ErrEventBudget, p.name, steps, s.now)
	}
	return fmt.Errorf("%w: more than %d events at t=%dns; shorten run.duration or the workload", ErrEventBudget, s.budget, s.now)
}

// Run simulates r.Run.Reps repetitions (seeds Seed, Seed+1, …) and returns
// their metrics, summary and, when opt.Timeline, repetition 0's timeline.
func Run(ctx context.Context, r *scenario.Resolved, opt Options) (*Result, error) {
	rr := r.WithDefaults()
	t, err := rr.Topology(ctx) // built once: the validation's, when r was resolved
	if err != nil {
		return nil, err
	}
	res := newResult(&rr)
	reps := max(rr.Run.Reps, 1)
	var swallowed []int64 // ends of the repetitions the warm-up covered
	for rep := 0; rep < reps; rep++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s, err := newSim(&rr, t, opt, rr.Run.Seed+uint64(rep), rep == 0 && opt.Timeline)
		if err != nil {
			return nil, err
		}
		stop, err := s.loop(ctx, rep, reps)
		if err != nil {
			return nil, err
		}
		res.Reps = append(res.Reps, s.repMetrics(stop))
		if end := s.measuredEnd(stop); s.warmup > 0 && end <= s.warmup {
			swallowed = append(swallowed, end)
		}
		if s.tr != nil {
			res.Timeline = s.timeline()
			res.Warnings = append(res.Warnings, s.tr.truncation()...)
		}
	}
	if len(swallowed) > 0 {
		res.Warnings = append(res.Warnings, warmupWarning(rr.Run.Warmup, swallowed, reps))
	}
	res.Summary = summarize(res.Reps)
	return res, nil
}

// warmupWarning says that the warm-up covered whole repetitions (every
// program finished before run.warmup was over), so their figures are
// zeros rather than measurements.
func warmupWarning(warmup units.Duration, ends []int64, reps int) string {
	which := "the whole run, whose programs finished"
	if len(ends) < reps {
		which = fmt.Sprintf("the whole of %d of the %d repetitions, whose programs finished", len(ends), reps)
	} else if reps > 1 {
		which = "the whole of every repetition, whose programs finished"
	}
	what := "no figures were measured"
	if len(ends) < reps {
		what = "they measured nothing and count as zeros"
	}
	return fmt.Sprintf("the warm-up (run.warmup %s) covered %s by %.3fs: %s; shorten run.warmup",
		warmup, which, float64(slices.Max(ends))/1e9, what)
}

// newSim builds one repetition's state.
func newSim(r *scenario.Resolved, t *topo.Topology, opt Options, seed uint64, timeline bool) (*sim, error) {
	n := t.NumCPUs()
	s := &sim{
		r: r, t: t, opt: opt, seed: seed,
		rng:                  rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		costs:                newCostVariation(r.Machine.Latency.Variation, seed),
		end:                  int64(r.Run.Duration),
		tickNs:               1_000_000_000 / int64(r.Policy.HZ),
		migCost:              int64(r.Policy.MigrationCost),
		peltMode:             r.Policy.Features.PELT,
		utilEst:              r.Policy.Features.UtilEstOn(),
		utilEstRun:           r.Policy.Features.UtilEstRunnableOn(),
		feat:                 r.Policy.Features,
		delayDequeue:         r.Policy.Features.DelayDequeueOn() && r.Policy.Features.EEVDFOn(),
		cfs:                  !r.Policy.Features.EEVDFOn(),
		vprot:                r.Policy.Features.VProtOn() && r.Policy.Features.EEVDFOn(),
		hNrRunnable:          r.Policy.Features.HNrRunnableOn(),
		asymCapSMTLB:         r.Policy.Features.AsymCapacitySMTLBOn(),
		lbSMTBalance:         r.Policy.Features.LBSMTBalanceOn(),
		lbSiblingImbalance:   r.Policy.Features.LBSiblingImbalanceOn(),
		lbUtilBoost:          r.Policy.Features.LBUtilBoostOn(),
		swbIdleCore:          r.Policy.Features.SWBIdleCoreOn(),
		misfitMaxAllowedCap:  r.Policy.Features.MisfitMaxAllowedCapOn(),
		busiestTieKeepsFirst: r.Policy.Features.BusiestTieKeepsFirstOn(),
		lbAsymUsePrio:        r.Policy.Features.LBAsymUsePrioOn(),
		misfitFailUncounted:  r.Policy.Features.MisfitFailUncountedOn(),
		preemptLazy:          r.Policy.Features.PreemptLazyOn() && r.Policy.Features.EEVDFOn(),
		fairServer:           r.Policy.Features.FairServerOn(),
		dlServerIdle:         r.Policy.Features.DLServerIdleOn(),
		rtThrottling:         r.Policy.Features.RTThrottlingOn(),
		smtActive:            t.SMTActive,
		warmup:               int64(r.Run.Warmup),
	}
	s.asymCapActive = t.AsymCPUCapacityActive
	for i := range t.CPUs { // build_sched_domains(): rd->max_cpu_capacity
		s.rdMaxCap = max(s.rdMaxCap, t.CPUs[i].Capacity)
	}
	s.sisCluster = t.ClusterActive && r.Policy.Features.SISClusterOn()
	s.sdAsymPacking = t.SDAsymPacking
	if !s.lbAsymUsePrio {
		s.sdAsymPacking = sdAsymPacking61(t)
	}
	factor := int64(1 + bits.Len(uint(min(n, 8))) - 1) // get_update_sysctl_factor(): 1 + ilog2(min(ncpus, 8))
	s.baseSlice = int64(r.Policy.BaseSlice) * factor
	s.cfsLatency, s.cfsMinGran, s.cfsWakeupGran = 6e6*factor, 750e3*factor, 1e6*factor
	s.maxLBInterval = max(int64(r.Policy.HZ)*int64(n)/10, 1)
	// WFI only: a single-state cpuidle driver, whose idle loop keeps the
	// tick since f4c31b07b136 (IDLE_RETAIN_TICK)
	s.idleRetainsTick = len(r.Machine.Latency.IdleStates) == 0 && r.Policy.Features.IdleRetainTickOn()
	s.smIdle = r.Policy.Features.SMIdleOn()
	// timers: the CPUs' compute ends, the cores' re-evaluations, the CPUs'
	// dl_timers, the RT period timer
	s.q.init(4*n+1024, n+t.TotalCores+n+1, s.end)
	s.m.init(n, t.TotalCores, s.end)
	if timeline {
		s.tr = newTracer(n, t.TotalCores, opt)
		s.tracing = !opt.NoDecisions
	}
	s.cpus = make([]cpuState, n)
	s.rto = rtoState{mask: topo.NewCPUSet(n), cpu: -1}
	s.llcs = make([]llcState, n)
	nodes := r.Machine.Nodes
	s.nodeBusyCores = make([]int, nodes)
	s.nodeCores = make([]int, nodes)
	s.nodeBoost = make([]float64, nodes)
	s.nodeFreqScale = make([]uint64, nodes)
	s.boostMax = boostMax(r.Machine.Boost)
	for i := range s.nodeBoost {
		s.nodeBoost[i] = boostAt(r.Machine.Boost, 0)
		s.nodeFreqScale[i] = s.freqScale(s.nodeBoost[i])
	}
	for i, info := range t.CPUs {
		c := &s.cpus[i]
		*c = cpuState{id: i, core: info.Core, thread: info.Thread, node: info.Node,
			cap: info.Capacity, speed: info.Speed, prio: info.Priority,
			avgIdle: 2 * s.migCost, maxIdleBalanceCost: s.migCost, nohzIdle: true, inIdle: true, lastTgid: -1, hLoadJiffy: -1}
		c.sd = make([]sdState, len(t.Domains[i]))
		c.rq = make([]*task, 0, 4)
		for j, d := range t.Domains[i] {
			c.sd[j] = s.initialSdState(d)
		}
		if info.Speed == 0 {
			c.speed = 1
		}
	}
	s.initNodeLines()
	s.initIdleMask()
	s.initGroupSums()
	s.gs.verify = opt.verifySums
	s.nohzIdleCount = n
	s.nohzIdleMask = topo.NewCPUSet(n)
	for i := range n {
		s.nohzIdleMask.Set(topo.CPU(i))
	}
	for i := range s.llcs {
		if t.SDLLC[i] != nil && int(t.SDLLCID[i]) == i {
			// a machine that has been up: the scan budget of an idle LLC
			s.llcs[i] = llcState{hasIdleCores: true, nrIdleScan: t.SDLLC[i].Span.Weight()}
		} else {
			s.llcs[i] = llcState{hasIdleCores: true, nrIdleScan: 1}
		}
	}
	s.initShared()
	s.cores = make([]coreState, t.TotalCores)
	s.coreMark = make([]uint32, t.TotalCores)
	s.sgcImbalance = make([]bool, t.NumSGC)
	s.initGroupCapacities()
	const never = -1 << 60
	for k, cpus := range t.CoreCPUs {
		kc := &s.cores[k]
		kc.cpus = make([]int, len(cpus))
		for j, c := range cpus {
			kc.cpus[j] = int(c)
		}
		// in CPU number order, as for_each_cpu() walks cpu_smt_mask(): a
		// machine's cpu_ids may number a core's threads out of thread order
		slices.Sort(kc.cpus)
		kc.node = s.cpus[kc.cpus[0]].node
		s.nodeCores[kc.node]++
		kc.idleSince = make([]int64, len(cpus))
		for j := range kc.idleSince {
			kc.idleSince[j] = never
		}
		kc.factor = make([]float64, len(cpus))
		kc.lastTransition = never
		kc.lastTaskThread = -1
		kc.lastTaskIdle = never
	}
	if err := s.buildTasks(); err != nil {
		return nil, err
	}
	hk := r.Machine.Housekeeping
	if r.Workload.Housekeeping != nil {
		hk = r.Workload.Housekeeping
	}
	if hk != nil && hk.Period > 0 && hk.Run > 0 {
		s.hk = hk
		for i := range s.cpus {
			// Every CPU draws its phase (a first blip after the end is
			// dropped by the queue's horizon).
			s.q.push(event{at: s.rng.Int64N(int64(hk.Period)), kind: evHousekeeping, a: int32(i)})
		}
	}
	s.initDeviceIRQs()
	s.q.push(event{at: s.end, kind: evEnd})
	s.budget = opt.MaxEvents
	if s.budget <= 0 || s.budget > DefaultMaxEvents {
		s.budget = DefaultMaxEvents
	}
	s.forksLeft = len(r.Workload.Groups)
	return s, nil
}

// buildTasks compiles the programs and creates every task.
func (s *sim) buildTasks() error {
	w := &s.r.Workload
	n := s.t.NumCPUs()
	cp := &compiler{barriers: map[string]int{}, chans: map[string]int{}, pools: map[string]int{}, timed: map[string]int{}, inst: -1}
	s.groupAlive = make([]int, len(w.Groups))
	s.timerSlack = make([]int64, len(w.Groups))
	s.repartition = make([]int64, len(w.Groups))
	s.pmQoS = -1
	if w.CPUDMALatency != nil {
		s.pmQoS = int64(*w.CPUDMALatency)
	}
	groupCPUs := make([][]topo.CPU, len(w.Groups))  // each group's allowed CPUs, in order
	parentPool := make([][]topo.CPU, len(w.Groups)) // where each group's parent is drawn
	s.parentMask = make([]topo.CPUSet, len(w.Groups))
	pid := 1
	// A group whose channel names use scenario.InstanceToken compiles its
	// program once per task (cp.inst = the task's index), any other once.
	perTask := make([]bool, len(w.Groups))
	nProgs := make([]int, len(w.Groups))
	for gi, g := range w.Groups {
		perTask[gi], nProgs[gi] = scenario.UsesInstance(g.Program), 1
		if perTask[gi] {
			nProgs[gi] = g.Count
		}
	}
	instance := func(gi, k int) int {
		if perTask[gi] {
			return k
		}
		return -1
	}
	for gi, g := range w.Groups {
		for k := range nProgs[gi] {
			cp.inst = instance(gi, k)
			cp.scanIPC(g.Program)
		}
	}
	sharedTgid := 0 // with shared_parent: the parent's thread group, its first thread's pid
	for gi, g := range w.Groups {
		progs := make([][]op, nProgs[gi]) // progs[k] is task k's program, or the group's
		var err error
		for k := range progs {
			cp.inst = instance(gi, k)
			if progs[k], err = cp.compileProgram(gi, g.Program); err != nil {
				return fmt.Errorf("workload.groups[%d].program: %w", gi, err)
			}
		}
		s.timerSlack[gi] = int64(scenario.DefaultTimerSlack)
		if g.TimerSlack != nil {
			s.timerSlack[gi] = int64(*g.TimerSlack)
		}
		if g.Policy.RT() { // __setscheduler_params() zeroes an RT task's timer_slack_ns, which hrtimer_nanosleep() uses
			s.timerSlack[gi] = 0
		}
		s.repartition[gi] = int64(g.RepartitionCost)
		allowed := topo.NewCPUSet(n)
		if g.CPUs == "" {
			for c := 0; c < n; c++ {
				allowed.Set(topo.CPU(c))
			}
		} else if allowed, err = groupCPUList(gi, "cpus", g.CPUs, n); err != nil {
			return err
		}
		nrAllowed := allowed.Weight()
		maxCap := 0
		for c := allowed.First(); c.Valid(); c = allowed.Next(c) {
			maxCap = max(maxCap, s.t.CPUs[c].Capacity)
		}
		mask := allowed.CPUs()
		groupCPUs[gi] = mask
		parentPool[gi], s.parentMask[gi] = mask, allowed
		if g.ParentCPUs != "" {
			pool, err := groupCPUList(gi, "parent_cpus", g.ParentCPUs, n)
			if err != nil {
				return err
			}
			parentPool[gi], s.parentMask[gi] = pool.CPUs(), pool
		}
		if g.ParentCPU != nil { // the parent is pinned there
			s.parentMask[gi] = topo.NewCPUSet(n)
			s.parentMask[gi].Set(topo.CPU(*g.ParentCPU))
		}
		// copy_process(): every task gets a pid of its own; a thread
		// (CLONE_THREAD) keeps its creator's tgid, a process is its own
		// thread group. The threads of a group share the pid of the
		// group's first task, or, when one parent forks every group
		// (shared_parent), of the first thread it created: perf bench's
		// pthread_create()d workers are all threads of perf's process.
		tgid := pid
		if w.SharedParent && !g.Process {
			if sharedTgid == 0 {
				sharedTgid = pid
			}
			tgid = sharedTgid
		}
		for k := 0; k < g.Count; k++ {
			p := &task{id: len(s.tasks), group: gi, pid: pid, tgid: tgid, name: fmt.Sprintf("%s/%d", g.Name, k),
				weight: niceWeight(g.Nice), allowed: allowed, nrAllowed: nrAllowed, maxAllowedCap: maxCap,
				recentUsedCPU: -1, lastWakee: -1, decision: -1, onRunCPU: -1,
				execStart: execStartCold} // __sched_fork(): exec_start = 0
			if g.Pin == scenario.PinEach {
				// sched_setaffinity(CPU mask[k mod weight]) before the task runs.
				cpu := mask[k%len(mask)]
				p.allowed = topo.NewCPUSet(n)
				p.allowed.Set(cpu)
				p.nrAllowed, p.maxAllowedCap = 1, s.t.CPUs[cpu].Capacity
			}
			if g.Process {
				p.tgid = p.pid
			}
			pid++
			p.slice = s.baseSlice
			if g.Slice != nil { // sched_setattr(sched_runtime): se->custom_slice
				p.slice = int64(*g.Slice)
			}
			switch g.Policy {
			case scenario.PolicyIdle: // set_load_weight(): WEIGHT_IDLEPRIO whatever static_prio
				p.idlePolicy, p.weight = true, weightIdlePrio
				s.schedIdleTasks = true
			case scenario.PolicyBatch:
				p.batchPolicy = true
			}
			if g.Policy.RT() { // sched_setscheduler(SCHED_FIFO or SCHED_RR, rt_priority)
				p.rtPrio, p.rr = g.RTPriority, g.Policy == scenario.PolicyRR
				p.rrLeft = s.rrTimeslice() // sched_fork(): p->rt.time_slice = sched_rr_timeslice
			}
			p.stack = make([]frame, 1, 4)
			p.stack[0] = frame{body: progs[min(k, len(progs)-1)], pool: -1}
			s.tasks = append(s.tasks, p)
			s.groupAlive[gi]++
			s.alive++
		}
		s.q.push(event{at: int64(g.Start), kind: evFork, a: int32(gi)})
	}
	// copy_process() with CLONE_FILES (a thread) shares its creator's
	// files_struct: files->count is the number of threads of the process
	threads := make(map[int]int, len(s.tasks))
	for _, p := range s.tasks {
		threads[p.tgid]++
	}
	for _, p := range s.tasks {
		p.filesShared = threads[p.tgid] > 1
	}
	s.parentCPU = drawParentCPUs(w.Groups, parentPool, s.seed, w.SharedParent)
	for i := 0; i < cp.nBar; i++ {
		s.barrierList = append(s.barrierList, &barrierState{arrived: make([]*task, 0, len(s.tasks))})
	}
	for i, c := range cp.chanCap {
		ch := &chanState{capacity: c}
		if k := cp.chanKind[i]; k != scenario.IPCNone {
			ch.ipc = newIPCChan(k, cp.chanBytes[i], &s.r.Machine.IPC)
		}
		s.chanList = append(s.chanList, ch)
	}
	s.pools = append([]int(nil), cp.poolTot...)
	s.timedNames = cp.timedNames
	s.m.timed = make([]timedAcc, len(cp.timedNames))
	return nil
}

// finish closes open run and mode intervals at stop (state is left as is).
func (s *sim) finish(stop int64) {
	s.now = stop
	for i := range s.cpus {
		c := &s.cpus[i]
		if c.curr != nil {
			s.syncCPU(c)
			s.m.runSpan(s, c.curr, i, c.curr.runStart, stop, OutRunning)
			c.curr.runStart = stop
		}
	}
	for k := range s.cores {
		kc := &s.cores[k]
		s.m.modeSpan(s, k, Mode(kc.mode), kc.modeSince, stop)
		kc.modeSince = stop
	}
}

// timeline completes and returns the recorded timeline.
func (s *sim) timeline() *Timeline {
	if s.tr == nil {
		return nil
	}
	s.tr.tl.EndNs = s.stopAt
	s.tr.tl.NoDecisions = s.opt.NoDecisions
	s.tr.tl.Tasks = make([]TaskInfo, len(s.tasks))
	for i, p := range s.tasks {
		s.tr.tl.Tasks[i] = s.taskInfo(p)
	}
	return &s.tr.tl
}

// groupCPUList parses a group's cpulist field for a machine of n CPUs; it
// must select at least one CPU (the decoder checked both already).
func groupCPUList(gi int, field, list string, n int) (topo.CPUSet, error) {
	set, err := topo.ParseCPUList(list, n)
	if err != nil {
		return set, fmt.Errorf("workload.groups[%d].%s: %w", gi, field, err)
	}
	if set.Weight() == 0 {
		return set, fmt.Errorf("workload.groups[%d].%s: no CPU of this machine", gi, field)
	}
	return set, nil
}

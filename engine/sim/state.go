package sim

import (
	"math/rand/v2"

	"schedplay/engine/scenario"
	"schedplay/engine/topo"
)

// taskState is where a task is in its life.
type taskState uint8

const (
	taskNew      taskState = iota // not forked yet
	taskRunnable                  // queued on a rq, not running
	taskRunning                   // rq->curr
	taskBlocked                   // sleeping (timer, futex, pipe)
	taskWaking                    // woken, on its way to the target rq (ttwu latency)
	taskDone                      // program finished (exited)
)

// execStartCold is a task's exec_start when it has not run since it was
// forked or migrated (the kernel's 0, far behind rq_clock_task), so
// task_hot() finds it cold whatever the simulated time.
const execStartCold int64 = -1 << 62

// frame is one level of a task's program stack (repeat/pool/periodic/timed bodies).
type frame struct {
	body  []op
	pc    int
	left  int   // repeat iterations left (after the current one)
	pool  int   // pool index, or -1
	per   bool  // periodic body
	every int64 // periodic period
	next  int64 // periodic: next absolute expiry
	count int   // periodic: iterations left (-1 = forever)
	// skipMissed: periodic, cyclictest's catch-up (scenario.Periodic.SkipMissed)
	skipMissed bool
	timed      int   // timed section: its index + 1 (0 = not a timed section)
	start      int64 // timed section: when the task entered it (taskClock)
}

// task is a task_struct with its sched_entity and its program.
type task struct {
	id, group     int
	pid, tgid     int // task->pid (unique per task) and task->tgid (its thread group)
	name          string
	weight        int64
	allowed       topo.CPUSet
	nrAllowed     int
	maxAllowedCap int

	state   taskState
	cpu     int // task_cpu(): current or last CPU
	wakeCPU int

	// program interpreter
	stack     []frame
	remaining float64 // reference-ns of work left in the current compute step
	// wakeStallUntil is when the wake-ups the running task issued in its
	// last step are paid for (endWakeBatch); its next step waits for it
	wakeStallUntil int64
	// pollExit is the channel whose poll() wake-up the task still has to
	// leave through poll_freewait() when it runs (pollFreewait)
	pollExit    *chanState
	spinning    bool
	delayed     bool // se->sched_delayed: asleep but still queued (DELAY_DEQUEUE)
	spinEnd     int64
	blockOn     int8 // what it waits on (for spin fall-through)
	blockID     int
	granted     bool // the object it waits on released it
	ipcWaited   bool // it slept in its current pipe/socket call (pipe_write()'s wake_next_writer)
	filesShared bool // other threads share its files_struct (files->count > 1): fdget() takes references
	// userMode: it runs user code (a compute step or a user-space spin),
	// not a kernel path; sysret: its last step was a system call, so its
	// next step starts with the return to user space (PREEMPT_LAZY's
	// preemption point)
	userMode, sysret bool
	// pipe->mutex (mutex.go): the lock it spins or sleeps on, the lock it
	// holds, whether it is on that lock's wait_list, and whether its spin
	// was broken by a reschedule (it tries once, then sleeps)
	mutexOn, mutexHeld     *ipcChan
	mutexWaiter, mutexSlow bool
	// a pipe call's wake-ups, due after __pipe_unlock() (pipeWakes)
	pipeWakeReader, pipeWakeSync    bool
	pipeWakeNextWriter              bool
	pipeWasFull, pipeWakeNextReader bool
	requested                       float64
	done                            float64

	// EEVDF (sched_entity)
	vruntime, deadline, vlag, relDeadline int64
	slice                                 int64
	protect                               int64 // deadline at pick (RUN_TO_PARITY, 6.12)
	protected                             bool
	vprot                                 int64  // se->vprot (VPROT): protected while vruntime < vprot
	execStart                             int64  // last time it started running (task_hot); execStartCold: never, or migrated since
	cfsPos                                uint64 // place in rq->cfs_tasks: larger is nearer the head
	sumExec                               int64
	placed                                bool
	// CFS (EEVDF off): sum_exec_runtime at the last pick
	// (prev_sum_exec_runtime), and 1 + the CPU whose min_vruntime its
	// vruntime counts from (0: none yet; vrNormalised: relative, between
	// detach_task() and attach_task())
	prevSumExec int64
	vrRq        int

	// PELT, util_est
	avg     peltAvg
	utilEst int
	// utilEstUnchanged is util_est's UTIL_AVG_UNCHANGED: set by
	// util_est_update(), cleared when the task's averages move
	utilEstUnchanged bool

	// wake-up bookkeeping
	wakeeFlips      int
	batchWaker      *task // the task whose wake batch issues p's deferred try_to_wake_up()
	wakeeFlipDecay  int64 // wakee_flip_decay_ts, in jiffies
	lastWakee       int
	recentUsedCPU   int
	wakeIssued      int64 // when the wake-up (or timer expiry) happened
	timerSoft       int64 // the soft expiry of its sleep or period timer
	wakeReq         int64 // when the waker started the wake-up batch
	recordLatency   bool
	periodicLatency bool
	decision        int // decision index that placed it (timeline), -1 none
	runStart        int64
	cpuSince        int64 // when it last got its CPU (repartitionLoss; runStart restarts at the warm-up)
	sleepStart      int64
	onRunCPU        int // CPU it is running on (-1)
	runtime         int64

	// the real-time class (rt.go): sched_priority 1..99 of a SCHED_FIFO or
	// SCHED_RR task, 0 for SCHED_OTHER; SCHED_RR's slice left, in ticks
	rtPrio int
	rr     bool
	rrLeft int
	rrTail bool // its SCHED_RR slice ran out: put_prev_task_rt() queues it at the tail

	// the fair class's other policies (sched_idle.go): SCHED_IDLE
	// (task_has_idle_policy()) and SCHED_BATCH; neither is normal_policy()
	idlePolicy, batchPolicy bool
}

// normalPolicy is normal_policy(p->policy): SCHED_OTHER.
func (p *task) normalPolicy() bool { return !p.idlePolicy && !p.batchPolicy }

// cfsCurr is cfs_rq->curr: the running task when it is a fair one (an RT
// task running leaves the fair class without a current entity).
func (c *cpuState) cfsCurr() *task {
	if c.curr.isRT() {
		return nil
	}
	return c.curr
}

// nrTasks is rq->nr_running without the kernel noise's kworker: the fair
// tasks (queued, running or delayed) and the real-time ones, unless c's RT
// class is throttled (6.1's RT_THROTTLING): sched_rt_rq_dequeue() →
// dequeue_top_rt_rq() takes rt_nr_running off rq->nr_running, and RT
// enqueues while throttled leave it off (enqueue_top_rt_rq()), until the
// period timer's sched_rt_rq_enqueue() adds them back.
func (c *cpuState) nrTasks() int {
	if c.rtThrottled {
		return c.nrRunning
	}
	return c.nrRunning + c.rtNr
}

// isRT reports a task of the real-time class (rt_task()).
func (p *task) isRT() bool { return p != nil && p.rtPrio > 0 }

// cpuState is one CPU: its struct rq with the fair class state.
type cpuState struct {
	id, core, thread, node int
	cap                    int // capacity_orig (cpu_scale)
	speed                  float64
	prio                   int

	curr *task   // rq->curr: the running task, of either class
	rq   []*task // queued, not running
	// rtq is rq->rt: the queued real-time tasks, highest priority first,
	// each priority's in FIFO order (rt.go); rtNr counts them and a
	// running one (rt_nr_running)
	rtq []*task
	// rtqAhead is a task check_preempt_equal_prio() requeued at the head of
	// its priority's list, ahead of the running curr, until the next pick
	// (pickNextTask clears it)
	rtqAhead *task
	rtNr     int
	// rtTime is rt_rq->rt_time and rtThrottled rt_rq->rt_throttled
	// (RT_THROTTLING, rt_throttle.go): c's RT time in the current period,
	// and its RT class dequeued for going over the runtime
	rtTime        int64
	rtThrottled   bool
	rtThrottledAt int64 // when it was throttled (metrics)
	// distPrev is distribute_cpu_mask_prev: where this CPU's next
	// cpumask_any_and_distribute() starts (find_lowest_rq())
	distPrev int
	// rtPushable counts rq->rt.pushable_tasks: the queued RT tasks that
	// may run elsewhere; rq->rt.overloaded while it is above 0 (rt_push.go)
	rtPushable int
	// idleNr is cfs.h_nr_idle (idle_h_nr_running): c's SCHED_IDLE tasks,
	// queued, running or delayed (sched_idle.go)
	idleNr int
	// rtPullPrio is the rt_priority of the RT task that has just left c
	// by sleeping or exiting, for the balance_rt() of the schedule() that
	// follows (0: prev was no RT task)
	rtPullPrio int
	// delayedPrev is the task that has just blocked as a delayed entity
	// (set_delayed()): it is still cfs_rq->curr for the pick that follows,
	// until put_prev_entity() (pickEEVDF()).
	delayedPrev *task
	nrRunning   int   // rq->nr_running incl. curr and delayed tasks (h_nr_queued)
	nrDelayed   int   // h_nr_delayed: queued tasks that sleep (h_nr_runnable = nrRunning - nrDelayed)
	loadWeight  int64 // cfs_rq->load.weight
	pending     int   // wake-ups on their way (ttwu_pending)
	stallUntil  int64 // no progress before this (ctx switch, housekeeping)
	hkBusy      bool  // kernel noise (kworker): the CPU is not idle
	hkEnd       int64
	irqBusy     bool // softirq on the idle task (ILB): the PE is busy, the CPU still idle
	irqEnd      int64
	lastUpd     int64
	rate        float64

	// CFS (EEVDF off): cfs_rq->min_vruntime and the next/last buddies
	minVruntime          int64
	nextBuddy, lastBuddy *task

	avg        peltAvg
	avgRT      peltAvg     // rq->avg_rt: the RT class's running time (rt_pressure.go)
	capacity   int         // rq->cpu_capacity (capacity_of()): cap less the RT pressure at the last update_cpu_capacity()
	removed    removedLoad // cfs_rq->removed: left by wake-up migrations, taken off at the next update
	pelt       rqPeltClock // rq->clock_pelt and lost_idle_time (modern PELT)
	zeroV      int64       // V kept while the rq is empty (zero_vruntime)
	utilEstSum int
	misfitLoad int64
	// the root cfs_rq's h_load and last_h_load_update (jiffies):
	// update_cfs_rq_h_load() refreshes it at most once a jiffy (taskHLoad)
	hLoad      uint64
	hLoadJiffy int64

	tickOn             bool
	nohzIdle           bool
	idleStamp          int64
	hasBlockedLoad     bool  // rq->has_blocked_load
	lastBlockedTick    int64 // rq->last_blocked_load_update_tick (jiffies)
	newilbKick         bool  // NOHZ_NEWILB_KICK pending for do_idle()
	avgIdle            int64
	maxIdleBalanceCost int64 // rq->max_idle_balance_cost: ns, at least sysctl_sched_migration_cost
	nextBalance        int64 // jiffies
	// needResched is TIF_NEED_RESCHED of rq->curr (the idle task's when
	// idle): set by resched_curr(), cleared by __schedule()
	needResched bool
	// needReschedLazy is TIF_NEED_RESCHED_LAZY of rq->curr (PREEMPT_LAZY):
	// set by resched_curr_lazy() with no IPI, acted on at curr's return to
	// user space (lazyPreemptPoint), cleared by __schedule()
	needReschedLazy bool
	lastTgid        int // tgid of the last task run: an mm switch when it changes
	lastTaskTime    int64
	cfsSeq          uint64 // last cfs_tasks stamp handed out (cfsListHead)

	sd []sdState // per domain of the chain (bottom-up)

	activeBalance bool     // rq->active_balance: a stopper is queued
	stopPath      []string // the decision path that queued the stopper (tracing)
	inIdle        bool     // running the idle task
	schedPrev     bool     // inside __schedule() with rq->curr still a task (prev, the stopper, the parent): idle_cpu() is false
	idleState     int      // cpuidle state entered (0 = WFI, k = machine.latency.idle_states[k-1])
	idlePredict   int64    // the governor's predicted idle time (an average of past idle periods)
	idleEnter     int64    // when the idle task last became rq->curr: the governor's idle period starts

	fs fairServer // rq->fair_server (dl_server.go)
}

// sdState is the mutable part of one CPU's sched_domain.
type sdState struct {
	balanceInterval  int // ms
	lastBalance      int64
	nrBalanceFailed  int
	maxNewidleLBCost int64
	lastDecayMaxLB   int64 // jiffies
	newidleCall      int
	newidleSuccess   int
	newidleRatio     int
	newidleStamp     int64        // sd->newidle_stamp (NI_RATE): when newidle_ratio was last computed
	spanSums         int32        // the group-sums ID of the domain's span (domainSpanSums), -1 none
	cpuPair          bool         // two groups of one CPU each (cpuPair)
	smtFinal         bool         // span sums and no SD_ASYM_PACKING (no asym_prefer_cpu; smtBusiestCanBeFinal)
	intervalJiffies  [2]msJiffies // getSdBalanceInterval()'s last idle and busy conversions
}

// coreState is one physical core for the SMT performance model.
type coreState struct {
	cpus           []int // thread order
	node           int
	busy           uint32 // bit per thread
	taskBusy       uint32
	hw2T           bool  // hardware in partitioned (2T/SMTn) mode
	owner          int   // ST owner thread
	foldMode       int   // folding: threads in the current mode
	lastTransition int64 // last ST↔2T change
	holdUntil      int64 // end of T_hold after a task took over from the other PE
	switchUntil    int64
	idleSince      []int64
	lastTaskThread int
	lastTaskIdle   int64
	mode           uint8 // displayed Mode
	modeSince      int64
	factor         []float64 // per-thread rate factor
}

// llcState is a sched_domain_shared: the LLC's, or under
// SMT_AWARE_ASYM_CAPACITY a wider asym domain's (sim.shared).
type llcState struct {
	hasIdleCores bool
	nrIdleScan   int
	nrBusyCPUs   int
}

// barrierState is a futex-like barrier of one group.
type barrierState struct {
	arrived []*task
}

// chanState is a pipe/socket-like channel.
type chanState struct {
	msgs      int
	capacity  int
	receivers []*task  // blocked receivers, FIFO
	senders   []*task  // blocked senders (buffer full)
	ipc       *ipcChan // the kernel object (ipc kind), nil for an abstract channel
	// pollLockFree is when the poll wait queue's lock is free again and
	// pollLockCPU the CPU that held it last (pollWake, pollFreewait)
	pollLockFree int64
	pollLockCPU  int
}

// sim is one repetition's whole state.
type sim struct {
	r   *scenario.Resolved
	t   *topo.Topology
	opt Options
	rng *rand.Rand
	// costs draws the per-event variation of kernel-path costs (ipc.go);
	// a stream of its own, so the other draws are where they were.
	costs costVariation
	mx    mutexStats // what pipe->mutex did (mutex.go)
	now   int64
	end   int64
	q     eventQueue
	seed  uint64

	cpus  []cpuState
	cores []coreState
	llcs  []llcState // indexed by sd_llc_id
	// shared is each CPU's sched_domain_shared for idle selection and
	// SIS_UTIL (the tip's sd_balance_shared), held by sharedDom: the
	// LLC's (an element of llcs), or under SMT_AWARE_ASYM_CAPACITY that of
	// a non-NUMA sd_asym_cpucapacity wider than the LLC (an element of
	// asymShared, by the first CPU of its span). initShared sets them.
	shared        []*llcState
	sharedDom     []*topo.Domain
	asymShared    []llcState
	tasks         []*task
	nodeBusyCores []int
	nodeCores     []int
	nodeBoost     []float64
	nodeFreqScale []uint64 // arch_scale_freq_capacity() of the node's CPUs (of 1024)
	nodeLine      []int64  // a cache line's transfer between two nodes, by from·nodes+to (initNodeLines)
	boostMax      float64  // the boost curve's largest multiplier: highest_perf's frequency

	barrierList []*barrierState
	chanList    []*chanState
	pools       []int
	groupAlive  []int

	// configuration
	tickNs       int64
	timerSlack   []int64 // per group: its tasks' timer_slack_ns
	repartition  []int64 // per group: work lost when the core goes ST → 2T (repartitionLoss)
	pmQoS        int64   // cpu_dma_latency limit on idle exit latency (-1 none)
	baseSlice    int64
	migCost      int64
	peltMode     scenario.PELTMode
	utilEst      bool
	utilEstRun   bool // util_est_update()'s runnable check (UTIL_EST_RUNNABLE)
	feat         scenario.Features
	delayDequeue bool // DELAY_DEQUEUE
	hNrRunnable  bool // load balancing reads h_nr_runnable (H_NR_RUNNABLE)
	asymCapSMTLB bool // Neri's asym-capacity load balancing (ASYM_CAPACITY_SMT_LB)
	preemptLazy  bool // the PREEMPT_LAZY preemption model (EEVDF only)
	smtActive    bool
	rdMaxCap     int // rd->max_cpu_capacity: the largest capacity of the root domain

	// The load balancer's forms of 6.5-6.12 (on) against 6.1's (off):
	// LB_SMT_BALANCE, LB_SIBLING_IMBALANCE, LB_UTIL_BOOST, SWB_IDLE_CORE,
	// MISFIT_MAX_ALLOWED_CAP, BUSIEST_TIE_KEEPS_FIRST, LB_ASYM_USE_PRIO,
	// MISFIT_FAIL_UNCOUNTED.
	lbSMTBalance, lbSiblingImbalance, lbUtilBoost, swbIdleCore, misfitMaxAllowedCap, busiestTieKeepsFirst bool
	lbAsymUsePrio, misfitFailUncounted                                                                    bool
	// sdAsymPacking is per_cpu(sd_asym_packing): topo's (6.12's
	// highest_flag_domain()), or under 6.1 (LB_ASYM_USE_PRIO off, where
	// SD_ASYM_PACKING is SDF_SHARED_CHILD) the top of the unbroken run of
	// SD_ASYM_PACKING domains from the CPU's lowest.
	sdAsymPacking []*topo.Domain

	asymCapActive bool
	// sisCluster: sched_cluster_active under the cluster-aware
	// select_idle_sibling() of 6.8 (SIS_CLUSTER; 6.1 had none)
	sisCluster    bool
	warmup        int64
	maxLBInterval int64 // jiffies
	// idleRetainsTick: the cpuidle driver has a single state (WFI, no
	// machine.latency.idle_states), so an idle CPU keeps its tick until
	// the tick wakes it.
	idleRetainsTick bool
	// smIdle: __schedule(SM_IDLE) (policy.features.SM_IDLE)
	smIdle bool
	// schedIdleTasks: some task is SCHED_IDLE, so a CPU may be
	// sched_idle_cpu() and the idle scans cannot read the idle mask alone
	schedIdleTasks bool
	hk             *topo.Housekeeping
	irqs           *topo.DeviceIRQs // machine.device_irqs (nil: none)
	irqTarget      []int32          // each vector's CPU: the first of its group (initDeviceIRQs)
	// cfs: EEVDF off, the CFS of 6.1 (cfs.go), with its tunables scaled
	// like the kernel's (SCHED_TUNABLESCALING_LOG): sysctl_sched_latency,
	// _min_granularity, _wakeup_granularity
	cfs                                   bool
	cfsLatency, cfsMinGran, cfsWakeupGran int64
	// vprot: the slice protection of 6.17 and later (VPROT, EEVDF only)
	vprot bool
	// fairServer: the fair deadline server (FAIR_SERVER, dl_server.go);
	// dlServerIdle: its 6.19 idle handling (DL_SERVER_IDLE)
	fairServer, dlServerIdle bool
	// rtThrottling: 6.1's RT bandwidth control (RT_THROTTLING,
	// rt_throttle.go), with def_rt_bandwidth's period timer: running
	// (rt_period_active), started from CPU rtPeriodCPU
	rtThrottling, rtPeriodActive bool
	rtPeriodCPU                  int

	// nohz
	nohzNextBalance int64
	nohzNeedsUpdate bool // nohz.needs_update: a CPU entered nohz idle since the last ILB pass
	nohzIdleCount   int
	nohzIdleMask    topo.CPUSet // nohz.idle_cpus_mask: the CPUs with cpuState.nohzIdle
	ilbPending      bool
	ilbCPU          int   // the pending ILB
	ilbFlags        uint8 // its kick flags (nohzBalanceKick, nohzStatsKick, nohzNextKick)
	nohzHasBlocked  bool  // nohz.has_blocked
	nohzNextBlocked int64 // nohz.next_blocked (jiffies)

	alive         int
	wakeBatch     int
	wakeBatchCost int64 // the waker's CPU time for the batch's wake-ups so far (wakerCost)
	budget        int64
	err           error
	forksLeft     int
	parentCPU     []int         // per group: the CPU its parent is exec'ed on, then forks from (fork.go)
	parentMask    []topo.CPUSet // per group: the CPUs its parent may run on (sched_exec())
	parentExeced  bool          // workload.shared_parent: the one parent has been exec'ed
	parent        task          // the forking parent's entity while it is on a CPU
	stopped       bool
	stopAt        int64
	finished      int64
	events        int64

	rdOverloaded bool
	rto          rtoState // the root domain's RT-overload state (rt_push.go)

	m          repAcc
	timedNames []string // timed-section names by index (timed.go)
	tr         *tracer
	tracing    bool
	path       []string
	lbPrefix   []string // how this balance pass was reached (tracing)
	lbDstNotes []string // the pass's LBF_DST_PINNED rounds (tracing)
	detached   []*task  // env->tasks: detach_tasks()'s list, in detach order

	activityDepth int // startActivity() calls on the stack (maxActivityDepth)
	ilbWhy        string
	scanGen       uint32
	coreMark      []uint32
	lbExcluded    topo.CPUSet // scratch: env->cpus cleared by all-pinned passes
	// sgcImbalance is sgc->imbalance by Group.SGC; sgcImbalanced counts
	// the set ones (none: group_classify() need not look).
	sgcImbalance  []bool
	sgcImbalanced int
	// sgcCap is each sched_group_capacity's capacity (rt_pressure.go),
	// sgcStatic its value at build time; sgcCapDiffer counts the groups
	// and nrCapReduced the CPUs whose capacity differs from it.
	sgcCap       []sgcCapacity
	sgcStatic    []sgcCapacity
	sgcCapDiffer int
	nrCapReduced int
	capReduced   topo.CPUSet // the nrCapReduced CPUs
	gs           groupSums   // update_sg_lb_stats()'s sums per group span
	im           idleMask    // the CPUs available_idle_cpu() holds for

	// tracing detail (trace_detail.go)
	scan        scanTrace
	lbGroups    []lbGroupRec
	lbImbalance int64 // env.imbalance as calculate_imbalance() left it
}

package scenario

import (
	"encoding/json"

	"schedplay/engine/topo"
	"schedplay/engine/units"
)

// Version is the scenario format version this package reads and writes.
const Version = 1

// Scenario is the document of scenario-v1.md as written by a user, a preset
// file, an API body or a share link. Sections are kept as JSON objects
// because each may name a "preset" and override any of its fields; Resolve
// merges them and decodes the result strictly into the typed sections.
type Scenario struct {
	Schedplay int    `json:"schedplay"`
	Name      string `json:"name,omitempty"`
	// Preset names a scenario preset this document starts from; its sections
	// are then overrides of the preset's (schedplay addition).
	Preset   string          `json:"preset,omitempty"`
	Machine  json.RawMessage `json:"machine,omitempty"`
	Policy   json.RawMessage `json:"policy,omitempty"`
	Workload json.RawMessage `json:"workload,omitempty"`
	Run      json.RawMessage `json:"run,omitempty"`
}

// Resolved is a scenario with every preset expanded, every override applied,
// defaults filled and every field validated: what the engine runs.
type Resolved struct {
	Name     string       `json:"name,omitempty"`
	Machine  topo.Machine `json:"machine"`
	Policy   Policy       `json:"policy"`
	Workload Workload     `json:"workload"`
	Run      Run          `json:"run"`

	// defaulted is set once the defaults are filled (by Resolve, from the
	// document's own fields): WithDefaults then keeps explicit zeros.
	defaulted bool
	// topology is the built topology (Topology), shared by copies.
	topology *builtTopology
}

// Policy is the "policy" section. Domain-shaping fields come from
// topo.DomainPolicy (inlined); the rest steers the simulated fair class.
type Policy struct {
	topo.DomainPolicy
	// Generation names the fair.c generation this policy models
	// (presets/generation): its feature flags and function forms are the
	// defaults under Features. Empty: the Features defaults.
	Generation string `json:"generation,omitempty"`
	// IdleSelectAsym is the v6 idle-selection change: after the core is
	// chosen, take its highest-priority idle sibling (select_idle_smt_cpu()).
	IdleSelectAsym bool `json:"idle_select_asym,omitempty"`
	// Features are scheduler features (features.h) and kernel-generation
	// switches; absent entries keep the defaults of Features.
	Features Features `json:"features,omitzero"`
	// HZ is the tick rate (default 250).
	HZ int `json:"hz,omitempty"`
	// BaseSlice is sysctl_sched_base_slice before the ilog2 scaling (default 700us).
	BaseSlice units.Duration `json:"base_slice,omitempty"`
	// MigrationCost is sysctl_sched_migration_cost (default 500us).
	MigrationCost units.Duration `json:"migration_cost"`
}

// Features are the scheduler feature switches that matter here. Pointer
// fields distinguish "not set" (kernel default) from an explicit value;
// use the accessor methods (On) in the engine.
type Features struct {
	SISUtil      *bool `json:"SIS_UTIL,omitempty"`
	WakeAffine   *bool `json:"WAKE_AFFINE,omitempty"`
	WAIdle       *bool `json:"WA_IDLE,omitempty"`
	WAWeight     *bool `json:"WA_WEIGHT,omitempty"`
	WABias       *bool `json:"WA_BIAS,omitempty"`
	RunToParity  *bool `json:"RUN_TO_PARITY,omitempty"`
	PreemptShort *bool `json:"PREEMPT_SHORT,omitempty"`
	PlaceLag     *bool `json:"PLACE_LAG,omitempty"`
	UtilEst      *bool `json:"UTIL_EST,omitempty"`
	NIRandom     *bool `json:"NI_RANDOM,omitempty"`
	// NIRate is NI_RATE (9fe89f022c05, tip sched/core Feb 2026, Linux
	// 7.1; not in 6.12): update_newidle_stats() adds the time its last 512
	// newidle calls took (>> 22, ns) to the success count, so a domain that
	// balances newidle at under 128 Hz keeps newidle_ratio at 1024.
	NIRate   *bool `json:"NI_RATE,omitempty"`
	NohzIdle *bool `json:"NOHZ_IDLE,omitempty"`
	// DelayDequeue is DELAY_DEQUEUE (6.12: on): a task that sleeps while
	// ineligible stays queued until it is picked or woken.
	DelayDequeue *bool `json:"DELAY_DEQUEUE,omitempty"`
	// HNrRunnable selects the load balancer's reading of delayed tasks
	// (6.14: "Use the new cfs_rq.h_nr_runnable", "Do not try to migrate
	// delayed dequeue task"): true counts h_nr_runnable in
	// update_sg_lb_stats() and sched_balance_find_src_rq() and leaves
	// delayed tasks alone unless migrating load; false is 6.12's
	// h_nr_queued with delayed tasks migratable.
	HNrRunnable *bool `json:"H_NR_RUNNABLE,omitempty"`
	// AsymCapacitySMTLB is Ricardo Neri's asym-capacity load-balancing
	// series (tip sched/core Aug 2026, Linux 7.3): with SD_ASYM_CPUCAPACITY,
	// update_sg_lb_stats() counts a group's misfit load only when the
	// destination's capacity is greater than the group's largest, and
	// sched_balance_find_src_rq() no longer skips a CPU running one task
	// of similar capacity whose SMT sibling is busy (or, with clusters,
	// whose capacity equals the destination's). Off in every generation
	// (docs/model.md, "What tip-2026-09 does not have yet").
	AsymCapacitySMTLB *bool `json:"ASYM_CAPACITY_SMT_LB,omitempty"`
	// LBSMTBalance is the group_smt_balance of Linux 6.6 (Tim Chen's "sched/fair:
	// Determine active load balance for SMT sched groups" and the rules
	// that came with it): a non-local SMT group running more than one task
	// beside an idle destination is group_smt_balance (smt_balance()),
	// ranked between misfit and asym packing, pulled from with one task;
	// update_sd_pick_busiest() keeps a fully_busy SMT group on an avg_load
	// tie and prefers, among has_spare groups, an SMT group running two
	// tasks over a non-SMT one (smt_vs_nonsmt_groups()). false is 6.1's
	// classification, where such a core is has_spare, fully_busy or
	// overloaded and a fully_busy group replaces the busiest only on a
	// greater avg_load.
	LBSMTBalance *bool `json:"LB_SMT_BALANCE,omitempty"`
	// LBSiblingImbalance is the prefer-sibling rule of Linux 6.6
	// (sibling_imbalance(), which normalises by the groups' cores) with
	// prefer_sibling read from the busiest group's flags (6.5, Ricardo
	// Neri's "Avoid unnecessary migrations within SMT domains"): calculate_imbalance()
	// and sched_balance_find_src_group()'s force test take the task-count
	// difference scaled by the groups' cores, 0 for a busy destination.
	// false is 6.1's: prefer_sibling from the balanced domain's child
	// (sd->child->flags & SD_PREFER_SIBLING) and the plain difference
	// busiest − local sum_nr_running, whatever the destination.
	LBSiblingImbalance *bool `json:"LB_SIBLING_IMBALANCE,omitempty"`
	// LBUtilBoost is runnable boosting in the load balancer (Linux 6.5,
	// Dietmar Eggemann's "sched/fair, cpufreq: Introduce 'runnable
	// boosting'"): under migrate_util sched_balance_find_src_rq() compares
	// cpu_util_cfs_boost(), the larger of a CPU's util_avg and
	// runnable_avg. false is 6.1's cpu_util_cfs().
	LBUtilBoost *bool `json:"LB_UTIL_BOOST,omitempty"`
	// SWBIdleCore is should_we_balance()'s idle-core preference (Linux
	// 6.6): above the SMT level the first idle CPU of a fully idle core
	// balances the group, else the first idle CPU of a busy core. false is
	// 6.1's: the first idle CPU, else the group's first CPU.
	SWBIdleCore *bool `json:"SWB_IDLE_CORE,omitempty"`
	// MisfitMaxAllowedCap is update_misfit_status()'s exemption of a task
	// already on the largest capacity its affinity allows
	// (p->max_allowed_capacity, Linux 6.10), with nohz_balancer_kick()
	// kicking for any misfit load. false is 6.1's: such a task is misfit
	// too, and the kick's check_misfit_status() asks for a CPU below the
	// root domain's largest capacity.
	MisfitMaxAllowedCap *bool `json:"MISFIT_MAX_ALLOWED_CAP,omitempty"`
	// BusiestTieKeepsFirst is update_sd_pick_busiest() keeping the first
	// of two asym-packing groups of equal priority and of two misfit
	// groups of equal misfit load (6.12; the asym-packing tie since David
	// Vernet's "sched/fair: Simplify some logic in update_sd_pick_busiest()",
	// Linux 6.9). false is 6.1's: the later group wins both ties
	// ("if (sched_asym_prefer(sg, busiest)) return false; break;" and
	// "if (misfit load < busiest's) return false; break;").
	BusiestTieKeepsFirst *bool `json:"BUSIEST_TIE_KEEPS_FIRST,omitempty"`
	// LBAsymUsePrio is asym packing's sched_use_asym_prio() (Linux 6.5,
	// Ricardo Neri's "Avoid unnecessary migrations within SMT domains"): above
	// the SMT level a CPU uses its priority only when its core is idle,
	// in sched_group_asym(), sched_balance_find_src_rq(),
	// asym_active_balance() and nohz_balancer_kick(), and a lower-priority
	// CPU may help an SMT core with busy siblings. false is 6.1's:
	// asym_smt_can_pull_tasks() for SMT groups, priority alone elsewhere,
	// and sd_asym_packing found as an SDF_SHARED_CHILD flag.
	LBAsymUsePrio *bool `json:"LB_ASYM_USE_PRIO,omitempty"`
	// UtilEstRunnable is util_est_update()'s runnable check of Linux 6.12
	// ("sched/pelt: Avoid underestimation of task utilization", 2023): the
	// EWMA keeps its value when the task was runnable more than its util
	// (it waited for the CPU). false is 6.1's, which lowers it anyway.
	UtilEstRunnable *bool `json:"UTIL_EST_RUNNABLE,omitempty"`
	// MisfitFailUncounted keeps a failed migrate_misfit pass out of
	// sd->nr_balance_failed and from doubling sd->balance_interval (6.12).
	// false is 6.1's: every failed periodic pass counts, and backs off.
	MisfitFailUncounted *bool `json:"MISFIT_FAIL_UNCOUNTED,omitempty"`
	// SMTAwareAsymCapacity selects the TIP7 SMT-aware select_idle_capacity()
	// and asym_fits_cpu() (P1b "mainline"); false gives 6.12 behaviour (P1).
	SMTAwareAsymCapacity *bool `json:"SMT_AWARE_ASYM_CAPACITY,omitempty"`
	// AvgIdleAtIdleExit is 4b603f1551a7 ("sched: Update rq->avg_idle when
	// a task is moved to an idle CPU", tip Jan 2026, Linux 7.0) with its
	// idle_stamp guard (c6dcd97c8be7, Linux 7.3-rc2): update_rq_avg_idle()
	// runs in put_prev_task_idle(), whenever an idle CPU switches to a task
	// however it arrived (a wake-up, a fork, a balance pull, the stopper,
	// a kworker). false is 6.12's: ttwu_do_activate() takes the sample, so
	// a CPU given a task by any other path keeps its idle_stamp, and its
	// next wake-up counts the busy time since as idle.
	AvgIdleAtIdleExit *bool `json:"AVG_IDLE_AT_IDLE_EXIT,omitempty"`
	// FairServer is the fair deadline server (rq->fair_server, Linux 6.12,
	// deadline.c): per CPU a deferred SCHED_DEADLINE entity of 50 ms every
	// 1 s that runs fair tasks ahead of RT ones once the fair class has not
	// had its 50 ms by the period's zero-laxity point (dl_server_start(),
	// dl_server_update(), dl_server_timer(), pick_task_dl()). false is
	// 6.1's kernel, which has RT throttling there instead (RTThrottling).
	FairServer *bool `json:"FAIR_SERVER,omitempty"`
	// RTThrottling is 6.1's RT bandwidth control without
	// CONFIG_RT_GROUP_SCHED (kernel/sched/rt.c: def_rt_bandwidth,
	// sched_rt_runtime_us 950000 of sched_rt_period_us 1000000): each CPU's
	// RT tasks may run 950 ms of every 1 s period (update_curr_rt() →
	// sched_rt_runtime_exceeded()), then its RT class is throttled until
	// the period timer (sched_rt_period_timer()) pays the time back. 6.12
	// builds it only with CONFIG_RT_GROUP_SCHED, which Debian's configs
	// leave off: it has the fair server (FAIR_SERVER) instead.
	RTThrottling *bool `json:"RT_THROTTLING,omitempty"`
	// DLServerIdle is Peter Zijlstra's idle handling of the deferred
	// server (tip sched/core Nov 2025, Linux 6.19: "sched/deadline:
	// Document dl_server" and the dl_defer_idle state before it): idle
	// time is accounted by update_curr_idle() (at idle exit, the idle tick
	// and the server's timer, which updates curr first), and a server
	// whose runtime idle time used up waits for its timer and stops
	// (dl_defer_idle). false is 6.12.118's dl_server_update_idle_time() at
	// idle exit and at the first fair enqueue, with no stop from idle: the
	// timer of a CPU left idle activates the server and reschedules the
	// idle CPU.
	DLServerIdle *bool `json:"DL_SERVER_IDLE,omitempty"`
	// IdleRetainTick is do_idle()'s got_tick with a cpuidle driver of one
	// state or none (kernel/sched/idle.c, idle_call_stop_or_retain_tick(),
	// f4c31b07b136, in 6.12.117 and later): the first pass of the idle
	// loop keeps the tick, which is stopped only when it has fired in
	// idle. false is the kernels before it (the generation 6.1, which
	// models 6.1 as released and the 5.x kernels; the 6.1.y stable series
	// took it later, and 6.1.192 has it): the no-driver path calls
	// tick_nohz_idle_stop_tick() at every idle entry.
	// It applies only to a machine without deeper idle states
	// (machine.latency.idle_states).
	IdleRetainTick *bool `json:"IDLE_RETAIN_TICK,omitempty"`
	// SMIdle is __schedule(SM_IDLE) of Linux 6.12 (3dcac251b066,
	// kernel/sched/core.c): the idle task rescheduled with nothing queued
	// (rq->nr_running 0: a spurious resched, the fair server's timer)
	// keeps running without a pick, so no pick_next_task_fair() and no
	// newidle balance, and do_idle() re-enters its loop. false is the
	// kernels before it (the generation 6.1), whose schedule_idle() always
	// picks.
	SMIdle *bool `json:"SM_IDLE,omitempty"`
	// VProt is the slice protection of Vincent Guittot's series (tip
	// sched/core Jul 2025, Linux 6.17: 9cdb4fe20cd2, 74eec63661d4,
	// 9de74a9850b9, 052c3d87c82e, 3a0baa8e6c57, 0b9ca2dcabc3; set at pick
	// time only since bcd74b2ffdd0): set_protect_slice() keeps se->vprot =
	// min(deadline, vruntime + the shortest queued slice), or + the base
	// slice under NO_RUN_TO_PARITY; update_curr() reschedules whenever
	// vruntime has passed it; the wake-up check drops curr's protection
	// only to let a shorter-slice wakee in. false is 6.12's: protection
	// is vlag == deadline, and update_curr() reschedules at the deadline
	// or, under PREEMPT_SHORT, an unprotected curr once it is ineligible.
	VProt *bool `json:"VPROT,omitempty"`
	// WakeupPreemptAction is Mel Gorman's wakeup_preempt_fair()
	// (e837456fdca8, Linux 6.19) as it stood in 7.3, after its forced
	// preemption was reverted (15257cc2f905) and NEXT_BUDDY turned off
	// again (4f70f106bca1): a fork (WF_FORK) or a delayed wakee never
	// preempts unless its slice is shorter, and under RUN_TO_PARITY a
	// wake-up that does not preempt caps curr's vprot at the shortest
	// queued slice (update_protect_slice()). false is 6.17's decision.
	// Ignored without VPROT, on which it is built.
	WakeupPreemptAction *bool `json:"WAKEUP_PREEMPT_ACTION,omitempty"`
	// LagClampMaxSlice is "sched/fair: Fix lag clamp" (6e3c0a4e1ad1, tip
	// sched/urgent Feb 2026, Linux 7.0): update_entity_lag() clamps the
	// lag to ± the queue's largest slice plus a tick, in virtual time.
	// false is 6.12's ± max(2 × the entity's slice, a tick).
	LagClampMaxSlice *bool `json:"LAG_CLAMP_MAX_SLICE,omitempty"`
	// ILBIdleCore prefers a fully idle core as the nohz ILB CPU (293f9611ae73).
	ILBIdleCore *bool `json:"ILB_IDLE_CORE,omitempty"`
	// SISCluster is the cluster-aware select_idle_sibling() of Yicong
	// Yang's series (Linux 6.8: "sched/fair: Scan cluster before scanning
	// LLC in wake-up path", "Use candidate prev/recent_used CPU if scanning
	// failed for cluster wakeup"): with sched_cluster_active, an idle prev
	// or recent_used_cpu in another cluster of the LLC is only a fallback,
	// and select_idle_cpu() scans the target's cluster first. false gives
	// the kernels before it (6.1): the first idle of target, prev, recent,
	// then the LLC from target + 1.
	SISCluster *bool `json:"SIS_CLUSTER,omitempty"`
	// EEVDF selects the fair class of 6.6 and later (147f3efaa241): pick
	// the eligible entity with the earliest deadline. false gives the CFS
	// of 6.1 and before: pick the leftmost vruntime (with the next and last
	// buddies), place a waking sleeper up to sched_latency/2 behind
	// min_vruntime (GENTLE_FAIR_SLEEPERS), preempt on wake-up when the
	// wakee is more than the wake-up granularity ahead
	// (check_preempt_wakeup()) and at the tick after sched_slice()
	// (check_preempt_tick()); RUN_TO_PARITY, PREEMPT_SHORT, PLACE_LAG and
	// DELAY_DEQUEUE do not exist there and are ignored.
	EEVDF *bool `json:"EEVDF,omitempty"`
	// PreemptLazy is the PREEMPT_LAZY preemption model (Linux 6.13; arm64
	// since 6.16; the Kconfig default on arm64 and x86 since 7.0, which
	// left those architectures only lazy and full, 7dadeaa6e851): a fair
	// wake-up or slice preemption of a running task (resched_curr_lazy())
	// sets TIF_NEED_RESCHED_LAZY with no IPI, and the task is preempted at
	// its return to user space, an interrupt taken in user space, or its
	// tick, which makes the flag TIF_NEED_RESCHED; an idle CPU, and every
	// other class, still gets resched_curr(). false gives the full (and,
	// for user-space tasks, voluntary) preemption of 6.12 and before.
	PreemptLazy *bool `json:"PREEMPT_LAZY,omitempty"`
	// PELT selects the invariance mode: "modern" (default) or "legacy2018".
	PELT PELTMode `json:"PELT,omitempty"`
}

// PELTMode is the PELT invariance generation.
type PELTMode string

const (
	PELTModern     PELTMode = "modern"
	PELTLegacy2018 PELTMode = "legacy2018"
)

// Metric is what a workload measures (Workload.Metric); "" names none.
type Metric string

const (
	MetricSGEMM    Metric = "sgemm"    // GFLOP/s on a machine with gflops_per_core
	MetricRequests Metric = "requests" // work/s, read by completion time
	MetricLatency  Metric = "latency"  // read by its wake-up latency
	MetricOps      Metric = "ops"      // group 0's operations per second
)

// Workload is the "workload" section.
type Workload struct {
	Groups []Group `json:"groups"`
	// Housekeeping, when present, replaces the machine's own noise.
	Housekeeping *topo.Housekeeping `json:"housekeeping,omitempty"`
	// Metric names what the workload measures, for reporting units:
	// "sgemm" (GFLOP/s), "requests", "latency", "ops" (schedplay addition).
	Metric Metric `json:"metric,omitempty"`
	// Efficiency is the fraction of the machine's gflops_per_core peak this
	// code reaches per unit of work (schedplay addition; default 1.0): an
	// OpenBLAS-like GEMM does the same FLOPs with more work than NVPL's.
	Efficiency float64 `json:"efficiency,omitempty"`
	// CPUDMALatency is a PM QoS limit on idle-state exit latency while the
	// workload runs (/dev/cpu_dma_latency: cyclictest writes 0, which
	// keeps every CPU in WFI); absent = no limit (schedplay addition).
	CPUDMALatency *units.Duration `json:"cpu_dma_latency,omitempty"`
	// SharedParent forks every group from one parent thread on one CPU
	// (group 0's, drawn per repetition unless it sets parent_cpu), which
	// stays there while it forks the groups that start together, in group
	// order: a benchmark's main process creating all its workers, as perf
	// bench sched messaging's group() does. False gives each group a
	// parent of its own (schedplay addition).
	SharedParent bool `json:"shared_parent,omitempty"`
}

// Group is a set of identical tasks.
type Group struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
	// CPUs is the affinity mask in cpulist syntax; "" means all CPUs.
	CPUs string `json:"cpus,omitempty"`
	// Pin "each" gives task i the single-CPU affinity of the i-th CPU of
	// CPUs, wrapping (perf bench futex pins waiter i to CPU i mod ncpus);
	// "" gives every task the whole mask (schedplay addition).
	Pin  Pin `json:"pin,omitempty"`
	Nice int `json:"nice,omitempty"`
	// Policy is the tasks' scheduling policy: "" (SCHED_OTHER), "batch"
	// or "idle" (SCHED_BATCH, SCHED_IDLE: the fair class too), "fifo" or
	// "rr" (SCHED_FIFO, SCHED_RR: the real-time class, cyclictest -p); an
	// RT group needs RTPriority (schedplay addition).
	Policy SchedPolicy `json:"policy,omitempty"`
	// RTPriority is an RT group's sched_priority, 1..99 (99 highest).
	RTPriority int `json:"rt_priority,omitempty"`
	// Slice is the tasks' custom EEVDF slice, sched_setattr()'s
	// sched_runtime for SCHED_OTHER (6.12: se->custom_slice, kept at every
	// deadline renewal and placement; the kernel clamps it to 100 µs–100
	// ms, the decoder rejects values outside); absent = the base slice,
	// scaled like sysctl_sched_base_slice. The CFS of 6.1 has none and
	// ignores it.
	Slice *units.Duration `json:"slice,omitempty"`
	// Process makes each task a process of its own; false makes the
	// group's tasks threads of one process, the shared parent's with
	// Workload.SharedParent. A switch between address spaces costs
	// latency.process_switch (schedplay addition).
	Process bool `json:"process,omitempty"`
	// Start delays the group's fork (schedplay addition).
	Start units.Duration `json:"start,omitempty"`
	// ParentCPU is the CPU the group's parent thread runs on, busy, while
	// it forks the group's tasks (wake_up_new_task() from that CPU);
	// absent = drawn per repetition from the group's cpus (schedplay
	// addition).
	ParentCPU *int `json:"parent_cpu,omitempty"`
	// ParentCPUs, in cpulist syntax, is where the parent's CPU is drawn
	// from per repetition when parent_cpu is absent; "" means the group's
	// cpus. It says where the benchmark's main thread was left before it
	// forked, e.g. by the exec balancing of the kernel that ran it
	// (schedplay addition).
	ParentCPUs string `json:"parent_cpus,omitempty"`
	// TimerSlack is the tasks' timer_slack_ns: a sleep or periodic timer
	// expires up to this late (hrtimer_set_expires_range_ns()); absent =
	// DefaultTimerSlack, SCHED_OTHER's (schedplay addition).
	TimerSlack *units.Duration `json:"timer_slack,omitempty"`
	// RepartitionCost is the work a task of the group loses when the
	// spatial-SMT core it runs on goes from ST to 2T: the part of the
	// working set it built since the core last changed mode, or since it
	// got the CPU, that the new partition cannot hold, refetched as it goes
	// on; a task loses at most the time it has run in that ST stretch.
	// 0 = none (schedplay addition, docs/model.md "Core performance
	// model").
	RepartitionCost units.Duration `json:"repartition_cost,omitempty"`
	Program         []Step         `json:"program"`
}

// SchedPolicy is a group's scheduling policy.
type SchedPolicy string

const (
	PolicyNormal SchedPolicy = ""      // SCHED_OTHER: the fair class
	PolicyBatch  SchedPolicy = "batch" // SCHED_BATCH: the fair class; its wake-ups never preempt
	PolicyIdle   SchedPolicy = "idle"  // SCHED_IDLE: the fair class at weight 3; a CPU running only such tasks counts as idle
	PolicyFIFO   SchedPolicy = "fifo"  // SCHED_FIFO: runs until it blocks or a higher priority preempts it
	PolicyRR     SchedPolicy = "rr"    // SCHED_RR: SCHED_FIFO with a round-robin slice among equal priorities
)

// MaxRTPriority is the highest sched_priority of SCHED_FIFO and SCHED_RR
// (MAX_RT_PRIO - 1).
const MaxRTPriority = 99

// RT reports a real-time policy.
func (p SchedPolicy) RT() bool { return p == PolicyFIFO || p == PolicyRR }

// KernelName is the policy's name in sched.h (and rt-app): SCHED_OTHER,
// SCHED_BATCH, SCHED_IDLE, SCHED_FIFO or SCHED_RR.
func (p SchedPolicy) KernelName() string {
	switch p {
	case PolicyBatch:
		return "SCHED_BATCH"
	case PolicyIdle:
		return "SCHED_IDLE"
	case PolicyFIFO:
		return "SCHED_FIFO"
	case PolicyRR:
		return "SCHED_RR"
	}
	return "SCHED_OTHER"
}

// Pin says how a group's tasks divide its CPU mask.
type Pin string

const (
	PinNone Pin = ""     // every task may run on the whole mask
	PinEach Pin = "each" // task i is pinned to the i-th CPU of the mask, wrapping
)

// Step is one program step. Exactly one of the kind fields is set; the
// others are its options. See docs/scenario.md.
type Step struct {
	Compute *units.Duration `json:"compute,omitempty"` // work on a speed-1.0 full-resource thread
	Jitter  float64         `json:"jitter,omitempty"`  // ± fraction applied to compute
	Sleep   *units.Duration `json:"sleep,omitempty"`   // timer sleep (no WF_SYNC)
	Barrier string          `json:"barrier,omitempty"` // group barrier name; last arrival wakes all
	Spin    units.Duration  `json:"spin,omitempty"`    // barrier/recv: spin this long before blocking
	Send    string          `json:"send,omitempty"`    // channel name: post one message, wake a receiver
	Recv    string          `json:"recv,omitempty"`    // channel name: take one message or block
	Sync    bool            `json:"sync,omitempty"`    // send: WF_SYNC wake-up
	Wake    int             `json:"wake,omitempty"`    // send: messages posted at once (futex wake n)
	// Poll says the send's receivers wait in poll() on the object (a
	// wake pipe): woken newest first, all under the wait queue's lock,
	// each leaving poll() through poll_freewait() once the storm is over
	// (schedplay addition).
	Poll     bool `json:"poll,omitempty"`
	Capacity int  `json:"capacity,omitempty"` // send: channel buffer limit (0 = unbounded)
	// IPC names the kernel object a send writes to: "pipe", "socket"
	// (unix stream) or "futex"; its recv steps then pay the object's read
	// path, its buffer follows the kernel's, and both pay machine.ipc and
	// the syscall (schedplay addition).
	IPC IPCKind `json:"ipc,omitempty"`
	// Bytes is a pipe or socket message's size (default 100, perf's
	// DATASIZE).
	Bytes    int       `json:"bytes,omitempty"`
	Periodic *Periodic `json:"periodic,omitempty"`
	Repeat   int       `json:"repeat,omitempty"` // repeat Do this many times
	Pool     string    `json:"pool,omitempty"`   // repeat Do while the shared pool has tokens
	Total    int       `json:"total,omitempty"`  // pool: tokens in the shared pool
	// Timed names a timed section: Do runs once and each execution's
	// duration is recorded under this name (schedplay addition; perf's
	// gettimeofday() around a loop).
	Timed string `json:"timed,omitempty"`
	Do    []Step `json:"do,omitempty"`
}

// IPCKind is the kernel object behind a channel.
type IPCKind string

const (
	IPCNone   IPCKind = ""       // an abstract channel: no kernel path cost
	IPCPipe   IPCKind = "pipe"   // pipe(2): pipe_write()/pipe_read()
	IPCSocket IPCKind = "socket" // socketpair(AF_UNIX, SOCK_STREAM)
	IPCFutex  IPCKind = "futex"  // futex(FUTEX_WAKE/FUTEX_WAIT)
)

// DefaultMessageBytes is a pipe or socket message's default size
// (tools/perf/bench/sched-messaging.c DATASIZE).
const DefaultMessageBytes = 100

// MinCustomSlice and MaxCustomSlice bound a group's slice as
// __setscheduler_params() clamps sched_runtime (NSEC_PER_MSEC/10,
// NSEC_PER_MSEC*100).
const (
	MinCustomSlice = 100 * units.Microsecond
	MaxCustomSlice = 100 * units.Millisecond
)

// DefaultTimerSlack is a SCHED_OTHER task's timer slack
// (init_task.timer_slack_ns, 50 µs).
const DefaultTimerSlack = 50 * units.Microsecond

// Periodic runs Do every Every (absolute timer, like cyclictest) and records
// the wake-up latency of each period. Count 0 means until the run ends.
// SkipMissed is cyclictest's timerthread(): after each wake-up the next
// expiry is advanced past now (next += interval; while (now > next)
// next += interval), so periods missed while the task ran late are
// neither run nor sampled; without it every period runs, a late one at
// once with its overrun as its latency.
type Periodic struct {
	Every      units.Duration `json:"every"`
	Count      int            `json:"count,omitempty"`
	SkipMissed bool           `json:"skip_missed,omitempty"`
	Do         []Step         `json:"do,omitempty"`
}

// Until says when a repetition ends.
type Until string

const (
	UntilDone     Until = "done"     // when every program completed (capped by duration)
	UntilDuration Until = "duration" // always run for duration
)

// Run is the "run" section.
type Run struct {
	Duration units.Duration `json:"duration"`
	Until    Until          `json:"until,omitempty"`
	Seed     uint64         `json:"seed"`
	Reps     int            `json:"reps"`
	Warmup   units.Duration `json:"warmup,omitempty"`
}

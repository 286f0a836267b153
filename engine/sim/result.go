package sim

import "schedplay/engine/scenario"

// Result is what one scenario produces: per-repetition metrics, their
// summary across repetitions, and repetition 0's timeline and decisions.
// Its JSON form is the body of POST /api/v1/simulate.
type Result struct {
	Scenario string `json:"scenario,omitempty"` // scenario name
	// Unit names the throughput unit: "GFLOP/s" for SGEMM-like workloads,
	// "ops/s" for metric "ops" (group 0's operations per second, perf
	// bench's ops/sec), else "work/s" (reference-ns of work per second,
	// i.e. busy-thread equivalents).
	Unit string `json:"unit"`
	// Metric is the workload's metric ("sgemm", "requests", "latency",
	// "ops"; empty when the workload names none): what its headline is.
	Metric  scenario.Metric `json:"metric,omitempty"`
	Reps    []RepMetrics    `json:"reps"`
	Summary Summary         `json:"summary"`
	// Timeline is repetition 0's timeline (nil when not requested).
	Timeline *Timeline `json:"timeline,omitempty"`
	// Warnings are sched_warn events (WARN_ON_ONCE equivalents).
	Warnings []string `json:"warnings,omitempty"`
}

// RepMetrics are the metrics of one repetition, warm-up excluded.
type RepMetrics struct {
	Seed uint64 `json:"seed"`
	// Throughput is work per second in Result.Unit over the measured window;
	// GFLOPS is set for an sgemm workload on a machine with gflops_per_core.
	Throughput float64 `json:"throughput"`
	GFLOPS     float64 `json:"gflops,omitempty"`
	// Completion is when every program finished (ns), or 0 if not all did.
	Completion int64 `json:"completion_ns"`
	// Elapsed is the simulated time of the repetition (ns).
	Elapsed int64 `json:"elapsed_ns"`
	// ModeTransitions counts ST↔SMT (partitioned) mode changes, all cores.
	ModeTransitions int64 `json:"mode_transitions"`
	// PEAlternations counts switches of the active PE inside a core (§7.2).
	PEAlternations int64 `json:"pe_alternations"`
	// Migrations by cause: wakeup, periodic, newidle, nohz, active, misfit, asym.
	Migrations      Migrations `json:"migrations"`
	ContextSwitches int64      `json:"context_switches"`
	Wakeups         int64      `json:"wakeups"`
	// RTThrottledNs is the time the CPUs' RT classes spent throttled
	// (RT_THROTTLING, 6.1), summed over the CPUs; FairServerNs the time
	// fair tasks ran for the fair deadline server (FAIR_SERVER), ahead of
	// the RT tasks that starved them. Both absent when 0.
	RTThrottledNs int64 `json:"rt_throttled_ns,omitempty"`
	FairServerNs  int64 `json:"fair_server_ns,omitempty"`
	// Latency is the wake-up latency distribution of periodic steps (and of
	// all wake-ups when no periodic step exists), in ns.
	Latency Latency `json:"latency"`
	// BusyNs[cpu] is the CPU's busy time in the window; ModeResidency[core]
	// the core's time per mode.
	BusyNs        []int64         `json:"busy_ns"`
	ModeResidency []ModeResidency `json:"mode_residency"`
	// Ops counts completed program-level operations (channel sends, pool
	// tokens, periodic loops) for ops-style benchmarks.
	Ops int64 `json:"ops"`
	// OpTimeNs is the time one task of group 0 takes per operation,
	// elapsed × group 0's tasks / ops (sched pipe's usecs/op; the inverse
	// of perf bench futex hash's per-thread operations/sec).
	OpTimeNs float64 `json:"op_time_ns,omitempty"`
	// Timed are the workload's timed sections ({"timed": NAME, "do": …}),
	// every declared name sorted by name; absent when there are none.
	Timed []TimedSection `json:"timed,omitempty"`
	// Series is throughput over time (one point per bucket).
	Series Series `json:"series"`
}

// TimedSection is one timed section's figures in a repetition: how many
// executions (by every task) ended after the warm-up, and their mean
// duration, entering the body to leaving it (0 when Count is 0).
type TimedSection struct {
	Name   string  `json:"name"`
	Count  int64   `json:"count"`
	MeanNs float64 `json:"mean_ns"`
}

// Migrations counts task migrations by the path that moved the task.
type Migrations struct {
	Wakeup   int64 `json:"wakeup"`
	Periodic int64 `json:"periodic"`
	Newidle  int64 `json:"newidle"`
	Nohz     int64 `json:"nohz"`
	Active   int64 `json:"active"`
	Misfit   int64 `json:"misfit"`
	Asym     int64 `json:"asym"`
	// RT counts RT tasks moved by push_rt_task() (written when not 0)
	RT    int64 `json:"rt,omitempty"`
	Total int64 `json:"total"`
}

// Latency is a latency distribution summary plus a histogram.
type Latency struct {
	Count int64   `json:"count"`
	P50   int64   `json:"p50_ns"`
	P99   int64   `json:"p99_ns"`
	P999  int64   `json:"p999_ns"`
	Max   int64   `json:"max_ns"`
	Mean  float64 `json:"mean_ns"`
	// Histogram has log2 buckets: Buckets[i] counts samples in [2^i, 2^(i+1)) ns.
	Buckets []int64 `json:"buckets,omitempty"`
}

// ModeResidency is one core's time (ns) in each mode over the window.
type ModeResidency struct {
	ST          int64 `json:"st_ns"`          // one PE busy, full resources
	SMT         int64 `json:"smt_ns"`         // partitioned, ≥2 busy
	Partitioned int64 `json:"partitioned_ns"` // partitioned with one PE busy (held)
	Switching   int64 `json:"switching_ns"`
	Idle        int64 `json:"idle_ns"`
}

// Series is a regularly sampled metric.
type Series struct {
	StepNs int64     `json:"step_ns"`
	Values []float64 `json:"values"`
}

// Stat is mean ± sample standard deviation over repetitions, with the
// extremes.
type Stat struct {
	Mean   float64 `json:"mean"`
	Stddev float64 `json:"stddev"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	N      int     `json:"n"`
}

// Summary aggregates RepMetrics across repetitions.
type Summary struct {
	Throughput Stat `json:"throughput"`
	GFLOPS     Stat `json:"gflops"`
	// Completion covers only the repetitions that finished (every program
	// done before run.duration); Completed says how many did, out of
	// Throughput.N repetitions.
	Completion      Stat `json:"completion_ns"`
	Completed       int  `json:"completed"`
	ModeTransitions Stat `json:"mode_transitions"`
	PEAlternations  Stat `json:"pe_alternations"`
	Migrations      Stat `json:"migrations"`
	ContextSwitches Stat `json:"context_switches"`
	LatencyP50      Stat `json:"latency_p50_ns"`
	LatencyP99      Stat `json:"latency_p99_ns"`
	LatencyP999     Stat `json:"latency_p999_ns"`
	LatencyMax      Stat `json:"latency_max_ns"`
	OpTime          Stat `json:"op_time_ns"`
	// Timed summarises each timed section (sorted by name); absent when
	// the workload has none.
	Timed []TimedStat `json:"timed,omitempty"`
}

// TimedStat is one timed section across repetitions: Time is the mean
// duration (ns) over the repetitions that executed it, Count the
// executions per repetition over all of them.
type TimedStat struct {
	Name  string `json:"name"`
	Time  Stat   `json:"time_ns"`
	Count Stat   `json:"count"`
}

// Timeline is repetition 0's compact record of what ran where. Its JSON
// form keeps runs and modes as flat arrays (timeline_json.go).
type Timeline struct {
	// Tasks names every task: index = task id.
	Tasks []TaskInfo `json:"tasks"`
	// Runs[cpu] are the CPU's run intervals, sorted by start.
	Runs [][]Interval `json:"runs"`
	// Modes[core] are the core's mode intervals, sorted by start.
	Modes [][]ModeInterval `json:"modes"`
	// Decisions are the placement decisions (wake-ups and migrations), in
	// time order; an Interval's Decision indexes this slice (-1 = none).
	Decisions []Decision `json:"decisions"`
	// NoDecisions is true when decisions were not recorded at all
	// (Options.NoDecisions): Decisions is empty and every Decision is -1.
	NoDecisions bool `json:"no_decisions,omitempty"`
	// Truncated is true when the timeline hit its size cap.
	Truncated bool  `json:"truncated,omitempty"`
	EndNs     int64 `json:"end_ns"`
}

// TaskInfo names one task.
type TaskInfo struct {
	Name  string `json:"name"`
	Group int    `json:"group"`
	// PID is the task's own id (the kernel's task->pid, a thread id:
	// unique per task); TGID is its thread group's id (task->tgid): the
	// PID of its group's first task for a group of threads, its own PID
	// for a task that is a process. 0 in timelines written before TGID.
	PID  int `json:"pid"`
	TGID int `json:"tgid,omitempty"`
	// Prio is the kernel's p->prio, as sched_switch prints it: 120 + nice
	// for SCHED_OTHER, 99 - rt_priority for SCHED_FIFO and SCHED_RR (0 for
	// rt_priority 99).
	Prio int `json:"prio"`
	// Policy is the task's policy as sched.h names it (SCHED_BATCH,
	// SCHED_IDLE, SCHED_FIFO, SCHED_RR); absent for SCHED_OTHER.
	Policy string `json:"policy,omitempty"`
}

// RTBandwidth is what kept fair tasks running beside RT ones, in ns per
// repetition on average: the time they ran for the fair deadline server,
// and the CPU time RT classes spent throttled (both 0 without reps).
func (r *Result) RTBandwidth() (server, throttled float64) {
	for _, rep := range r.Reps {
		server += float64(rep.FairServerNs)
		throttled += float64(rep.RTThrottledNs)
	}
	if n := float64(len(r.Reps)); n > 0 {
		server, throttled = server/n, throttled/n
	}
	return server, throttled
}

// Interval is one stretch of a task running on a CPU.
type Interval struct {
	Task     int   `json:"t"`
	Start    int64 `json:"s"`
	End      int64 `json:"e"`
	Decision int   `json:"d"` // index into Timeline.Decisions that placed it, or -1
	// Out is how the interval ended: the state the task was left in.
	Out SwitchOut `json:"o,omitempty"`
}

// SwitchOut is how a task left its CPU at the end of a run interval: the
// state __schedule() finds it in, which sched_switch prints as prev_state
// (include/trace/events/sched.h).
type SwitchOut uint8

// How run intervals end.
const (
	OutSleep   SwitchOut = iota // blocked: dequeued with DEQUEUE_SLEEP ("S")
	OutPreempt                  // preempted or pushed by the stopper, still runnable ("R")
	OutExit                     // exited: do_exit() → do_task_dead() ("X" or "Z")
	OutRunning                  // still running where the timeline ends
)

// Mode is a core's SMT mode.
type Mode uint8

// Core modes (kernel-model.md §7.2).
const (
	ModeIdle        Mode = iota // no PE busy
	ModeST                      // full-resource single thread (SMT1 on POWER7)
	ModeSMT                     // partitioned, ≥2 threads busy (SMT2/SMT4 on POWER7)
	ModePartitioned             // partitioned, one PE busy (held / not re-qualified)
	ModeSwitching               // mode change in progress
)

// ModeInterval is a stretch of time a core spent in one mode.
type ModeInterval struct {
	Mode  Mode  `json:"m"`
	Start int64 `json:"s"`
	End   int64 `json:"e"`
}

// Decision records why a task was placed on a CPU: the kernel path taken
// and the CPUs it considered.
type Decision struct {
	At   int64 `json:"at"`
	Task int   `json:"t"`
	// Kind is "wakeup", "fork", "exec", "periodic", "newidle", "nohz",
	// "active", "misfit" or "asym". An "exec" decision places a group's
	// parent (sched_exec()) before it forks: Task is -1 (the parent is no
	// task of the timeline) and its path names the group.
	Kind string `json:"k"`
	From int    `json:"from"` // prev / source CPU
	To   int    `json:"to"`
	// Waker is, for a wake-up a task issued (a send, a barrier release),
	// the CPU it was issued from plus one: sched_waking's CPU, whose
	// current task is the waker. 0 when no task issued it (a timer
	// expiring, which the kernel reports in hardirq context).
	Waker int `json:"w,omitempty"`
	// Path is the kernel decision path, e.g.
	// ["select_task_rq_fair", "wake_affine → prev idle", "select_idle_sibling: prev idle", "select_idle_smt_cpu → cpu 0"].
	Path []string `json:"path"`
}

// IsLatency reports a result read by its wake-up latency: a workload with
// metric "latency" (cyclictest, alone or under a load whose throughput is
// context), or one that computed nothing but recorded wake-ups. The CLI,
// compare table, embed and page show it no throughput and no op time (the
// op time of a periodic loop is its period).
func (r *Result) IsLatency() bool {
	sm := &r.Summary
	return r.Metric == scenario.MetricLatency || sm.LatencyP99.Mean > 0 && sm.Throughput.Mean == 0
}

// ShowsOpTime reports whether the result's op time (elapsed/ops) is a
// figure: the benchmark's own for a loop such as sched pipe's, but not
// when the workload times its own sections (the futex benchmarks time the
// wake loop, not the pauses between) nor for a latency workload (a
// periodic loop's op time is its period).
func (r *Result) ShowsOpTime() bool {
	return r.Summary.OpTime.Mean > 0 && len(r.Summary.Timed) == 0 && !r.IsLatency()
}

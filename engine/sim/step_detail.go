package sim

import (
	"cmp"
	"slices"

	"schedplay/engine/topo"
)

// EntityState is one task's sched_entity in a runqueue.
type EntityState struct {
	Task int    `json:"task"`
	Name string `json:"name"`
	PID  int    `json:"pid"`
	// Vruntime and Deadline are se->vruntime and se->deadline (ns of
	// virtual time) as of the runqueue's last update_curr(); Lag is
	// avg_vruntime(cfs_rq) − vruntime (positive: owed service, eligible
	// when ≥ 0).
	Vruntime int64 `json:"vruntime"`
	Deadline int64 `json:"deadline"`
	Lag      int64 `json:"lag"`
	Eligible bool  `json:"eligible"`
	Weight   int64 `json:"weight"`
}

// RunqueueState is one CPU's struct rq in a Detail.
type RunqueueState struct {
	CPU int `json:"cpu"`
	// Curr is rq->curr (nil: the idle task); Queued the other runnable
	// entities, earliest deadline first.
	Curr   *EntityState  `json:"curr,omitempty"`
	Queued []EntityState `json:"queued"`
	// NrRunning is rq->nr_running; V is avg_vruntime(cfs_rq).
	NrRunning int   `json:"nr_running"`
	V         int64 `json:"avg_vruntime"`
	// Idle is available_idle_cpu(); Nohz membership of nohz.idle_cpus_mask;
	// Pending wake-ups on their way (ttwu_pending).
	Idle    bool `json:"idle"`
	Nohz    bool `json:"nohz"`
	Pending int  `json:"pending"`
	Util    int  `json:"util"`
	Misfit  bool `json:"misfit"`
}

// LLCState is one last-level cache's sched_domain_shared.
type LLCState struct {
	// ID is sd_llc_id (the LLC's first CPU); CPUs its span (cpulist).
	ID   int    `json:"id"`
	CPUs string `json:"cpus"`
	// HasIdleCores is sds->has_idle_cores (a hint: set when a core went
	// idle, cleared when a scan found none) and NrIdleScan
	// sds->nr_idle_scan (SIS_UTIL's budget), both read from the
	// sched_domain_shared the LLC's CPUs use: the LLC's own under 6.12,
	// under the tip that of a wider asym-capacity domain when there is one
	// (SharedLevel and SharedCPUs name the domain that holds it).
	// NrBusyCPUs is the LLC's nr_busy_cpus; IdleCPUs the span's CPUs that
	// are available_idle_cpu() now.
	HasIdleCores bool   `json:"has_idle_cores"`
	NrIdleScan   int    `json:"nr_idle_scan"`
	SharedLevel  string `json:"shared_level"`
	SharedCPUs   string `json:"shared_cpus"`
	NrBusyCPUs   int    `json:"nr_busy_cpus"`
	IdleCPUs     string `json:"idle_cpus"`
}

// Detail is the scheduler state at Now for the step view: every runqueue,
// every LLC, the root domain's overload flag and the decisions so far.
type Detail struct {
	Now        int64           `json:"now"`
	Events     int64           `json:"events"`
	Runqueues  []RunqueueState `json:"runqueues"`
	LLCs       []LLCState      `json:"llcs"`
	Overloaded bool            `json:"overloaded"` // rd->overloaded
	Decisions  int             `json:"decisions"`  // placement decisions recorded so far
}

// Detail returns the runqueues and LLCs at Now; it changes nothing.
func (x *Stepper) Detail() Detail {
	s := x.s
	d := Detail{Now: s.now, Events: x.n, Overloaded: s.rdOverloaded, Runqueues: make([]RunqueueState, len(s.cpus))}
	if s.tr != nil {
		d.Decisions = len(s.tr.tl.Decisions)
	}
	for i := range s.cpus {
		c := &s.cpus[i]
		v := avgVruntime(c)
		rq := RunqueueState{CPU: i, NrRunning: c.nrRunning, V: v, Idle: s.availableIdle(i), Nohz: c.nohzIdle,
			Pending: c.pending, Util: s.cpuUtilCfs(c), Misfit: c.misfitLoad != 0, Queued: []EntityState{}}
		if curr := c.cfsCurr(); curr != nil { // the fair runqueue's view: an RT curr is none of it
			e := entityState(c, curr, v)
			rq.Curr = &e
		}
		for _, p := range c.rq {
			rq.Queued = append(rq.Queued, entityState(c, p, v))
		}
		slices.SortStableFunc(rq.Queued, func(a, b EntityState) int {
			return cmp.Or(cmp.Compare(a.Deadline, b.Deadline), cmp.Compare(a.Task, b.Task))
		})
		d.Runqueues[i] = rq
	}
	for i := range s.llcs {
		if i >= len(s.t.SDLLC) || s.t.SDLLC[i] == nil || int(s.t.SDLLCID[i]) != i {
			continue
		}
		span := s.t.SDLLC[i].Span
		idle := topo.NewCPUSet(len(s.cpus))
		for _, c := range span.CPUs() {
			if s.availableIdle(int(c)) {
				idle.Set(c)
			}
		}
		sds, dom := s.shared[i], s.sharedDom[i]
		d.LLCs = append(d.LLCs, LLCState{ID: i, CPUs: span.String(), HasIdleCores: sds.hasIdleCores, NrIdleScan: sds.nrIdleScan,
			SharedLevel: string(dom.Level), SharedCPUs: dom.Span.String(), NrBusyCPUs: s.llcs[i].nrBusyCPUs, IdleCPUs: idle.String()})
	}
	return d
}

// entityState reads p's sched_entity on c (V = avg_vruntime of c).
func entityState(c *cpuState, p *task, v int64) EntityState {
	return EntityState{Task: p.id, Name: p.name, PID: p.pid, Vruntime: p.vruntime, Deadline: p.deadline,
		Lag: v - p.vruntime, Eligible: vruntimeEligible(c, p.vruntime), Weight: p.weight}
}

// Decisions returns the placement decisions recorded so far (shared: do
// not modify).
func (x *Stepper) Decisions() []Decision {
	if x.s.tr == nil {
		return nil
	}
	return x.s.tr.tl.Decisions
}

// Tasks names every task (index = task id).
func (x *Stepper) Tasks() []TaskInfo {
	out := make([]TaskInfo, len(x.s.tasks))
	for i, p := range x.s.tasks {
		out[i] = x.s.taskInfo(p)
	}
	return out
}

// SoFar is the timeline up to Now without closing anything: the recorded
// run intervals plus each running task's open interval up to Now, the
// mode intervals, and no decisions (Decisions has them).
func (x *Stepper) SoFar() *Timeline {
	s := x.s
	tl := &Timeline{Tasks: x.Tasks(), Runs: make([][]Interval, len(s.cpus)), Modes: make([][]ModeInterval, len(s.cores)), Decisions: []Decision{}, EndNs: s.now}
	if s.tr == nil {
		return tl
	}
	tl.Truncated = s.tr.tl.Truncated
	for i := range s.cpus {
		runs := s.tr.tl.Runs[i]
		tl.Runs[i] = runs[:len(runs):len(runs)]
		if c := &s.cpus[i]; c.curr != nil && c.curr.runStart < s.now {
			tl.Runs[i] = append(tl.Runs[i], Interval{Task: c.curr.id, Start: c.curr.runStart, End: s.now, Decision: c.curr.decision, Out: OutRunning})
		}
	}
	for k := range s.cores {
		modes := s.tr.tl.Modes[k]
		tl.Modes[k] = modes[:len(modes):len(modes)]
		if kc := &s.cores[k]; kc.mode != uint8(ModeIdle) && kc.modeSince < s.now {
			tl.Modes[k] = append(tl.Modes[k], ModeInterval{Mode: Mode(kc.mode), Start: kc.modeSince, End: s.now})
		}
	}
	return tl
}

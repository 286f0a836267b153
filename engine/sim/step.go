package sim

import (
	"context"

	"schedplay/engine/scenario"
)

// Stepper is repetition 0 of a scenario advanced piece by piece (the UI's
// step mode). The timeline is always recorded.
type Stepper struct {
	s   *sim
	ctx context.Context
	n   int64 // events Next dispatched
}

// New prepares repetition 0 of r (defaults applied) without running it.
func New(ctx context.Context, r *scenario.Resolved, opt Options) (*Stepper, error) {
	rr := r.WithDefaults()
	t, err := rr.Topology(ctx)
	if err != nil {
		return nil, err
	}
	s, err := newSim(&rr, t, opt, rr.Run.Seed, true)
	if err != nil {
		return nil, err
	}
	return &Stepper{s: s, ctx: ctx}, nil
}

// Now is the simulated time (ns).
func (x *Stepper) Now() int64 { return x.s.now }

// Done reports whether the repetition has ended.
func (x *Stepper) Done() bool { return x.s.stopped }

// Step advances the simulation through every event at or before until
// (ns); it returns whether the repetition has ended.
func (x *Stepper) Step(until int64) (bool, error) {
	if err := x.s.runUntil(x.ctx, until, 0, 1); err != nil {
		return false, err
	}
	if !x.s.stopped && until > x.s.now {
		x.s.now = min(until, x.s.end)
	}
	return x.s.stopped, nil
}

// CPUState is one CPU in a Snapshot.
type CPUState struct {
	Task    int  `json:"task"`   // running task id, or -1
	Queued  int  `json:"queued"` // runnable tasks waiting
	Util    int  `json:"util"`   // cpu_util_cfs()
	Misfit  bool `json:"misfit"` // rq->misfit_task_load != 0
	NohzIdl bool `json:"nohz"`   // in nohz.idle_cpus_mask
	Mode    Mode `json:"mode"`   // the core's displayed mode
}

// Snapshot is the scheduler state at Now.
type Snapshot struct {
	Now  int64      `json:"now"`
	CPUs []CPUState `json:"cpus"`
}

// Snapshot returns the current per-CPU state.
func (x *Stepper) Snapshot() Snapshot {
	s := x.s
	sn := Snapshot{Now: s.now, CPUs: make([]CPUState, len(s.cpus))}
	for i := range s.cpus {
		c := &s.cpus[i]
		cs := CPUState{Task: -1, Queued: len(c.rq), Util: s.cpuUtilCfs(c), Misfit: c.misfitLoad != 0, NohzIdl: c.nohzIdle, Mode: Mode(s.cores[c.core].mode)}
		if c.curr != nil {
			cs.Task = c.curr.id
		}
		sn.CPUs[i] = cs
	}
	return sn
}

// Result returns the metrics and timeline up to Now (the repetition is
// closed at Now if it has not ended: call it once, at the end).
func (x *Stepper) Result() *Result {
	s := x.s
	if !s.stopped {
		s.stop(s.now)
	}
	res := newResult(s.r)
	res.Reps = []RepMetrics{s.repMetrics(s.stopAt)}
	res.Summary = summarize(res.Reps)
	res.Timeline = s.timeline()
	return res
}

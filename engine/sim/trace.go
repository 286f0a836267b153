package sim

import (
	"fmt"

	"schedplay/engine/scenario"
)

// DefaultTimelineCap is the most intervals (runs + modes) a timeline keeps:
// the cap the cost model counts with.
const DefaultTimelineCap = scenario.DefaultTimelineCap

// tracer records repetition 0's timeline and decision records.
type tracer struct {
	tl    Timeline
	n     int
	limit int // intervals kept
	// decisionLimit is the decision records kept; decisionsCut says
	// records were dropped.
	decisionLimit int
	decisionsCut  bool
}

// newTracer makes an empty timeline for ncpu CPUs and ncore cores, keeping
// at most the caps of opt (DefaultTimelineCap when 0).
func newTracer(ncpu, ncore int, opt Options) *tracer {
	capOr := func(v int) int {
		if v > 0 {
			return v
		}
		return DefaultTimelineCap
	}
	return &tracer{
		tl: Timeline{
			Runs:      make([][]Interval, ncpu),
			Modes:     make([][]ModeInterval, ncore),
			Decisions: []Decision{},
		},
		limit:         capOr(opt.TimelineCap),
		decisionLimit: capOr(opt.DecisionCap),
	}
}

// full reports (and flags) a timeline at its cap.
func (t *tracer) full() bool {
	if t.n >= t.limit {
		t.tl.Truncated = true
		return true
	}
	return false
}

// truncation is the result's warnings about what the caps cut: "truncated
// at N".
func (t *tracer) truncation() []string {
	var w []string
	if t.n >= t.limit {
		w = append(w, fmt.Sprintf("timeline truncated at %d intervals; shorten run.duration to see all of repetition 0", t.limit))
	}
	if t.decisionsCut {
		w = append(w, fmt.Sprintf("decision records truncated at %d; the later runs of the timeline have none", t.decisionLimit))
	}
	return w
}

// run records a task's run interval on a CPU and how it ended.
func (t *tracer) run(s *sim, cpu int, p *task, start, end int64, out SwitchOut) {
	if t.full() {
		return
	}
	t.n++
	t.tl.Runs[cpu] = append(t.tl.Runs[cpu], Interval{Task: p.id, Start: start, End: end, Decision: p.decision, Out: out})
	p.decision = -1
}

// mode records a core mode interval (idle stretches are left implicit).
func (t *tracer) mode(core int, m Mode, start, end int64) {
	if t.full() {
		return
	}
	t.n++
	t.tl.Modes[core] = append(t.tl.Modes[core], ModeInterval{Mode: m, Start: start, End: end})
}

// recordDecision stores the decision path that placed p on `to`.
// recordWaker notes on p's wake-up decision, just recorded, the CPU a
// task issued it from: sched_waking's CPU, whose current task is the
// waker.
func (s *sim) recordWaker(p *task, cpu int) {
	if !s.tracing || s.tr == nil || p.decision < 0 || p.decision >= len(s.tr.tl.Decisions) {
		return
	}
	if d := &s.tr.tl.Decisions[p.decision]; d.At == s.now && d.Task == p.id && d.Kind == "wakeup" {
		d.Waker = cpu + 1
	}
}

func (s *sim) recordDecision(p *task, kind string, from, to int) {
	if !s.tracing || s.tr == nil {
		return
	}
	if len(s.tr.tl.Decisions) >= s.tr.decisionLimit {
		s.tr.tl.Truncated = true
		s.tr.decisionsCut = true
		return
	}
	path := make([]string, len(s.path))
	copy(path, s.path)
	s.tr.tl.Decisions = append(s.tr.tl.Decisions, Decision{At: s.now, Task: p.id, Kind: kind, From: from, To: to, Path: path})
	p.decision = len(s.tr.tl.Decisions) - 1
}

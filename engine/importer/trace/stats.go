package trace

// TaskStat is one traced task's totals, for reports and fidelity checks.
type TaskStat struct {
	PID  int
	Comm string
	// CPUTime is the time it ran (ns); Wakeups the times it was woken
	// from a sleep.
	CPUTime int64
	Wakeups int64
	// Work is CPUTime × the speed of the CPUs it ran on (Options.Speed).
	Work float64
}

// Stats lists every task seen (pid 0, the idle task, excluded), in
// order of first appearance.
func (t *Trace) Stats() []TaskStat {
	out := make([]TaskStat, 0, len(t.order))
	for _, pid := range t.order {
		k := t.tasks[pid]
		out = append(out, TaskStat{PID: pid, Comm: k.comm, CPUTime: k.cpuTime, Wakeups: k.wakeups, Work: k.work})
	}
	return out
}

// Span is the trace's first and last timestamps (ns).
func (t *Trace) Span() (start, end int64) { return t.start, t.end }

// CPUs is the highest CPU number seen plus one.
func (t *Trace) CPUs() int { return t.maxCPU + 1 }

// Events counts the scheduling events used.
func (t *Trace) Events() int64 { return t.events }

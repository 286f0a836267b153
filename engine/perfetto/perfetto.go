// Package perfetto writes a simulated timeline as a trace that Perfetto
// (ui.perfetto.dev) and chrome://tracing open with native CPU scheduling
// tracks: a Chrome Trace Event JSON object whose "systemTraceEvents" string
// carries ftrace text in the systrace format (sched_switch, sched_waking,
// sched_wakeup_new, sched_migrate_task, cpu_idle lines, as
// kernel/trace/trace_output.c prints them and Perfetto's systrace line
// parser reads them), plus JSON "traceEvents": one slice track per core for
// its SMT mode bands, and counter tracks for utilization and throughput.
//
// Each task is a thread as ftrace shows one: its own pid (the thread id)
// in the events, its thread group's tgid in the "comm-pid (tgid)" task
// column Perfetto groups threads into processes by, comm "group/N", and
// a "process_name" event naming each thread group after its group.
// sched_switch's prev_state is S for a task that blocked, R for one still
// runnable (preempted, pushed by the stopper), X or Z for one that exited.
package perfetto

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"schedplay/engine/sim"
)

// Options name what the Result does not carry.
type Options struct {
	// CoreCPUs[core] lists the core's CPUs in thread order, for track names
	// ("core 3: CPUs 3,179"); nil names cores by index.
	CoreCPUs [][]int
	// UtilBuckets is how many utilization samples to write (default 500).
	UtilBuckets int
	// Processes[group] is true when the group's tasks are separate
	// processes; otherwise a group is one process (its threads share the
	// tgid of the group's first task), which Perfetto shows as one process.
	// Only timelines from before TaskInfo.TGID need it: the simulator
	// records each task's tgid.
	Processes []bool
	// Until, when > 0, keeps only the first Until ns of the timeline (long
	// runs of chatty workloads make traces of hundreds of MB).
	Until int64
}

// Trace is the JSON object written.
type Trace struct {
	TraceEvents       []Event `json:"traceEvents"`
	SystemTraceEvents string  `json:"systemTraceEvents"`
	DisplayTimeUnit   string  `json:"displayTimeUnit"`
}

// Event is one Chrome Trace Event (timestamps in microseconds).
type Event struct {
	Name string         `json:"name"`
	Ph   string         `json:"ph"`
	Ts   float64        `json:"ts"`
	Dur  float64        `json:"dur,omitempty"`
	PID  int            `json:"pid"`
	TID  int            `json:"tid"`
	Cat  string         `json:"cat,omitempty"`
	Args map[string]any `json:"args,omitempty"`
}

// Synthetic process ids of the JSON tracks (far above task pids, which
// stay below the 16384-task limit); the core mode tracks' thread ids
// follow them (coreTID). Every JSON event names its thread: one without a
// tid is read as tid 0, which would put the idle task in that process.
const (
	modesPID    = 1 << 20
	countersPID = modesPID + 1
)

// Write writes the trace of res (which must carry a Timeline) to w.
func Write(w io.Writer, res *sim.Result, opt Options) error {
	t, err := Build(res, opt)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(t)
}

// Build assembles the trace of res.
func Build(res *sim.Result, opt Options) (*Trace, error) {
	tl := res.Timeline
	if tl == nil {
		return nil, fmt.Errorf("perfetto: the result has no timeline (run with Options.Timeline)")
	}
	if opt.UtilBuckets <= 0 {
		opt.UtilBuckets = 500
	}
	if opt.Until > 0 {
		tl = clip(tl, opt.Until)
		res = &sim.Result{Unit: res.Unit, Reps: res.Reps, Timeline: tl}
	}
	tg := tgids(tl, opt.Processes)
	t := &Trace{DisplayTimeUnit: "ns", SystemTraceEvents: systrace(tl, tg)}
	t.TraceEvents = append(t.TraceEvents, processEvents(tl, tg)...)
	t.TraceEvents = append(t.TraceEvents, modeEvents(tl, opt)...)
	t.TraceEvents = append(t.TraceEvents, counterEvents(res, opt)...)
	if t.TraceEvents == nil {
		t.TraceEvents = []Event{}
	}
	return t, nil
}

// clip returns the part of tl before until (intervals cut at until).
func clip(tl *sim.Timeline, until int64) *sim.Timeline {
	out := *tl
	out.Runs = make([][]sim.Interval, len(tl.Runs))
	for c, runs := range tl.Runs {
		for _, iv := range runs {
			if iv.Start < until {
				if iv.End > until {
					iv.End, iv.Out = until, sim.OutRunning
				}
				out.Runs[c] = append(out.Runs[c], iv)
			}
		}
	}
	out.Modes = make([][]sim.ModeInterval, len(tl.Modes))
	for c, ms := range tl.Modes {
		for _, m := range ms {
			if m.Start < until {
				m.End = min(m.End, until)
				out.Modes[c] = append(out.Modes[c], m)
			}
		}
	}
	out.Decisions = nil
	for _, d := range tl.Decisions {
		if d.At < until {
			out.Decisions = append(out.Decisions, d)
		}
	}
	out.EndNs = min(tl.EndNs, until)
	return &out
}

// line is one ftrace line before sorting.
type line struct {
	ts  int64
	cpu int
	seq int
	txt string
}

// Systrace returns the ftrace text of a timeline: "comm-pid (tgid)" with
// the tasks' own pids and their thread groups' tgids (a timeline from
// before TaskInfo.TGID makes every group one process).
func Systrace(tl *sim.Timeline) string { return systrace(tl, tgids(tl, nil)) }

// systrace writes the ftrace text of tl; tg[i] is task i's tgid (tgids).
func systrace(tl *sim.Timeline, tg []int) string {
	var ls []line
	// addCtx appends a line in the context of task i (-1: the idle task)
	// with the irq-context flags given ("d..2" in a task, "d.h2" in a
	// hardirq).
	addCtx := func(ts int64, cpu, i int, flags, event, args string) {
		name, pid, tgid := "<idle>", 0, "-----"
		if i >= 0 {
			name, pid = task(tl, i)
			if i < len(tg) {
				tgid = fmt.Sprintf("%5d", tg[i])
			}
		}
		ls = append(ls, line{ts, cpu, len(ls), fmt.Sprintf("%16s-%-5d (%s) [%03d] %s %5d.%09d: %s: %s",
			name, pid, tgid, cpu, flags, ts/1e9, ts%1e9, event, args)})
	}
	add := func(ts int64, cpu, i int, event, args string) { addCtx(ts, cpu, i, "d..2", event, args) }
	state := func(i int, out sim.SwitchOut) string {
		_, pid := task(tl, i)
		tgid := pid
		if i < len(tg) {
			tgid = tg[i]
		}
		return prevState(out, pid, tgid)
	}
	// Wake-ups first: at one instant on one CPU, a task wakes another
	// and then switches out (a send, then a blocking recv), in that
	// order, as the kernel writes them.
	for _, d := range tl.Decisions {
		name, pid := task(tl, d.Task)
		from := max(d.From, 0)
		// sched_waking is written in the waker's context: on the CPU a
		// task issued the wake-up from (its current task is the waker),
		// else, for a timer, in hardirq context on the sleeper's CPU
		// over whatever runs there.
		cpu, flags := from, "d.h2"
		if d.Waker > 0 {
			cpu, flags = d.Waker-1, "d..2"
		}
		waker := -1
		if cpu < len(tl.Runs) {
			waker = runningAt(tl.Runs[cpu], d.At)
			if d.Waker > 0 {
				waker = wakerAt(tl.Runs[cpu], d.At)
			}
		}
		switch d.Kind {
		case "wakeup":
			addCtx(d.At, cpu, waker, flags, "sched_waking", fmt.Sprintf("comm=%s pid=%d prio=%d target_cpu=%03d", name, pid, prio(tl, d.Task), d.To))
		case "fork":
			add(d.At, from, waker, "sched_wakeup_new", fmt.Sprintf("comm=%s pid=%d prio=%d target_cpu=%03d", name, pid, prio(tl, d.Task), d.To))
		}
	}
	for cpu, runs := range tl.Runs {
		idle := fmt.Sprintf("swapper/%d", cpu)
		prev := -1 // the run interval before, when it ended where iv starts
		for k, iv := range runs {
			name, pid := task(tl, iv.Task)
			if prev >= 0 && runs[prev].End != iv.Start {
				prev = -1
			}
			switch {
			case prev >= 0 && runs[prev].Task == iv.Task:
				// the same task continues (woken before it was switched out)
			case prev >= 0:
				p := runs[prev]
				pn, pp := task(tl, p.Task)
				add(iv.Start, cpu, p.Task, "sched_switch", switchArgs(pn, pp, prio(tl, p.Task), state(p.Task, p.Out), name, pid, prio(tl, iv.Task)))
			default:
				add(iv.Start, cpu, -1, "cpu_idle", fmt.Sprintf("state=4294967295 cpu_id=%d", cpu))
				add(iv.Start, cpu, -1, "sched_switch", switchArgs(idle, 0, 120, "R", name, pid, prio(tl, iv.Task)))
			}
			prev = k
			if next := nextStart(runs, iv); next != iv.End {
				add(iv.End, cpu, iv.Task, "sched_switch", switchArgs(name, pid, prio(tl, iv.Task), state(iv.Task, iv.Out), idle, 0, 120))
				add(iv.End, cpu, -1, "cpu_idle", fmt.Sprintf("state=1 cpu_id=%d", cpu))
				prev = -1
			}
		}
	}
	// Migrations after: a pushed task switches out, then moves. A decision
	// of no task of the timeline (a group parent's sched_exec(), task -1)
	// has no pid to migrate.
	for _, d := range tl.Decisions {
		if d.Kind != "wakeup" && d.Kind != "fork" && d.Task >= 0 && d.From != d.To && d.From >= 0 {
			name, pid := task(tl, d.Task)
			add(d.At, d.From, d.Task, "sched_migrate_task", fmt.Sprintf("comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d", name, pid, prio(tl, d.Task), d.From, d.To))
		}
	}
	slices.SortStableFunc(ls, func(a, b line) int {
		return cmp.Or(cmp.Compare(a.ts, b.ts), cmp.Compare(a.cpu, b.cpu), cmp.Compare(a.seq, b.seq))
	})
	var b strings.Builder
	b.WriteString("# tracer: nop\n#\n#           TASK-PID     CPU#  ||||    TIMESTAMP  FUNCTION\n#              | |         |   ||||       |         |\n")
	for _, l := range ls {
		b.WriteString(l.txt)
		b.WriteByte('\n')
	}
	return b.String()
}

// prio is task i's p->prio as sched_switch prints it (120 + nice, or
// 99 - rt_priority); the idle task's is 120 too (swapper's prio).
func prio(tl *sim.Timeline, i int) int {
	if i < 0 || i >= len(tl.Tasks) {
		return 120
	}
	return tl.Tasks[i].Prio
}

// task returns the comm and pid of task i.
func task(tl *sim.Timeline, i int) (string, int) {
	if i < 0 || i >= len(tl.Tasks) {
		return fmt.Sprintf("task-%d", i), 100000 + i
	}
	return comm(tl.Tasks[i].Name), tl.Tasks[i].PID
}

// runningAt returns the task running at ts in runs (sorted by start), or -1.
func runningAt(runs []sim.Interval, ts int64) int {
	i, _ := slices.BinarySearchFunc(runs, ts+1, func(x sim.Interval, s int64) int { return cmp.Compare(x.Start, s) })
	if i > 0 && runs[i-1].Start <= ts && ts < runs[i-1].End {
		return runs[i-1].Task
	}
	return -1
}

// wakerAt returns the task that issued a wake-up at ts on a CPU: the one
// whose run ends at ts (it woke another task just before it switched
// out), else the one running at ts, else -1.
func wakerAt(runs []sim.Interval, ts int64) int {
	i, _ := slices.BinarySearchFunc(runs, ts+1, func(x sim.Interval, s int64) int { return cmp.Compare(x.Start, s) })
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		if runs[j].End == ts && runs[j].Start < ts {
			return runs[j].Task
		}
	}
	return runningAt(runs, ts)
}

// nextStart is the start of the interval after iv on its CPU, or -1.
func nextStart(runs []sim.Interval, iv sim.Interval) int64 {
	i, _ := slices.BinarySearchFunc(runs, iv.Start, func(x sim.Interval, s int64) int { return cmp.Compare(x.Start, s) })
	for ; i < len(runs); i++ {
		if runs[i].Start > iv.Start || runs[i].Start == iv.Start && runs[i].End > iv.End {
			if runs[i].Start >= iv.End {
				return runs[i].Start
			}
		}
	}
	return -1
}

func switchArgs(prev string, ppid, pprio int, state, next string, npid, nprio int) string {
	return fmt.Sprintf("prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d",
		prev, ppid, pprio, state, next, npid, nprio)
}

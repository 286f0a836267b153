// Package perfetto writes a simulated timeline as a trace that Perfetto
// (ui.perfetto.dev) and chrome://tracing open with native CPU scheduling
// tracks: a Chrome Trace Event JSON object whose "systemTraceEvents" string
// carries ftrace text in the systrace format (sched_switch, sched_waking,
// sched_wakeup_new, sched_migrate_task, cpu_idle lines, as
// kernel/trace/trace_output.c prints them and Perfetto's systrace line
// parser reads them), plus JSON "traceEvents": one slice track per core for
// its SMT mode bands, and counter tracks for utilization and throughput.
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

// Synthetic process ids of the JSON tracks (far above task pids).
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
	t := &Trace{DisplayTimeUnit: "ns", SystemTraceEvents: systrace(tl, opt.Processes)}
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
				iv.End = min(iv.End, until)
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

// Systrace returns the ftrace text of a timeline, every group one process.
func Systrace(tl *sim.Timeline) string { return systrace(tl, nil) }

// tgids returns each task's thread-group id: its own pid for a task of a
// process group, else the pid of its group's first task.
func tgids(tl *sim.Timeline, processes []bool) []int {
	leader := map[int]int{}
	out := make([]int, len(tl.Tasks))
	for i, ti := range tl.Tasks {
		if ti.Group >= 0 && ti.Group < len(processes) && processes[ti.Group] {
			out[i] = ti.PID
			continue
		}
		if _, ok := leader[ti.Group]; !ok {
			leader[ti.Group] = ti.PID
		}
		out[i] = leader[ti.Group]
	}
	return out
}

func systrace(tl *sim.Timeline, processes []bool) string {
	var ls []line
	tg := tgids(tl, processes)
	pidTask := map[int]int{}
	for i, ti := range tl.Tasks {
		pidTask[ti.PID] = i
	}
	add := func(ts int64, cpu int, comm string, pid int, event, args string) {
		tgid := "-----"
		if i, ok := pidTask[pid]; ok && pid != 0 {
			tgid = fmt.Sprintf("%5d", tg[i])
		}
		ls = append(ls, line{ts, cpu, len(ls), fmt.Sprintf("%16s-%-5d (%s) [%03d] d..2 %5d.%09d: %s: %s",
			comm, pid, tgid, cpu, ts/1e9, ts%1e9, event, args)})
	}
	task := func(i int) (string, int) {
		if i < 0 || i >= len(tl.Tasks) {
			return fmt.Sprintf("task-%d", i), 100000 + i
		}
		return comm(tl.Tasks[i].Name), tl.Tasks[i].PID
	}
	for cpu, runs := range tl.Runs {
		idle := fmt.Sprintf("swapper/%d", cpu)
		prevTask, prevEnd := -1, int64(-1)
		for _, iv := range runs {
			name, pid := task(iv.Task)
			switch {
			case prevTask >= 0 && iv.Start == prevEnd && iv.Task == prevTask:
				// the same task continues (an interval split for bookkeeping)
			case prevTask >= 0 && iv.Start == prevEnd:
				pn, pp := task(prevTask)
				add(iv.Start, cpu, pn, pp, "sched_switch", switchArgs(pn, pp, "R", name, pid))
			default:
				add(iv.Start, cpu, "<idle>", 0, "cpu_idle", fmt.Sprintf("state=4294967295 cpu_id=%d", cpu))
				add(iv.Start, cpu, "<idle>", 0, "sched_switch", switchArgs(idle, 0, "R", name, pid))
			}
			prevTask, prevEnd = iv.Task, iv.End
			if next := nextStart(runs, iv); next != iv.End {
				add(iv.End, cpu, name, pid, "sched_switch", switchArgs(name, pid, "S", idle, 0))
				add(iv.End, cpu, "<idle>", 0, "cpu_idle", fmt.Sprintf("state=1 cpu_id=%d", cpu))
				prevTask = -1
			}
		}
	}
	for _, d := range tl.Decisions {
		name, pid := task(d.Task)
		from := max(d.From, 0)
		// The waker is whatever runs on the waking CPU at that instant.
		wname, wpid := "<idle>", 0
		if from < len(tl.Runs) {
			if w := runningAt(tl.Runs[from], d.At); w >= 0 {
				wname, wpid = task(w)
			}
		}
		switch d.Kind {
		case "wakeup":
			add(d.At, from, wname, wpid, "sched_waking", fmt.Sprintf("comm=%s pid=%d prio=120 target_cpu=%03d", name, pid, d.To))
		case "fork":
			add(d.At, from, wname, wpid, "sched_wakeup_new", fmt.Sprintf("comm=%s pid=%d prio=120 target_cpu=%03d", name, pid, d.To))
		default:
			if d.From != d.To && d.From >= 0 {
				add(d.At, from, name, pid, "sched_migrate_task", fmt.Sprintf("comm=%s pid=%d prio=120 orig_cpu=%d dest_cpu=%d", name, pid, d.From, d.To))
			}
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

// runningAt returns the task running at ts in runs (sorted by start), or -1.
func runningAt(runs []sim.Interval, ts int64) int {
	i, _ := slices.BinarySearchFunc(runs, ts+1, func(x sim.Interval, s int64) int { return cmp.Compare(x.Start, s) })
	if i > 0 && runs[i-1].Start <= ts && ts < runs[i-1].End {
		return runs[i-1].Task
	}
	return -1
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

func switchArgs(prev string, ppid int, state, next string, npid int) string {
	return fmt.Sprintf("prev_comm=%s prev_pid=%d prev_prio=120 prev_state=%s ==> next_comm=%s next_pid=%d next_prio=120",
		prev, ppid, state, next, npid)
}

// comm makes a task name a valid ftrace comm: no spaces or control
// characters (the systrace parser splits on them), at most 15 bytes.
func comm(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r <= ' ' || r == 0x7f || r == '=' {
			r = '_'
		}
		b.WriteRune(r)
	}
	s := b.String()
	if s == "" {
		s = "task"
	}
	for len(s) > 15 {
		_, size := lastRune(s)
		s = s[:len(s)-size]
	}
	return s
}

func lastRune(s string) (rune, int) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i]&0xc0 != 0x80 {
			return rune(s[i]), len(s) - i
		}
	}
	return 0, 1
}

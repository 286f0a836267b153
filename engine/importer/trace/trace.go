// Package trace reads a scheduling trace (ftrace text as `cat trace`,
// systrace and `trace-cmd report` write it; the systemTraceEvents of a
// Chrome JSON trace, as schedplay's own export writes it; a systrace
// HTML page) and summarises it into a bounded workload that replays it:
// per task, the distribution of its run bursts (CPU time scaled by the
// speed of the CPU it ran on) and of its sleeps, who woke it (waker →
// wakee edges, so wake chains and barriers survive), and its affinity
// where the trace shows one.
//
// The reader streams: it keeps per-task aggregates (a 41-bucket
// histogram of bursts, counts, edge counts), never the events, so a
// 100 MB trace needs memory for its tasks, not for its lines.
package trace

import (
	"bytes"
	"fmt"
	"io"

	"schedplay/engine/importer/input"
)

// Options steer a read.
type Options struct {
	// File names the input in errors.
	File string
	// Strict refuses a malformed line instead of skipping it.
	Strict bool
	// Speed is the work rate of each CPU of the traced machine (index =
	// CPU); nil or a CPU beyond it runs at 1.0.
	Speed []float64
}

// edge is a waker → wakee pair, by how the waker's activation that
// issued the wake-up began (a timer or the trace's start, or a task):
// a futex waker's timer-woken rounds wake the waiters, its other
// activations do not.
type edge struct {
	from, to int32
	kind     waitKind
}

// maxEdges bounds the distinct waker → wakee pairs kept.
const maxEdges = 1 << 20

// fanWindow is how close two wake-ups by one waker must be to belong to
// one fan-out (a futex wake-all wakes its waiters one after the other).
const fanWindow = 50_000

// fan is a waker's fan-out in progress.
type fan struct {
	last    int64
	members []int
	// asleep is the waker's family's count of blocked tasks right after
	// the fan-out's latest wake-up.
	asleep int
}

// Trace is what a read keeps.
type Trace struct {
	opt   Options
	tasks map[int]*task
	order []int // pids in order of first appearance
	edges map[edge]int64
	fans  map[int]*fan
	// start and end are the first and last timestamps (ns); cpuFirst the
	// first timestamp seen on each CPU.
	start, end int64
	cpuFirst   map[int]int64
	maxCPU     int
	// lines read, scheduling events used, malformed lines skipped
	lines, events, skipped int64
	firstSkip              string
	backwards              int64 // lines whose timestamp is earlier than the previous one
	lastTS                 int64
	edgesDropped           bool
	tooMany                bool
	// waking counts sched_waking lines; irqWakeups the sched_wakeup lines
	// in interrupt context that woke a sleeping task (its waker unknown).
	waking, irqWakeups int64
	// unflagged counts the wake-ups of sleeping tasks whose line has no
	// irq-flags column (perf script, trace-cmd report without it): one
	// from an interrupt reads as the interrupted task's.
	unflagged int64
	// curr is the task each CPU runs, as its last sched_switch says (0:
	// idle; absent: not known yet); idleCPUs counts the CPUs known idle.
	curr     map[int]int
	idleCPUs int
	// asleep counts each family's tasks that are blocked (by the family
	// they were counted under); fanned tallies, per waker's family, the
	// family members its fan-outs woke and those they left asleep.
	asleep map[string]int
	fanned map[string]*fanTally
}

// fanTally is a family's fan-outs: members woken, and members woken plus
// those still asleep right after (a barrier's release wakes them all).
type fanTally struct{ woken, sleepers int64 }

// block marks k asleep.
func (t *Trace) block(k *task) {
	if !k.blocked {
		k.sleepFam = family(k.comm)
		t.asleep[k.sleepFam]++
	}
	k.blocked = true
}

// unblock marks k awake.
func (t *Trace) unblock(k *task) {
	if k.blocked && t.asleep[k.sleepFam] > 0 {
		t.asleep[k.sleepFam]--
	}
	k.blocked = false
}

// newTrace returns an empty trace.
func newTrace(opt Options) *Trace {
	return &Trace{opt: opt, tasks: map[int]*task{}, edges: map[edge]int64{}, fans: map[int]*fan{},
		cpuFirst: map[int]int64{}, start: -1, maxCPU: -1, curr: map[int]int{},
		asleep: map[string]int{}, fanned: map[string]*fanTally{}}
}

// Read reads ftrace text from r.
func Read(r io.Reader, opt Options) (*Trace, error) {
	t := newTrace(opt)
	l := input.NewLines(opt.File, r)
	var ln line
	for l.Next() {
		t.lines++
		b := l.Text()
		if err := parseLine(b, &ln); err != nil {
			if ignorable(b) {
				continue
			}
			if err := t.malformed(l, "not an ftrace event line"); err != nil {
				return nil, err
			}
			continue
		}
		if err := t.event(&ln); err != nil {
			if err := t.malformed(l, fmt.Sprintf("%s: %v", kindName(ln.kind), err)); err != nil {
				return nil, err
			}
		}
		if t.tooMany {
			return nil, l.Errorf("more than %d tasks; the limit is %d", input.MaxTasks, input.MaxTasks)
		}
	}
	if err := l.Err(); err != nil {
		return nil, err
	}
	t.finish()
	if t.events == 0 {
		return nil, input.Errorf(opt.File, 0, "no sched_switch or sched_waking events: record sched:sched_switch, sched:sched_waking (or sched_wakeup), sched:sched_wakeup_new, sched:sched_process_exit")
	}
	return t, nil
}

// malformed skips a bad line, or refuses it under Strict.
func (t *Trace) malformed(l *input.Lines, why string) error {
	if t.opt.Strict {
		return l.Errorf("%s (--strict)", why)
	}
	t.skipped++
	if t.firstSkip == "" {
		t.firstSkip = fmt.Sprintf("line %d: %s", l.Line(), why)
	}
	return nil
}

// ignorable reports the non-event lines traces carry: headers, comments,
// trace-cmd's preamble, buffer and lost-event markers, stack traces.
func ignorable(b []byte) bool {
	b = bytes.TrimSpace(b)
	for _, p := range []string{"#", "=>", "<stack trace>", "<user stack trace>", "version =", "cpus=", "CPU ", "CPU:", "TRACE_", "trace-cmd"} {
		if bytes.HasPrefix(b, []byte(p)) {
			return true
		}
	}
	return len(b) == 0
}

func kindName(k kind) string {
	for n, v := range kindNames {
		if v == k {
			return n
		}
	}
	return "event"
}

// get returns the task of pid, creating it (first seen at ts).
func (t *Trace) get(pid int, comm []byte, ts int64) *task {
	if k, ok := t.tasks[pid]; ok {
		// The latest name: an exec renames a task (bash → omp) without a
		// task_rename event, and its lines show the new name from then on.
		// A placeholder ("<...>", "<7952>": the comm was not recorded)
		// names a task only until a real name shows.
		if len(comm) > 0 && string(comm) != k.comm && (comm[0] != '<' || k.comm == "") {
			k.comm = string(comm)
		}
		return k
	}
	if len(t.tasks) >= input.MaxTasks {
		t.tooMany = true
	}
	k := &task{pid: pid, comm: string(comm), prio: 120, first: ts, forkAt: -1}
	t.tasks[pid] = k
	t.order = append(t.order, pid)
	return k
}

// speed is the work rate of cpu.
func (t *Trace) speed(cpu int) float64 {
	if cpu >= 0 && cpu < len(t.opt.Speed) && t.opt.Speed[cpu] > 0 {
		return t.opt.Speed[cpu]
	}
	return 1
}

// event applies one event line.
func (t *Trace) event(l *line) error {
	if l.ts < t.lastTS {
		t.backwards++
	}
	t.lastTS = l.ts
	if t.start < 0 {
		t.start = l.ts
	}
	t.end = max(t.end, l.ts)
	if _, ok := t.cpuFirst[l.cpu]; !ok {
		t.cpuFirst[l.cpu] = l.ts
	}
	if l.kind == kOther {
		return nil
	}
	t.maxCPU = max(t.maxCPU, l.cpu)
	switch l.kind {
	case kSwitch:
		var s switchEvent
		if err := parseSwitch(l.payload, &s); err != nil {
			return err
		}
		t.events++
		t.switchOut(l.ts, l.cpu, &s)
		t.switchIn(l.ts, l.cpu, &s)
		t.setCurr(l.cpu, s.nextPid)
	case kWaking, kWakeup:
		var w wakeEvent
		if err := parseWake(l.payload, &w); err != nil {
			return err
		}
		t.events++
		if l.kind == kWaking {
			t.waking++
		}
		t.wake(l, &w)
	case kWakeupNew:
		var w wakeEvent
		if err := parseWake(l.payload, &w); err != nil {
			return err
		}
		t.events++
		t.fork(l.ts, w.pid, w.comm, w.prio)
	case kFork:
		var f forkEvent
		if err := parseFork(l.payload, &f); err != nil {
			return err
		}
		t.events++
		t.fork(l.ts, f.childPid, f.childComm, -1)
	case kExit:
		pid, err := parseExit(l.payload)
		if err != nil {
			return err
		}
		t.events++
		if k, ok := t.tasks[pid]; ok {
			k.exited = true
		}
	case kRename:
		pid, comm, err := parseRename(l.payload)
		if err != nil {
			return err
		}
		if k, ok := t.tasks[pid]; ok {
			k.comm = string(comm)
		}
	}
	return nil
}

// switchOut ends prev's run on cpu.
func (t *Trace) switchOut(ts int64, cpu int, s *switchEvent) {
	if s.prevPid == 0 {
		return
	}
	k := t.get(s.prevPid, s.prevComm, ts)
	setPrio(k, s.prevPrio)
	start := k.runStart
	if !k.running {
		// Running since before the trace: since the CPU's first line.
		start = t.cpuFirst[cpu]
		k.inBurst = true
	}
	if dt := ts - start; dt > 0 {
		w := float64(dt) * t.speed(cpu)
		k.cpuTime += dt
		k.work += w
		k.burst += w
	}
	k.running = false
	k.runs++
	k.cpus.add(cpu)
	switch s.prevState {
	case stBlocked:
		k.endActivation()
		t.block(k)
		k.blockAt = ts
		t.flushFan(s.prevPid)
	case stDead:
		k.endActivation()
		k.exited = true
		t.flushFan(s.prevPid)
	}
}

// setCurr records that cpu now runs pid (0: idle).
func (t *Trace) setCurr(cpu, pid int) {
	if old, ok := t.curr[cpu]; ok && old == 0 {
		t.idleCPUs--
	}
	if pid == 0 {
		t.idleCPUs++
	}
	t.curr[cpu] = pid
}

// switchIn starts next's run on cpu.
func (t *Trace) switchIn(ts int64, cpu int, s *switchEvent) {
	if s.nextPid == 0 {
		return
	}
	k := t.get(s.nextPid, s.nextComm, ts)
	setPrio(k, s.nextPrio)
	if k.blocked {
		// Its wake-up is not in the trace: a timer's, as far as we know.
		t.unblock(k)
		k.wait, k.sleep = waitTimer, ts-k.blockAt
		k.wakeups++
		k.timerWakes++
	}
	if !k.inBurst {
		k.inBurst = true
		if k.activations() == 0 && k.wakeups == 0 {
			k.wait = waitStart
		}
	}
	if k.choice {
		// Woken while its CPU ran another task and another CPU was idle,
		// it waited for its own CPU: what an affinity mask does.
		k.choice = false
		if cpu == k.runCPU {
			k.stayedBusy++
		}
	}
	k.running, k.runStart, k.runCPU = true, ts, cpu
	k.cpus.add(cpu)
}

// wake applies sched_waking (or sched_wakeup): the task woken, and who
// woke it: the line's task, unless the line is in irq context or the
// idle task's (a timer or a device).
func (t *Trace) wake(l *line, w *wakeEvent) {
	k := t.get(w.pid, w.comm, l.ts)
	setPrio(k, w.prio)
	if !k.blocked && !k.running && k.runs == 0 && k.burst == 0 && k.wakeups == 0 && k.activations() == 0 {
		// Woken before it ever ran: it went to sleep as it started (a
		// forked task blocking at once, or one asleep when the trace
		// began). Its first activation begins with this wake-up.
		t.block(k)
		k.inBurst, k.startsWaiting = false, true
		k.blockAt = k.first
		if k.forkAt >= 0 {
			k.blockAt = k.forkAt
		}
	}
	if !k.blocked {
		if !k.inBurst && !k.running {
			k.inBurst, k.wait = true, waitStart
		}
		return // already runnable: a second tracepoint of the same wake-up
	}
	t.unblock(k)
	if cur, ok := t.curr[k.runCPU]; k.runs > 0 && ok && cur != 0 && cur != k.pid && t.idleCPUs > 0 {
		k.choice = true
	}
	k.sleep = l.ts - k.blockAt
	k.wakeups++
	k.inBurst, k.burst = true, 0
	if k.startsWaiting && k.wakeups == 1 {
		k.firstSleep = k.sleep
	}
	waker := l.pid
	if !l.flags && waker != 0 && waker != w.pid {
		t.unflagged++
	}
	if l.irq || waker == 0 || waker == w.pid {
		if l.irq && l.kind == kWakeup {
			t.irqWakeups++
		}
		k.wait = waitTimer
		k.timerWakes++
		if k.lastTimerWake > 0 {
			k.interval(float64(l.ts-k.lastTimerWake) / 1e3)
		}
		k.lastTimerWake = l.ts
		return
	}
	k.wait = waitTask
	k.taskWakes++
	if k.wakeups == 1 {
		k.firstByTask = true
	}
	wk := t.get(waker, l.comm, l.ts)
	e := edge{int32(waker), int32(w.pid), wk.wait}
	if _, ok := t.edges[e]; ok || len(t.edges) < maxEdges {
		t.edges[e]++
	} else {
		t.edgesDropped = true
	}
	f := t.fans[waker]
	if f == nil {
		f = &fan{}
		t.fans[waker] = f
	}
	if len(f.members) > 0 && l.ts-f.last > fanWindow {
		t.flushFan(waker)
	}
	if len(f.members) < 256 {
		f.members = append(f.members, w.pid)
	}
	f.last = l.ts
	f.asleep = t.asleep[family(wk.comm)]
}

// flushFan closes a waker's fan-out: a wake-up that woke two or more
// tasks at once counts for each of them, and for those of the waker's
// own family (a barrier's last arrival waking the others).
func (t *Trace) flushFan(waker int) {
	f := t.fans[waker]
	if f == nil || len(f.members) == 0 {
		return
	}
	if len(f.members) >= 2 {
		fam := family(t.tasks[waker].comm)
		var woken int64
		for _, m := range f.members {
			k := t.tasks[m]
			k.fanWoken++
			if family(k.comm) == fam {
				k.familyWoke++
				woken++
			}
		}
		if woken >= 2 {
			ft := t.fanned[fam]
			if ft == nil {
				ft = &fanTally{}
				t.fanned[fam] = ft
			}
			ft.woken += woken
			ft.sleepers += woken + int64(f.asleep)
		}
	}
	f.members = f.members[:0]
}

// fork records a new task (sched_wakeup_new or sched_process_fork).
func (t *Trace) fork(ts int64, pid int, comm []byte, prio int) {
	k, seen := t.tasks[pid]
	if !seen {
		k = t.get(pid, comm, ts)
		k.forkAt = ts
	}
	if prio >= 0 {
		setPrio(k, prio)
	}
	if !k.inBurst && !k.running {
		k.inBurst, k.wait = true, waitStart
	}
}

// setPrio records a CFS priority (100..139); RT priorities are kept too,
// for the note.
func setPrio(k *task, prio int) {
	if prio > 0 {
		k.prio = prio
	}
}

// finish closes the runs and activations still open at the trace's end.
func (t *Trace) finish() {
	for _, pid := range t.order {
		k := t.tasks[pid]
		if k.running {
			if dt := t.end - k.runStart; dt > 0 {
				w := float64(dt) * t.speed(k.runCPU)
				k.cpuTime += dt
				k.work += w
				k.burst += w
			}
			k.running = false
		}
		k.endActivation()
	}
	for waker := range t.fans {
		t.flushFan(waker)
	}
}

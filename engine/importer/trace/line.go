package trace

import (
	"bytes"
	"errors"
)

// kind is a scheduling tracepoint the replay reads.
type kind uint8

const (
	kOther kind = iota
	kSwitch
	kWaking
	kWakeup
	kWakeupNew
	kFork
	kExit
	kRename
)

var kindNames = map[string]kind{
	"sched_switch":       kSwitch,
	"sched_waking":       kWaking,
	"sched_wakeup":       kWakeup,
	"sched_wakeup_new":   kWakeupNew,
	"sched_process_fork": kFork,
	"sched_process_exit": kExit,
	"task_rename":        kRename,
}

// line is one ftrace line: the task in whose context it was written, the
// CPU, the irq-context flags, the timestamp (ns) and the event.
type line struct {
	comm    []byte
	pid     int
	cpu     int
	irq     bool // hardirq or softirq context (the flags' h, s or H)
	flags   bool // the line has the irq-flags column (irq is known)
	ts      int64
	kind    kind
	payload []byte
}

var errNotEvent = errors.New("not an ftrace event line")

// parseLine reads an ftrace line in the forms `cat trace`, systrace and
// `trace-cmd report` write:
//
//	<idle>-0     (-----) [000] d..2     0.000000000: sched_switch: prev_comm=…
//	  bash-1977  [003] d...  3742.555155: sched_wakeup: comm=bash pid=1240 …
//	  sshd-2962  [000]  6550.018513: sched_switch:  prev_comm=…
//
// comm may hold spaces and dashes: the pid is the number after the last
// dash before the CPU column.
func parseLine(b []byte, l *line) error {
	// The CPU column: the first " [digits]".
	open := -1
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '[' && (i == 0 || b[i-1] == ' ' || b[i-1] == '\t') && isDigit(b[i+1]) {
			j := i + 1
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			if j < len(b) && b[j] == ']' {
				open = i
				break
			}
		}
	}
	if open < 0 {
		return errNotEvent
	}
	close := bytes.IndexByte(b[open:], ']') + open
	cpu, ok := atoi(b[open+1 : close])
	if !ok {
		return errNotEvent
	}
	l.cpu = cpu
	task := bytes.TrimSpace(b[:open])
	if n := len(task); n > 0 && task[n-1] == ')' { // "(tgid)" of systrace
		if p := bytes.LastIndexByte(task, '('); p > 0 {
			task = bytes.TrimSpace(task[:p])
		}
	}
	found := false
	if dash := bytes.LastIndexByte(task, '-'); dash >= 0 {
		if pid, ok := atoi(task[dash+1:]); ok {
			l.comm, l.pid, found = task[:dash], pid, true
		}
	}
	if !found {
		// perf script: "comm tid" or "comm pid/tid" (perf sched record).
		sp := bytes.LastIndexAny(task, " \t")
		if sp < 0 {
			return errNotEvent
		}
		id := task[sp+1:]
		if slash := bytes.IndexByte(id, '/'); slash >= 0 {
			id = id[slash+1:]
		}
		pid, ok := atoi(id)
		if !ok {
			return errNotEvent
		}
		l.comm, l.pid = bytes.TrimSpace(task[:sp]), pid
	}
	rest := b[close+1:]
	// Optional flags ("d..2", "dNh3", "d.s4."), then the timestamp.
	f1, r1 := field(rest)
	l.irq, l.flags = false, false
	if len(f1) > 0 && f1[len(f1)-1] != ':' {
		l.flags = true
		l.irq = bytes.IndexByte(f1, 'h') >= 0 || bytes.IndexByte(f1, 's') >= 0 || bytes.IndexByte(f1, 'H') >= 0
		f1, r1 = field(r1)
	}
	if len(f1) < 2 || f1[len(f1)-1] != ':' {
		return errNotEvent
	}
	ts, ok := parseTime(f1[:len(f1)-1])
	if !ok {
		return errNotEvent
	}
	l.ts = ts
	ev, r2 := field(r1)
	if len(ev) < 2 || ev[len(ev)-1] != ':' {
		return errNotEvent
	}
	ev = ev[:len(ev)-1]
	if c := bytes.IndexByte(ev, ':'); c >= 0 {
		ev = ev[c+1:] // perf script names the subsystem: "sched:sched_switch"
	}
	l.kind = kindNames[string(ev)]
	l.payload = bytes.TrimSpace(r2)
	return nil
}

// field splits off the first space-separated field.
func field(b []byte) (f, rest []byte) {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	j := i
	for j < len(b) && b[j] != ' ' && b[j] != '\t' {
		j++
	}
	return b[i:j], b[j:]
}

// parseTime reads "seconds.fraction" into nanoseconds (up to 9 digits of
// fraction; ftrace prints 6 or 9).
func parseTime(b []byte) (int64, bool) {
	dot := bytes.IndexByte(b, '.')
	if dot <= 0 || dot == len(b)-1 {
		return 0, false
	}
	sec, ok := atoi(b[:dot])
	if !ok || sec > 1<<32 {
		return 0, false
	}
	frac := b[dot+1:]
	var ns int64
	for i := 0; i < 9; i++ {
		ns *= 10
		if i < len(frac) {
			if !isDigit(frac[i]) {
				return 0, false
			}
			ns += int64(frac[i] - '0')
		}
	}
	return int64(sec)*1e9 + ns, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// atoi reads a non-negative decimal (no sign, at most 9 digits).
func atoi(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if !isDigit(c) {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

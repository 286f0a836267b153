// Package rtapp reads an rt-app use case (github.com/scheduler-tools/
// rt-app, doc/tutorial.txt, in workgen's relaxed JSON: comments, trailing
// commas, repeated keys) into a schedplay workload: the inverse of
// engine/export/rtapp, so a workload exported and read back is the same
// workload.
//
//	thread object (instance, cpus, priority, delay) → group (count, cpus, nice, start)
//	policy SCHED_FIFO / SCHED_RR with priority       → policy fifo / rr, rt_priority
//	policy SCHED_BATCH / SCHED_IDLE                  → policy batch / idle (priority: nice, ignored for idle)
//	task "loop" n / phase "loop" n                  → repeat n (-1: until the run ends)
//	run / runtime µs                                → compute
//	sleep µs                                        → sleep
//	timer {period} in a phase with loop c           → periodic {every, count c, do: the phase's other events}
//	barrier NAME                                    → barrier NAME (the group prefix export adds is dropped)
//	sem_post NAME (k in a row) / sem_wait NAME      → send NAME (wake k, ipc futex) / recv NAME
//	signal/broad REF, wait {ref}, sync {ref}        → send REF, recv REF
//	resume THREAD / suspend                         → send THREAD / recv <own name>
//	thread objects NAME_0 … NAME_n-1 with one CPU each and the same phases
//	                                                → one group NAME, count n, pin each
//	thread objects NAME_0 … NAME_n-1 whose channel names spell k where
//	the others spell theirs                         → one group NAME, count n, channels with {i}
//	global duration s                               → run.duration
//
// What schedplay does not model is reported, never dropped silently:
// locks, memory and I/O load, yield, fork, the deadline policy,
// utilization clamps, NUMA binding, task groups, per-phase affinity,
// relative timers, barriers shared by several thread objects.
package rtapp

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"schedplay/engine/importer/input"
	"schedplay/engine/scenario"
	"schedplay/engine/units"
)

// UseCase is a use case read.
type UseCase struct {
	Workload scenario.Workload
	// Duration is global.duration (0 when the use case runs until its
	// threads end).
	Duration units.Duration
	// MaxCPU is the highest CPU an affinity list names (-1 for none).
	MaxCPU int
	Notes  []string
}

// forever is the repeat count of a loop of -1 (until the run ends).
const forever = 1_000_000_000

// events are rt-app's event names in the order rt-app matches a key's
// prefix against them (rt-app_parse_config.c, events[]).
var events = []string{"lock", "unlock", "wait", "signal", "broad", "sync", "sleep", "runtime", "run", "timer",
	"suspend", "resume", "memrun", "mem", "iorun", "yield", "barrier", "fork", "sem_post", "sem_wait"}

// eventKind is the event a key names ("" when it names none).
func eventKind(key string) string {
	for _, e := range events {
		if strings.HasPrefix(key, e) {
			return e
		}
	}
	return ""
}

// conv carries the conversion state.
type conv struct {
	file    string
	notes   []string
	seen    map[string]bool
	issues  []string            // grouped notes, in first-seen order
	who     map[string][]string // grouped note → threads
	dur     units.Duration
	policy  string
	task    string
	barrier map[string][]string // barrier name → thread objects using it
	maxCPU  int
	leftOut int  // threads left out for having no modelled event
	legacy  bool // a thread used the old grammar's exec or lock_order
}

func (c *conv) note(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if !c.seen[s] {
		c.seen[s] = true
		c.notes = append(c.notes, s)
	}
}

// issue records a note about the current thread, printed once with every
// thread it concerns.
func (c *conv) issue(msg string) {
	if _, ok := c.who[msg]; !ok {
		c.issues = append(c.issues, msg)
	}
	c.who[msg] = appendOnce(c.who[msg], c.task)
}

// flushIssues turns the grouped notes into notes.
func (c *conv) flushIssues() {
	for _, msg := range c.issues {
		c.note("%s (thread %s)", msg, strings.Join(c.who[msg], ", "))
	}
}

func (c *conv) errf(n *node, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.line
	}
	return input.Errorf(c.file, line, format, args...)
}

// Read converts an rt-app use case; file names it in errors.
func Read(data []byte, file string) (*UseCase, error) {
	if len(data) > input.MaxFileBytes {
		return nil, input.Errorf(file, 0, "larger than the limit of %d bytes", input.MaxFileBytes)
	}
	root, err := parse(data)
	if err != nil {
		if le, ok := err.(*lineError); ok {
			return nil, input.Errorf(file, le.line, "%s", le.msg)
		}
		return nil, input.Errorf(file, 0, "%v", err)
	}
	c := &conv{file: file, seen: map[string]bool{}, who: map[string][]string{}, barrier: map[string][]string{}, policy: "SCHED_OTHER", maxCPU: -1}
	if root.kind != 'o' {
		return nil, c.errf(root, "an rt-app use case is a JSON object")
	}
	uc := &UseCase{MaxCPU: -1}
	if g := root.get("global"); g != nil {
		if err := c.global(g, uc); err != nil {
			return nil, err
		}
	}
	tasks := root.get("tasks")
	if tasks == nil || tasks.kind != 'o' || len(tasks.keys) == 0 {
		return nil, c.errf(root, "no \"tasks\" object with at least one thread")
	}
	for _, k := range root.keys {
		if k != "tasks" && k != "global" && k != "resources" {
			c.note("top-level %q ignored", k)
		}
	}
	var groups []scenario.Group
	for i, name := range tasks.keys {
		g, err := c.thread(name, tasks.vals[i])
		if err != nil {
			return nil, err
		}
		if g != nil {
			groups = append(groups, *g)
		}
	}
	groups = mergePinned(groups)
	c.checkBarriers(groups)
	c.flushIssues()
	if len(groups) == 0 && c.leftOut > 0 {
		if c.legacy {
			return nil, c.errf(tasks, "no thread has an event schedplay models: this is rt-app's old grammar (exec, lock_order, resources), which neither rt-app nor schedplay reads today; write the threads as run/sleep/timer events (rt-app's doc/tutorial.txt)")
		}
		return nil, c.errf(tasks, "no thread has an event schedplay models (lock, unlock, mem, iorun, yield and fork are dropped)")
	}
	if len(groups) == 0 {
		return nil, c.errf(tasks, "no thread is created (every instance count is 0)")
	}
	if len(groups) > 256 {
		return nil, c.errf(tasks, "%d thread objects; schedplay workloads have at most 256 groups", len(groups))
	}
	uc.Workload.Groups = groups
	// rt-app's main thread creates every thread with pthread_create():
	// one parent forks them all, threads of its one process (one mm)
	uc.Workload.SharedParent = true
	uc.MaxCPU = c.maxCPU
	uc.Notes = c.notes
	return uc, nil
}

// global reads the global object.
func (c *conv) global(g *node, uc *UseCase) error {
	if g.kind != 'o' {
		return c.errf(g, "\"global\" must be an object")
	}
	var ignored []string
	for i, k := range g.keys {
		v := g.vals[i]
		switch k {
		case "duration":
			if v.kind != 'n' {
				return c.errf(v, "global.duration must be a number of seconds")
			}
			switch {
			case v.num < 0:
			case v.num > 60:
				c.note("global.duration %gs capped to 60s, schedplay's longest run", v.num)
				uc.Duration = 60 * units.Second
			default:
				uc.Duration = units.Duration(v.num * float64(units.Second))
			}
			c.dur = uc.Duration
		case "default_policy":
			c.policy = v.str
			if _, known := schedPolicy(v.str); !known {
				c.note("default_policy %s is not modelled: threads run as SCHED_OTHER", v.str)
			}
		case "pi_enabled":
			if v.b {
				c.note("global.pi_enabled: priority inheritance is not modelled")
			}
		default:
			ignored = append(ignored, k)
		}
	}
	if len(ignored) > 0 {
		c.note("harness settings ignored: global.%s", strings.Join(ignored, ", global."))
	}
	return nil
}

// schedPolicy is the group policy of an rt-app policy name; false for
// one schedplay does not model (SCHED_DEADLINE).
func schedPolicy(p string) (scenario.SchedPolicy, bool) {
	if p == "" {
		return scenario.PolicyNormal, true
	}
	for _, sp := range []scenario.SchedPolicy{scenario.PolicyNormal, scenario.PolicyBatch, scenario.PolicyIdle, scenario.PolicyFIFO, scenario.PolicyRR} {
		if p == sp.KernelName() {
			return sp, true
		}
	}
	return scenario.PolicyNormal, false
}

// thread converts one thread object to a group (nil for instance 0).
func (c *conv) thread(name string, t *node) (*scenario.Group, error) {
	c.task = name
	if t.kind != 'o' {
		return nil, c.errf(t, "thread %q must be an object", name)
	}
	g := &scenario.Group{Name: name, Count: 1}
	loop := -1
	policy := c.policy
	var phases *node
	body := &node{kind: 'o', line: t.line}
	for i, k := range t.keys {
		v := t.vals[i]
		var err error
		switch k {
		case "instance":
			g.Count, err = c.whole(v, "instance", 0, 16384)
		case "loop":
			loop, err = c.whole(v, "loop", -1, math.MaxInt32)
		case "cpus":
			g.CPUs, err = c.cpus(v)
		case "priority":
			g.Nice, err = c.whole(v, "priority", -100, 100)
		case "policy":
			policy = v.str
		case "delay":
			var us int
			us, err = c.whole(v, "delay", 0, math.MaxInt32)
			g.Start = units.Duration(us) * units.Microsecond
		case "phases":
			phases = v
		default:
			if k == "exec" || k == "lock_order" {
				c.legacy = true
			}
			if eventKind(k) == "" {
				c.property(k)
				continue
			}
			body.keys = append(body.keys, k)
			body.vals = append(body.vals, v)
		}
		if err != nil {
			return nil, err
		}
	}
	if g.Count == 0 {
		c.note("thread %q has instance 0: rt-app creates no thread, nor does schedplay", name)
		return nil, nil
	}
	switch sp, known := schedPolicy(policy); {
	case !known:
		c.note("thread %q: policy %s is not modelled: it runs as SCHED_OTHER nice 0", name, policy)
		g.Nice = 0
	case sp.RT():
		// rt-app's priority is the sched_priority of an RT thread
		g.Policy, g.RTPriority, g.Nice = sp, g.Nice, 0
		if p := max(1, min(scenario.MaxRTPriority, g.RTPriority)); p != g.RTPriority {
			c.note("thread %q: %s priority %d clamped to %d", name, policy, g.RTPriority, p)
			g.RTPriority = p
		}
	case sp == scenario.PolicyIdle:
		// rt-app sets the nice value, which SCHED_IDLE's weight ignores
		if g.Nice != 0 {
			c.note("thread %q: SCHED_IDLE ignores its priority (nice %d): its weight is WEIGHT_IDLEPRIO", name, g.Nice)
		}
		g.Policy, g.Nice = sp, 0
	default:
		g.Policy = sp
	}
	if g.Nice < -20 || g.Nice > 19 {
		c.note("thread %q: priority %d clamped to nice %d", name, g.Nice, max(-20, min(19, g.Nice)))
		g.Nice = max(-20, min(19, g.Nice))
	}
	var steps []scenario.Step
	if phases != nil {
		if phases.kind != 'o' {
			return nil, c.errf(phases, "thread %q: phases must be an object", name)
		}
		for i, pn := range phases.keys {
			s, err := c.phase(pn, phases.vals[i])
			if err != nil {
				return nil, err
			}
			steps = append(steps, s...)
		}
	} else {
		s, err := c.phase("", body)
		if err != nil {
			return nil, err
		}
		steps = s
	}
	if len(steps) == 0 {
		// Every event was one schedplay drops: a loop of nothing would
		// spin in zero time until the run ends.
		c.note("thread %q is left out: none of its events is modelled", name)
		c.leftOut++
		return nil, nil
	}
	g.Program = repeat(loopCount(loop), steps)
	if loop < 0 {
		c.issue("loops until the run ends (loop -1)")
	}
	return g, nil
}

// loopCount is a loop's repeat count (-1: forever).
func loopCount(loop int) int {
	if loop < 0 {
		return forever
	}
	return loop
}

// repeat wraps steps in a repeat of n (n 1 is the steps themselves).
func repeat(n int, steps []scenario.Step) []scenario.Step {
	if n == 1 {
		return steps
	}
	if n <= 0 {
		return nil
	}
	return []scenario.Step{{Repeat: n, Do: steps}}
}

// property reports a thread or phase property schedplay does not model.
func (c *conv) property(k string) {
	switch {
	case k == "util_min" || k == "util_max":
		c.note("thread %q: %s (uclamp) is not modelled", c.task, k)
	case k == "nodes_membind":
		c.note("thread %q: nodes_membind (NUMA memory binding) is not modelled", c.task)
	case k == "taskgroup":
		c.note("thread %q: taskgroup (cgroups) is not modelled", c.task)
	case strings.HasPrefix(k, "dl-") || k == "runtime" || k == "period" || k == "deadline":
		c.note("thread %q: %s (SCHED_DEADLINE / custom slice) is not modelled", c.task, k)
	default:
		c.note("thread %q: unknown key %q ignored", c.task, k)
	}
}

// phase converts one phase's events; a timer makes it periodic.
func (c *conv) phase(name string, p *node) ([]scenario.Step, error) {
	if p.kind != 'o' {
		return nil, c.errf(p, "thread %q: phase %q must be an object", c.task, name)
	}
	if !slices.ContainsFunc(p.keys, func(k string) bool { return eventKind(k) != "" }) {
		what := fmt.Sprintf("thread %q", c.task)
		if name != "" {
			what += fmt.Sprintf(", phase %q,", name)
		}
		hint := ""
		if c.legacy {
			hint = "; exec is rt-app's old grammar, which it no longer reads: write run/sleep/timer events (rt-app's doc/tutorial.txt)"
		}
		return nil, c.errf(p, "%s has no event (run, sleep, timer, barrier…): rt-app refuses it too (\"No events found. Task must have events or it's useless\")%s", what, hint)
	}
	loop := 1
	var steps []scenario.Step
	var timer *node
	timerAt := -1
	for i, k := range p.keys {
		v := p.vals[i]
		if k == "loop" {
			n, err := c.whole(v, "loop", -1, math.MaxInt32)
			if err != nil {
				return nil, err
			}
			loop = n
			continue
		}
		kind := eventKind(k)
		if kind == "" {
			if k == "cpus" || k == "priority" || k == "policy" {
				c.note("thread %q: phase %q sets %s: per-phase changes are not modelled (the thread's own applies)", c.task, name, k)
				continue
			}
			c.property(k)
			continue
		}
		if kind == "timer" {
			if timer != nil {
				c.note("thread %q: phase %q has two timers: the second is dropped", c.task, name)
				continue
			}
			timer, timerAt = v, len(steps)
			continue
		}
		st, err := c.event(kind, v)
		if err != nil {
			return nil, err
		}
		if st == nil {
			continue
		}
		// k sem_posts in a row to one semaphore are one send of k.
		if n := len(steps); st.Send != "" && n > 0 && steps[n-1].Send == st.Send && !st.Sync && !steps[n-1].Sync {
			steps[n-1].Wake = max(steps[n-1].Wake, 1) + 1
			continue
		}
		steps = append(steps, *st)
	}
	if timer == nil {
		return repeat(loopCount(loop), steps), nil
	}
	return c.periodic(name, timer, timerAt, steps, loop)
}

// periodic turns a phase with a timer into a periodic step.
func (c *conv) periodic(name string, timer *node, at int, steps []scenario.Step, loop int) ([]scenario.Step, error) {
	if timer.kind != 'o' {
		return nil, c.errf(timer, "thread %q: timer must be an object {\"ref\", \"period\"}", c.task)
	}
	pn := timer.get("period")
	if pn == nil || pn.kind != 'n' || pn.num <= 0 {
		return nil, c.errf(timer, "thread %q: timer needs a period in µs", c.task)
	}
	if m := timer.get("mode"); m == nil || m.str != "absolute" {
		c.issue("a relative timer runs as an absolute one (schedplay's periodic step)")
	}
	if ref := timer.get("ref"); ref != nil && !strings.HasPrefix(ref.str, "unique") {
		c.note("thread %q: timer %q is shared by its instances in rt-app; each task gets its own", c.task, ref.str)
	}
	if at != 0 && at != len(steps) {
		c.note("thread %q: phase %q's timer is not its first or last event: the events run once per period in their order", c.task, name)
	}
	every := units.Duration(pn.num) * units.Microsecond
	count := loopCount(loop)
	if loop < 0 || count >= forever {
		count = 0 // until the run ends
	}
	if c.dur > 0 && count > 0 && int64(count) == (int64(c.dur)+int64(every)-1)/int64(every) {
		count = 0 // as many periods as the run holds: export's form of "until the run ends"
	}
	return []scenario.Step{{Periodic: &scenario.Periodic{Every: every, Count: count, Do: steps}}}, nil
}

// event converts one event (nil: reported, not modelled).
func (c *conv) event(kind string, v *node) (*scenario.Step, error) {
	switch kind {
	case "run", "runtime", "sleep":
		if v.kind != 'n' || v.num < 0 {
			return nil, c.errf(v, "thread %q: %s must be a number of µs ≥ 0", c.task, kind)
		}
		d := durPtr(units.Duration(v.num * float64(units.Microsecond)))
		if kind == "sleep" {
			return &scenario.Step{Sleep: d}, nil
		}
		if kind == "runtime" {
			c.issue("runtime (fixed time whatever the CPU's speed) runs as compute (work that takes longer on a slower CPU)")
		}
		return &scenario.Step{Compute: d}, nil
	case "barrier":
		name := c.str(v)
		c.barrier[name] = appendOnce(c.barrier[name], c.task)
		return &scenario.Step{Barrier: strings.TrimPrefix(name, c.task+"_")}, nil
	case "sem_post":
		return &scenario.Step{Send: c.str(v), IPC: scenario.IPCFutex}, nil
	case "sem_wait":
		return &scenario.Step{Recv: c.str(v)}, nil
	case "signal":
		return &scenario.Step{Send: c.str(v), IPC: scenario.IPCFutex}, nil
	case "broad":
		c.issue("broad wakes every waiter in rt-app; schedplay's send wakes one")
		return &scenario.Step{Send: c.str(v), IPC: scenario.IPCFutex}, nil
	case "wait":
		return &scenario.Step{Recv: c.ref(v)}, nil
	case "sync":
		c.issue("sync (signal then wait on one condition) runs as a recv")
		return &scenario.Step{Recv: c.ref(v)}, nil
	case "resume":
		c.issue("resume/suspend have no memory in rt-app; schedplay's channel keeps a resume sent before the suspend")
		return &scenario.Step{Send: c.str(v), IPC: scenario.IPCFutex}, nil
	case "suspend":
		return &scenario.Step{Recv: c.task}, nil
	case "lock", "unlock":
		c.issue("mutexes (lock/unlock) are not modelled: dropped")
	case "mem", "iorun", "memrun":
		c.issue(kind + " (memory or I/O load) is not modelled: dropped")
	case "yield":
		c.issue("yield is not modelled: dropped")
	case "fork":
		c.issue("fork is not modelled: the forked thread starts with the others")
	}
	return nil, nil
}

func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// checkBarriers reports barriers shared by several thread objects, which
// schedplay's group barriers cannot express (pinned instances merged back
// into one group are fine).
func (c *conv) checkBarriers(groups []scenario.Group) {
	names := make([]string, 0, len(c.barrier))
	for b := range c.barrier {
		names = append(names, b)
	}
	slices.Sort(names)
	for _, b := range names {
		users := c.barrier[b]
		grp := map[string]bool{}
		for _, u := range users {
			grp[groupOf(u, groups)] = true
		}
		if len(grp) > 1 {
			c.note("barrier %q joins threads %s: schedplay barriers are per group, so each group meets at it alone", b, strings.Join(users, ", "))
		}
	}
}

// groupOf is the group a thread object ended in.
func groupOf(task string, groups []scenario.Group) string {
	for _, g := range groups {
		if g.Name == task {
			return g.Name
		}
		if g.Pin == scenario.PinEach && strings.HasPrefix(task, g.Name+"_") {
			return g.Name
		}
	}
	return task
}

func (c *conv) str(v *node) string {
	if v.kind == 's' {
		return v.str
	}
	if v.kind == 'n' {
		return strconv.FormatFloat(v.num, 'f', -1, 64)
	}
	return ""
}

// ref reads {"ref": NAME, …} or a plain name.
func (c *conv) ref(v *node) string {
	if v.kind == 'o' {
		if r := v.get("ref"); r != nil {
			return r.str
		}
	}
	return c.str(v)
}

// whole reads a whole number in [lo, hi].
func (c *conv) whole(v *node, what string, lo, hi int) (int, error) {
	if v.kind != 'n' || v.num != math.Trunc(v.num) || v.num < float64(lo) || v.num > float64(hi) {
		return 0, c.errf(v, "thread %q: %s must be a whole number in %d..%d", c.task, what, lo, hi)
	}
	return int(v.num), nil
}

// cpus reads an affinity list [0, 2, 3] into cpulist syntax.
func (c *conv) cpus(v *node) (string, error) {
	if v.kind != 'a' || len(v.vals) == 0 {
		return "", c.errf(v, "thread %q: cpus must be a non-empty list of CPU numbers", c.task)
	}
	var ids []int
	for _, x := range v.vals {
		if x.kind != 'n' || x.num != math.Trunc(x.num) || x.num < 0 || x.num > input.MaxCPUID {
			return "", c.errf(x, "thread %q: cpus holds %v, not a CPU number", c.task, x.num)
		}
		ids = append(ids, int(x.num))
		c.maxCPU = max(c.maxCPU, int(x.num))
	}
	return input.ListString(ids), nil
}

func durPtr(d units.Duration) *units.Duration { return &d }

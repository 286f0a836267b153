package perfetto

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"schedplay/engine/sim"
)

// systraceLine is the shape Perfetto's systrace line tokenizer accepts
// (src/trace_processor/importers/systrace/systrace_line_tokenizer.cc):
// task-pid, [cpu], 4 flag characters, seconds.micros, event: args.
var systraceLine = regexp.MustCompile(`-(\d+)\s+\(?\s*(\d+|-+)?\)?\s?\[(\d+)\]\s*[a-zA-Z0-9.]{0,4}\s+(\d+\.\d+):\s+(\S+):`)

func timeline() *sim.Result {
	return &sim.Result{Unit: "work/s", Reps: []sim.RepMetrics{{Series: sim.Series{StepNs: 1000000, Values: []float64{1, 2}}}},
		Timeline: &sim.Timeline{
			Tasks: []sim.TaskInfo{{Name: "sgemm 0", PID: 4, Prio: 120}, {Name: "<b>x</b>", PID: 5, Prio: 49}}, // x: SCHED_FIFO 50
			Runs: [][]sim.Interval{
				{{Task: 0, Start: 1000, End: 5000, Decision: 0, Out: sim.OutPreempt}, {Task: 1, Start: 5000, End: 9000, Decision: -1}, {Task: 0, Start: 12000, End: 20000, Decision: 1, Out: sim.OutRunning}},
				{},
			},
			Modes: [][]sim.ModeInterval{{{Mode: sim.ModeST, Start: 1000, End: 9000}, {Mode: sim.ModeIdle, Start: 9000, End: 12000}, {Mode: sim.ModeSMT, Start: 12000, End: 20000}}},
			Decisions: []sim.Decision{{At: 900, Task: 0, Kind: "fork", From: 1, To: 0}, {At: 11000, Task: 0, Kind: "wakeup", From: 1, To: 0}, {At: 19000, Task: 1, Kind: "misfit", From: 0, To: 1},
				{At: 7000, Task: 0, Kind: "wakeup", From: 1, To: 1, Waker: 1}},
			EndNs: 20000,
		}}
}

// TestSystrace: the ftrace text a trace carries; each task's prio is the
// kernel's p->prio (120 for SCHED_OTHER nice 0, 49 for SCHED_FIFO 50).
func TestSystrace(t *testing.T) {
	tl := timeline().Timeline
	tl.Tasks = append(tl.Tasks, sim.TaskInfo{Name: "w", Group: 1, PID: 6, Prio: 125}, sim.TaskInfo{Name: "w", Group: 1, PID: 7, Prio: 125})
	txt := systrace(tl, tgids(tl, []bool{false, true}))
	want := []string{
		"<idle>-0     (-----) [001] d..2     0.000000900: sched_wakeup_new: comm=sgemm_0 pid=4 prio=120 target_cpu=000",
		"<idle>-0     (-----) [000] d..2     0.000001000: cpu_idle: state=4294967295 cpu_id=0",
		"<idle>-0     (-----) [000] d..2     0.000001000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sgemm_0 next_pid=4 next_prio=120",
		"sgemm_0-4     (    4) [000] d..2     0.000005000: sched_switch: prev_comm=sgemm_0 prev_pid=4 prev_prio=120 prev_state=R ==> next_comm=<b>x</b> next_pid=5 next_prio=49",
		"<b>x</b>-5     (    4) [000] d..2     0.000009000: sched_switch: prev_comm=<b>x</b> prev_pid=5 prev_prio=49 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120",
		"[000] d..2     0.000009000: cpu_idle: state=1 cpu_id=0",
		// A timer wake-up: hardirq context on the sleeper's CPU.
		"<idle>-0     (-----) [001] d.h2     0.000011000: sched_waking: comm=sgemm_0 pid=4 prio=120 target_cpu=000",
		// A task's wake-up: on the CPU it was issued from, in the context of
		// the task running there (the waker).
		"<b>x</b>-5     (    4) [000] d..2     0.000007000: sched_waking: comm=sgemm_0 pid=4 prio=120 target_cpu=001",
		"<b>x</b>-5     (    4) [000] d..2     0.000019000: sched_migrate_task: comm=<b>x</b> pid=5 prio=49 orig_cpu=0 dest_cpu=1",
		"0.000020000: sched_switch: prev_comm=sgemm_0 prev_pid=4",
	}
	for _, w := range want {
		if !strings.Contains(txt, w) {
			t.Errorf("systrace lacks %q:\n%s", w, txt)
		}
	}
	if g := tgids(tl, []bool{false, true}); g[0] != 4 || g[1] != 4 || g[2] != 6 || g[3] != 7 {
		t.Errorf("tgids = %v; want [4 4 6 7] (group 0 threads of one process, group 1 processes)", g)
	}
	// The tgids the simulator records win over the group flags.
	withTGID := *tl
	withTGID.Tasks = []sim.TaskInfo{{Name: "a", PID: 4, TGID: 4}, {Name: "b", PID: 5, TGID: 5}, {Name: "w", Group: 1, PID: 6, TGID: 6}, {Name: "w", Group: 1, PID: 7, TGID: 6}}
	if g := tgids(&withTGID, []bool{false, true}); g[0] != 4 || g[1] != 5 || g[2] != 6 || g[3] != 6 {
		t.Errorf("tgids = %v; want the recorded [4 5 6 6]", g)
	}
	// A group parent's sched_exec() placement (task -1) is no task's
	// migration: the parent has no runs, so it writes no line.
	withExec := *tl
	withExec.Decisions = append(slices.Clone(tl.Decisions), sim.Decision{At: 500, Task: -1, Kind: "exec", From: 1, To: 0})
	if x := systrace(&withExec, tgids(&withExec, []bool{false, true})); x != txt {
		t.Errorf("an exec decision changed the systrace:\n%s", x)
	}
	if !strings.HasPrefix(txt, "# tracer: nop\n") {
		t.Error("missing the tracer header")
	}
	last := -1.0
	for _, l := range strings.Split(strings.TrimSpace(txt), "\n") {
		if strings.HasPrefix(l, "#") {
			continue
		}
		m := systraceLine.FindStringSubmatchIndex(l)
		if m == nil {
			t.Errorf("line does not parse as systrace: %q", l)
			continue
		}
		ts, _ := strconv.ParseFloat(l[m[8]:m[9]], 64)
		if ts < last {
			t.Errorf("lines out of time order at %q", l)
		}
		last = ts
		// Perfetto splits the arguments on ' ' and '=': every token of a
		// sched_switch must be key=value except the "==>" separator.
		if l[m[10]:m[11]] == "sched_switch" {
			for _, tok := range strings.Fields(l[m[1]:]) {
				if k, v, ok := strings.Cut(tok, "="); tok != "==>" && (!ok || k == "" || v == "" || strings.Contains(v, "=")) {
					t.Errorf("sched_switch token %q does not split as key=value in %q", tok, l)
				}
			}
		}
	}
}

func TestWriteJSON(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, timeline(), Options{CoreCPUs: [][]int{{0, 1}}, UtilBuckets: 4}); err != nil {
		t.Fatal(err)
	}
	var tr Trace
	if err := json.Unmarshal(b.Bytes(), &tr); err != nil {
		t.Fatal(err)
	}
	var modes, util []Event
	for _, e := range tr.TraceEvents {
		switch {
		case e.Ph == "X":
			modes = append(modes, e)
		case e.Ph == "C" && e.Name == "utilization %":
			util = append(util, e)
		}
	}
	if len(modes) != 2 || modes[0].Name != "ST" || modes[0].Ts != 1 || modes[0].Dur != 8 || modes[1].Name != "SMT" {
		t.Errorf("mode slices %+v", modes)
	}
	// 4 buckets of 5us over 2 CPUs; CPU 0 busy 4+0, 5+... : bucket 0 [0,5000): 4000ns → 40%.
	if len(util) != 4 || util[0].Args["busy"] != 40.0 {
		t.Errorf("utilization %+v", util)
	}
	if !strings.Contains(b.String(), `"name":"core 0: CPUs 0,1"`) || tr.DisplayTimeUnit != "ns" {
		t.Errorf("track names / unit missing: %s", b.String()[:200])
	}
	if _, err := Build(&sim.Result{}, Options{}); err == nil {
		t.Error("a result without a timeline must be an error")
	}
}

func TestUntilClips(t *testing.T) {
	tr, err := Build(timeline(), Options{Until: 6000})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(tr.SystemTraceEvents, "0.000009000") || !strings.Contains(tr.SystemTraceEvents, "0.000006000: sched_switch: prev_comm=<b>x</b>") {
		t.Errorf("timeline not clipped at 6us:\n%s", tr.SystemTraceEvents)
	}
	for _, e := range tr.TraceEvents {
		if e.Ph == "X" && e.Ts+e.Dur > 6 {
			t.Errorf("mode slice past the clip: %+v", e)
		}
	}
}

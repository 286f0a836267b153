package playground

import (
	"strings"
	"testing"

	"schedplay/engine/sim"
)

const ms = int64(1_000_000)

func explainTimeline() *sim.Timeline {
	return &sim.Timeline{
		Tasks: []sim.TaskInfo{{Name: "a", PID: 100}, {Name: "b", PID: 101}},
		Decisions: []sim.Decision{
			{At: 0, Task: 0, Kind: "fork", From: 0, To: 0, Path: []string{"select_task_rq_fair", "sched_balance_find_dst_group(PKG) → cpu 0"}},
			{At: 5 * ms, Task: 0, Kind: "wakeup", From: 0, To: 1, Path: []string{"select_task_rq_fair", "select_idle_sibling: prev 0 idle"}},
			{At: 9 * ms, Task: 0, Kind: "periodic", From: 1, To: 2, Path: []string{"sched_balance_rq(MC, CPU_IDLE)", "find_src_group: busiest 1 (overloaded)", "find_src_rq → cpu 1", "detach_tasks → cpu 2"}},
			{At: 1 * ms, Task: 1, Kind: "fork", From: 0, To: 3, Path: []string{"select_task_rq_fair"}},
		},
		Runs: [][]sim.Interval{
			{{Task: 0, Start: 0, End: 2 * ms, Decision: 0}, {Task: 0, Start: 3 * ms, End: 4 * ms, Decision: -1}},
			{{Task: 0, Start: 5 * ms, End: 8 * ms, Decision: 1}},
			{{Task: 0, Start: 9 * ms, End: 10 * ms, Decision: 2}},
			{{Task: 1, Start: 1 * ms, End: 10 * ms, Decision: 3}},
		},
		EndNs: 10 * ms,
	}
}

func TestExplainSliceWakeup(t *testing.T) {
	tl := explainTimeline()
	e, ok := ExplainSlice(tl, 1, 0)
	if !ok || e.Decision != 1 || e.Inherited || e.Kind != "wakeup" || e.Task != "a (pid 100)" {
		t.Fatalf("%+v", e)
	}
	if e.Prev == nil || e.Prev.CPU != 0 || e.Prev.Interval != 0 || e.Next == nil || e.Next.CPU != 2 {
		t.Fatalf("prev %+v next %+v (the slice at 3 ms has no placement of its own)", e.Prev, e.Next)
	}
	linked := map[string]string{}
	for _, l := range e.Lines {
		for _, s := range l {
			if s.Func != "" {
				linked[s.Func] = s.Anchor
			}
		}
	}
	for _, f := range []string{"try_to_wake_up", "select_task_rq_fair", "select_idle_sibling"} {
		if linked[f] != f {
			t.Errorf("%s not linked: %v", f, linked)
		}
	}
	if !strings.Contains(e.Lines[0].Text(), "woken") || !strings.Contains(strings.Join(e.Notes, " "), "first 8 CPUs") {
		t.Errorf("%q / %q", e.Lines[0].Text(), e.Notes)
	}
	if got := PlacementText(tl, *e.Next); got != "cpu 2, 9 ms → 10 ms (periodic, from cpu 1)" {
		t.Errorf("PlacementText %q", got)
	}
}

// A slice without a placement of its own is explained by the task's
// latest earlier decision, and says so.
func TestExplainSliceInherited(t *testing.T) {
	e, ok := ExplainSlice(explainTimeline(), 0, 1)
	if !ok || e.Decision != 0 || !e.Inherited || e.Kind != "fork" || !strings.Contains(e.Notes[0], "no placement of its own") {
		t.Fatalf("%+v", e)
	}
	if e.Prev == nil || e.Prev.Interval != 0 || e.Next == nil || e.Next.CPU != 1 {
		t.Fatalf("prev %+v next %+v", e.Prev, e.Next)
	}
}

// A forked task's slice also shows where its parent was exec'ed, which
// the fork event recorded first: the parent has no slice of its own.
// Another group's exec of the same instant, from another CPU, is not it,
// and a fork whose parent recorded none (pinned) shows none.
func TestExplainSliceForkShowsParentExec(t *testing.T) {
	tl := explainTimeline()
	exec := sim.Decision{At: 1 * ms, Task: -1, Kind: "exec", From: 5, To: 0, Path: []string{"sched_exec: group 1's parent, exec'ed on cpu 5", "select_task_rq_fair", "WF_EXEC from cpu 5 (the parent runs there)"}}
	tl.Decisions = append(tl.Decisions, exec, sim.Decision{At: 1 * ms, Task: 1, Kind: "fork", From: 0, To: 3, Path: []string{"select_task_rq_fair"}})
	tl.Runs[3][0].Decision = 5
	e, ok := ExplainSlice(tl, 3, 0)
	if !ok || e.Kind != "fork" || e.Exec != 4 || len(e.ExecLines) == 0 {
		t.Fatalf("%+v", e)
	}
	if h := e.ExecLines[0].Text(); !strings.Contains(h, "exec'ed") || !strings.Contains(h, "cpu 5 → cpu 0") {
		t.Errorf("exec headline %q", h)
	}
	tl.Decisions[4].To = 7 // another parent's exec, on another CPU
	if e, _ := ExplainSlice(tl, 3, 0); e.Exec != -1 || e.ExecLines != nil {
		t.Errorf("another group's exec taken: %+v", e)
	}
	if e, _ := ExplainSlice(explainTimeline(), 3, 0); e.Exec != -1 || e.ExecLines != nil {
		t.Errorf("a pinned parent records no exec: %+v", e)
	}
	if e, _ := ExplainSlice(tl, 1, 0); e.Exec != -1 {
		t.Errorf("a wake-up shows no exec: %+v", e)
	}
}

// A balance migration names its domain and busiest group, and says which
// group statistics the record holds.
func TestExplainSliceBalance(t *testing.T) {
	e, ok := ExplainSlice(explainTimeline(), 2, 0)
	if !ok || e.Kind != "periodic" || e.Next != nil || e.Prev == nil || e.Prev.CPU != 1 {
		t.Fatalf("%+v", e)
	}
	var text []string
	for _, l := range e.Lines {
		text = append(text, l.Text())
	}
	all := strings.Join(text, "\n")
	if !strings.Contains(all, "sched_balance_rq(MC, CPU_IDLE)") || !strings.Contains(all, "busiest 1 (overloaded)") {
		t.Errorf("lines: %s", all)
	}
	if !strings.Contains(strings.Join(e.Notes, " "), "calculate_imbalance()") {
		t.Errorf("notes %q", e.Notes)
	}
	if _, ok := ExplainSlice(explainTimeline(), 2, 1); ok {
		t.Error("a slice that does not exist")
	}
	quick := explainTimeline()
	quick.NoDecisions, quick.Decisions = true, nil
	for i := range quick.Runs[2] {
		quick.Runs[2][i].Decision = -1
	}
	if e, ok := ExplainSlice(quick, 2, 0); !ok || e.Decision != -1 || !strings.Contains(strings.Join(e.Notes, " "), "full result") {
		t.Errorf("a timeline without decisions: %+v", e)
	}
	if _, ok := ExplainSlice(nil, 0, 0); ok {
		t.Error("no timeline")
	}
}

func TestFirstVisibleSlice(t *testing.T) {
	tl := explainTimeline()
	for _, tt := range []struct {
		t0, t1   int64
		cpu, idx int
	}{
		{0, 10 * ms, 0, 0},
		{3500_000, 10 * ms, 0, 1},
		{4500_000, 10 * ms, 3, 0}, // task b runs from 1 ms on cpu 3: in view from 4.5 ms
		{11 * ms, 12 * ms, -1, -1},
	} {
		if c, i := FirstVisibleSlice(tl, tt.t0, tt.t1); c != tt.cpu || i != tt.idx {
			t.Errorf("[%d, %d): %d/%d, want %d/%d", tt.t0, tt.t1, c, i, tt.cpu, tt.idx)
		}
	}
}

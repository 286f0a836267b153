package sim

import (
	"encoding/json"
	"strings"
	"testing"
)

// runEndingAt returns the interval of task on cpu that ends at ts, or nil.
func runEndingAt(tl *Timeline, cpu, task int, ts int64) *Interval {
	if cpu < 0 || cpu >= len(tl.Runs) {
		return nil
	}
	for i := range tl.Runs[cpu] {
		if iv := &tl.Runs[cpu][i]; iv.Task == task && iv.End == ts {
			return iv
		}
	}
	return nil
}

// How a run ends follows the kernel's task state at the switch: a task a
// wake-up finds was asleep (try_to_wake_up() only wakes a blocked task),
// a task active balance or misfit pushes off its CPU was running and stays
// runnable (the stopper preempts it), two hogs sharing one CPU preempt
// each other at the tick, a task whose program ends exits, and whatever
// runs at the end of the timeline is still running.
func TestRunIntervalsSayHowTheyEnded(t *testing.T) {
	res := mustRun(t, resolveJSON(t, `{"schedplay":1,"preset":"hikey960-short-sysbench"}`), Options{Timeline: true})
	if pushed, _ := checkOutsAtDecisions(t, res.Timeline); pushed == 0 {
		t.Fatal("hikey960-short-sysbench no longer pushes a running task")
	}

	doc := `{"schedplay":1,"machine":{"preset":"hikey960"},"policy":{"preset":"mainline"},
		"workload":{"groups":[
			{"name":"hog","count":2,"cpus":"3","program":[{"compute":"30ms"}]},
			{"name":"short","count":1,"cpus":"5","program":[{"compute":"2ms"}]},
			{"name":"nap","count":1,"cpus":"6","program":[{"repeat":4,"do":[{"compute":"1ms"},{"sleep":"1ms"}]},{"compute":"1ms"}]}]},
		"run":{"duration":"20ms","until":"duration","seed":1}}`
	tl := mustRun(t, resolveJSON(t, doc), Options{Timeline: true}).Timeline
	if _, woken := checkOutsAtDecisions(t, tl); woken < 4 {
		t.Errorf("%d wake-ups after a run, want the napper's 4", woken)
	}
	runs := tl.Runs[3]
	if len(runs) < 3 {
		t.Fatalf("cpu 3: %d runs, want the hogs taking turns", len(runs))
	}
	for _, iv := range runs[:len(runs)-1] {
		if iv.Out != OutPreempt {
			t.Errorf("cpu 3: hog run %+v, want OutPreempt", iv)
		}
	}
	if last := runs[len(runs)-1]; last.Out != OutRunning || last.End != tl.EndNs {
		t.Errorf("cpu 3: last run %+v, want OutRunning at %d", last, tl.EndNs)
	}
	if r5 := tl.Runs[5]; len(r5) != 1 || r5[0].Out != OutExit {
		t.Errorf("cpu 5: %+v, want one run that exits", r5)
	}
	r6 := tl.Runs[6]
	if len(r6) != 5 {
		t.Fatalf("cpu 6: %d runs, want the napper's 5", len(r6))
	}
	for _, iv := range r6[:4] {
		if iv.Out != OutSleep {
			t.Errorf("cpu 6: napper run %+v, want OutSleep", iv)
		}
	}
	if r6[4].Out != OutExit {
		t.Errorf("cpu 6: last napper run %+v, want OutExit", r6[4])
	}
}

// checkOutsAtDecisions checks the runs before each decision: a task a
// wake-up finds ran last into a sleep, a task moved off the CPU it runs on
// (active balance, misfit) was preempted. It counts both.
func checkOutsAtDecisions(t *testing.T, tl *Timeline) (pushed, woken int) {
	t.Helper()
	for _, d := range tl.Decisions {
		switch d.Kind {
		case "fork":
		case "wakeup":
			if prev := lastRunBefore(tl, d.Task, d.At); prev != nil {
				woken++
				if prev.Out != OutSleep {
					t.Errorf("task %d woken at %d: its run ending at %d says %d, want OutSleep", d.Task, d.At, prev.End, prev.Out)
				}
			}
		default:
			if prev := runEndingAt(tl, d.From, d.Task, d.At); prev != nil {
				pushed++
				if prev.Out != OutPreempt {
					t.Errorf("task %d pushed %d→%d (%s) at %d: its run there says %d, want OutPreempt", d.Task, d.From, d.To, d.Kind, d.At, prev.Out)
				}
			}
		}
	}
	return pushed, woken
}

// lastRunBefore returns task's last run interval (any CPU) ending at or
// before ts, or nil.
func lastRunBefore(tl *Timeline, task int, ts int64) *Interval {
	var best *Interval
	for c := range tl.Runs {
		for i := range tl.Runs[c] {
			iv := &tl.Runs[c][i]
			if iv.Task == task && iv.End <= ts && (best == nil || iv.End > best.End) {
				best = iv
			}
		}
	}
	return best
}

// The run ends travel in the timeline's JSON ("outs", parallel to "runs");
// a timeline without them reads as sleeps, a malformed one is an error.
func TestTimelineJSONOuts(t *testing.T) {
	tl := Timeline{Tasks: []TaskInfo{{Name: "a/0", PID: 1, TGID: 1}},
		Runs:  [][]Interval{{{Task: 0, Start: 1, End: 2, Decision: -1, Out: OutPreempt}, {Task: 0, Start: 3, End: 4, Decision: -1, Out: OutExit}}, {}},
		Modes: [][]ModeInterval{{}}, Decisions: []Decision{}, EndNs: 4}
	b, err := json.Marshal(tl)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"outs":[[1,2],[]]`) || !strings.Contains(string(b), `"tgid":1`) {
		t.Errorf("no outs or tgid in %s", b)
	}
	var back Timeline
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Runs[0][0].Out != OutPreempt || back.Runs[0][1].Out != OutExit || back.Tasks[0].TGID != 1 {
		t.Errorf("round trip lost the outs or the tgid: %+v", back)
	}
	var old Timeline
	if err := json.Unmarshal([]byte(`{"runs":[[0,1,2,-1]],"modes":[]}`), &old); err != nil || old.Runs[0][0].Out != OutSleep {
		t.Errorf("a timeline without outs: %v %+v", err, old)
	}
	for _, c := range []struct{ in, want string }{
		{`{"runs":[[0,1,2,-1]],"outs":[[1,1]],"modes":[]}`, "outs[0]: 2 values for 1 runs"},
		{`{"runs":[[0,1,2,-1]],"outs":[],"modes":[]}`, "outs: 0 rows for 1 CPUs"},
		{`{"outs":[[7]],"runs":[[0,1,2,-1]],"modes":[]}`, "outs[0]: value 7 out of range"},
	} {
		var tl Timeline
		if err := json.Unmarshal([]byte(c.in), &tl); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.in, err, c.want)
		}
	}
}

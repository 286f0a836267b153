package sim

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// nextAll drives a Stepper with Next to the end.
func nextAll(t *testing.T, x *Stepper) []StepEvent {
	t.Helper()
	var evs []StepEvent
	for {
		e, ok, err := x.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return evs
		}
		evs = append(evs, e)
	}
}

// Event by event gives exactly what Run gives, and every recorded
// decision is reported by exactly one event, at its time.
func TestNextMatchesRun(t *testing.T) {
	r := resolve(t, "hikey960-dynamiq", "mainline", "sched-pipe", `{"duration":"20ms","seed":2}`)
	want := mustRun(t, r, Options{Timeline: true})
	x, err := New(context.Background(), r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	evs := nextAll(t, x)
	got := x.Result()
	if toJSON(t, got.Reps) != toJSON(t, want.Reps) || toJSON(t, got.Timeline) != toJSON(t, want.Timeline) {
		t.Fatalf("stepped result differs from Run")
	}
	seen := 0
	for i, e := range evs {
		if e.N != int64(i+1) || e.Kind == "" || e.Text == "" {
			t.Fatalf("event %d: %+v", i, e)
		}
		for _, d := range e.Decisions {
			if d != seen {
				t.Fatalf("event %d reports decision %d, want %d", e.N, d, seen)
			}
			if at := got.Timeline.Decisions[d].At; at != e.At {
				t.Fatalf("decision %d at %d reported by an event at %d", d, at, e.At)
			}
			seen++
		}
	}
	if seen != len(got.Timeline.Decisions) || seen == 0 {
		t.Fatalf("events reported %d decisions, the timeline has %d", seen, len(got.Timeline.Decisions))
	}
}

// Detail agrees with Snapshot and with the EEVDF invariants: nr_running
// counts curr and the queued entities, the queue is earliest deadline
// first, lag is V − vruntime, an LLC's idle CPUs are idle runqueues.
func TestDetailRunqueues(t *testing.T) {
	r := resolveJSON(t, `{"schedplay":1,"machine":{"preset":"hikey960"},"policy":{"preset":"mainline"},
		"workload":{"groups":[{"name":"hog","count":12,"program":[{"repeat":1000,"do":[{"compute":"3ms"},{"sleep":"200us"}]}]}]},
		"run":{"duration":"40ms","seed":1}}`)
	x, err := New(context.Background(), r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	queuedSeen, lastN := false, int64(0)
	for i := 0; i < 3000; i++ {
		e, ok, err := x.Next()
		if err != nil || !ok {
			break
		}
		lastN = e.N
		d, sn := x.Detail(), x.Snapshot()
		if d.Events != e.N || d.Now != sn.Now || len(d.Runqueues) != len(sn.CPUs) {
			t.Fatalf("detail %d/%d, snapshot %d CPUs", d.Events, d.Now, len(sn.CPUs))
		}
		for c, rq := range d.Runqueues {
			running := 0
			if rq.Curr != nil {
				running = 1
				if rq.Curr.Task != sn.CPUs[c].Task {
					t.Fatalf("cpu %d: curr %d, snapshot %d", c, rq.Curr.Task, sn.CPUs[c].Task)
				}
			}
			if rq.NrRunning != running+len(rq.Queued) || len(rq.Queued) != sn.CPUs[c].Queued {
				t.Fatalf("cpu %d: nr_running %d, curr %d, queued %d", c, rq.NrRunning, running, len(rq.Queued))
			}
			for k, q := range rq.Queued {
				queuedSeen = true
				if q.Lag != rq.V-q.Vruntime || k > 0 && q.Deadline < rq.Queued[k-1].Deadline {
					t.Fatalf("cpu %d queue: %+v", c, rq.Queued)
				}
			}
		}
		for _, l := range d.LLCs {
			if l.IdleCPUs == "" {
				continue
			}
			for _, rq := range d.Runqueues {
				if inList(l.IdleCPUs, rq.CPU) && (!rq.Idle || rq.Curr != nil) {
					t.Fatalf("LLC %d lists cpu %d idle: %+v", l.ID, rq.CPU, rq)
				}
			}
		}
	}
	if lastN < 100 || !queuedSeen || len(x.Detail().LLCs) != 2 {
		t.Fatalf("%d events, queued seen %v, %d LLCs (hikey960 has two clusters)", lastN, queuedSeen, len(x.Detail().LLCs))
	}
}

// inList reports whether a cpulist ("0-3,6") names cpu.
func inList(list string, cpu int) bool {
	lo, n := -1, 0
	num := false
	check := func() bool { return num && (lo >= 0 && cpu >= lo && cpu <= n || lo < 0 && cpu == n) }
	for i := 0; i <= len(list); i++ {
		if i == len(list) || list[i] == ',' {
			if check() {
				return true
			}
			lo, n, num = -1, 0, false
			continue
		}
		if list[i] == '-' {
			lo, n = n, 0
			continue
		}
		n, num = n*10+int(list[i]-'0'), true
	}
	return false
}

// Replaying N events from scratch reaches the same state (step mode's Back).
func TestNextReplayDeterministic(t *testing.T) {
	r := resolve(t, "hikey960-dynamiq", "mainline", "sched-pipe", `{"duration":"10ms","seed":7}`)
	state := func(n int) string {
		x, err := New(context.Background(), r, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for range n {
			if _, ok, err := x.Next(); err != nil || !ok {
				t.Fatalf("ended before %d events: %v", n, err)
			}
		}
		return toJSON(t, x.Detail()) + toJSON(t, x.SoFar())
	}
	if a, b := state(500), state(500); a != b {
		t.Fatal("two replays of 500 events differ")
	}
	if state(500) == state(499) {
		t.Fatal("event 500 changed nothing visible")
	}
}

// The stepper's fork event says where the parent was exec'ed and where
// sched_exec() left it: under v6-on a parent drawn on a PE1 is moved to
// its core's PE0 (cpu − 88 on vera-node), one drawn on a PE0 stays, and
// the event's CPU is the one the parent forked from.
func TestForkEventNamesExecPlacement(t *testing.T) {
	moved, stayed := false, false
	for seed := 1; seed <= 16 && !(moved && stayed); seed++ {
		r := resolveJSON(t, fmt.Sprintf(`{"schedplay":1,"machine":{"preset":"vera-node"},"policy":{"preset":"v6-on"},
			"workload":{"groups":[{"name":"w","count":1,"program":[{"compute":"5ms"}]}]},"run":{"duration":"10ms","seed":%d}}`, seed))
		x, err := New(context.Background(), r, Options{Timeline: true})
		if err != nil {
			t.Fatal(err)
		}
		evs := nextAll(t, x)
		var fork *StepEvent
		for i := range evs {
			if evs[i].Kind == "wake_up_new_task" {
				fork = &evs[i]
				break
			}
		}
		if fork == nil {
			t.Fatalf("seed %d: no fork event", seed)
		}
		var from int
		for _, d := range x.Result().Timeline.Decisions {
			if d.Kind == "fork" {
				from = d.From
				break
			}
		}
		if fork.CPU != from {
			t.Errorf("seed %d: fork event on cpu %d, the fork came from cpu %d", seed, fork.CPU, from)
		}
		// The event's first decision is the exec: the parent (task -1)
		// from the drawn CPU to the one it forks from, with its path.
		ds := x.Result().Timeline.Decisions
		if len(fork.Decisions) < 2 {
			t.Fatalf("seed %d: fork event recorded %v", seed, fork.Decisions)
		}
		ex := ds[fork.Decisions[0]]
		drawn := from
		if strings.Contains(fork.Text, "is moved") {
			drawn = from + 88
		}
		if ex.Kind != "exec" || ex.Task != -1 || ex.From != drawn || ex.To != from ||
			!slices.Contains(ex.Path, fmt.Sprintf("WF_EXEC from cpu %d (the parent runs there)", drawn)) ||
			ds[fork.Decisions[1]].Kind != "fork" {
			t.Errorf("seed %d: exec decision %+v, want exec of task -1 from cpu %d to %d with its WF_EXEC path", seed, ex, drawn, from)
		}
		switch {
		case strings.Contains(fork.Text, fmt.Sprintf("exec'ed on cpu %d, is moved to cpu %d by sched_exec()", from+88, from)):
			moved = true
		case strings.Contains(fork.Text, fmt.Sprintf("exec'ed on cpu %d, stays there (sched_exec())", from)):
			stayed = true
		default:
			t.Errorf("seed %d (forked from cpu %d): %q", seed, from, fork.Text)
		}
	}
	if !moved || !stayed {
		t.Errorf("over seeds 1-16: moved %v, stayed %v; want both", moved, stayed)
	}
}

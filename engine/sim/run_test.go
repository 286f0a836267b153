package sim

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// A run over its event budget stops with ErrEventBudget; a cancelled
// context stops the run with the context's error.
func TestEventBudgetAndCancel(t *testing.T) {
	r := resolve(t, "vera", "mainline", "sgemm-nvpl", `{"duration":"1s","seed":1}`)
	if _, err := Run(context.Background(), r, Options{MaxEvents: 10_000}); !errors.Is(err, ErrEventBudget) {
		t.Errorf("budget 10000: err = %v; want ErrEventBudget", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, r, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v; want context.Canceled", err)
	}
}

// Progress is reported and ends near 1 over all repetitions.
func TestProgress(t *testing.T) {
	r := resolve(t, "vera", "mainline", "sgemm-nvpl", `{"duration":"300ms","seed":1,"reps":2}`)
	last := -1.0
	mustRun(t, r, Options{Progress: func(f float64) {
		if f < last || f > 1 {
			t.Fatalf("progress went %v → %v", last, f)
		}
		last = f
	}})
	if last < 0.5 {
		t.Errorf("last progress %v; want close to 1", last)
	}
}

// Warm-up is excluded: the measured window is shorter, counts are smaller.
func TestWarmupExcluded(t *testing.T) {
	a := mustRun(t, resolve(t, "vera", "mainline", "sgemm-nvpl", `{"duration":"400ms","until":"duration","seed":1}`), Options{})
	b := mustRun(t, resolve(t, "vera", "mainline", "sgemm-nvpl", `{"duration":"400ms","until":"duration","seed":1,"warmup":"200ms"}`), Options{})
	if b.Reps[0].Wakeups >= a.Reps[0].Wakeups || b.Reps[0].Wakeups == 0 {
		t.Errorf("wake-ups with warm-up %d, without %d; want fewer but some", b.Reps[0].Wakeups, a.Reps[0].Wakeups)
	}
	for cpu, busy := range b.Reps[0].BusyNs {
		if busy > 200_000_000 {
			t.Fatalf("cpu %d busy %d ns in a 200 ms window", cpu, busy)
		}
	}
}

// A program that loops without computing or blocking stops with
// ErrEventBudget instead of hanging.
func TestInstantLoopHitsBudget(t *testing.T) {
	r := resolveJSON(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":2,"threads_per_core":1},
		"workload":{"groups":[{"name":"spin","count":1,"program":[{"repeat":20000000,"do":[{"send":"void"}]}]}]},
		"run":{"duration":"1s","seed":1}}`)
	if _, err := Run(context.Background(), r, Options{MaxEvents: 1_000_000}); !errors.Is(err, ErrEventBudget) || !strings.Contains(err.Error(), "task spin/0 took") {
		t.Errorf("err = %v; want ErrEventBudget naming the looping task", err)
	}
}

// A run too long for its budget is reported as such, not as a loop of
// whichever task stepped last (a messaging run's senders step between
// every block).
func TestLongRunHitsBudgetAsALongRun(t *testing.T) {
	r := resolveJSON(t, `{"schedplay":1,"machine":{"preset":"x86-smt"},"workload":{"preset":"sched-messaging-pipe"},"run":{"duration":"1s","seed":1}}`)
	_, err := Run(context.Background(), r, Options{MaxEvents: 200_000})
	if !errors.Is(err, ErrEventBudget) || strings.Contains(err.Error(), "without computing") || !strings.Contains(err.Error(), "more than 200000 events") {
		t.Errorf("err = %v; want ErrEventBudget for the run's size", err)
	}
}

// A periodic task that falls far behind its timer catches up iteratively
// (no recursion per missed period) and stays within the budget.
func TestPeriodicOverrunIsIterative(t *testing.T) {
	r := resolveJSON(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":1,"threads_per_core":1},
		"workload":{"groups":[
			{"name":"hog","count":1,"nice":-20,"program":[{"compute":"300ms"}]},
			{"name":"tick","count":1,"nice":19,"program":[{"periodic":{"every":"1us","count":100000,"do":[]}}]}]},
		"run":{"duration":"1s","seed":1}}`)
	res := mustRun(t, r, Options{})
	if res.Reps[0].Latency.Count == 0 {
		t.Errorf("no periodic latency recorded")
	}
}

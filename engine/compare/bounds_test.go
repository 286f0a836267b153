package compare

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"schedplay/engine/budget"
	"schedplay/engine/scenario"
	"schedplay/engine/sim"
)

// TestRunChecksContextPerRun: a comparison whose runs are each too short
// to reach the simulator's own context check (every 4096 events) still
// stops at the next run once its context is done.
func TestRunChecksContextPerRun(t *testing.T) {
	s := testSpec(t)
	s.Vary = "run.seed"
	for i := 1; i <= 32; i++ {
		s.Values = append(s.Values, fmt.Sprint(i))
	}
	ctx, cancel := context.WithCancel(context.Background())
	runs := 0
	run := func(ctx context.Context, r *scenario.Resolved, opt sim.Options) (*sim.Result, error) {
		runs++
		if runs == 3 {
			cancel() // the client went away during the third run
		}
		return fakeRun(ctx, r, opt)
	}
	if _, err := Run(ctx, run, s); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v; want the context's error", err)
	}
	if runs != 3 {
		t.Errorf("%d runs after the context was cancelled in the third; want 3", runs)
	}
}

// TestPlanRefusesWholeCost: the whole comparison's events (both sides,
// every vary value) are checked before anything runs.
func TestPlanRefusesWholeCost(t *testing.T) {
	s := testSpec(t)
	s.Vary = "run.seed"
	s.Values = []string{"1", "2", "3", "4"}
	one, err := NewPlan(context.Background(), Spec{Scenario: s.Scenario, Presets: s.Presets, A: s.A, B: s.B})
	if err != nil {
		t.Fatal(err)
	}
	perRun := one.Cost().Events / 2
	s.Budget = budget.Profile{Name: "tight", Events: perRun * 5, EventsPerRep: perRun}
	_, err = NewPlan(context.Background(), s) // 8 runs > 5
	var be *budget.Error
	if !errors.As(err, &be) || be.Budget != "events" || !strings.Contains(be.Msg, "in all") {
		t.Fatalf("8 runs over a budget of 5: %v", err)
	}
	s.Values = s.Values[:2] // 4 runs
	if _, err := NewPlan(context.Background(), s); err != nil {
		t.Errorf("4 runs within a budget of 5: %v", err)
	}
}

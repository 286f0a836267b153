package sim

import (
	"context"
	"testing"

	"schedplay/engine/budget"
)

// TestRepetitionBudgetsWithinTheCap: no profile admits a repetition the
// simulator would stop short (DefaultMaxEvents counts the same events the
// estimate does), so a request the budget lets through is one the
// simulator runs to its end unless the estimate is off.
func TestRepetitionBudgetsWithinTheCap(t *testing.T) {
	for _, p := range []budget.Profile{budget.Browser, budget.Serve, budget.Worker} {
		if p.EventsPerRep > DefaultMaxEvents {
			t.Errorf("the %s budget admits %.0f events per repetition, above the simulator's cap of %d", p.Name, p.EventsPerRep, DefaultMaxEvents)
		}
	}
}

// TestMaxEventsBoundedByTheCap: Options.MaxEvents above DefaultMaxEvents
// (a profile's RepEventCap on a small machine) runs under the simulator's
// own cap; below it, it is the budget.
func TestMaxEventsBoundedByTheCap(t *testing.T) {
	r := resolve(t, "vera", "mainline", "sgemm-nvpl", `{"duration":"10ms","seed":1}`)
	rr := r.WithDefaults()
	tp, err := rr.Topology(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ opt, want int64 }{{0, DefaultMaxEvents}, {1 << 40, DefaultMaxEvents}, {5_000_000, 5_000_000}} {
		s, err := newSim(&rr, tp, Options{MaxEvents: tt.opt}, rr.Run.Seed, false)
		if err != nil {
			t.Fatal(err)
		}
		if s.budget != tt.want {
			t.Errorf("MaxEvents %d: budget %d; want %d", tt.opt, s.budget, tt.want)
		}
	}
}

package sim

import (
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

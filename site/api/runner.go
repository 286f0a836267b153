package api

import (
	"context"
	"errors"

	"schedplay/engine/scenario"
	"schedplay/engine/sim"
)

// defaultRunner is the simulator the handler runs unless WithRunner says
// otherwise.
func defaultRunner(ctx context.Context, r *scenario.Resolved, opt sim.Options) (*sim.Result, error) {
	_, _, _ = ctx, r, opt
	return nil, errors.New("the simulator is not built into this binary yet")
}

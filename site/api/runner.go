package api

import (
	"context"

	"schedplay/engine/scenario"
	"schedplay/engine/sim"
)

// defaultRunner is the simulator the handler runs unless WithRunner says
// otherwise.
func defaultRunner(ctx context.Context, r *scenario.Resolved, opt sim.Options) (*sim.Result, error) {
	return sim.Run(ctx, r, opt)
}

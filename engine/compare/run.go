package compare

import (
	"context"
	"encoding/json"
	"fmt"

	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/presets"
)

// Runner runs one resolved scenario (sim.Run, or a stand-in in tests).
type Runner func(ctx context.Context, r *scenario.Resolved, opt sim.Options) (*sim.Result, error)

// Side is one arm of the comparison: a label and the overrides that make it
// (for a policy, policy.preset=NAME).
type Side struct {
	Label string              `json:"label"`
	Set   []scenario.Override `json:"set"`
}

// PolicySide is the side that runs the scenario under policy preset name.
func PolicySide(name string) Side {
	v, _ := json.Marshal(name)
	return Side{Label: name, Set: []scenario.Override{{Path: "policy.preset", Value: v}}}
}

// Spec describes a comparison.
type Spec struct {
	Scenario *scenario.Scenario
	Presets  *presets.Set
	// Set are overrides applied to both sides first.
	Set  []scenario.Override
	A, B Side
	// Vary, when not empty, is a path; Values its values (each parsed like
	// a --set value). One row set per value.
	Vary   string
	Values []string
	// Reps overrides run.reps when > 0.
	Reps int
}

// Resolve returns the resolved scenarios of both sides for one vary value
// ("" when not varying). Errors are scenario.ErrorList values.
func (s *Spec) Resolve(value string) (a, b *scenario.Resolved, err error) {
	common := append([]scenario.Override(nil), s.Set...)
	if s.Vary != "" {
		o, err := scenario.ParseSet(s.Vary + "=" + value)
		if err != nil {
			return nil, nil, err
		}
		common = append(common, o)
	}
	if s.Reps > 0 {
		common = append(common, scenario.Override{Path: "run.reps", Value: json.RawMessage(fmt.Sprint(s.Reps))})
	}
	side := func(sd Side) (*scenario.Resolved, error) {
		// The side's overrides come first so that a common edit of the
		// policy (e.g. policy.hz) survives a policy.preset swap.
		sets := append(append([]scenario.Override(nil), sd.Set...), common...)
		doc, err := scenario.Apply(s.Scenario, s.Presets, sets)
		if err != nil {
			return nil, err
		}
		return scenario.Resolve(doc, s.Presets)
	}
	if a, err = side(s.A); err != nil {
		return nil, nil, err
	}
	if b, err = side(s.B); err != nil {
		return nil, nil, err
	}
	return a, b, nil
}

// Run resolves and runs both sides (for every vary value) with the same
// seeds and builds the table. The scenario's run section fixes the seeds:
// both sides run repetitions with seeds seed, seed+1, ….
func Run(ctx context.Context, run Runner, s Spec) (*Table, error) {
	values := s.Values
	if s.Vary == "" {
		values = []string{""}
	}
	if err := s.CheckVary(); err != nil {
		return nil, &scenario.Error{Path: "vary", Msg: err.Error()}
	}
	t := &Table{A: s.A.Label, B: s.B.Label, Vary: s.Vary}
	for _, v := range values {
		ra, rb, err := s.Resolve(v)
		if err != nil {
			return nil, err
		}
		if t.Scenario == "" {
			t.Scenario = ra.Name
			t.Reps = ra.Run.Reps
			for i := 0; i < ra.Run.Reps; i++ {
				t.Seeds = append(t.Seeds, ra.Run.Seed+uint64(i))
			}
		}
		resA, err := run(ctx, ra, sim.Options{})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.A.Label, err)
		}
		resB, err := run(ctx, rb, sim.Options{})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.B.Label, err)
		}
		t.Sets = append(t.Sets, RowSet{Value: v, Rows: Rows(resA, resB)})
	}
	return t, nil
}

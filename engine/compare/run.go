package compare

import (
	"context"
	"encoding/json"
	"fmt"

	"schedplay/engine/budget"
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
	// Budget bounds every run and the whole comparison (the zero Profile
	// bounds nothing).
	Budget budget.Profile
}

// Resolve returns the resolved scenarios of both sides for one vary value
// ("" when not varying), topologies built (once when both sides share a
// machine and domain policy). Errors are scenario.ErrorList values or a
// *budget.Error.
func (s *Spec) Resolve(value string) (a, b *scenario.Resolved, err error) {
	ctx := context.Background()
	if a, b, err = s.prepare(ctx, value); err != nil {
		return nil, nil, err
	}
	var topos scenario.TopologyCache
	for _, r := range []*scenario.Resolved{a, b} {
		if _, err = topos.Topology(ctx, r); err != nil {
			return nil, nil, err
		}
	}
	return a, b, nil
}

// prepare is Resolve without the topology builds (scenario.Prepare): what
// a comparison's cost is estimated from.
func (s *Spec) prepare(ctx context.Context, value string) (a, b *scenario.Resolved, err error) {
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
		doc, err := scenario.ApplyContext(ctx, s.Scenario, s.Presets, sets)
		if err != nil {
			return nil, err
		}
		return scenario.Prepare(ctx, doc, s.Presets, scenario.Budget{Profile: s.Budget})
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
// seeds and builds the table: NewPlan, then Plan.Run.
func Run(ctx context.Context, run Runner, s Spec) (*Table, error) {
	p, err := NewPlan(ctx, s)
	if err != nil {
		return nil, err
	}
	return p.Run(ctx, run)
}

// Plan is a comparison whose every side of every vary value is resolved
// (topologies not built yet) and whose whole cost was checked.
type Plan struct {
	spec   Spec
	values []string
	pairs  [][2]*scenario.Resolved
	cost   budget.Cost
}

// NewPlan resolves both sides of every vary value without building their
// topologies and checks the comparison's whole cost against s.Budget, so
// that a comparison too costly is refused before anything expensive is
// done.
func NewPlan(ctx context.Context, s Spec) (*Plan, error) {
	values := s.Values
	if s.Vary == "" {
		values = []string{""}
	}
	if err := s.CheckVary(); err != nil {
		return nil, &scenario.Error{Path: "vary", Msg: err.Error()}
	}
	p := &Plan{spec: s, values: values, pairs: make([][2]*scenario.Resolved, len(values))}
	for i, v := range values {
		ra, rb, err := s.prepare(ctx, v)
		if err != nil {
			return nil, err
		}
		p.pairs[i] = [2]*scenario.Resolved{ra, rb}
	}
	p.cost = totalCost(p.pairs, s.Budget)
	if err := s.Budget.Check(p.cost); err != nil {
		return nil, err
	}
	return p, nil
}

// Cost is the comparison's estimated cost.
func (p *Plan) Cost() budget.Cost { return p.cost }

// Run builds each topology once (the runs of one machine and policy share
// it), then runs both sides for every vary value with the same seeds,
// checking ctx before every run. The scenario's run section fixes the
// seeds: both sides run repetitions with seeds seed, seed+1, ….
func (p *Plan) Run(ctx context.Context, run Runner) (*Table, error) {
	var topos scenario.TopologyCache
	for _, pair := range p.pairs {
		for _, r := range pair {
			if _, err := topos.Topology(ctx, r); err != nil {
				return nil, err
			}
		}
	}
	s := &p.spec
	t := &Table{A: s.A.Label, B: s.B.Label, Vary: s.Vary}
	ra := p.pairs[0][0]
	t.Scenario, t.Reps = ra.Name, ra.Run.Reps
	for i := 0; i < ra.Run.Reps; i++ {
		t.Seeds = append(t.Seeds, ra.Run.Seed+uint64(i))
	}
	for i, v := range p.values {
		var res [2]*sim.Result
		for k, label := range []string{s.A.Label, s.B.Label} {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			r, err := run(ctx, p.pairs[i][k], sim.Options{MaxEvents: s.Budget.RepEventCap(p.pairs[i][k].Machine.NumCPUs())})
			if err != nil {
				return nil, fmt.Errorf("%s: %w", label, err)
			}
			res[k] = r
		}
		t.Sets = append(t.Sets, RowSet{Value: v, Rows: Rows(res[0], res[1])})
	}
	return t, nil
}

// totalCost is the cost of running every pair: the events of all of them,
// the costliest run's other figures, and the memory of the costliest run
// plus the topologies of the others' machines and policies, which stay
// built until the end.
func totalCost(pairs [][2]*scenario.Resolved, p budget.Profile) budget.Cost {
	var total budget.Cost
	var topoMem float64
	seen := map[string]bool{}
	for _, pair := range pairs {
		for _, r := range pair {
			c := scenario.CostOf(r, scenario.Budget{Profile: p})
			events := total.Events + c.Events
			if c.EventsPerRep > total.EventsPerRep {
				total = c
			}
			total.Events = events
			total.Memory = max(total.Memory, c.Memory)
			if k := scenario.TopologyKey(r); !seen[k] {
				seen[k] = true
				topoMem += c.Domains * budget.DomainBytes
			}
		}
	}
	total.Memory += topoMem
	return total
}

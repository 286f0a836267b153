// Package sweep defines a parameter sweep: the cross product of varied
// fields, a list of policies and a number of repetitions, each unit of
// work (one point under one policy, one repetition) being one
// POST /api/v1/simulate request. The package is pure: it builds the
// requests, encodes and decodes the lines of results.jsonl, keys the
// sweep for resuming, and summarises the lines into the summary table and
// the plot. Running the units (local cores, remote backends) is
// site/fanout's job; the files and the terminal are cmd/schedplay's.
package sweep

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"schedplay/engine/compare"
	"schedplay/engine/scenario"
	"schedplay/presets"
)

// MaxUnits bounds a sweep's units (points × policies × repetitions).
const MaxUnits = 10_000_000

// MaxReps bounds the repetitions of one point.
const MaxReps = 10_000

// Vary is one varied field: its path and its values, each read like a
// --set value (JSON when it parses as JSON, else a string).
type Vary struct {
	Path   string
	Values []string
}

// Spec is a sweep as the user gives it.
type Spec struct {
	// Scenario is the document every point starts from.
	Scenario *scenario.Scenario
	Presets  *presets.Set
	// Set are overrides applied to every point, after the policy.
	Set []scenario.Override
	// Vary are the varied fields; the points are their cross product.
	Vary []Vary
	// Sides are what each point runs under, usually policies
	// (compare.PolicySide); the first is the reference of the summary's
	// p-values. Empty: the scenario as it is, labelled "scenario".
	Sides []compare.Side
	// Reps is the repetitions per point; 0 takes the scenario's run.reps.
	Reps int
	// Seed is the seed of repetition 0 (repetition r has Seed+r); nil
	// takes the scenario's run.seed.
	Seed *uint64
	// PerPoint leaves the varied values unchecked: a bad value fails its
	// own points (refused runs) instead of the whole sweep, as the page's
	// sweep reports it.
	PerPoint bool
}

// Plan is a checked sweep: its units, their requests and its definition.
type Plan struct {
	doc      json.RawMessage // canonical scenario document
	set      []scenario.Override
	vary     []varied
	sides    []compare.Side
	policies []string // the sides' labels
	reps     int
	seed     uint64
	def      json.RawMessage
}

// varied is a Vary with its values as JSON.
type varied struct {
	path   string
	values []json.RawMessage
}

// ScenarioPolicy labels the scenario's own policy when no policy is named.
const ScenarioPolicy = "scenario"

// NewPlan checks the sweep and returns its plan. Errors are
// scenario.ErrorList values whose paths name the flag or field at fault.
func NewPlan(s Spec) (*Plan, error) {
	p := &Plan{set: s.Set}
	doc, err := scenario.Encode(s.Scenario)
	if err != nil {
		return nil, err
	}
	p.doc = doc
	p.sides = s.Sides
	if len(p.sides) == 0 {
		p.sides = []compare.Side{{Label: ScenarioPolicy}}
	}
	seen := map[string]bool{}
	for _, sd := range p.sides {
		if seen[sd.Label] {
			return nil, scenario.ErrorList{{Path: "policy", Msg: fmt.Sprintf("%s is named twice", sd.Label)}}
		}
		seen[sd.Label] = true
		p.policies = append(p.policies, sd.Label)
	}
	paths := map[string]bool{}
	for _, v := range s.Vary {
		if paths[v.Path] {
			return nil, scenario.ErrorList{{Path: "vary", Msg: fmt.Sprintf("%s is varied twice; give its values in one --vary", v.Path)}}
		}
		paths[v.Path] = true
		if v.Path == "run" || v.Path == "run.seed" || v.Path == "run.reps" {
			return nil, scenario.ErrorList{{Path: "vary", Msg: fmt.Sprintf("%s: each run of a sweep is one repetition at its own seed (seed, seed+1, …); give the repetitions and the first seed instead (--reps, --seed)", v.Path)}}
		}
		vd := varied{path: v.Path}
		for _, val := range v.Values {
			o, err := scenario.ParseSet(v.Path + "=" + val)
			if err != nil {
				return nil, scenario.ErrorList{{Path: "vary", Msg: err.Error()}}
			}
			vd.values = append(vd.values, o.Value)
		}
		if len(vd.values) == 0 {
			return nil, scenario.ErrorList{{Path: "vary", Msg: v.Path + " has no values"}}
		}
		p.vary = append(p.vary, vd)
	}
	if err := p.checkPolicies(s); err != nil {
		return nil, err
	}
	base, err := p.resolve(s, 0, nil)
	if err != nil {
		return nil, err
	}
	p.reps, p.seed = base.Run.Reps, base.Run.Seed
	if s.Reps != 0 {
		p.reps = s.Reps
	}
	if s.Seed != nil {
		p.seed = *s.Seed
	}
	if p.reps < 1 || p.reps > MaxReps {
		return nil, scenario.ErrorList{{Path: "reps", Msg: fmt.Sprintf("%d repetitions; give 1 to %d", p.reps, MaxReps)}}
	}
	if n := p.NumPoints(); n*len(p.policies)*p.reps > MaxUnits {
		return nil, scenario.ErrorList{{Path: "vary", Msg: fmt.Sprintf("%d points × %d policies × %d repetitions is more than %d runs", n, len(p.policies), p.reps, MaxUnits)}}
	}
	if !s.PerPoint {
		if err := p.checkValues(s); err != nil {
			return nil, err
		}
	}
	p.def = p.definition()
	return p, nil
}

// checkPolicies refuses a varied field that would erase the difference
// between the first side and another (compare's rule, pair by pair).
func (p *Plan) checkPolicies(s Spec) error {
	for _, v := range p.vary {
		for _, other := range p.sides[1:] {
			cs := compare.Spec{Scenario: s.Scenario, Presets: s.Presets, Set: s.Set,
				A: p.sides[0], B: other, Vary: v.path}
			if err := cs.CheckVary(); err != nil {
				return scenario.ErrorList{{Path: "vary", Msg: err.Error()}}
			}
		}
	}
	return nil
}

// checkValues resolves each policy at the first point, and each value of
// each varied field with the other fields at their first value, so that a
// bad value is reported before any run.
func (p *Plan) checkValues(s Spec) error {
	first := make([]int, len(p.vary))
	for pol := range p.policies {
		if _, err := p.resolve(s, pol, first); err != nil {
			return err
		}
	}
	for i, v := range p.vary {
		for j := 1; j < len(v.values); j++ {
			at := append([]int(nil), first...)
			at[i] = j
			if _, err := p.resolve(s, 0, at); err != nil {
				return err
			}
		}
	}
	return nil
}

// resolve resolves the scenario of policy pol at the point whose value
// indices are at (nil: no varied value applied), as a unit's request
// would. An error names the varied value it comes from.
func (p *Plan) resolve(s Spec, pol int, at []int) (*scenario.Resolved, error) {
	doc, err := scenario.Apply(s.Scenario, s.Presets, p.overrides(pol, at))
	if err == nil {
		var r *scenario.Resolved
		if r, err = scenario.Resolve(doc, s.Presets); err == nil {
			return r, nil
		}
	}
	if at == nil {
		return nil, err
	}
	where := p.policies[pol]
	for i, v := range p.vary {
		where += fmt.Sprintf(", %s=%s", v.path, v.values[at[i]])
	}
	l := scenario.Errors(err)
	out := make(scenario.ErrorList, len(l))
	for i, e := range l {
		out[i] = &scenario.Error{Path: e.Path, Msg: e.Msg + " (at " + where + ")"}
	}
	return nil, out
}

// overrides are the overrides of side pol at value indices at: the
// side's first (as compare applies a side), then the common set, then the
// varied values.
func (p *Plan) overrides(pol int, at []int) []scenario.Override {
	out := append([]scenario.Override(nil), p.sides[pol].Set...)
	out = append(out, p.set...)
	for i, j := range at {
		out = append(out, scenario.Override{Path: p.vary[i].path, Value: p.vary[i].values[j]})
	}
	return out
}

// Unit is one run of the sweep: a point under a policy, one repetition.
type Unit struct {
	Index int
	// At are the value indices of the varied fields (in Vary order).
	At     []int
	Policy int
	Rep    int
	Seed   uint64
}

// NumPoints is the number of points: the product of the value counts.
func (p *Plan) NumPoints() int {
	n := 1
	for _, v := range p.vary {
		n *= len(v.values)
	}
	return n
}

// NumUnits is the number of runs: points × policies × repetitions.
func (p *Plan) NumUnits() int { return p.NumPoints() * len(p.policies) * p.reps }

// GroupSize is the number of consecutive units of one point: policies ×
// repetitions. Units are ordered point by point (the last varied field
// fastest), then policy, then repetition.
func (p *Plan) GroupSize() int { return len(p.policies) * p.reps }

// Reps is the repetitions per point and policy.
func (p *Plan) Reps() int { return p.reps }

// Seed is the seed of repetition 0.
func (p *Plan) Seed() uint64 { return p.seed }

// Policies are the policy labels, the reference first.
func (p *Plan) Policies() []string { return p.policies }

// Paths are the varied paths, in order.
func (p *Plan) Paths() []string {
	out := make([]string, len(p.vary))
	for i, v := range p.vary {
		out[i] = v.path
	}
	return out
}

// Values are the values of varied field i as JSON.
func (p *Plan) Values(i int) []json.RawMessage { return p.vary[i].values }

// Definition is the canonical JSON of what the sweep computes: its
// scenario, overrides, varied values, sides, repetitions and seed. Two
// sweeps with the same definition give the same runs; a results
// directory is keyed by its hash.
func (p *Plan) Definition() json.RawMessage { return p.def }

// Unit returns unit i (0 ≤ i < NumUnits).
func (p *Plan) Unit(i int) Unit {
	u := Unit{Index: i, At: make([]int, len(p.vary))}
	u.Rep = i % p.reps
	i /= p.reps
	u.Policy = i % len(p.policies)
	i /= len(p.policies)
	for k := len(p.vary) - 1; k >= 0; k-- {
		n := len(p.vary[k].values)
		u.At[k] = i % n
		i /= n
	}
	u.Seed = p.seed + uint64(u.Rep) // wraps past 2^64-1, as compare's seeds
	return u
}

// request is the body of a unit's POST /api/v1/simulate.
type request struct {
	Scenario json.RawMessage     `json:"scenario"`
	Set      []scenario.Override `json:"set,omitempty"`
	Reps     int                 `json:"reps"`
	Seed     uint64              `json:"seed"`
}

// Body is unit u's POST /api/v1/simulate request: the scenario with the
// unit's overrides, one repetition at the unit's seed. Local and remote
// runs send these same bytes.
func (p *Plan) Body(u Unit) []byte {
	b, err := marshal(request{Scenario: p.doc, Set: p.overrides(u.Policy, u.At), Reps: 1, Seed: u.Seed})
	if err != nil {
		panic("sweep: encoding a request: " + err.Error()) // every member is valid JSON
	}
	return b
}

// definition is the canonical JSON of what the sweep computes.
func (p *Plan) definition() json.RawMessage {
	type vary struct {
		Path   string            `json:"path"`
		Values []json.RawMessage `json:"values"`
	}
	def := struct {
		Version  int                 `json:"schedplay_sweep"`
		Scenario json.RawMessage     `json:"scenario"`
		Set      []scenario.Override `json:"set"`
		Vary     []vary              `json:"vary"`
		Sides    []compare.Side      `json:"sides"`
		Reps     int                 `json:"reps"`
		Seed     string              `json:"seed"`
	}{Version: 1, Scenario: p.doc, Set: p.set, Sides: slices.Clone(p.sides), Reps: p.reps, Seed: strconv.FormatUint(p.seed, 10)}
	for i, sd := range def.Sides {
		if sd.Set == nil {
			def.Sides[i].Set = []scenario.Override{}
		}
	}
	if def.Set == nil {
		def.Set = []scenario.Override{}
	}
	def.Vary = []vary{}
	for _, v := range p.vary {
		def.Vary = append(def.Vary, vary{v.path, v.values})
	}
	b, err := marshal(def)
	if err != nil {
		panic("sweep: encoding the definition: " + err.Error())
	}
	return b
}

// marshal is compact JSON without HTML escaping and without the
// encoder's newline.
func marshal(v any) ([]byte, error) { return scenario.MarshalTree(v, false) }

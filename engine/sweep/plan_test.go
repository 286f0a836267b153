package sweep

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"schedplay/engine/compare"
	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/presets"
)

// small is a quick scenario: 4 CPUs, 3 tasks, 50 ms.
const small = `{"schedplay": 1, "name": "small", "machine": {"nodes": 1, "cores_per_node": 2, "threads_per_core": 2},
 "policy": {"preset": "mainline"},
 "workload": {"groups": [{"name": "w", "count": 3, "program": [{"repeat": 5, "do": [{"compute": "1ms"}, {"sleep": "200us"}]}]}]},
 "run": {"duration": "50ms", "seed": 4, "reps": 2}}`

func loadPresets(t testing.TB) *presets.Set {
	t.Helper()
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

func smallSpec(t testing.TB) Spec {
	t.Helper()
	doc, err := scenario.Decode([]byte(small))
	if err != nil {
		t.Fatal(err)
	}
	return Spec{Scenario: doc, Presets: loadPresets(t),
		Vary:  []Vary{{"workload.groups[0].count", []string{"2", "3"}}, {"policy.hz", []string{"250", "1000", "100"}}},
		Sides: policies("mainline", "none"), Reps: 3}
}

func policies(names ...string) []compare.Side {
	var out []compare.Side
	for _, n := range names {
		out = append(out, compare.PolicySide(n))
	}
	return out
}

func mustPlan(t testing.TB, s Spec) *Plan {
	t.Helper()
	p, err := NewPlan(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Units run point by point (the last varied field fastest), then policy,
// then repetition; every combination once; repetition r has seed+r.
func TestUnitOrder(t *testing.T) {
	p := mustPlan(t, smallSpec(t))
	if p.NumPoints() != 6 || p.NumUnits() != 36 || p.GroupSize() != 6 {
		t.Fatalf("points %d units %d group %d; want 6, 36, 6", p.NumPoints(), p.NumUnits(), p.GroupSize())
	}
	seen := map[string]bool{}
	var prev string
	for i := 0; i < p.NumUnits(); i++ {
		u := p.Unit(i)
		key := fmt.Sprint(u.At, u.Policy, u.Rep)
		if seen[key] {
			t.Fatalf("unit %d repeats %s", i, key)
		}
		seen[key] = true
		if u.Seed != 4+uint64(u.Rep) {
			t.Errorf("unit %d seed %d; want %d", i, u.Seed, 4+u.Rep)
		}
		order := fmt.Sprintf("%d%d%d%d", u.At[0], u.At[1], u.Policy, u.Rep)
		if order <= prev {
			t.Errorf("unit %d (%s) comes after %s", i, order, prev)
		}
		prev = order
		if i/p.GroupSize() != (u.At[0]*3 + u.At[1]) {
			t.Errorf("unit %d is in group %d; its point is %v", i, i/p.GroupSize(), u.At)
		}
	}
}

// A unit's request resolves to what compare resolves for the same side
// and varied values: the policy first, then the common overrides, then
// the varied values; one repetition at the unit's seed.
func TestBodyResolvesLikeCompare(t *testing.T) {
	s := smallSpec(t)
	s.Set = []scenario.Override{{Path: "run.duration", Value: json.RawMessage(`"40ms"`)}}
	p := mustPlan(t, s)
	u := p.Unit(p.GroupSize()*5 + p.Reps() + 1) // the last point, policy "none", repetition 1
	if u.At[0] != 1 || u.At[1] != 2 || u.Policy != 1 || u.Rep != 1 {
		t.Fatalf("unit %+v", u)
	}
	var req struct {
		Scenario json.RawMessage     `json:"scenario"`
		Set      []scenario.Override `json:"set"`
		Reps     int                 `json:"reps"`
		Seed     uint64              `json:"seed"`
	}
	if err := json.Unmarshal(p.Body(u), &req); err != nil {
		t.Fatal(err)
	}
	if req.Reps != 1 || req.Seed != u.Seed {
		t.Errorf("reps %d seed %d; want 1, %d", req.Reps, req.Seed, u.Seed)
	}
	doc, err := scenario.Decode(req.Scenario)
	if err != nil {
		t.Fatal(err)
	}
	doc, err = scenario.Apply(doc, s.Presets, req.Set)
	if err != nil {
		t.Fatal(err)
	}
	got, err := scenario.Resolve(doc, s.Presets)
	if err != nil {
		t.Fatal(err)
	}
	cs := compare.Spec{Scenario: s.Scenario, Presets: s.Presets, Set: append(s.Set, scenario.Override{Path: s.Vary[0].Path, Value: json.RawMessage(s.Vary[0].Values[u.At[0]])}),
		A: s.Sides[u.Policy], B: s.Sides[0], Vary: s.Vary[1].Path}
	want, _, err := cs.Resolve(s.Vary[1].Values[u.At[1]])
	if err != nil {
		t.Fatal(err)
	}
	got.Run.Reps, got.Run.Seed = want.Run.Reps, want.Run.Seed
	gj, _ := json.Marshal(got)
	wj, _ := json.Marshal(want)
	if !bytes.Equal(gj, wj) {
		t.Errorf("unit %d resolves to\n%s\nwant\n%s", u.Index, gj, wj)
	}
}

// The definition changes with every part of the sweep and only with it.
func TestDefinition(t *testing.T) {
	base := string(mustPlan(t, smallSpec(t)).Definition())
	if again := string(mustPlan(t, smallSpec(t)).Definition()); again != base {
		t.Errorf("the same sweep is defined as %s then %s", base, again)
	}
	seed := uint64(9)
	for name, edit := range map[string]func(*Spec){
		"reps":     func(s *Spec) { s.Reps = 4 },
		"seed":     func(s *Spec) { s.Seed = &seed },
		"value":    func(s *Spec) { s.Vary[1].Values = []string{"250", "1000", "300"} },
		"order":    func(s *Spec) { s.Vary[0], s.Vary[1] = s.Vary[1], s.Vary[0] },
		"policies": func(s *Spec) { s.Sides = policies("none", "mainline") },
		"set":      func(s *Spec) { s.Set = []scenario.Override{{Path: "run.duration", Value: json.RawMessage(`"40ms"`)}} },
	} {
		s := smallSpec(t)
		edit(&s)
		if d := string(mustPlan(t, s).Definition()); d == base {
			t.Errorf("changing %s keeps the definition", name)
		}
	}
}

func TestNewPlanErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(*Spec)
		want string
	}{
		{"unknown policy", func(s *Spec) { s.Sides = policies("mainline", "nope") }, `unknown policy preset "nope"`},
		{"policy twice", func(s *Spec) { s.Sides = policies("none", "none") }, "named twice"},
		{"vary twice", func(s *Spec) { s.Vary = append(s.Vary, Vary{"policy.hz", []string{"1"}}) }, "varied twice"},
		{"vary the policy", func(s *Spec) { s.Vary = []Vary{{"policy.preset", []string{"misfit"}}} }, "compare nothing"},
		{"bad value", func(s *Spec) { s.Vary[0].Values = []string{"2", "-5"} }, "workload.groups[0].count"},
		{"reps", func(s *Spec) { s.Reps = MaxReps + 1 }, "repetitions"},
		{"vary the seed", func(s *Spec) { s.Vary = []Vary{{"run.seed", []string{"1", "2"}}} }, "its own seed"},
	} {
		s := smallSpec(t)
		tt.edit(&s)
		_, err := NewPlan(s)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v; want it to say %q", tt.name, err, tt.want)
		}
	}
	s := smallSpec(t)
	s.Vary[1].Values = []string{"250", "0"}
	_, err := NewPlan(s)
	if err == nil || !strings.Contains(err.Error(), "(at mainline, workload.groups[0].count=2, policy.hz=0)") {
		t.Errorf("a bad value's error %v does not say where it is", err)
	}
}

// runAll runs every unit of p in process (resolve, sim.Run, the API's
// encoding) and feeds the lines to a summary.
func runAll(t *testing.T, p *Plan, s Spec, metric string) (*Summary, string) {
	t.Helper()
	var csv bytes.Buffer
	sum := p.NewSummary(&csv, metric)
	for i := 0; i < p.NumUnits(); i++ {
		u := p.Unit(i)
		doc, err := scenario.Apply(s.Scenario, s.Presets, append(p.overrides(u.Policy, u.At),
			scenario.Override{Path: "run.reps", Value: json.RawMessage("1")},
			scenario.Override{Path: "run.seed", Value: json.RawMessage(fmt.Sprint(u.Seed))}))
		if err != nil {
			t.Fatal(err)
		}
		r, err := scenario.Resolve(doc, s.Presets)
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(context.Background(), r, sim.Options{})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := sim.EncodeResult(res)
		line := p.Line(u, 200, append(b, '\n'))
		rec, err := ParseLine(line)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(rec.Result, b) {
			t.Fatalf("unit %d: the line's result is not the reply's bytes", i)
		}
		if err := sum.Add(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := sum.Close(); err != nil {
		t.Fatal(err)
	}
	return sum, csv.String()
}

// The summary of two policies is compare's table: the same means,
// standard deviations, n, differences and Welch p-values.
func TestSummaryMatchesCompare(t *testing.T) {
	s := smallSpec(t)
	s.Vary = s.Vary[:1]
	p := mustPlan(t, s)
	_, csv := runAll(t, p, s, "")
	rows := strings.Split(strings.TrimSpace(csv), "\n")
	tbl, err := compare.Run(context.Background(), sim.Run, compare.Spec{Scenario: s.Scenario, Presets: s.Presets,
		A: compare.PolicySide("mainline"), B: compare.PolicySide("none"), Vary: s.Vary[0].Path, Values: s.Vary[0].Values, Reps: 3})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, set := range tbl.Sets {
		for _, row := range set.Rows {
			for pol, v := range map[string]compare.Value{"mainline": row.A, "none": row.B} {
				prefix := fmt.Sprintf("%s,%s,%s,%s,%s,%s,%d,3,", set.Value, pol, row.Metric, row.Unit, num(v.Mean), num(v.Stddev), v.N)
				want := prefix + ","
				if pol == "none" {
					d, pv := "", ""
					if row.DiffPct != nil {
						d = num(*row.DiffPct)
					}
					if row.P != nil {
						pv = num(*row.P)
					}
					want = prefix + d + "," + pv
				}
				found := false
				for _, r := range rows {
					found = found || r == want
				}
				if !found {
					t.Errorf("summary lacks %q", want)
				}
				checked++
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d rows checked", checked)
	}
}

// The plot has one line per policy in every panel, and names the metric.
func TestPlot(t *testing.T) {
	s := smallSpec(t)
	s.Reps = 2
	p := mustPlan(t, s)
	sum, _ := runAll(t, p, s, "Context switches")
	var svg bytes.Buffer
	ok, err := sum.Plot(&svg)
	if err != nil || !ok {
		t.Fatalf("Plot: %v, %v", ok, err)
	}
	out := svg.String()
	if n := strings.Count(out, "<polyline"); n != 3*2 {
		t.Errorf("%d lines; want 3 panels × 2 policies", n)
	}
	for _, want := range []string{"Context switches", "policy.hz = 1000", "workload.groups[0].count"} {
		if !strings.Contains(out, want) {
			t.Errorf("plot lacks %q", want)
		}
	}
	if sum.Metric() != "Context switches" || len(sum.Metrics()) < 5 {
		t.Errorf("metric %q of %v", sum.Metric(), sum.Metrics())
	}
}

// A refused unit keeps its status and error in its line and counts as
// failed; the summary leaves it out of n.
func TestRefusedLine(t *testing.T) {
	p := mustPlan(t, smallSpec(t))
	line := p.Line(p.Unit(0), 422, []byte(`{"error":{"message":"too big"}}`+"\n"))
	if !bytes.Contains(line, []byte(`"status":422,"error":{"error":{"message":"too big"}}}`)) {
		t.Errorf("line %s", line)
	}
	rec, err := ParseLine(line)
	if err != nil || rec.Status != 422 || rec.Result != nil {
		t.Errorf("ParseLine = %+v, %v", rec, err)
	}
}

package site

import (
	"testing"

	"schedplay/engine/scenario"
	"schedplay/presets"
)

// TestDocGenerationMatchesResolve: the generation the page states for a
// document is the one the engine resolves, for every seed scenario as
// opened, under every policy preset, and with its generation chosen,
// removed or nulled in the editor.
func TestDocGenerationMatchesResolve(t *testing.T) {
	cat, err := EmbeddedCatalog()
	if err != nil {
		t.Fatal(err)
	}
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	type edit struct {
		path string
		v    any
	}
	edits := [][]edit{nil, {{"policy.generation", Delete}}, {{"policy.generation", nil}}}
	for _, g := range cat.Names("generation") {
		edits = append(edits, []edit{{"policy.generation", g}})
	}
	for _, p := range cat.Names("policy") {
		edits = append(edits, []edit{{"policy.preset", p}})
		edits = append(edits, []edit{{"policy.preset", p}, {"policy.generation", "6.12"}})
	}
	checked, seen := 0, map[string]bool{}
	for _, name := range cat.Names("scenario") {
		for _, es := range edits {
			d, _ := cat.ScenarioDoc(name)
			for _, e := range es {
				if d, err = d.Edit(e.path, e.v, cat); err != nil {
					t.Fatalf("%s %v: %v", name, es, err)
				}
			}
			sc, err := scenario.Decode([]byte(d.Canonical()))
			if err != nil {
				t.Fatalf("%s %v: %v", name, es, err)
			}
			r, err := scenario.Prepare(t.Context(), sc, ps, scenario.Budget{})
			if err != nil {
				continue // a policy this machine cannot take (priority "arch")
			}
			checked++
			if got := d.Generation(cat); got != r.Policy.Generation {
				t.Errorf("%s %v: the page states %q; the engine resolves %q", name, es, got, r.Policy.Generation)
			}
			seen[r.Policy.Generation] = true
		}
	}
	if len(seen) < 3 || checked < len(edits)*len(cat.Names("scenario"))/2 {
		t.Errorf("%d documents checked, generations %v; want most, and each generation and none", checked, seen)
	}
}

// TestPolicySummary: "preset · generation", "(edited)" for a policy
// changed beyond its generation, "custom" without a preset, and the
// built-in defaults named when there is no generation.
func TestPolicySummary(t *testing.T) {
	cat, err := EmbeddedCatalog()
	if err != nil {
		t.Fatal(err)
	}
	d, _ := cat.ScenarioDoc("vera-sched-pipe")
	if got := d.PolicySummary(cat); got != "v6-on · tip-2026-09" {
		t.Errorf("seed: %q", got)
	}
	d612, _ := d.Edit("policy.generation", "6.12", cat)
	if got := d612.PolicySummary(cat); got != "v6-on · 6.12" {
		t.Errorf("6.12: %q", got)
	}
	dhz, _ := d612.Edit("policy.hz", 1000, cat)
	if got := dhz.PolicySummary(cat); got != "v6-on (edited) · 6.12" {
		t.Errorf("hz edited: %q", got)
	}
	dnone, _ := d.Edit("policy.preset", "none", cat)
	if got := dnone.PolicySummary(cat); got != "none · "+NoGeneration {
		t.Errorf("none: %q", got)
	}
	dcustom, _ := d.Edit("policy.preset", Delete, cat)
	if got := dcustom.PolicySummary(cat); got != "custom · tip-2026-09" {
		t.Errorf("custom: %q", got)
	}
	if f, ok := cat.GenerationFeatures("6.12"); !ok || f["SMT_AWARE_ASYM_CAPACITY"] != false {
		t.Errorf("6.12's features: %v, %v", f, ok)
	}
	if _, ok := cat.GenerationFeatures("5.10"); ok {
		t.Error("an unknown generation has features")
	}
}

package playground

import (
	"reflect"
	"testing"

	"schedplay/site"
)

// TestGenerationChoice: the select lists the catalog's generations (a
// generation the code has never heard of included), "(policy default)"
// only when the policy without its own field names none, and the value in
// effect.
func TestGenerationChoice(t *testing.T) {
	cat, err := site.EmbeddedCatalog()
	if err != nil {
		t.Fatal(err)
	}
	values := func(opts []GenerationOption) []string {
		var out []string
		for _, o := range opts {
			out = append(out, o.Value)
		}
		return out
	}
	seed, _ := cat.ScenarioDoc("vera-sched-pipe") // v6-on names tip-2026-09
	cur, opts := generationChoice(seed, cat)
	if cur != "tip-2026-09" || !reflect.DeepEqual(values(opts), []string{"6.1", "6.12", "tip-2026-09"}) {
		t.Errorf("v6-on: %q %v", cur, values(opts))
	}
	for _, o := range opts {
		if p, _ := cat.Get("generation", o.Value); o.Description != p.Description || o.Description == "" {
			t.Errorf("option %s: description %q; want the preset's", o.Value, o.Description)
		}
	}
	none, _ := seed.Edit("policy.preset", "none", cat) // names no generation
	cur, opts = generationChoice(none, cat)
	if cur != "" || !reflect.DeepEqual(values(opts), []string{"", "6.1", "6.12", "tip-2026-09"}) || opts[0].Label != DefaultGenerationLabel {
		t.Errorf("none: %q %v", cur, opts)
	}
	none612, _ := none.Edit("policy.generation", "6.12", cat)
	if cur, opts = generationChoice(none612, cat); cur != "6.12" || len(opts) != 4 {
		t.Errorf("none + 6.12: %q %v (the default stays a choice: it removes the field)", cur, values(opts))
	}
	bad, _ := seed.Edit("policy.generation", "5.10", cat)
	if cur, opts = generationChoice(bad, cat); cur != "5.10" || opts[len(opts)-1].Label != "5.10 (unknown)" {
		t.Errorf("unknown: %q %v", cur, opts)
	}
	// Another catalog, another list: the options are the data's.
	other, err := site.ParseCatalog([]byte(`[{"kind":"generation","name":"6.6","description":"old","body":{"features":{"SIS_UTIL":false}}},
		{"kind":"generation","name":"next","description":"new","body":{"features":{"SIS_UTIL":true,"NEW_FORM":true}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	if _, opts = generationChoice(site.Doc{"policy": map[string]any{}}, other); !reflect.DeepEqual(values(opts), []string{"", "6.6", "next"}) || opts[2].Description != "new" {
		t.Errorf("other catalog: %v", opts)
	}
	tbl := generationTable(site.Doc{"policy": map[string]any{"generation": "6.6"}}, other)
	if !reflect.DeepEqual(tbl.Names, []string{"6.6", "next"}) || len(tbl.Rows) != 2 ||
		tbl.Rows[0].Name != "SIS_UTIL" || !reflect.DeepEqual(tbl.Rows[0].Values, []string{"off", "on"}) || tbl.Rows[0].Effect != "off" ||
		tbl.Rows[1].Name != "NEW_FORM" || !reflect.DeepEqual(tbl.Rows[1].Values, []string{"", "on"}) || tbl.Rows[1].Effect != "default" {
		t.Errorf("other catalog's table: %+v", tbl)
	}
}

// TestGenerationTable: each generation's flags and forms from its preset,
// the generation in effect, and the policy's own features shown as
// overrides where they differ.
func TestGenerationTable(t *testing.T) {
	cat, err := site.EmbeddedCatalog()
	if err != nil {
		t.Fatal(err)
	}
	seed, _ := cat.ScenarioDoc("vera-sched-pipe")
	d, _ := seed.Edit("policy.generation", "6.12", cat)
	d, _ = d.Edit("policy.features", map[string]any{"SMT_AWARE_ASYM_CAPACITY": true, "SIS_UTIL": true, "WA_BIAS": false}, cat)
	tbl := generationTable(d, cat)
	if tbl.Current != "6.12" || !reflect.DeepEqual(tbl.Names, []string{"6.1", "6.12", "tip-2026-09"}) {
		t.Fatalf("current %q, names %v", tbl.Current, tbl.Names)
	}
	rows := map[string]GenerationRow{}
	for _, r := range tbl.Rows {
		rows[r.Name] = r
	}
	for _, g := range tbl.Names {
		feats, _ := cat.GenerationFeatures(g)
		if len(feats) != len(tbl.Rows) {
			t.Errorf("%s sets %d switches; the table has %d rows", g, len(feats), len(tbl.Rows))
		}
	}
	smt := rows["SMT_AWARE_ASYM_CAPACITY"]
	if !smt.Form || smt.Kernel == "" || !reflect.DeepEqual(smt.Values, []string{"off", "off", "on"}) || !smt.Differs || smt.Effect != "on" || !smt.Overridden {
		t.Errorf("SMT_AWARE_ASYM_CAPACITY: %+v; want a differing form, 6.12's off overridden on", smt)
	}
	if r := rows["SIS_UTIL"]; r.Form || r.Differs || r.Effect != "on" || r.Overridden {
		t.Errorf("SIS_UTIL: %+v; want a flag both set on, set on again (no override)", r)
	}
	if r := rows["WA_BIAS"]; r.Effect != "off" || !r.Overridden {
		t.Errorf("WA_BIAS: %+v; want overridden off", r)
	}
	if r := rows["ILB_IDLE_CORE"]; r.Effect != "off" || r.Overridden {
		t.Errorf("ILB_IDLE_CORE: %+v; want 6.12's off", r)
	}
	if r := rows["PELT"]; r.Effect != "modern" {
		t.Errorf("PELT: %+v", r)
	}
	// Rows in the editor's order (Features).
	var order []string
	for _, f := range Features {
		if _, ok := rows[f.Name]; ok {
			order = append(order, f.Name)
		}
	}
	for i, r := range tbl.Rows {
		if r.Name != order[i] {
			t.Errorf("row %d is %s; want %s (the editor's order)", i, r.Name, order[i])
		}
	}
	if got := generationDefault("6.12", mustFeatures(t, cat, "6.12"), "ILB_IDLE_CORE"); got != "default: off (6.12)" {
		t.Errorf("default label %q", got)
	}
	if got := generationDefault("", nil, "ILB_IDLE_CORE"); got != "kernel default" {
		t.Errorf("default label without a generation %q", got)
	}
}

func mustFeatures(t *testing.T, cat *site.Catalog, name string) map[string]any {
	t.Helper()
	f, ok := cat.GenerationFeatures(name)
	if !ok {
		t.Fatalf("no generation %s", name)
	}
	return f
}

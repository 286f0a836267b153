package playground

import (
	"encoding/json"
	"sort"

	"schedplay/site"
)

// The policy editor's "fair.c generation" select and the table of what
// each generation sets, read from the catalog's generation presets
// (presets/generation): nothing here knows a generation by name.

// GenerationOption is one choice of the fair.c generation select: Value
// is what policy.generation becomes ("" removes it).
type GenerationOption struct {
	Value, Label, Description string
}

// DefaultGenerationLabel is the choice of no generation (policy.generation
// absent): the built-in defaults of policy.features.
const DefaultGenerationLabel = "(policy default)"

// defaultGenerationText describes DefaultGenerationLabel.
const defaultGenerationText = "No generation: the policy's features default to the built-in values (docs/scenario.md, policy.features)."

// generationChoice is the generation in effect under d's policy (its
// preset expanded, its overrides applied) and the select's options: every
// generation preset of the catalog, in its order, after "(policy default)"
// when the policy without its own generation field names none (choosing
// it removes the field) or names none now, and after the current value
// when the catalog does not know it.
func generationChoice(d site.Doc, cat *site.Catalog) (cur string, opts []GenerationOption) {
	raw := d.Get("policy.generation", cat)
	if raw != nil {
		cur = switchText(raw)
	}
	base := ""
	if name, ok := d.Section("policy")["preset"].(string); ok {
		base, _ = site.Expand(map[string]any{"preset": name}, "policy", cat)["generation"].(string)
	}
	if base == "" || cur == "" {
		opts = append(opts, GenerationOption{Label: DefaultGenerationLabel, Description: defaultGenerationText})
	}
	known := cur == ""
	for _, p := range cat.Of("generation") {
		opts = append(opts, GenerationOption{Value: p.Name, Label: p.Name, Description: p.Description})
		known = known || p.Name == cur
	}
	if !known {
		opts = append(opts, GenerationOption{Value: cur, Label: cur + " (unknown)"})
	}
	return cur, opts
}

// GenerationRow is one switch of the table of what each generation sets.
type GenerationRow struct {
	Feature
	// Values are what each generation (GenerationTable.Names) sets it to,
	// "" where it leaves it out.
	Values []string
	// Differs says the generations set it differently.
	Differs bool
	// Effect is its value under the policy: the policy's own
	// (policy.features), else the current generation's, else "default".
	Effect string
	// Overridden says policy.features replaces the current generation's
	// value with another.
	Overridden bool
}

// GenerationTable is what each generation of the catalog sets, beside
// what is in effect under the policy.
type GenerationTable struct {
	Names   []string
	Current string // the generation in effect ("" none)
	Rows    []GenerationRow
}

// generationTable builds the table for d's policy: one row per switch
// any generation sets, in the editor's order (Features), then the ones
// the editor does not know, by name.
func generationTable(d site.Doc, cat *site.Catalog) GenerationTable {
	t := GenerationTable{Current: d.Generation(cat)}
	var sets []map[string]any
	var cur map[string]any
	for _, p := range cat.Of("generation") {
		f, _ := cat.GenerationFeatures(p.Name)
		t.Names = append(t.Names, p.Name)
		sets = append(sets, f)
		if p.Name == t.Current {
			cur = f
		}
	}
	own, _ := d.Get("policy.features", cat).(map[string]any)
	var rows []Feature
	known := map[string]bool{}
	for _, f := range Features {
		known[f.Name] = true
		if setBy(sets, f.Name) {
			rows = append(rows, f)
		}
	}
	var extra []string
	for _, s := range sets {
		for k := range s {
			if !known[k] {
				known[k] = true
				extra = append(extra, k)
			}
		}
	}
	sort.Strings(extra)
	for _, k := range extra {
		rows = append(rows, Feature{Name: k})
	}
	for _, f := range rows {
		r := GenerationRow{Feature: f}
		for _, s := range sets {
			v := ""
			if x, ok := s[f.Name]; ok {
				v = switchText(x)
			}
			if len(r.Values) > 0 && v != r.Values[0] {
				r.Differs = true
			}
			r.Values = append(r.Values, v)
		}
		gen := ""
		if x, ok := cur[f.Name]; ok {
			gen = switchText(x)
		}
		x, set := own[f.Name]
		switch {
		case set && x != nil:
			r.Effect = switchText(x)
			r.Overridden = gen != "" && r.Effect != gen
		case gen != "":
			r.Effect = gen
		default:
			r.Effect = "default"
		}
		t.Rows = append(t.Rows, r)
	}
	return t
}

// setBy says whether any of the feature sets names key.
func setBy(sets []map[string]any, key string) bool {
	for _, s := range sets {
		if _, ok := s[key]; ok {
			return true
		}
	}
	return false
}

// switchText shows a switch's value: on/off, or its name.
func switchText(v any) string {
	switch x := v.(type) {
	case bool:
		if x {
			return "on"
		}
		return "off"
	case string:
		return x
	case json.Number:
		return x.String()
	}
	return site.Compact(v)
}

// generationDefault is the label of a feature's "kernel default" choice
// in the features fieldset under generation gen, which sets it (feats):
// "default: on (tip-2026-09)"; "kernel default" when gen does not set it.
func generationDefault(gen string, feats map[string]any, name string) string {
	if x, ok := feats[name]; ok && gen != "" {
		return "default: " + switchText(x) + " (" + gen + ")"
	}
	return "kernel default"
}

package scenario

import (
	"context"
	"fmt"
	"strings"

	"schedplay/engine/budget"
	"schedplay/engine/quote"
	"schedplay/presets"
)

// Preset resolution. A section that names a "preset" starts from that
// preset's body (which may itself name a preset, up to maxPresetDepth) and
// the section's other fields are merged over it as a JSON Merge Patch
// (RFC 7386): objects merge key by key, lists and scalars replace, null
// deletes. A document naming a top-level scenario "preset" starts from that
// scenario; each of its sections merges over the preset's section, except a
// section that names its own preset, which replaces the preset's section.

const maxPresetDepth = 8

// sectionKind maps a section key to its preset kind ("" when the section
// has no presets).
func sectionKind(k string) presets.Kind {
	switch k {
	case "machine":
		return presets.Machine
	case "policy":
		return presets.Policy
	case "workload":
		return presets.Workload
	}
	return ""
}

// Resolve expands every preset of s, applies its overrides, decodes each
// section strictly, gives the fields the document leaves out their defaults
// (an explicit zero is kept), validates the result, checks its cost
// against the Serve budget and builds its topology (kept: see Topology).
// Errors are an ErrorList with paths, or a *budget.Error. ps may be nil
// (no presets).
func Resolve(s *Scenario, ps *presets.Set) (*Resolved, error) {
	return ResolveContext(context.Background(), s, ps, Budget{Profile: budget.Serve})
}

// ResolveContext is Resolve under budget b, stopping when ctx is done:
// Prepare, then the topology build.
func ResolveContext(ctx context.Context, s *Scenario, ps *presets.Set, b Budget) (*Resolved, error) {
	r, err := Prepare(ctx, s, ps, b)
	if err != nil {
		return nil, err
	}
	if _, err := r.Topology(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

// Prepare is every step of ResolveContext but the topology build: the
// document's presets expanded, its sections decoded and defaulted, every
// rule but topo.Build's checked, and its cost (CostOf) checked against b
// before anything expensive is done. Topology builds the rest.
func Prepare(ctx context.Context, s *Scenario, ps *presets.Set, b Budget) (*Resolved, error) {
	doc, err := expandedTree(s, ps)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var errs ErrorList
	r := Resolved{Name: s.Name}
	if n, ok := doc["name"].(string); ok {
		r.Name = n
	}
	bad := map[string]bool{}
	for _, k := range sectionKeys {
		v, ok := doc[k]
		if !ok {
			if k == "machine" || k == "workload" {
				errs.Add(k, "missing; name a preset (e.g. {\"preset\": %q}) or describe it", map[string]string{"machine": "vera", "workload": "sgemm-nvpl"}[k])
				bad[k] = true
			}
			continue
		}
		n := len(errs)
		switch k {
		case "machine":
			decodeStrict(k, v, &r.Machine, &errs)
			if len(errs) == n {
				checkClassZeros(v, &errs)
			}
		case "policy":
			decodeStrict(k, v, &r.Policy, &errs)
		case "workload":
			decodeStrict(k, v, &r.Workload, &errs)
			if len(errs) == n {
				checkStepZeros(v, &errs)
			}
		case "run":
			decodeStrict(k, v, &r.Run, &errs)
		}
		bad[k] = len(errs) > n
	}
	// Only the fields the document leaves out get defaults: an explicit
	// zero is kept, then honoured or refused by validation.
	d := r.withDefaults(absentFrom(doc))
	if len(errs) > 0 {
		// Report what is wrong in the sections that did decode, too.
		d.validate(&errs, bad)
		return nil, errs.Err()
	}
	if d.validate(&errs, nil); len(errs) > 0 {
		return nil, errs.Err()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := b.Profile.Check(CostOf(&d, b)); err != nil {
		return nil, err
	}
	return &d, nil
}

// Expand returns s with the top-level preset and every section preset
// expanded: a self-contained document without any "preset" field.
func Expand(s *Scenario, ps *presets.Set) (*Scenario, error) {
	doc, err := expandedTree(s, ps)
	if err != nil {
		return nil, err
	}
	return fromTree(doc)
}

// expandedTree is the document with every preset expanded.
func expandedTree(s *Scenario, ps *presets.Set) (map[string]any, error) {
	doc, err := s.tree()
	if err != nil {
		return nil, err
	}
	var errs ErrorList
	doc = flattenScenarioPreset(doc, ps, 0, &errs)
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	for _, k := range sectionKeys {
		v, ok := doc[k]
		if !ok {
			continue
		}
		if kind := sectionKind(k); kind != "" {
			doc[k] = expandSection(k, kind, v, ps, 0, &errs)
			if kind == presets.Policy {
				doc[k] = applyGeneration(doc[k], ps, &errs)
			}
		} else {
			doc[k] = mergePatch(nil, v)
		}
	}
	return doc, errs.Err()
}

// flattenScenarioPreset replaces a top-level "preset" by the preset
// scenario's document with doc's fields over it.
func flattenScenarioPreset(doc map[string]any, ps *presets.Set, depth int, errs *ErrorList) map[string]any {
	pv, ok := doc["preset"]
	if !ok {
		return doc
	}
	body := presetBody("preset", presets.Scenario, pv, ps, depth, errs)
	base, ok := body.(map[string]any)
	if !ok {
		return doc
	}
	base = flattenScenarioPreset(base, ps, depth+1, errs)
	out := map[string]any{}
	for k, v := range base {
		if k != "schedplay" && k != "preset" {
			out[k] = v
		}
	}
	for k, v := range doc {
		if k == "preset" {
			continue
		}
		if m, isObj := v.(map[string]any); isObj && k != "name" {
			if _, named := m["preset"]; !named || k == "run" {
				v = composePatch(out[k], m)
			}
		}
		out[k] = v
	}
	return out
}

// expandSection returns section v (at path) with its preset chain expanded.
func expandSection(path string, kind presets.Kind, v any, ps *presets.Set, depth int, errs *ErrorList) any {
	m, ok := v.(map[string]any)
	if !ok {
		errs.Add(path, "must be an object, not %s", typeName(v))
		return nil
	}
	pv, named := m["preset"]
	if !named {
		return mergePatch(nil, m)
	}
	body := presetBody(joinPath(path, "preset"), kind, pv, ps, depth, errs)
	if body == nil {
		return nil
	}
	base := expandSection(path, kind, body, ps, depth+1, errs)
	rest := map[string]any{}
	for k, x := range m {
		if k != "preset" {
			rest[k] = x
		}
	}
	return mergePatch(base, rest)
}

// presetBody looks up the preset named by pv and parses its body.
func presetBody(path string, kind presets.Kind, pv any, ps *presets.Set, depth int, errs *ErrorList) any {
	name, ok := pv.(string)
	if !ok {
		errs.Add(path, "must be a preset name (a string), not %s", typeName(pv))
		return nil
	}
	if depth >= maxPresetDepth {
		errs.Add(path, "presets refer to presets more than %d levels deep (a cycle?)", maxPresetDepth)
		return nil
	}
	var p presets.Preset
	if ps != nil {
		p, ok = ps.Get(kind, name)
	}
	if ps == nil || !ok {
		errs.Add(path, "unknown %s preset %s%s", kind, quote.Short(name), knownNames(ps, kind))
		return nil
	}
	body, err := parseTree(p.Body)
	if err != nil {
		errs.Add(path, "%s preset %q is malformed: %v", kind, name, err)
		return nil
	}
	return body
}

func knownNames(ps *presets.Set, kind presets.Kind) string {
	if ps == nil {
		return ""
	}
	names := ps.Names(kind)
	if len(names) == 0 {
		return fmt.Sprintf(" (there are no %s presets)", kind)
	}
	return "; known: " + strings.Join(names, ", ")
}

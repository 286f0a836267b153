package scenario

import (
	"bytes"
	"encoding/json"

	"schedplay/presets"
)

// A kernel generation (presets/generation/NAME.json) is the set of feature
// flags and function forms of one fair.c: "6.12", or the tip tree the
// Olympus mails measured. A policy names it in "generation"; its features
// are the policy's defaults, and the policy's own "features" override them
// key by key. A policy without a generation keeps the Features accessors'
// defaults (scenario v1 as before).

// Generation is the body of a generation preset.
type Generation struct {
	Features Features `json:"features"`
}

// DecodeGeneration decodes a generation preset's body strictly.
func DecodeGeneration(body []byte) (Generation, error) {
	var g Generation
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	err := dec.Decode(&g)
	return g, err
}

// applyGeneration merges the features of the generation the expanded policy
// section names under the section's own features. Errors name the field path
// policy.generation.
func applyGeneration(policy any, ps *presets.Set, errs *ErrorList) any {
	m, ok := policy.(map[string]any)
	if !ok {
		return policy
	}
	gv, named := m["generation"]
	if !named {
		return policy
	}
	name, ok := gv.(string)
	if !ok {
		errs.Add("policy.generation", "must be a generation name (a string), not %s", typeName(gv))
		return policy
	}
	var p presets.Preset
	if ps != nil {
		p, ok = ps.Get(presets.Generation, name)
	}
	if ps == nil || !ok {
		errs.Add("policy.generation", "unknown kernel generation %q%s", name, knownNames(ps, presets.Generation))
		return policy
	}
	body, err := parseTree(p.Body)
	if err != nil {
		errs.Add("policy.generation", "generation %q is malformed: %v", name, err)
		return policy
	}
	gm, _ := body.(map[string]any)
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	if own, set := m["features"]; set {
		out["features"] = mergePatch(gm["features"], own)
	} else {
		out["features"] = mergePatch(nil, gm["features"])
	}
	return out
}

// PolicyGeneration is the generation the policy of s names once its
// presets are expanded and its overrides applied: what Resolve puts in
// Resolved.Policy.Generation, without decoding or checking the other
// sections (the page states it beside a policy's name). "" when the policy
// names none; an unknown name is an error at policy.generation.
func PolicyGeneration(s *Scenario, ps *presets.Set) (string, error) {
	doc, err := s.tree()
	if err != nil {
		return "", err
	}
	var errs ErrorList
	doc = flattenScenarioPreset(doc, ps, 0, &errs)
	v, ok := doc["policy"]
	if !ok || len(errs) > 0 {
		return "", errs.Err()
	}
	pol := applyGeneration(expandSection("policy", presets.Policy, v, ps, 0, &errs), ps, &errs)
	if len(errs) > 0 {
		return "", errs.Err()
	}
	m, _ := pol.(map[string]any)
	name, _ := m["generation"].(string)
	return name, nil
}

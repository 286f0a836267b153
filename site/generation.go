package site

// A policy names the fair.c generation it models in policy.generation
// (presets/generation: its feature flags and function forms); the views
// state it beside the policy's name, "v6-on · tip-2026-09".

// NoGeneration states that a policy names no generation: the built-in
// defaults of policy.features apply (docs/scenario.md).
const NoGeneration = "built-in defaults"

// PolicyLabel states a policy and the fair.c generation in effect under
// it: "v6-on · tip-2026-09" ("" generation: NoGeneration).
func PolicyLabel(policy, generation string) string {
	if generation == "" {
		generation = NoGeneration
	}
	return policy + " · " + generation
}

// Generation is the fair.c generation the document's policy names, its
// preset expanded and its overrides applied (a null override removes the
// preset's), as the engine resolves it; "" when it names none (or names
// it with something other than a string, which the validator refuses).
func (d Doc) Generation(cat *Catalog) string {
	g, _ := d.Get("policy.generation", cat).(string)
	return g
}

// PolicyName names the document's policy: its preset, with "(edited)"
// when the section changes more of it than the generation; "custom" when
// it names no preset.
func (d Doc) PolicyName() string {
	sec := d.Section("policy")
	name, ok := sec["preset"].(string)
	if !ok || name == "" {
		return "custom"
	}
	for k := range sec {
		if k != "preset" && k != "generation" {
			return name + " (edited)"
		}
	}
	return name
}

// PolicySummary is PolicyLabel for the document's policy.
func (d Doc) PolicySummary(cat *Catalog) string {
	return PolicyLabel(d.PolicyName(), d.Generation(cat))
}

// GenerationFeatures are the feature flags and function-form switches a
// generation preset sets (its "features"), by name; false when the
// catalog has no such generation.
func (c *Catalog) GenerationFeatures(name string) (map[string]any, bool) {
	p, ok := c.Get("generation", name)
	if !ok {
		return nil, false
	}
	body, _ := p.Tree().(map[string]any)
	f, _ := body["features"].(map[string]any)
	if f == nil {
		f = map[string]any{}
	}
	return f, true
}

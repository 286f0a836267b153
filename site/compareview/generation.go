package compareview

import (
	"schedplay/engine/compare"
	"schedplay/engine/scenario"
	"schedplay/presets"
	"schedplay/site"
)

// SideLabel states a side with the fair.c generation in effect on it,
// "v6-on · tip-2026-09": the scenario with the side's overrides, its
// policy resolved as the engine resolves it (scenario.PolicyGeneration).
// The label alone when that does not resolve (the run reports why).
func SideLabel(sc *scenario.Scenario, ps *presets.Set, side compare.Side) string {
	s := sc
	if len(side.Set) == 1 && side.Set[0].Path == "policy.preset" {
		// A policy side swaps the whole section (scenario.Apply): the
		// preset alone says its generation, and the document (which may
		// be large) is not read again for each policy.
		pol := append(append([]byte(`{"preset":`), side.Set[0].Value...), '}')
		s = &scenario.Scenario{Schedplay: scenario.Version, Policy: pol}
	} else {
		var err error
		if s, err = scenario.Apply(sc, ps, side.Set); err != nil {
			return side.Label
		}
	}
	g, err := scenario.PolicyGeneration(s, ps)
	if err != nil {
		return side.Label
	}
	return site.PolicyLabel(side.Label, g)
}

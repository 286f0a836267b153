package compareview

import (
	"encoding/json"
	"reflect"

	"schedplay/engine/scenario"
	"schedplay/presets"
)

// The pair a scenario is compared under when the address names none
// (?compare=1, the playground's Compare button) and no seed scenario with
// a pair matches it: docs/compare.md, "Which pair".

// DefaultPolicy is side A when the scenario's policy names no preset (an
// inline policy): the kernel's default behaviour.
const DefaultPolicy = "mainline"

// DefaultPair returns the two policies a scenario without a seed pair is
// compared under: A is the scenario's own policy preset (DefaultPolicy
// when it names none); B is A's counterpart in the seed scenarios, the
// first rule that gives one (seeds in name order):
//
//  1. a seed scenario on the same machine preset whose pair holds A: the
//     pair's other policy;
//  2. the first seed scenario on that machine: its pair's second policy,
//     the one it studies against its baseline (its first, if that is A);
//  3. any seed scenario whose pair holds A: the other policy;
//  4. DefaultPolicy, or when A is DefaultPolicy the first other policy
//     preset by name.
func DefaultPair(sc *scenario.Scenario, ps *presets.Set) (a, b string) {
	a = sectionPreset(sc.Policy)
	if _, ok := ps.Get(presets.Policy, a); !ok {
		a = DefaultPolicy
	}
	machine := sectionPreset(sc.Machine)
	var seeds, onMachine []presets.Preset
	for _, p := range ps.All() {
		if p.Kind != presets.Scenario || len(p.Compare) != 2 || p.Compare[0] == p.Compare[1] {
			continue
		}
		seeds = append(seeds, p)
		if machine != "" && seedMachine(p) == machine {
			onMachine = append(onMachine, p)
		}
	}
	for _, p := range onMachine { // 1
		if o, ok := other(p.Compare, a); ok {
			return a, o
		}
	}
	if len(onMachine) > 0 { // 2
		return a, onMachine[0].Compare[1]
	}
	for _, p := range seeds { // 3
		if o, ok := other(p.Compare, a); ok {
			return a, o
		}
	}
	if a != DefaultPolicy { // 4
		return a, DefaultPolicy
	}
	for _, n := range ps.Names(presets.Policy) {
		if n != a {
			return a, n
		}
	}
	return a, a
}

// other is the member of pair that is not a, when a is in the pair.
func other(pair []string, a string) (string, bool) {
	switch a {
	case pair[0]:
		return pair[1], true
	case pair[1]:
		return pair[0], true
	}
	return "", false
}

// sectionPreset is the "preset" a scenario section names ("" for none).
func sectionPreset(sec json.RawMessage) string {
	var s struct {
		Preset string `json:"preset"`
	}
	if len(sec) == 0 || json.Unmarshal(sec, &s) != nil {
		return ""
	}
	return s.Preset
}

// seedMachine is the machine preset a seed scenario runs on.
func seedMachine(p presets.Preset) string {
	sc, err := scenario.Decode(p.Body)
	if err != nil {
		return ""
	}
	return sectionPreset(sc.Machine)
}

// sameSections reports whether two scenarios have equal machine, policy,
// workload and run sections (their names may differ): a seed scenario
// the playground expanded and the user only renamed.
func sameSections(x, y *scenario.Scenario) bool {
	for _, s := range [][2]json.RawMessage{{x.Machine, y.Machine}, {x.Policy, y.Policy}, {x.Workload, y.Workload}, {x.Run, y.Run}} {
		var a, b any
		if json.Unmarshal(orNull(s[0]), &a) != nil || json.Unmarshal(orNull(s[1]), &b) != nil || !reflect.DeepEqual(a, b) {
			return false
		}
	}
	return true
}

func orNull(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return json.RawMessage("null")
	}
	return b
}

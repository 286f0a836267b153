package scenario

import (
	"strings"
	"testing"

	"schedplay/presets"
)

// TestGenerationPresetsDecode: every embedded generation decodes strictly
// into the policy's Features (an unknown flag fails the build's tests).
func TestGenerationPresetsDecode(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	names := ps.Names(presets.Generation)
	if len(names) < 2 {
		t.Fatalf("generations %v; want at least 6.12 and the mails' tip", names)
	}
	for _, n := range names {
		p, _ := ps.Get(presets.Generation, n)
		if _, err := DecodeGeneration(p.Body); err != nil {
			t.Errorf("generation %s: %v", n, err)
		}
	}
}

// TestGenerationDefaultsFeatures: a policy naming a generation gets its
// feature flags; the policy's own features win key by key; an unknown or
// mistyped generation is an error at policy.generation.
func TestGenerationDefaultsFeatures(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	resolve := func(policy string) (*Resolved, error) {
		sc, err := Decode([]byte(`{"schedplay":1,"machine":{"preset":"vera"},"workload":{"preset":"sgemm-nvpl"},"policy":` + policy + `}`))
		if err != nil {
			t.Fatal(err)
		}
		return Resolve(sc, ps)
	}
	r, err := resolve(`{"generation":"6.12"}`)
	if err != nil {
		t.Fatal(err)
	}
	if f := r.Policy.Features; f.SMTAwareAsymCapacityOn() || f.ILBIdleCoreOn() || !f.SISUtilOn() {
		t.Errorf("6.12: SMT-aware %v, ILB idle core %v, SIS_UTIL %v; want false, false, true", f.SMTAwareAsymCapacityOn(), f.ILBIdleCoreOn(), f.SISUtilOn())
	}
	r, err = resolve(`{"generation":"6.12","features":{"ILB_IDLE_CORE":true}}`)
	if err != nil {
		t.Fatal(err)
	}
	if f := r.Policy.Features; f.SMTAwareAsymCapacityOn() || !f.ILBIdleCoreOn() {
		t.Errorf("6.12 + ILB_IDLE_CORE: SMT-aware %v, ILB idle core %v; want false, true", f.SMTAwareAsymCapacityOn(), f.ILBIdleCoreOn())
	}
	r, err = resolve(`{"preset":"v6-on"}`)
	if err != nil {
		t.Fatal(err)
	}
	if r.Policy.Generation != "tip-2026-09" || !r.Policy.Features.SMTAwareAsymCapacityOn() {
		t.Errorf("v6-on: generation %q, SMT-aware %v; want the mails' tip", r.Policy.Generation, r.Policy.Features.SMTAwareAsymCapacityOn())
	}
	for _, c := range []struct{ policy, want string }{
		{`{"generation":"5.10"}`, `policy.generation: unknown kernel generation "5.10"; known: 6.1, 6.12, tip-2026-09`},
		{`{"generation":612}`, `policy.generation: must be a generation name (a string), not a number`},
	} {
		_, err := resolve(c.policy)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v; want %q", c.policy, err, c.want)
		}
	}
}

// TestPolicyGenerationMatchesResolve: PolicyGeneration gives what
// resolving the whole scenario gives, for every seed scenario under every
// policy preset and with its generation overridden or deleted (null).
func TestPolicyGenerationMatchesResolve(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	sets := [][]Override{nil}
	for _, p := range ps.Names(presets.Policy) {
		sets = append(sets, []Override{{Path: "policy.preset", Value: []byte(`"` + p + `"`)}})
	}
	for _, g := range append(ps.Names(presets.Generation), "") {
		v := `null`
		if g != "" {
			v = `"` + g + `"`
		}
		sets = append(sets, []Override{{Path: "policy.generation", Value: []byte(v)}})
	}
	seen, checked := map[string]bool{}, 0
	for _, seed := range ps.Names(presets.Scenario) {
		for _, set := range sets {
			sc, err := FromReference(seed, ps)
			if err == nil {
				sc, err = Apply(sc, ps, set)
			}
			if err != nil {
				t.Fatalf("%s %v: %v", seed, set, err)
			}
			r, err := Prepare(t.Context(), sc, ps, Budget{})
			if err != nil {
				continue // a policy this machine cannot take (priority "arch")
			}
			checked++
			got, err := PolicyGeneration(sc, ps)
			if err != nil || got != r.Policy.Generation {
				t.Errorf("%s %v: PolicyGeneration %q (%v); Resolve says %q", seed, set, got, err, r.Policy.Generation)
			}
			seen[got] = true
		}
	}
	if len(seen) < 3 || checked < len(sets)*len(ps.Names(presets.Scenario))/2 {
		t.Errorf("%d scenarios checked, generations seen %v; want most, and each generation and none", checked, seen)
	}
	sc, err := Decode([]byte(`{"schedplay":1,"policy":{"preset":"v6-on","generation":"5.10"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := PolicyGeneration(sc, ps); err == nil || !strings.Contains(err.Error(), "policy.generation: unknown kernel generation") {
		t.Errorf("unknown generation: %v", err)
	}
}

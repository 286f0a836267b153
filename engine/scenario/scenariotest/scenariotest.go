// Package scenariotest resolves scenario documents against the embedded
// presets, for the tests of the packages that simulate or export them.
package scenariotest

import (
	"testing"

	"schedplay/engine/scenario"
	"schedplay/presets"
)

// Resolve decodes a whole scenario document and resolves it against the
// embedded presets; any error fails t.
func Resolve(t testing.TB, doc string) *scenario.Resolved {
	t.Helper()
	return ResolveSets(t, doc)
}

// ResolveSets decodes doc, applies `--set`-style overrides ("path=value")
// and resolves it against the embedded presets; any error fails t.
func ResolveSets(t testing.TB, doc string, sets ...string) *scenario.Resolved {
	t.Helper()
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Decode([]byte(doc))
	if err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	var ovs []scenario.Override
	for _, s := range sets {
		o, err := scenario.ParseSet(s)
		if err != nil {
			t.Fatal(err)
		}
		ovs = append(ovs, o)
	}
	if sc, err = scenario.Apply(sc, ps, ovs); err != nil {
		t.Fatal(err)
	}
	r, err := scenario.Resolve(sc, ps)
	if err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	return r
}

package sim

import (
	"context"
	"encoding/json"
	"testing"

	"schedplay/engine/scenario"
	"schedplay/presets"
)

// resolve builds a Resolved from preset names plus a run section.
func resolve(t testing.TB, machine, policy, workload string, run string) *scenario.Resolved {
	t.Helper()
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	doc := `{"schedplay":1,"machine":{"preset":"` + machine + `"},"workload":{"preset":"` + workload + `"}`
	if policy != "" {
		doc += `,"policy":{"preset":"` + policy + `"}`
	}
	if run != "" {
		doc += `,"run":` + run
	}
	doc += "}"
	sc, err := scenario.Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	r, err := scenario.Resolve(sc, ps)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// resolveJSON builds a Resolved from a whole scenario document.
func resolveJSON(t testing.TB, doc string) *scenario.Resolved {
	t.Helper()
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	r, err := scenario.Resolve(sc, ps)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func mustRun(t testing.TB, r *scenario.Resolved, opt Options) *Result {
	t.Helper()
	res, err := Run(context.Background(), r, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func toJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

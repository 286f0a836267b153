package scenario

import (
	"strings"
	"testing"
	"testing/fstest"

	"schedplay/presets"
)

// testPresets is a small preset set independent of the shipped presets:
// "smt4" is a 1-node, 4-core, 2-thread machine; "p-base" ← "p-v6" a
// preset chain; "loop-a" ↔ "loop-b" a cycle; "demo" a scenario preset.
func testPresets(t testing.TB) *presets.Set {
	t.Helper()
	fs := fstest.MapFS{
		"machine/smt4.json":  {Data: []byte(`{"description": "test", "machine": {"nodes": 1, "cores_per_node": 4, "threads_per_core": 2, "numbering": "sibling-major", "smt": {"model": "spatial", "hold": "1ms"}, "gflops_per_core": 50}}`)},
		"machine/bad.json":   {Data: []byte(`{"description": "test", "machine": {"nodes": 1, "cores_per_node": 4, "threads_per_core": 3}}`)},
		"policy/p-base.json": {Data: []byte(`{"description": "test", "policy": {"smt_asym_packing": "off", "hz": 250, "features": {"SIS_UTIL": true}}}`)},
		"policy/p-v6.json":   {Data: []byte(`{"description": "test", "policy": {"preset": "p-base", "smt_asym_packing": "on", "idle_select_asym": true, "priority": "capacity-pe0x2"}}`)},
		"policy/loop-a.json": {Data: []byte(`{"description": "test", "policy": {"preset": "loop-b"}}`)},
		"policy/loop-b.json": {Data: []byte(`{"description": "test", "policy": {"preset": "loop-a"}}`)},
		"workload/spin.json": {Data: []byte(`{"description": "test", "workload": {"groups": [{"name": "spin", "count": 4, "cpus": "0-3", "program": [{"repeat": 10, "do": [{"compute": "1ms"}, {"barrier": "step"}]}]}], "metric": "sgemm"}}`)},
		"scenario/demo.json": {Data: []byte(`{"description": "test", "scenario": {"schedplay": 1, "name": "demo <b>x</b>", "machine": {"preset": "smt4"}, "policy": {"preset": "p-v6"}, "workload": {"preset": "spin"}, "run": {"duration": "100ms", "seed": 7, "reps": 2}}}`)},
	}
	ps, err := presets.LoadFS(fs)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// mustDecode decodes a document or fails the test.
func mustDecode(t testing.TB, doc string) *Scenario {
	t.Helper()
	s, err := Decode([]byte(doc))
	if err != nil {
		t.Fatalf("Decode(%s): %v", doc, err)
	}
	return s
}

// errorsContain reports whether errs has an error at path whose message
// contains every fragment.
func errorsContain(err error, path string, frags ...string) bool {
	for _, e := range Errors(err) {
		if e.Path != path {
			continue
		}
		ok := true
		for _, f := range frags {
			ok = ok && strings.Contains(e.Msg, f)
		}
		if ok {
			return true
		}
	}
	return false
}

package api

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
)

var endpoints = []string{"simulate", "compare", "validate"}

// FuzzHandler posts arbitrary bodies to every endpoint: the reply is always
// JSON and never a 500 (a 500 is a recovered panic).
func FuzzHandler(f *testing.F) {
	for _, b := range []string{doc, `{"scenario": "s1", "set": ["policy.hz=300"], "policies": ["slow", "fast"], "vary": "run.seed=1,2"}`,
		`{"scenario": {"schedplay": 1, "preset": "s1"}, "a": {"label": "x", "set": []}, "b": {"label": "y", "set": [{"path": "run.reps", "value": 1}]}}`,
		`{"scenario": "http://x/?preset=s1", "reps": 1, "seed": 3, "timeline": true}`, `[]`, `null`, `{"scenario": null}`,
		`{"scenario": "s1", "a": {"set": ["policy.hz=300"]}, "b": {"label": "y"}, "vary": "policy.asym_packing=[\"SMT\"],[],{\"a\": \"],\"}"}`} {
		for ep := range endpoints {
			f.Add(uint8(ep), b)
		}
	}
	h := New(testPresets(f), WithRunner(fakeRun))
	f.Fuzz(func(t *testing.T, i uint8, body string) {
		ep := endpoints[int(i)%len(endpoints)]
		if strings.Contains(body, "boom") {
			return // the stand-in runner panics on purpose for that name
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/v1/"+ep, strings.NewReader(body)))
		if rec.Code == 500 || !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%s %q: %d %s", ep, body, rec.Code, rec.Body)
		}
	})
}

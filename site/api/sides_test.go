package api

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestCompareRequestErrors: the sides take "path=value" strings like the
// top-level set, the messages name the request's JSON fields (never a Go
// type or a CLI flag), policies and a/b are mutually exclusive, vary keeps
// JSON values whole and refuses a field the sides set or differ in.
func TestCompareRequestErrors(t *testing.T) {
	h := New(testPresets(t), WithRunner(fakeRun), WithMaxBody(4096), WithTimeout(time.Second))
	const hz = `"a": {"label": "hz100", "set": []}, "b": {"label": "hz300", "set": [{"path": "policy.hz", "value": 300}]}`
	for _, tt := range []struct {
		name, body string
		status     int
		want       []string
	}{
		{"side set as strings", `{"scenario": "s1", "a": {"label": "two", "set": []}, "b": {"label": "three", "set": ["workload.groups[0].count=3"]}}`, 200,
			// fakeRun: throughput = hz 100 + count + repetition
			[]string{`"a":"two","b":"three"`, `"a":{"mean":102.5,`, `"b":{"mean":103.5,`}},
		{"side set mixed", `{"scenario": "s1", "a": {"label": "x", "set": ["policy.preset=fast", {"path": "workload.groups[0].count", "value": 3}]}, "b": {"label": "y"}}`, 200,
			[]string{`"a":{"mean":1003.5,`, `"b":{"mean":102.5,`}},
		{"side without label", `{"scenario": "s1", "a": {"set": []}, "b": {"set": ["policy.hz=300"]}}`, 200, []string{`"a":"A","b":"B"`}},
		{"side set without =", `{"scenario": "s1", "a": {"label": "x"}, "b": {"label": "y", "set": ["policy.hz"]}}`, 400, []string{`"path":"b.set[0]"`, `has no '='`}},
		{"side set not a string or object", `{"scenario": "s1", "a": {"label": "x"}, "b": {"label": "y", "set": [3]}}`, 400, []string{`"path":"b.set[0]"`, `must be \"path=value\" or {\"path\": …, \"value\": …}`}},
		{"side set bad path", `{"scenario": "s1", "a": {"label": "x", "set": ["policy..hz=3"]}, "b": {"label": "y"}}`, 400, []string{`"path":"a.set[0]: policy..hz"`, `bad override path`}},
		{"side not an object", `{"scenario": "s1", "a": "mainline", "b": {"label": "y"}}`, 400, []string{`"path":"a"`, `must be an object {\"label\": …, \"set\": […]}, not a JSON string`}},
		{"side unknown field", `{"scenario": "s1", "a": {"lable": "x"}, "b": {"label": "y"}}`, 400, []string{`"path":"a"`, `unknown field \"lable\"; a side has \"label\" and \"set\"`}},
		{"side label not a string", `{"scenario": "s1", "a": {"label": 3}, "b": {"label": "y"}}`, 400, []string{`"path":"a.label"`, `must be a string, not a JSON number`}},
		{"side set not a list", `{"scenario": "s1", "a": {"label": "x", "set": "policy.hz=3"}, "b": {"label": "y"}}`, 400, []string{`"path":"a.set"`, `must be a list, not a JSON string`}},
		{"one side", `{"scenario": "s1", "a": {"label": "x"}}`, 400, []string{`"path":"b"`, `give both \"a\" and \"b\"`}},
		{"null side", `{"scenario": "s1", "a": {"label": "x"}, "b": null}`, 400, []string{`"path":"b"`}},
		{"policies and sides", `{"scenario": "s1", "policies": ["slow", "fast"], ` + hz + `}`, 400, []string{`"path":"policies"`, `\"policies\" and \"a\"/\"b\" are mutually exclusive`}},
		{"three policies", `{"scenario": "s1", "policies": ["slow", "fast", "slow"]}`, 400, []string{`"path":"policies"`, `name two policy presets, A then B (got 3)`}},
		{"policies not a list", `{"scenario": "s1", "policies": "slow,fast"}`, 400, []string{`"path":"policies"`, `must be a list, not a JSON string`}},
		{"reps not a number", `{"scenario": "s1", "reps": "3"}`, 400, []string{`"path":"reps"`, `must be a whole number, not a JSON string`}},
		{"seed negative", `{"scenario": "s1", "seed": -1}`, 400, []string{`"path":"seed"`, `must be a whole number ≥ 0, not a JSON number`}},
		{"no pair", `{"scenario": ` + doc + `}`, 400, []string{`"path":"policies"`, `this scenario names no pair to compare`}},

		{"vary list values", `{"scenario": "s1", "policies": ["slow", "fast"], "vary": "policy.asym_packing=[\"SMT\"],[]"}`, 200, []string{`"vary":"policy.asym_packing"`, `"value":"[\"SMT\"]"`, `"value":"[]"`}},
		{"vary without values", `{"scenario": "s1", "policies": ["slow", "fast"], "vary": "run.reps"}`, 400, []string{`"path":"vary"`, `write path=v1,v2,…`}},
		{"vary unbalanced", `{"scenario": "s1", "policies": ["slow", "fast"], "vary": "policy.asym_packing=[\"SMT\""}`, 400, []string{`"path":"vary"`, `missing ]`}},
		{"vary too many", `{"scenario": "s1", "policies": ["slow", "fast"], "vary": "run.seed=` + strings.Repeat("1,", 40) + `1"}`, 400, []string{`"path":"vary"`, `41 values; the limit is 32`}},
		{"vary the policy", `{"scenario": "s1", "policies": ["slow", "fast"], "vary": "policy.preset=slow,fast"}`, 400,
			[]string{`"path":"vary"`, `policy.preset: the two sides of this comparison are the policies slow (A) and fast (B); varying policy.preset would give both sides the same policy`}},
		{"vary a field the policies differ in", `{"scenario": "s1", "vary": "policy.hz=100,1000"}`, 400,
			[]string{`"path":"vary"`, `the policies fast (A) and slow (B), which differ in this field (A: 1000, B: 100)`}},
		{"vary a field a side sets", `{"scenario": "s1", ` + hz + `, "vary": "policy.hz=100,1000"}`, 400,
			[]string{`"path":"vary"`, `are \"hz100\" (A: no overrides) and \"hz300\" (B: policy.hz=300); varying policy.hz would give both sides the same policy.hz`}},
		{"vary a field the sides share", `{"scenario": "s1", ` + hz + `, "vary": "workload.groups[0].count=1,3"}`, 200, []string{`"value":"1"`, `"value":"3"`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/v1/compare", strings.NewReader(tt.body)))
			body := rec.Body.String()
			if rec.Code != tt.status {
				t.Errorf("status %d; want %d\n%s", rec.Code, tt.status, body)
			}
			if !json.Valid([]byte(body)) {
				t.Errorf("body is not JSON: %s", body)
			}
			for _, f := range tt.want {
				if !strings.Contains(body, f) {
					t.Errorf("body lacks %s:\n%s", f, body)
				}
			}
			if tt.status != 200 {
				for _, leak := range []string{"presets.", "compare.", "api.", "json.Raw", "[]", "--vary", "--policy"} {
					if strings.Contains(body, leak) && !strings.Contains(tt.body, leak) {
						t.Errorf("error names %q, a Go type or CLI flag:\n%s", leak, body)
					}
				}
			}
		})
	}
}

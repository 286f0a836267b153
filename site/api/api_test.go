package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/presets"
)

func testPresets(t testing.TB) *presets.Set {
	t.Helper()
	ps, err := presets.LoadFS(fstest.MapFS{
		"machine/m.json":   {Data: []byte(`{"description": "2x2", "machine": {"nodes": 1, "cores_per_node": 2, "threads_per_core": 2}}`)},
		"policy/fast.json": {Data: []byte(`{"description": "t", "policy": {"hz": 1000}}`)},
		"policy/slow.json": {Data: []byte(`{"description": "t", "policy": {"hz": 100}}`)},
		"workload/w.json":  {Data: []byte(`{"description": "t", "workload": {"groups": [{"name": "g", "count": 2, "program": [{"compute": "1ms"}]}]}}`)},
		"scenario/s1.json": {Data: []byte(`{"description": "t", "compare": ["fast", "slow"], "scenario": {"schedplay": 1, "name": "s1", "machine": {"preset": "m"}, "policy": {"preset": "slow"}, "workload": {"preset": "w"}, "run": {"seed": 3, "reps": 2}}}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// fakeRun echoes what it was given into the result.
func fakeRun(ctx context.Context, r *scenario.Resolved, opt sim.Options) (*sim.Result, error) {
	if r.Name == "boom" {
		panic("engine bug")
	}
	if r.Name == "slow" {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if r.Name == "fail" {
		return nil, errors.New("event budget exceeded")
	}
	res := &sim.Result{Scenario: r.Name, Unit: "work/s"}
	count := 0 // an idle workload has no group
	if len(r.Workload.Groups) > 0 {
		count = r.Workload.Groups[0].Count
	}
	for i := 0; i < r.Run.Reps; i++ {
		res.Reps = append(res.Reps, sim.RepMetrics{Seed: r.Run.Seed + uint64(i), Throughput: float64(r.Policy.HZ + count + i)})
	}
	if opt.Timeline {
		res.Timeline = &sim.Timeline{EndNs: 1}
		if !opt.NoDecisions {
			res.Timeline.Decisions = []sim.Decision{{Kind: "fork"}}
		}
	}
	return res, nil
}

const doc = `{"schedplay": 1, "name": "<b>n</b>", "machine": {"preset": "m"}, "workload": {"preset": "w"}, "run": {"seed": 5, "reps": 2}}`

func TestEndpoints(t *testing.T) {
	h := New(testPresets(t), WithRunner(fakeRun), WithMaxBody(4096), WithTimeout(time.Second))
	for _, tt := range []struct {
		name, method, url, body string
		status                  int
		want                    []string // fragments of the body
	}{
		{"presets", "GET", "/api/v1/presets", "", 200, []string{`"kind":"scenario","name":"s1"`, `"kind":"machine","name":"m","description":"2x2"`}},
		{"presets wrong method", "POST", "/api/v1/presets", "", 405, []string{`"message":"method POST not allowed; use GET"`}},
		{"simulate bare document", "POST", "/api/v1/simulate", doc, 200, []string{`"scenario":"<b>n</b>"`, `"seed":5,"throughput":252`, `"seed":6,"throughput":253`}},
		{"simulate wrapper with overrides", "POST", "/api/v1/simulate", `{"scenario": ` + doc + `, "set": ["policy.preset=fast", {"path": "workload.groups[0].count", "value": 3}], "reps": 1, "seed": 9, "timeline": true}`, 200, []string{`"reps":[{"seed":9,"throughput":1003`, `"timeline":{`}},
		{"simulate preset name", "POST", "/api/v1/simulate", `{"scenario": "s1"}`, 200, []string{`"scenario":"s1"`, `"seed":3,"throughput":102`}},
		{"simulate share link", "POST", "/api/v1/simulate", `{"scenario": "http://x/?preset=s1"}`, 200, []string{`"scenario":"s1"`}},
		{"simulate wrong method", "GET", "/api/v1/simulate", "", 405, []string{`not allowed; use POST`}},
		{"simulate empty", "POST", "/api/v1/simulate", "", 400, []string{`empty request body`}},
		{"simulate bad JSON", "POST", "/api/v1/simulate", `{"schedplay": 1,`, 400, []string{`invalid JSON at line 1`}},
		{"simulate invalid", "POST", "/api/v1/simulate", `{"schedplay": 1, "machine": {"preset": "m"}, "workload": {"preset": "w"}, "policy": {"hz": 1}, "run": {"reps": 500}}`, 400,
			[]string{`"error":{"message":"1 is out of range; want 10..10000","path":"policy.hz"}`, `"errors":[{"path":"policy.hz"`, `{"path":"run.reps","message":"500 is out of range; want 1..100"}`}},
		{"simulate request reps 0", "POST", "/api/v1/simulate", `{"scenario": "s1", "reps": 0}`, 400,
			[]string{`"error":{"message":"0 is out of range; want 1..100","path":"run.reps"}`}},
		{"simulate document reps 0", "POST", "/api/v1/simulate", `{"schedplay": 1, "machine": {"preset": "m"}, "workload": {"preset": "w"}, "run": {"reps": 0}}`, 400,
			[]string{`"error":{"message":"0 is out of range; want 1..100","path":"run.reps"}`}},
		{"simulate timeline runs only", "POST", "/api/v1/simulate", `{"scenario": "s1", "timeline": "runs"}`, 200, []string{`"timeline":{`, `"decisions":null`}},
		{"simulate timeline full", "POST", "/api/v1/simulate", `{"scenario": "s1", "timeline": "full"}`, 200, []string{`"decisions":[{`}},
		{"simulate bad timeline", "POST", "/api/v1/simulate", `{"scenario": "s1", "timeline": "some"}`, 400, []string{`"path":"timeline"`, `must be true, false, \"full\" or \"runs\"`}},
		{"simulate unknown request field", "POST", "/api/v1/simulate", `{"scenario": "s1", "timelime": true}`, 400, []string{`"path":"timelime"`}},
		{"simulate bad override", "POST", "/api/v1/simulate", `{"scenario": "s1", "set": ["policy.hz"]}`, 400, []string{`"path":"set[0]"`, `has no '='`}},
		{"simulate unknown preset", "POST", "/api/v1/simulate", `{"scenario": "nope"}`, 400, []string{`neither a scenario preset nor a share link`}},
		{"simulate too large", "POST", "/api/v1/simulate", `{"schedplay": 1, "name": "` + strings.Repeat("x", 5000) + `"}`, 413, []string{`larger than the limit of 4096 bytes`}},
		{"simulate engine failure", "POST", "/api/v1/simulate", strings.Replace(doc, "<b>n</b>", "fail", 1), 422, []string{`simulation failed: event budget exceeded`}},
		{"simulate timeout", "POST", "/api/v1/simulate", strings.Replace(doc, "<b>n</b>", "slow", 1), 503, []string{`ran out of time`}},
		{"simulate panic", "POST", "/api/v1/simulate", strings.Replace(doc, "<b>n</b>", "boom", 1), 500, []string{`internal error (id `, `"id":"`}},
		{"compare policies", "POST", "/api/v1/compare", `{"scenario": "s1", "policies": ["slow", "fast"]}`, 200, []string{`"a":"slow","b":"fast","reps":2,"seeds":[3,4]`, `"metric":"Average throughput"`, `"text":"s1\nA = slow, B = fast`}},
		{"compare vary", "POST", "/api/v1/compare", `{"scenario": "s1", "policies": ["slow", "fast"], "vary": "workload.groups[0].count=1,2"}`, 200, []string{`"vary":"workload.groups[0].count"`, `"value":"1"`, `"value":"2"`}},
		{"compare sides", "POST", "/api/v1/compare", `{"scenario": "s1", "a": {"label": "hz100", "set": []}, "b": {"label": "hz300", "set": [{"path": "policy.hz", "value": 300}]}}`, 200, []string{`"a":"hz100","b":"hz300"`}},
		{"compare the seed pair", "POST", "/api/v1/compare", `{"scenario": "s1"}`, 200, []string{`"a":"fast","b":"slow"`}},
		{"compare the seed pair of a document", "POST", "/api/v1/compare", `{"schedplay": 1, "preset": "s1"}`, 200, []string{`"a":"fast","b":"slow"`}},
		{"compare no pair", "POST", "/api/v1/compare", doc, 400, []string{`"path":"policies"`}},
		{"compare one policy", "POST", "/api/v1/compare", `{"scenario": "s1", "policies": ["slow"]}`, 400, []string{`"path":"policies"`}},
		{"compare bad vary", "POST", "/api/v1/compare", `{"scenario": "s1", "policies": ["slow", "fast"], "vary": "run.reps"}`, 400, []string{`"path":"vary"`}},
		{"compare unknown policy", "POST", "/api/v1/compare", `{"scenario": "s1", "policies": ["slow", "nope"]}`, 400, []string{`"path":"policy.preset"`, `unknown policy preset`}},
		{"validate ok", "POST", "/api/v1/validate", doc, 200, []string{`"valid":true`, `"scenario":{"machine":{"preset":"m"}`, `"share":"s=`, `"resolved":{"name":"<b>n</b>"`}},
		{"validate errors", "POST", "/api/v1/validate", `{"schedplay": 1, "machine": {"preset": "m", "nodez": 2}, "workload": {"preset": "w"}}`, 400, []string{`"path":"machine.nodez"`, `unknown field (did you mean \"nodes\"?)`}},
		{"validate future version", "POST", "/api/v1/validate", `{"schedplay": 2}`, 400, []string{`upgrade schedplay`}},
		{"unknown path", "GET", "/api/v2/x", "", 404, []string{`no such endpoint`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, tt.url, strings.NewReader(tt.body))
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			body := rec.Body.String()
			if rec.Code != tt.status {
				t.Errorf("status %d; want %d\n%s", rec.Code, tt.status, body)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
			if !json.Valid([]byte(body)) {
				t.Errorf("body is not JSON: %s", body)
			}
			for _, f := range tt.want {
				if !strings.Contains(body, f) {
					t.Errorf("body lacks %s:\n%s", f, body)
				}
			}
			if tt.status == 405 && rec.Header().Get("Allow") == "" {
				t.Error("405 without Allow")
			}
		})
	}
}

package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"schedplay/engine/sim"
)

// postStep sends a step request and decodes a 200 reply.
func postStep(t *testing.T, h http.Handler, body string) (int, sim.StepReply, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/api/v1/step", strings.NewReader(body)))
	var r sim.StepReply
	if rec.Code == http.StatusOK {
		if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil {
			t.Fatalf("reply: %v\n%s", err, rec.Body)
		}
	}
	return rec.Code, r, rec.Body.String()
}

func TestStepEndpoint(t *testing.T) {
	h := New(testPresets(t))
	stepDoc := `{"schedplay": 1, "machine": {"preset": "m"}, "workload": {"groups": [{"name": "g", "count": 6, "program": [{"repeat": 50, "do": [{"compute": "1ms"}, {"sleep": "300us"}]}]}]}, "run": {"duration": "20ms", "seed": 5}}`
	code, zero, body := postStep(t, h, `{"scenario": `+stepDoc+`, "steps": 0}`)
	if code != 200 || zero.Event != nil || zero.Events != 0 || len(zero.Detail.Runqueues) != 4 || len(zero.Snapshot.CPUs) != 4 {
		t.Fatalf("steps 0: %d %s", code, body)
	}
	code, five, body := postStep(t, h, `{"scenario": `+stepDoc+`, "steps": 5}`)
	if code != 200 || five.Events != 5 || five.Event == nil || five.Event.N != 5 || len(five.Recent) != 5 || five.Done {
		t.Fatalf("steps 5: %d %s", code, body)
	}
	// Right after the fork, six tasks on four CPUs and seven placement
	// decisions: the parent's sched_exec(), then six wake_up_new_task()s.
	// The parent's CPU runs a child; the other three hold theirs queued
	// until resched_curr()'s IPI reaches them, and a few events later four
	// run and two wait.
	counts := func(r sim.StepReply) (running, queued int) {
		for _, rq := range r.Detail.Runqueues {
			queued += len(rq.Queued)
			if rq.Curr != nil {
				running++
			}
		}
		return running, queued
	}
	fork := 0
	for n := 1; n <= 10 && fork == 0; n++ {
		_, r, _ := postStep(t, h, fmt.Sprintf(`{"scenario": %s, "steps": %d}`, stepDoc, n))
		if r.Event == nil || r.Event.Kind != "wake_up_new_task" {
			continue
		}
		fork = n
		running, queued := counts(r)
		if running != 1 || queued != 5 || len(r.Decisions) != 7 || r.Decisions[0].Kind != "exec" || r.Decisions[1].Kind != "fork" || r.LastDecision.Index != 6 {
			t.Fatalf("after the fork: %d running, %d queued, decisions %+v", running, queued, r.Decisions)
		}
	}
	if fork == 0 {
		t.Fatal("no fork event in the first 10")
	}
	settled := false
	for n := fork + 1; n <= fork+10 && !settled; n++ {
		_, r, _ := postStep(t, h, fmt.Sprintf(`{"scenario": %s, "steps": %d}`, stepDoc, n))
		running, queued := counts(r)
		settled = running == 4 && queued == 2
	}
	if !settled {
		t.Fatal("ten events after the fork, the four CPUs do not run four tasks with two queued")
	}
	code, many, body := postStep(t, h, `{"scenario": `+stepDoc+`, "steps": 40}`)
	if code != 200 || many.LastDecision == nil || many.Detail.Decisions < 6 || len(many.Recent) != stepRecent || many.Recent[stepRecent-1].N != 40 {
		t.Fatalf("steps 40: %d %s", code, body)
	}
	// Replay is deterministic; one event more changes the state.
	_, again, _ := postStep(t, h, `{"scenario": `+stepDoc+`, "steps": 40}`)
	_, next, _ := postStep(t, h, `{"scenario": `+stepDoc+`, "steps": 41}`)
	if mustJSON(t, again) != mustJSON(t, many) || mustJSON(t, next.Detail) == mustJSON(t, many.Detail) && next.Now == many.Now {
		t.Fatal("replay of 40 events differs, or event 41 changed nothing")
	}
	// A step count past the end stops at the end.
	code, end, body := postStep(t, h, `{"scenario": `+stepDoc+`, "steps": 200000}`)
	if code != 200 || !end.Done || end.Events >= 200000 || end.Now != 20_000_000 {
		t.Fatalf("steps past the end: %d %.300s", code, body)
	}
	// Overrides and a preset reference work as in simulate.
	code, ref, body := postStep(t, h, `{"scenario": "s1", "set": ["run.seed=9"], "steps": 3}`)
	if code != 200 || ref.Events != 3 {
		t.Fatalf("preset: %d %s", code, body)
	}
	for _, tt := range []struct{ name, body, path string }{
		{"too many steps", `{"scenario": "s1", "steps": 200001}`, "steps"},
		{"negative", `{"scenario": "s1", "steps": -1}`, "steps"},
		{"not a number", `{"scenario": "s1", "steps": "10"}`, "steps"},
		{"too large a machine", `{"scenario": "s1", "set": ["machine.cores_per_node=40"], "steps": 1}`, "machine"},
		{"unknown field", `{"scenario": "s1", "steps": 1, "bogus": 1}`, "bogus"},
	} {
		code, _, body := postStep(t, h, tt.body)
		var e struct {
			Error struct{ Path, Message string }
		}
		_ = json.Unmarshal([]byte(body), &e)
		if code != 400 || e.Error.Path != tt.path || e.Error.Message == "" {
			t.Errorf("%s: %d %s", tt.name, code, body)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1/step", nil))
	if rec.Code != 405 {
		t.Errorf("GET: %d", rec.Code)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

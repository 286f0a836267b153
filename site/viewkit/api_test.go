package viewkit

import (
	"encoding/json"
	"strings"
	"testing"

	"schedplay/engine/compare"
	"schedplay/engine/scenario"
	"schedplay/engine/scenario/scenariotest"
	"schedplay/engine/sim"
)

func TestReplyErrors(t *testing.T) {
	for _, tt := range []struct {
		r    Reply
		want string // first error as path: message
		n    int
	}{
		{Reply{Status: 400, Body: `{"error":{"message":"out of range","path":"policy.hz"},"errors":[{"path":"policy.hz","message":"out of range"},{"path":"run.reps","message":"too many"}]}`}, "policy.hz: out of range", 2},
		{Reply{Status: 422, Body: `{"error":{"message":"simulation failed: budget"}}`}, "simulation failed: budget", 1},
		{Reply{Status: 500, Body: `{"error":"boom"}`}, "boom", 1},
		{Reply{Status: 0, Body: ""}, "the engine did not answer", 1},
		{Reply{Status: 502, Body: "<html>bad gateway</html>"}, "<html>bad gateway</html>", 1},
		{Reply{Status: 499, Cancelled: true, Body: `{"error":{"message":"cancelled"}}`}, "cancelled", 1},
		{Reply{Status: 0, Body: strings.Repeat("x", 400)}, strings.Repeat("x", 300) + "…", 1},
	} {
		if got := tt.r.ErrorText(); got != tt.want {
			t.Errorf("ErrorText(%.60q) = %q; want %q", tt.r.Body, got, tt.want)
		}
		if n := len(tt.r.Errors()); n != tt.n {
			t.Errorf("Errors(%.60q) has %d; want %d", tt.r.Body, n, tt.n)
		}
		if tt.r.OK() {
			t.Errorf("%d reply is OK", tt.r.Status)
		}
	}
	if !(Reply{Status: 200}).OK() {
		t.Error("200 is not OK")
	}
}

func TestRequestBodies(t *testing.T) {
	o, _ := scenario.ParseSet("policy.preset=misfit")
	var sim struct {
		Scenario map[string]any `json:"scenario"`
		Set      []struct {
			Path  string          `json:"path"`
			Value json.RawMessage `json:"value"`
		} `json:"set"`
		Timeline bool `json:"timeline"`
	}
	if err := json.Unmarshal([]byte(SimulateBody([]byte(`{"schedplay":1}`), []scenario.Override{o}, true)), &sim); err != nil {
		t.Fatal(err)
	}
	if !sim.Timeline || len(sim.Set) != 1 || sim.Set[0].Path != "policy.preset" || string(sim.Set[0].Value) != `"misfit"` || sim.Scenario["schedplay"] != float64(1) {
		t.Errorf("simulate body = %+v", sim)
	}
	var cmp struct {
		A, B compare.Side
		Vary string
	}
	body := CompareBody([]byte(`{"schedplay":1}`), compare.PolicySide("misfit"), compare.Side{Label: "two", Set: []scenario.Override{o}}, "run.reps=3")
	if err := json.Unmarshal([]byte(body), &cmp); err != nil {
		t.Fatal(err)
	}
	if cmp.A.Label != "misfit" || string(cmp.A.Set[0].Value) != `"misfit"` || cmp.B.Label != "two" || cmp.Vary != "run.reps=3" {
		t.Errorf("compare body = %s", body)
	}
	if strings.Contains(CompareBody(nil, compare.Side{}, compare.Side{}, ""), "vary") {
		t.Error("an empty vary is sent")
	}
}

func TestShortLabel(t *testing.T) {
	if ShortLabel("cpu12·c12·PE0") != "cpu12 PE0" || ShortLabel("cpu3·c3") != "cpu3" || ShortLabel("cores 0–3") != "cores 0–3" {
		t.Error("ShortLabel")
	}
}

func TestDecisionSummary(t *testing.T) {
	d := sim.Decision{Kind: "wakeup", Path: []string{"select_task_rq_fair", "select_idle_sibling: prev idle"}}
	if got := DecisionSummary(d); got != "wakeup: select_idle_sibling: prev idle" {
		t.Errorf("DecisionSummary = %q", got)
	}
	if got := DecisionSummary(sim.Decision{Kind: "fork"}); got != "fork" {
		t.Errorf("DecisionSummary without a path = %q", got)
	}
}

// TestDecodeValidated: a validate reply of the real handler reads back as
// the resolved scenario the engine validated, its document and share; a
// refusal reads as its errors.
func TestDecodeValidated(t *testing.T) {
	r := scenariotest.Resolve(t, `{"schedplay": 1, "preset": "vera-sgemm-nvpl"}`)
	body, _ := json.Marshal(map[string]any{"valid": true, "scenario": json.RawMessage(`{"preset":"vera-sgemm-nvpl","schedplay":1}`), "resolved": r, "share": "s=abc"})
	v, err := DecodeValidated(Reply{Status: 200, Body: string(body)})
	if err != nil {
		t.Fatal(err)
	}
	if v.Doc.Preset != "vera-sgemm-nvpl" || v.Share != "abc" || v.Resolved.Machine.NumCPUs() != 352 || v.Resolved.Name != r.Name {
		t.Errorf("decoded %+v", v)
	}
	if _, err := DecodeValidated(Reply{Status: 422, Body: `{"error":{"message":"over budget","path":"machine.distances","budget":"domains"}}`}); err == nil || !strings.Contains(err.Error(), "machine.distances: over budget") {
		t.Errorf("refusal: %v", err)
	}
}

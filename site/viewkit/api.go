package viewkit

import (
	"encoding/json"
	"strings"

	"schedplay/engine/compare"
	"schedplay/engine/scenario"
	"schedplay/engine/sim"
)

// Reply is what the engine worker answered to one request.
type Reply struct {
	Status int
	Body   string
	// Cancelled is true when the request was cancelled (engineCancel).
	Cancelled bool
	Ms        float64
}

// OK reports a 200 reply.
func (r Reply) OK() bool { return r.Status == 200 && !r.Cancelled }

// apiErr is one {"path", "message"} of an API error body.
type apiErr struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// Errors reads the located errors of a failed reply: the API's "errors"
// list, else its "error" object or string, else the body's text. The
// result is never empty for a failed reply.
func (r Reply) Errors() scenario.ErrorList {
	if r.Cancelled {
		return scenario.ErrorList{{Msg: "cancelled"}}
	}
	var body struct {
		Error  json.RawMessage `json:"error"`
		Errors []apiErr        `json:"errors"`
	}
	var out scenario.ErrorList
	if json.Unmarshal([]byte(r.Body), &body) == nil {
		for _, e := range body.Errors {
			out = append(out, &scenario.Error{Path: e.Path, Msg: e.Message})
		}
		if len(out) > 0 {
			return out
		}
		var one apiErr
		if json.Unmarshal(body.Error, &one) == nil && one.Message != "" {
			return scenario.ErrorList{{Path: one.Path, Msg: one.Message}}
		}
		var s string
		if json.Unmarshal(body.Error, &s) == nil && s != "" {
			return scenario.ErrorList{{Msg: s}}
		}
	}
	msg := strings.TrimSpace(r.Body)
	if len(msg) > 300 {
		msg = msg[:300] + "…"
	}
	if msg == "" {
		msg = "the engine did not answer"
	}
	return scenario.ErrorList{{Msg: msg}}
}

// ErrorText is the first error as "path: message" (or the message).
func (r Reply) ErrorText() string {
	e := r.Errors()[0]
	if e.Path != "" {
		return e.Path + ": " + e.Msg
	}
	return e.Msg
}

// DecodeResult reads a simulate reply (sim.DecodeResult: the timeline's
// interval arrays skip encoding/json, which is slow on them under wasm).
func DecodeResult(body string) (*sim.Result, error) { return sim.DecodeResult([]byte(body)) }

// SimulateBody is a POST /api/v1/simulate request for a scenario document
// with overrides (applied in order, as --set) and, when timeline is set,
// repetition 0's timeline.
func SimulateBody(doc []byte, sets []scenario.Override, timeline bool) string {
	req := struct {
		Scenario json.RawMessage     `json:"scenario"`
		Set      []scenario.Override `json:"set,omitempty"`
		Timeline bool                `json:"timeline,omitempty"`
	}{doc, sets, timeline}
	b, _ := json.Marshal(req)
	return string(b)
}

// CompareBody is a POST /api/v1/compare request for two sides (a policy
// side is compare.PolicySide(name)); vary, when not empty, is
// "path=v1,v2,…", applied after each side's overrides as `--vary` is.
func CompareBody(doc []byte, a, b compare.Side, vary string) string {
	req := struct {
		Scenario json.RawMessage `json:"scenario"`
		A        compare.Side    `json:"a"`
		B        compare.Side    `json:"b"`
		Vary     string          `json:"vary,omitempty"`
	}{doc, a, b, vary}
	out, _ := json.Marshal(req)
	return string(out)
}

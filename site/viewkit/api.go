package viewkit

import (
	"encoding/json"
	"fmt"
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

// Validated is what POST /api/v1/validate answers for a valid scenario:
// the document (canonical, presets kept), its resolved form and its share
// fragment. The views get it from the engine worker, so that a link's
// decoding, validation and topology build never run on the page's main
// thread (issue 17).
type Validated struct {
	Doc      *scenario.Scenario
	Resolved *scenario.Resolved
	// Canonical is Doc's canonical JSON, Share its payload (after "s=").
	Canonical []byte
	Share     string
}

// DecodeValidated reads a validate reply: a valid scenario, or its
// located errors (a 422 refusal of the budget's included).
func DecodeValidated(r Reply) (Validated, error) {
	if !r.OK() {
		return Validated{}, r.Errors()
	}
	var body struct {
		Scenario json.RawMessage    `json:"scenario"`
		Resolved *scenario.Resolved `json:"resolved"`
		Share    string             `json:"share"`
	}
	if err := json.Unmarshal([]byte(r.Body), &body); err != nil || body.Resolved == nil {
		return Validated{}, scenario.ErrorList{{Msg: fmt.Sprintf("the engine's validation could not be read (%v)", err)}}
	}
	doc, err := scenario.Decode(body.Scenario)
	if err != nil {
		return Validated{}, err
	}
	return Validated{Doc: doc, Resolved: body.Resolved, Canonical: body.Scenario, Share: strings.TrimPrefix(body.Share, "s=")}, nil
}

// ValidateBody is a POST /api/v1/validate request for a scenario given by
// reference: a share link or fragment ("#s=…", "s=…") or a scenario preset
// name, decoded by the engine.
func ValidateBody(ref string) string {
	b, _ := json.Marshal(struct {
		Scenario string `json:"scenario"`
	}{ref})
	return string(b)
}

// LinkMark and LinkDoneMark are the performance marks a view sets where
// it starts on the address's scenario (its link), after its boot
// (StartLink), and where it has the engine's answer on it (EndLink),
// before it draws: the hostile-link test (issue 17) checks the main
// thread's long tasks between the two.
const (
	LinkMark     = "schedplay:link"
	LinkDoneMark = "schedplay:link-done"
)

package stepview

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/presets"
	"schedplay/site"
)

// MaxSteps is the endpoint's limit (site/api.MaxStepSteps); the machine's
// is site.MaxStepCPUs.
const MaxSteps = 200_000

// Request is what the address asks the step view for.
type Request struct {
	// Preset is ?preset=NAME, Share the #s= payload (Share wins).
	Preset, Share string
	// Steps is ?n=N: the number of events to start at (0 = the start).
	Steps int
}

// Wanted reports whether the address opens the step view: ?step=1, and
// neither the embed nor the compare view.
func Wanted(search string) bool {
	q, err := url.ParseQuery(strings.TrimPrefix(search, "?"))
	return err == nil && q.Get("step") == "1" && q.Get("embed") != "1" && !q.Has("compare")
}

// ParseURL reads the request from location.search and location.hash.
func ParseURL(search, hash string) (Request, error) {
	q, err := url.ParseQuery(strings.TrimPrefix(search, "?"))
	if err != nil {
		return Request{}, fmt.Errorf("the address's query cannot be read: %v", err)
	}
	r := Request{Preset: q.Get("preset")}
	for _, part := range strings.Split(strings.TrimPrefix(hash, "#"), "&") {
		if v, ok := strings.CutPrefix(part, "s="); ok {
			r.Share = v
		}
	}
	if n := q.Get("n"); n != "" {
		v, err := strconv.Atoi(n)
		if err != nil || v < 0 || v > MaxSteps {
			return r, fmt.Errorf("?n=%s: the event to start at must be a whole number from 0 to %d", n, MaxSteps)
		}
		r.Steps = v
	}
	if r.Share == "" && r.Preset == "" {
		return r, errors.New("no scenario: add #s=… (a share link) or ?preset=NAME")
	}
	return r, nil
}

// Load returns the scenario the request names.
func (r Request) Load(ps *presets.Set) (*scenario.Scenario, error) {
	return scenario.FromReference(r.Ref(), ps)
}

// Ref is the request's scenario as a reference scenario.FromReference (and
// the API's "scenario" string) reads: its share fragment, else its preset.
func (r Request) Ref() string {
	if r.Share != "" {
		return "s=" + r.Share
	}
	return r.Preset
}

// Link is the address of the step view at n events for a share payload.
func Link(base string, n int, share string) string {
	u := base + "?step=1"
	if n > 0 {
		u += "&n=" + strconv.Itoa(n)
	}
	return u + "#s=" + share
}

// MachineCPUs counts a resolved machine's CPUs and says politely when
// step mode cannot show it.
func MachineCPUs(r *scenario.Resolved) (int, error) {
	n := r.Machine.NumCPUs()
	return n, site.StepRefusal(n)
}

// Body is a POST /api/v1/step request: the scenario document and the
// number of events to replay.
func Body(doc []byte, steps int) string {
	b, _ := json.Marshal(struct {
		Scenario json.RawMessage `json:"scenario"`
		Steps    int             `json:"steps"`
	}{doc, steps})
	return string(b)
}

// DecodeReply reads a step reply.
func DecodeReply(body string) (*sim.StepReply, error) {
	var r sim.StepReply
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// Next is the event count an action asks for from n: "step" n+1, "step10"
// n+10, "back" n−1, "reset" 0, clamped to 0..MaxSteps.
func Next(n int, action string) int {
	switch action {
	case "step":
		n++
	case "step10":
		n += 10
	case "back":
		n--
	case "reset":
		n = 0
	}
	return min(max(n, 0), MaxSteps)
}

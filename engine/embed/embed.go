// Package embed is the postMessage protocol of the playground's ?embed=1
// view (docs/embed.md), as pure Go the page calls: parse a host page's
// message, check its origin, build the replies, and build the iframe
// snippet the "Embed" button copies. The page owns the DOM and the
// window.postMessage calls; everything that decides lives here, tested
// natively.
package embed

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/url"
	"strconv"
	"strings"

	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/presets"
)

// Version is the protocol version sent in schedplay:ready.
const Version = 1

// Message types (host → embed, then embed → host).
const (
	TypeSet      = "schedplay:set"
	TypeRun      = "schedplay:run"
	TypePing     = "schedplay:ping"
	TypeReady    = "schedplay:ready"
	TypeAck      = "schedplay:ack"
	TypeProgress = "schedplay:progress"
	TypeResult   = "schedplay:result"
	TypeError    = "schedplay:error"
)

// MaxMessageBytes bounds a host message's JSON (the API's body limit order).
const MaxMessageBytes = 1 << 20

// Message is a host page's request.
type Message struct {
	Type string `json:"type"`
	// ID is echoed in every reply to this message (any JSON value).
	ID json.RawMessage `json:"id,omitempty"`
	// Scenario (set) is a scenario document object, or a string: a
	// scenario preset name or a share link.
	Scenario json.RawMessage `json:"scenario,omitempty"`
	// Set (set) are overrides applied in order, "path=value" strings.
	Set []string `json:"set,omitempty"`
	// Run (set) runs the new scenario at once, as a run message would.
	Run bool `json:"run,omitempty"`
}

// ErrNotOurs marks data that is not a schedplay message (another script's
// postMessage traffic): the page ignores it silently.
var ErrNotOurs = errors.New("embed: not a schedplay message")

// ParseMessage decodes a host message (JSON.stringify of event.data). It
// returns ErrNotOurs for anything whose "type" does not start with
// "schedplay:", and an error naming the problem for a malformed schedplay
// message (to be answered with schedplay:error).
func ParseMessage(data []byte) (Message, error) {
	var probe struct {
		Type any `json:"type"`
	}
	if json.Unmarshal(data, &probe) != nil {
		return Message{}, ErrNotOurs
	}
	t, ok := probe.Type.(string)
	if !ok || !strings.HasPrefix(t, "schedplay:") {
		return Message{}, ErrNotOurs
	}
	var m Message
	if len(data) > MaxMessageBytes {
		return Message{Type: t}, fmt.Errorf("message is %d bytes; the limit is %d", len(data), MaxMessageBytes)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return Message{Type: t}, fmt.Errorf("malformed %s message: %v", t, err)
	}
	switch m.Type {
	case TypeSet:
		if len(m.Scenario) == 0 || string(m.Scenario) == "null" {
			return m, errors.New("schedplay:set needs a scenario (an object, a preset name or a share link)")
		}
	case TypeRun, TypePing:
	default:
		return m, fmt.Errorf("unknown message type %q (want %s, %s or %s)", m.Type, TypeSet, TypeRun, TypePing)
	}
	return m, nil
}

// ScenarioDoc turns a set message's scenario into a document: an object is
// decoded strictly, a string is a preset name or share link
// (scenario.FromReference); then the message's "set" overrides are applied
// in order (scenario.Apply). Errors are scenario errors with paths.
func (m Message) ScenarioDoc(ps *presets.Set) (*scenario.Scenario, error) {
	var sc *scenario.Scenario
	var err error
	if raw := strings.TrimSpace(string(m.Scenario)); strings.HasPrefix(raw, "\"") {
		var ref string
		if err := json.Unmarshal(m.Scenario, &ref); err != nil {
			return nil, err
		}
		sc, err = scenario.FromReference(ref, ps)
	} else {
		sc, err = scenario.Decode(m.Scenario)
	}
	if err != nil || len(m.Set) == 0 {
		return sc, err
	}
	sets := make([]scenario.Override, 0, len(m.Set))
	for i, s := range m.Set {
		o, err := scenario.ParseSet(s)
		if err != nil {
			return nil, scenario.ErrorList{{Path: fmt.Sprintf("set[%d]", i), Msg: err.Error()}}
		}
		sets = append(sets, o)
	}
	return scenario.Apply(sc, ps, sets)
}

// OriginAllowed reports whether a message from origin may be answered.
// parent is the embed URL's "parent" parameter: empty accepts any origin
// (the embed is read-only and computes in the visitor's browser; replies
// go only to the asking origin), else only that exact origin is accepted.
// An opaque parent (a file: page, "null") cannot be told apart from other
// opaque origins: it accepts the opaque origin "null" that its messages
// carry (the frame still answers only window.parent).
func OriginAllowed(origin, parent string) bool {
	switch {
	case parent == "":
		return true
	case opaque(parent):
		return opaque(origin)
	}
	return origin == strings.TrimRight(parent, "/")
}

// ReplyTarget is the targetOrigin for a reply to a message from origin:
// the origin itself, or "*" for an opaque origin ("null": sandboxed
// frames, file: pages), which postMessage cannot name.
func ReplyTarget(origin string) string {
	if origin == "" || opaque(origin) {
		return "*"
	}
	return origin
}

// ReadyTarget is the targetOrigin of the schedplay:ready the frame posts
// to its parent on load: the "parent" parameter, or "*" when there is
// none or it is opaque. Chromium gives a file: page's location.origin as
// "file://", and refuses it as a target origin; the message would never
// arrive.
func ReadyTarget(parent string) string {
	if parent == "" || opaque(parent) {
		return "*"
	}
	return strings.TrimRight(parent, "/")
}

// opaque reports whether an origin is one postMessage cannot name: "null"
// (sandboxed frames, file: pages in most browsers) or a file: origin.
func opaque(origin string) bool {
	return origin == "null" || strings.HasPrefix(origin, "file:")
}

// Ready is the schedplay:ready message.
func Ready(scenarioName string) []byte {
	return mustJSON(map[string]any{"type": TypeReady, "version": Version, "scenario": scenarioName})
}

// Ack is the reply to a successful schedplay:set: the scenario's name and
// its playground link.
func Ack(id json.RawMessage, scenarioName, link string) []byte {
	return mustJSON(reply{Type: TypeAck, ID: id, Of: TypeSet, Scenario: scenarioName, Link: link})
}

// Progress is a schedplay:progress message (done in 0..1).
func Progress(id json.RawMessage, done float64) []byte {
	return mustJSON(reply{Type: TypeProgress, ID: id, Done: &done})
}

// Result is the schedplay:result reply: the summary across repetitions
// (sim.Summary, the API's "summary" object), unit, repetition count,
// warnings and the playground link. The timeline is not sent.
func Result(id json.RawMessage, r *sim.Result, link string) []byte {
	sum := r.Summary
	return mustJSON(reply{Type: TypeResult, ID: id, Scenario: r.Scenario, Unit: r.Unit,
		Reps: len(r.Reps), Summary: &sum, Warnings: r.Warnings, Link: link})
}

// Error is the schedplay:error reply. A scenario error (scenario.Error or
// ErrorList) gives the first error's message and path, and every error in
// errors; any other error has an empty path.
func Error(id json.RawMessage, err error) []byte {
	rep := reply{Type: TypeError, ID: id, Message: err.Error()}
	var l scenario.ErrorList
	var e *scenario.Error
	switch {
	case errors.As(err, &l) && len(l) > 0:
		rep.Message, rep.Path = l[0].Msg, l[0].Path
		rep.Errors = l
	case errors.As(err, &e):
		rep.Message, rep.Path = e.Msg, e.Path
		rep.Errors = scenario.ErrorList{e}
	}
	if rep.Errors == nil {
		rep.Errors = scenario.ErrorList{{Msg: rep.Message}}
	}
	return mustJSON(rep)
}

// reply is every embed → host message; unused fields are left out.
type reply struct {
	Type     string             `json:"type"`
	ID       json.RawMessage    `json:"id,omitempty"`
	Of       string             `json:"of,omitempty"`
	Scenario string             `json:"scenario,omitempty"`
	Unit     string             `json:"unit,omitempty"`
	Reps     int                `json:"reps,omitempty"`
	Summary  *sim.Summary       `json:"summary,omitempty"`
	Warnings []string           `json:"warnings,omitempty"`
	Link     string             `json:"link,omitempty"`
	Done     *float64           `json:"done,omitempty"`
	Message  string             `json:"message,omitempty"`
	Path     string             `json:"path"`
	Errors   scenario.ErrorList `json:"errors,omitempty"`
}

// MarshalJSON leaves "path" out of every reply but schedplay:error.
func (r reply) MarshalJSON() ([]byte, error) {
	type plain reply
	b, err := json.Marshal(plain(r))
	if err != nil || r.Type == TypeError {
		return b, err
	}
	return []byte(strings.Replace(string(b), `,"path":""`, "", 1)), nil
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("embed: " + err.Error()) // only fixed types are marshalled
	}
	return b
}

// EmbedURL is the iframe address of a scenario: base (the playground's
// URL) with ?embed=1 and the share fragment ("s=…").
func EmbedURL(base, fragment string) (string, error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	q := u.Query()
	q.Set("embed", "1")
	u.RawQuery = q.Encode()
	u.Fragment = ""
	return u.String() + "#" + strings.TrimPrefix(fragment, "#"), nil
}

// PlaygroundURL is the "Open in playground" link: base and the fragment,
// without embed.
func PlaygroundURL(base, fragment string) (string, error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	q := u.Query()
	q.Del("embed")
	q.Del("parent")
	u.RawQuery = q.Encode()
	u.Fragment = ""
	return u.String() + "#" + strings.TrimPrefix(fragment, "#"), nil
}

// Snippet is the HTML the "Embed" button copies: an iframe of the
// scenario, sized for a documentation column, titled with the (escaped)
// scenario name.
func Snippet(base, fragment, name string) (string, error) {
	return SnippetWith(base, fragment, name, SnippetOptions{})
}

// SnippetOptions are the Embed dialog's choices: the frame's size (width
// in px, or a percentage such as "100%"; height in px; empty for 800 ×
// 460), no run on load (run=0: the host sends schedplay:run) and the one
// origin whose messages the frame accepts (parent=).
type SnippetOptions struct {
	Width, Height string
	NoRun         bool
	Parent        string
}

// SnippetWith is Snippet with the dialog's options; a size that is not a
// number of pixels (or a width in %) is an error.
func SnippetWith(base, fragment, name string, o SnippetOptions) (string, error) {
	w, h := o.Width, o.Height
	if w == "" {
		w = "800"
	}
	if h == "" {
		h = "460"
	}
	if !size(strings.TrimSuffix(w, "%")) || !size(h) {
		return "", fmt.Errorf("size %s × %s: want pixels (a width may be a percentage)", w, h)
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	q := u.Query()
	if o.NoRun {
		q.Set("run", "0")
	}
	if o.Parent != "" {
		p, err := url.Parse(o.Parent)
		if err != nil || p.Scheme == "" || p.Host == "" {
			return "", fmt.Errorf("parent origin %q: want scheme://host", o.Parent)
		}
		q.Set("parent", p.Scheme+"://"+p.Host)
	}
	u.RawQuery = q.Encode()
	src, err := EmbedURL(u.String(), fragment)
	if err != nil {
		return "", err
	}
	title := "schedplay"
	if name != "" {
		title += ": " + name
	}
	return fmt.Sprintf(`<iframe src="%s" width="%s" height="%s" style="border:0;max-width:100%%" loading="lazy" title="%s"></iframe>`,
		html.EscapeString(src), html.EscapeString(w), html.EscapeString(h), html.EscapeString(title)), nil
}

// size says whether s is a whole number from 1 to 10000.
func size(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n >= 1 && n <= 10000
}

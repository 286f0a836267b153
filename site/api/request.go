package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"

	"schedplay/engine/quote"
	"schedplay/engine/scenario"
	"schedplay/engine/sim"
)

// Request is the body of simulate, compare and validate when it is not a
// bare scenario document (a body is a Request when it has a "scenario" key).
type Request struct {
	// Scenario is a scenario document (object), or a string: a scenario
	// preset name or a share link.
	Scenario json.RawMessage `json:"scenario"`
	// Set are overrides applied in order: "path=value" strings (as --set)
	// or {"path": …, "value": …} objects.
	Set []json.RawMessage `json:"set,omitempty"`
	// Reps and Seed override run.reps and run.seed when given (an explicit
	// "reps": 0 reaches validation, which refuses it at run.reps).
	Reps *int    `json:"reps,omitempty"`
	Seed *uint64 `json:"seed,omitempty"`
	// Timeline asks simulate for repetition 0's timeline: true or "full"
	// with its decision records, "runs" with the run and mode intervals
	// only (a quick first picture).
	Timeline TimelineMode `json:"timeline,omitempty"`
	// Policies names the two policy presets compare runs ("A", "B"); or,
	// instead, A and B give each side as a SideRequest object (read by
	// sides, which names the side in its errors).
	Policies []string        `json:"policies,omitempty"`
	A        json.RawMessage `json:"a,omitempty"`
	B        json.RawMessage `json:"b,omitempty"`
	// Vary is "path=v1,v2,…" for compare: one row set per value, the
	// values split on top-level commas (a JSON list is one value).
	Vary string `json:"vary,omitempty"`

	// preset is the seed scenario the request's scenario starts from.
	preset string
}

// TimelineMode is the request's "timeline" member.
type TimelineMode uint8

const (
	TimelineNone TimelineMode = iota // false or absent
	TimelineFull                     // true or "full": intervals and decisions
	TimelineRuns                     // "runs": intervals only
)

// UnmarshalJSON accepts true, false, "full" and "runs".
func (m *TimelineMode) UnmarshalJSON(b []byte) error {
	switch string(bytes.TrimSpace(b)) {
	case "false", "null":
		*m = TimelineNone
	case "true", `"full"`:
		*m = TimelineFull
	case `"runs"`:
		*m = TimelineRuns
	default:
		return &scenario.Error{Path: "timeline", Msg: `must be true, false, "full" or "runs"`}
	}
	return nil
}

// MarshalJSON writes the mode in the form UnmarshalJSON reads.
func (m TimelineMode) MarshalJSON() ([]byte, error) {
	switch m {
	case TimelineFull:
		return []byte("true"), nil
	case TimelineRuns:
		return []byte(`"runs"`), nil
	}
	return []byte("false"), nil
}

// output is the cost model's view of the mode.
func (m TimelineMode) output() scenario.Output {
	return scenario.Output{Timeline: m != TimelineNone, Decisions: m == TimelineFull}
}

// options is the simulator's view of the mode.
func (m TimelineMode) options() sim.Options {
	return sim.Options{Timeline: m != TimelineNone, NoDecisions: m == TimelineRuns}
}

// statusError is an error with the HTTP status to reply with.
type statusError struct {
	status int
	err    error
}

func (e *statusError) Error() string { return e.err.Error() }
func (e *statusError) Unwrap() error { return e.err }

func badRequest(err error) error { return &statusError{http.StatusBadRequest, err} }

// readBody reads the request body within the size limit, dropping a body
// that pauses longer than BodyIdleTimeout between reads or outlives the
// request's deadline, and checks that it is strict JSON (UTF-8, no
// duplicate key anywhere, the wrapper included).
func (s *server) readBody(ctx context.Context, w http.ResponseWriter, r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(s.bodyReader(ctx, w, http.MaxBytesReader(w, r.Body, s.maxBody)))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return nil, &statusError{http.StatusRequestEntityTooLarge, &scenario.Error{Msg: fmt.Sprintf("request body is larger than the limit of %d bytes", mbe.Limit)}}
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		return nil, badRequest(&scenario.Error{Msg: "reading the request body: " + err.Error()})
	case len(bytes.TrimSpace(body)) == 0:
		return nil, badRequest(&scenario.Error{Msg: "empty request body; send a scenario document ({\"schedplay\": 1, …}) or {\"scenario\": …}"})
	}
	if _, err := scenario.ParseJSON(body); err != nil {
		return nil, badRequest(err)
	}
	return body, nil
}

// bodyReader reads body (the request's, perhaps size-limited) within the
// body's idle and total timeouts and the request's deadline ctx.
func (s *server) bodyReader(ctx context.Context, w http.ResponseWriter, body io.Reader) *idleReader {
	return &idleReader{r: body, rc: http.NewResponseController(w), ctx: ctx, idle: s.bodyIdle, end: time.Now().Add(s.bodyRead)}
}

// idleReader sets a read deadline before each read of a request body: the
// soonest of idle from now, the end of the body's time and the request's
// deadline. Runtimes without deadlines (the Workers) hand the body over
// whole.
type idleReader struct {
	r    io.Reader
	rc   *http.ResponseController
	ctx  context.Context
	idle time.Duration
	end  time.Time
}

func (i *idleReader) Read(p []byte) (int, error) {
	if i.rc != nil {
		d := time.Now().Add(i.idle)
		if i.end.Before(d) {
			d = i.end
		}
		if dl, ok := i.ctx.Deadline(); ok && dl.Before(d) {
			d = dl
		}
		if i.rc.SetReadDeadline(d) != nil {
			i.rc = nil // not supported here
		}
	}
	return i.r.Read(p)
}

// readRequest reads and parses the body: either a bare scenario document or
// a Request. It returns the scenario with the request's overrides applied.
func (s *server) readRequest(ctx context.Context, w http.ResponseWriter, r *http.Request) (*scenario.Scenario, *Request, error) {
	body, err := s.readBody(ctx, w, r)
	if err != nil {
		return nil, nil, err
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil || top["scenario"] == nil {
		doc, err := scenario.Decode(body)
		if err != nil {
			return nil, nil, badRequest(err)
		}
		return doc, &Request{preset: doc.Preset}, nil
	}
	req := &Request{}
	if err := decodeStrict(body, req); err != nil {
		return nil, nil, badRequest(requestFieldError(err))
	}
	if err := s.profile.CheckOverrides("set", len(req.Set)); err != nil {
		return nil, nil, err
	}
	doc, err := s.scenarioOf(req.Scenario)
	if err != nil {
		return nil, nil, badRequest(prefixPaths("scenario", err))
	}
	req.preset = doc.Preset
	sets, err := req.overrides()
	if err != nil {
		return nil, nil, badRequest(err)
	}
	doc, err = scenario.ApplyContext(ctx, doc, s.ps, sets)
	if err != nil {
		return nil, nil, asBadRequest(err)
	}
	return doc, req, nil
}

// asBadRequest is badRequest for scenario errors; a context's error (the
// deadline, a closed connection) keeps its own reply.
func asBadRequest(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return badRequest(err)
}

// scenarioOf reads the "scenario" member: an object or a reference string.
func (s *server) scenarioOf(raw json.RawMessage) (*scenario.Scenario, error) {
	var ref string
	if json.Unmarshal(raw, &ref) == nil {
		return scenario.FromReference(ref, s.ps)
	}
	return scenario.Decode(raw)
}

// overrides returns the request's set list plus its reps and seed.
func (req *Request) overrides() ([]scenario.Override, error) {
	out, err := overrideList("set", req.Set)
	if err != nil {
		return nil, err
	}
	if req.Reps != nil {
		out = append(out, scenario.Override{Path: "run.reps", Value: json.RawMessage(strconv.Itoa(*req.Reps))})
	}
	if req.Seed != nil {
		out = append(out, scenario.Override{Path: "run.seed", Value: json.RawMessage(strconv.FormatUint(*req.Seed, 10))})
	}
	return out, nil
}

// overrideList reads a list of overrides, each a "path=value" string (as
// --set) or a {"path": …, "value": …} object; field names the list in
// errors ("set", "b.set").
func overrideList(field string, raws []json.RawMessage) ([]scenario.Override, error) {
	var out []scenario.Override
	for i, raw := range raws {
		path := fmt.Sprintf("%s[%d]", field, i)
		var str string
		if json.Unmarshal(raw, &str) == nil {
			o, err := scenario.ParseSet(str)
			if err != nil {
				return nil, prefixPaths(path, err)
			}
			out = append(out, o)
			continue
		}
		var o scenario.Override
		if err := decodeStrict(raw, &o); err != nil || o.Path == "" || len(o.Value) == 0 {
			return nil, &scenario.Error{Path: path, Msg: "must be \"path=value\" or {\"path\": …, \"value\": …}"}
		}
		out = append(out, o)
	}
	return out, nil
}

// prefixPaths puts prefix in front of every error path, keeping the
// scenario's own paths recognisable ("scenario.policy.hz" would mislead, so
// only request-level errors get it when they have no path).
func prefixPaths(prefix string, err error) error {
	l := scenario.Errors(err)
	out := make(scenario.ErrorList, len(l))
	for i, e := range l {
		p := e.Path
		if p == "" {
			p = prefix
		} else if prefix != "scenario" {
			p = prefix + ": " + p
		}
		out[i] = &scenario.Error{Path: p, Msg: e.Msg}
	}
	return out
}

// requestFieldError turns an encoding/json error on the Request into a
// located error.
func requestFieldError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if f, ok := strings.CutPrefix(msg, "unknown field "); ok {
		return &scenario.Error{Path: quote.Prefix(strings.Trim(f, `"`), quote.MaxBytes), Msg: "unknown request field; a request has scenario, set, reps, seed, timeline, policies, a, b, vary"}
	}
	var se *scenario.Error
	if errors.As(err, &se) {
		return se
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return typeError(te.Field, te)
	}
	return &scenario.Error{Msg: "invalid request: " + msg}
}

// decodeStrict decodes the first JSON value of b into v, refusing fields
// v does not have.
func decodeStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// typeError locates at path a JSON value of the wrong type, naming the
// type expected in JSON terms.
func typeError(path string, te *json.UnmarshalTypeError) *scenario.Error {
	return &scenario.Error{Path: path, Msg: "must be " + jsonType(te.Type) + ", not a JSON " + te.Value}
}

// jsonType names what a Go type reads from JSON, for messages that must
// not leak Go type names.
func jsonType(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number ≥ 0"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a JSON value"
}

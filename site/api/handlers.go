package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"schedplay/engine/compare"
	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/presets"
)

// replyError sends err with its status: a statusError's own, 400 for
// scenario errors, 422 for a simulation that failed.
func replyError(w http.ResponseWriter, err error) {
	var se *statusError
	if errors.As(err, &se) {
		writeError(w, se.status, se.err)
		return
	}
	if errors.Is(err, context.DeadlineExceeded) {
		writeError(w, http.StatusServiceUnavailable, &scenario.Error{Msg: "the simulation ran out of time on this server; run it locally with `schedplay run` or make it smaller"})
		return
	}
	var l scenario.ErrorList
	var e *scenario.Error
	if errors.As(err, &l) || errors.As(err, &e) {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	writeError(w, http.StatusUnprocessableEntity, &scenario.Error{Msg: "simulation failed: " + err.Error()})
}

// presetsReply is the body of GET /api/v1/presets.
type presetsReply struct {
	Presets []presets.Preset `json:"presets"`
}

func (s *server) handlePresets(w http.ResponseWriter, r *http.Request) {
	var all []presets.Preset
	if s.ps != nil {
		all = s.ps.All()
	}
	if all == nil {
		all = []presets.Preset{}
	}
	writeJSON(w, http.StatusOK, presetsReply{Presets: all})
}

// Simulate resolves the scenario and runs it: the handler's core, shared
// with `schedplay run --json` through RunJSON.
func (s *server) handleSimulate(w http.ResponseWriter, r *http.Request) {
	doc, req, err := s.readRequest(w, r)
	if err != nil {
		replyError(w, err)
		return
	}
	t0 := time.Now()
	res, err := s.simulate(r, doc, req)
	if err != nil {
		replyError(w, err)
		return
	}
	t1 := time.Now()
	b, err := Marshal(res)
	if err != nil {
		writeInternal(w, fmt.Errorf("encoding the reply: %w", err))
		return
	}
	// Where the time went, for the browser's network panel and the
	// playground's measurements (the simulation itself uses no clock).
	w.Header().Set("Server-Timing", fmt.Sprintf("sim;dur=%.1f, encode;dur=%.1f", ms(t1.Sub(t0)), ms(time.Since(t1))))
	writeBytes(w, http.StatusOK, b)
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func (s *server) simulate(r *http.Request, doc *scenario.Scenario, req *Request) (*sim.Result, error) {
	rs, err := scenario.Resolve(doc, s.ps)
	if err != nil {
		return nil, err
	}
	ctx, cancel := s.context(r)
	defer cancel()
	return s.run(ctx, rs, req.Timeline.options())
}

// context is the request's context, bounded by the server's timeout.
func (s *server) context(r *http.Request) (context.Context, context.CancelFunc) {
	if s.timeout > 0 {
		return context.WithTimeout(r.Context(), s.timeout)
	}
	return context.WithCancel(r.Context())
}

// compareReply is the body of POST /api/v1/compare.
type compareReply struct {
	Table *compare.Table `json:"table"`
	// Text is the table rendered for an email (compare.WriteText).
	Text string `json:"text"`
}

func (s *server) handleCompare(w http.ResponseWriter, r *http.Request) {
	doc, req, err := s.readRequest(w, r)
	if err != nil {
		replyError(w, err)
		return
	}
	spec := compare.Spec{Scenario: doc, Presets: s.ps}
	if spec.A, spec.B, err = s.sides(req); err != nil {
		replyError(w, badRequest(err))
		return
	}
	if req.Vary != "" {
		// compare.Run refuses a vary that would erase the comparison.
		if spec.Vary, spec.Values, err = compare.ParseVary(req.Vary); err != nil {
			replyError(w, badRequest(&scenario.Error{Path: "vary", Msg: err.Error()}))
			return
		}
	}
	ctx, cancel := s.context(r)
	defer cancel()
	t, err := compare.Run(ctx, s.run, spec)
	if err != nil {
		replyError(w, err)
		return
	}
	var text bytes.Buffer
	compare.WriteText(&text, t)
	writeJSON(w, http.StatusOK, compareReply{Table: t, Text: text.String()})
}

// validateReply is the body of a successful POST /api/v1/validate.
type validateReply struct {
	Valid bool `json:"valid"`
	// Scenario is the canonical document (presets kept); Resolved every
	// preset expanded and every default filled.
	Scenario json.RawMessage    `json:"scenario"`
	Resolved *scenario.Resolved `json:"resolved"`
	// Share is the share fragment ("s=…") of Scenario.
	Share string `json:"share"`
	// EventsPerRep is the event-budget estimate of one repetition.
	EventsPerRep float64 `json:"events_per_rep"`
}

func (s *server) handleValidate(w http.ResponseWriter, r *http.Request) {
	doc, rs, err := s.readResolved(w, r)
	if err != nil {
		replyError(w, err)
		return
	}
	enc, err := scenario.Encode(doc)
	if err != nil {
		replyError(w, err)
		return
	}
	share, err := scenario.EncodeShare(doc)
	if err != nil {
		replyError(w, err)
		return
	}
	n := rs.Machine.NumCPUs()
	writeJSON(w, http.StatusOK, validateReply{Valid: true, Scenario: enc, Resolved: rs,
		Share: "s=" + share, EventsPerRep: float64(int64(scenario.EstimateEvents(rs, n)))})
}

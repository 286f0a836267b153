package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"schedplay/engine/budget"
	"schedplay/engine/compare"
	"schedplay/engine/scenario"
	"schedplay/presets"
)

// replyError sends err with its status: a statusError's own, 422 for a
// request over its budget, 503 (Retry-After) when the server is busy or
// the request ran out of time, 400 for scenario errors, 422 for a
// simulation that failed.
func (s *server) replyError(w http.ResponseWriter, err error) {
	var se *statusError
	var be *budget.Error
	switch {
	case errors.As(err, &se):
		writeError(w, se.status, se.err)
	case errors.As(err, &be):
		writeBudgetError(w, be)
	case errors.Is(err, errBusy):
		w.Header().Set("Retry-After", strconv.Itoa(s.admit.retryAfter()))
		writeError(w, http.StatusServiceUnavailable, &scenario.Error{Msg: errBusy.Error() + "; retry later, or run it locally with `schedplay run`"})
	case errors.Is(err, context.DeadlineExceeded):
		writeError(w, http.StatusServiceUnavailable, &scenario.Error{Msg: fmt.Sprintf("the request ran out of time on this server (its deadline is %s); run it locally with `schedplay run` or make it smaller", s.profile.Deadline)})
	case errors.Is(err, context.Canceled):
		writeError(w, http.StatusServiceUnavailable, &scenario.Error{Msg: "the request was cancelled (the client went away or the server is stopping)"})
	default:
		var l scenario.ErrorList
		var e *scenario.Error
		if errors.As(err, &l) || errors.As(err, &e) {
			writeError(w, http.StatusBadRequest, err)
			return
		}
		writeError(w, http.StatusUnprocessableEntity, &scenario.Error{Msg: "simulation failed: " + err.Error()})
	}
}

// endpoint runs h under the request's one deadline (begin) and replies
// with the error h returns, if any.
func (s *server) endpoint(h func(ctx context.Context, w http.ResponseWriter, r *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := s.begin(r)
		defer cancel()
		if err := h(ctx, w, r); err != nil {
			s.replyError(w, err)
		}
	}
}

// bounded runs an extra endpoint (WithEndpoint) under the bounds of the
// API's own: the request's one deadline (begin, in the request's
// context), a slot of the admission control for its memory, taken before
// the body is read (an extra endpoint may read a body far larger than a
// scenario), and the body's idle and total timeouts.
func (s *server) bounded(e extraEndpoint) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := s.begin(r)
		defer cancel()
		release, err := s.admit.acquire(ctx, e.memory)
		if err != nil {
			s.replyError(w, err)
			return
		}
		defer release()
		r = r.WithContext(ctx)
		r.Body = timedBody{s.bodyReader(ctx, w, r.Body), r.Body}
		e.h.ServeHTTP(w, r)
	}
}

// timedBody is a request body read through an idleReader.
type timedBody struct {
	io.Reader
	io.Closer
}

// begin is the request's one deadline: the profile's, from its first byte
// to its reply, and the client's (a closed connection cancels it).
func (s *server) begin(r *http.Request) (context.Context, context.CancelFunc) {
	if s.profile.Deadline <= 0 {
		return context.WithCancel(r.Context())
	}
	d := time.Now().Add(s.profile.Deadline)
	ctx, cancel := context.WithDeadline(r.Context(), d)
	return clockContext{ctx, d}, cancel
}

// clockContext is a context whose Err also reads the clock: a wasm runtime
// runs one goroutine at a time and cannot fire the deadline's timer while
// the simulator runs, but the simulator asks Err now and then.
type clockContext struct {
	context.Context
	deadline time.Time
}

func (c clockContext) Err() error {
	if err := c.Context.Err(); err != nil {
		return err
	}
	if !time.Now().Before(c.deadline) {
		return context.DeadlineExceeded
	}
	return nil
}

// resolve prepares doc under the profile (its cost checked before anything
// expensive), waits for admission with its estimated memory, then builds
// its topology. release gives the admission back.
func (s *server) resolve(ctx context.Context, doc *scenario.Scenario, out scenario.Output) (*scenario.Resolved, func(), error) {
	b := scenario.Budget{Profile: s.profile, Output: out}
	rs, err := scenario.Prepare(ctx, doc, s.ps, b)
	if err != nil {
		return nil, nil, err
	}
	cost := scenario.CostOf(rs, b)
	if err := s.charge(ctx, cost); err != nil {
		return nil, nil, err
	}
	release, err := s.admit.acquire(ctx, cost.Memory)
	if err != nil {
		return nil, nil, err
	}
	if _, err := rs.Topology(ctx); err != nil {
		release()
		return nil, nil, err
	}
	return rs, release, nil
}

// readResolved reads the request (readRequest) and resolves its scenario
// (resolve) with the output it asks for: what simulate, validate and
// topology start with. release gives the admission back.
func (s *server) readResolved(ctx context.Context, w http.ResponseWriter, r *http.Request) (*scenario.Scenario, *Request, *scenario.Resolved, func(), error) {
	doc, req, err := s.readRequest(ctx, w, r)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	rs, release, err := s.resolve(ctx, doc, req.Timeline.output())
	if err != nil {
		return nil, nil, nil, nil, err
	}
	return doc, req, rs, release, nil
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

// handleSimulate resolves the scenario and runs it: the handler's core,
// shared with `schedplay run --json` through Marshal.
func (s *server) handleSimulate(ctx context.Context, w http.ResponseWriter, r *http.Request) error {
	_, req, rs, release, err := s.readResolved(ctx, w, r)
	if err != nil {
		return err
	}
	defer release()
	t0 := time.Now()
	opt := req.Timeline.options()
	opt.TimelineCap, opt.DecisionCap = s.profile.Timeline, s.profile.Decisions
	opt.MaxEvents = s.profile.RepEventCap(rs.Machine.NumCPUs())
	res, err := s.run(ctx, rs, opt)
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return err
	}
	t1 := time.Now()
	b, err := Marshal(res)
	if err != nil {
		writeInternal(w, fmt.Errorf("encoding the reply: %w", err))
		return nil
	}
	// Where the time went, for the browser's network panel and the
	// playground's measurements (the simulation itself uses no clock).
	w.Header().Set("Server-Timing", fmt.Sprintf("sim;dur=%.1f, encode;dur=%.1f", ms(t1.Sub(t0)), ms(time.Since(t1))))
	writeBytes(w, http.StatusOK, b)
	return nil
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// compareReply is the body of POST /api/v1/compare.
type compareReply struct {
	Table *compare.Table `json:"table"`
	// Text is the table rendered for an email (compare.WriteText).
	Text string `json:"text"`
}

func (s *server) handleCompare(ctx context.Context, w http.ResponseWriter, r *http.Request) error {
	doc, req, err := s.readRequest(ctx, w, r)
	if err != nil {
		return err
	}
	spec := compare.Spec{Scenario: doc, Presets: s.ps, Budget: s.profile}
	if spec.A, spec.B, err = s.sides(req); err != nil {
		return badRequest(err)
	}
	if req.Vary != "" {
		// compare.Run refuses a vary that would erase the comparison.
		if spec.Vary, spec.Values, err = compare.ParseVary(req.Vary); err != nil {
			return badRequest(&scenario.Error{Path: "vary", Msg: err.Error()})
		}
	}
	plan, err := compare.NewPlan(ctx, spec)
	if err != nil {
		return err
	}
	release, err := s.admit.acquire(ctx, plan.Cost().Memory)
	if err != nil {
		return err
	}
	defer release()
	t, err := plan.Run(ctx, s.run)
	if err != nil {
		return err
	}
	var text bytes.Buffer
	compare.WriteText(&text, t)
	writeJSON(w, http.StatusOK, compareReply{Table: t, Text: text.String()})
	return nil
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
	// Cost is the estimated cost of simulating it (no timeline) and
	// Budget the name of the profile it was checked against.
	Cost   budget.Cost `json:"cost"`
	Budget string      `json:"budget"`
}

func (s *server) handleValidate(ctx context.Context, w http.ResponseWriter, r *http.Request) error {
	doc, _, rs, release, err := s.readResolved(ctx, w, r)
	if err != nil {
		return err
	}
	defer release()
	enc, err := scenario.Encode(doc)
	if err != nil {
		return err
	}
	share, err := scenario.EncodeShare(doc)
	if err != nil {
		return err
	}
	cost := scenario.CostOf(rs, scenario.Budget{Profile: s.profile})
	writeJSON(w, http.StatusOK, validateReply{Valid: true, Scenario: enc, Resolved: rs,
		Share: "s=" + share, EventsPerRep: float64(int64(cost.EventsPerRep)), Cost: cost, Budget: s.profile.Name})
	return nil
}

package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"schedplay/engine/scenario"
	"schedplay/engine/sim"
)

// Step mode (POST /api/v1/step): the engine keeps no state between
// requests, so a step is a deterministic replay: repetition 0 of the
// scenario from scratch through its first Steps events (sim.Stepper.Next),
// replying with the state after the last one.

// Step limits: the machine's CPUs and the events one request replays.
const (
	MaxStepCPUs  = 64
	MaxStepSteps = 200_000
	stepRecent   = 16 // events of the reply's log
)

func (s *server) handleStep(w http.ResponseWriter, r *http.Request) {
	steps, err := s.stepsOf(w, r)
	if err != nil {
		replyError(w, err)
		return
	}
	_, rs, err := s.readResolved(w, r)
	if err != nil {
		replyError(w, err)
		return
	}
	if n := rs.Machine.NumCPUs(); n > MaxStepCPUs {
		replyError(w, badRequest(&scenario.Error{Path: "machine", Msg: fmt.Sprintf("step mode runs on machines of at most %d CPUs so the runqueues stay readable; this machine has %d (use a smaller machine, or the timeline's explain panel)", MaxStepCPUs, n)}))
		return
	}
	ctx, cancel := s.context(r)
	defer cancel()
	x, err := sim.New(ctx, rs, sim.Options{})
	if err != nil {
		replyError(w, err)
		return
	}
	reply, err := x.Replay(steps, stepRecent)
	if err != nil {
		replyError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, reply)
}

// stepsOf takes "steps" out of a request object (the other members are
// simulate's, read by readRequest from the body stepsOf puts back).
func (s *server) stepsOf(w http.ResponseWriter, r *http.Request) (int, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.maxBody))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return 0, &statusError{http.StatusRequestEntityTooLarge, &scenario.Error{Msg: fmt.Sprintf("request body is larger than the limit of %d bytes", mbe.Limit)}}
	case err != nil:
		return 0, badRequest(&scenario.Error{Msg: "reading the request body: " + err.Error()})
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil || top["scenario"] == nil || top["steps"] == nil {
		return 0, nil
	}
	var steps int
	if err := json.Unmarshal(top["steps"], &steps); err != nil || steps < 0 || steps > MaxStepSteps {
		return 0, badRequest(&scenario.Error{Path: "steps", Msg: fmt.Sprintf("must be a whole number of events from 0 to %d (step mode replays them from the start)", MaxStepSteps)})
	}
	delete(top, "steps")
	rest, err := json.Marshal(top)
	if err != nil {
		return 0, badRequest(&scenario.Error{Msg: "invalid request: " + err.Error()})
	}
	r.Body = io.NopCloser(bytes.NewReader(rest))
	return steps, nil
}

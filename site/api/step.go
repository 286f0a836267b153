package api

import (
	"bytes"
	"context"
	"encoding/json"
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

func (s *server) handleStep(ctx context.Context, w http.ResponseWriter, r *http.Request) error {
	steps, err := s.stepsOf(ctx, w, r)
	if err != nil {
		return err
	}
	doc, _, err := s.readRequest(ctx, w, r)
	if err != nil {
		return err
	}
	b := scenario.Budget{Profile: s.profile}
	rs, err := scenario.Prepare(ctx, doc, s.ps, b)
	if err != nil {
		return err
	}
	if n := rs.Machine.NumCPUs(); n > MaxStepCPUs {
		return badRequest(&scenario.Error{Path: "machine", Msg: fmt.Sprintf("step mode runs on machines of at most %d CPUs so the runqueues stay readable; this machine has %d (use a smaller machine, or the timeline's explain panel)", MaxStepCPUs, n)})
	}
	release, err := s.admit.acquire(ctx, scenario.CostOf(rs, b).Memory)
	if err != nil {
		return err
	}
	defer release()
	x, err := sim.New(ctx, rs, sim.Options{MaxEvents: s.profile.RepEventCap(rs.Machine.NumCPUs())})
	if err != nil {
		return err
	}
	reply, err := x.Replay(steps, stepRecent)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, reply)
	return nil
}

// stepsOf takes "steps" out of a request object (the other members are
// simulate's, read by readRequest from the body stepsOf puts back).
func (s *server) stepsOf(ctx context.Context, w http.ResponseWriter, r *http.Request) (int, error) {
	body, err := s.readBody(ctx, w, r)
	if err != nil {
		return 0, err
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

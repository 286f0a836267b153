package sim

// StepDecision is a placement decision with its index in the run's
// decision list (Timeline.Decisions).
type StepDecision struct {
	Index int `json:"index"`
	Decision
}

// StepReply is the state after replaying a run's first Steps events: the
// body of POST /api/v1/step, read back by the step view.
type StepReply struct {
	// Steps is the number asked for; Events the number dispatched (fewer
	// when the run ended first, then Done is true).
	Steps  int   `json:"steps"`
	Events int64 `json:"events"`
	Done   bool  `json:"done"`
	Now    int64 `json:"now"`
	// Event is the last event (nil before the first); Decisions the
	// placement decisions it recorded; LastDecision the latest decision of
	// the run so far (its path is the last domain walk).
	Event        *StepEvent     `json:"event"`
	Decisions    []StepDecision `json:"decisions"`
	LastDecision *StepDecision  `json:"last_decision"`
	// Recent are the last events, oldest first (Event last).
	Recent   []StepEvent `json:"recent"`
	Snapshot Snapshot    `json:"snapshot"`
	Detail   Detail      `json:"detail"`
	// Timeline is what ran so far (running tasks' intervals end at Now;
	// no decisions: they are above).
	Timeline *Timeline `json:"timeline"`
}

// Replay dispatches up to steps events and reports the state after the
// last one, keeping the last recent events.
func (x *Stepper) Replay(steps, recent int) (*StepReply, error) {
	reply := &StepReply{Steps: steps, Decisions: []StepDecision{}, Recent: []StepEvent{}}
	for range steps {
		e, ok, err := x.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if len(reply.Recent) == recent {
			reply.Recent = append(reply.Recent[:0], reply.Recent[1:]...)
		}
		reply.Recent = append(reply.Recent, e)
	}
	ds := x.Decisions()
	if n := len(reply.Recent); n > 0 {
		reply.Event = &reply.Recent[n-1]
		for _, i := range reply.Event.Decisions {
			reply.Decisions = append(reply.Decisions, StepDecision{i, ds[i]})
		}
	}
	if len(ds) > 0 {
		reply.LastDecision = &StepDecision{len(ds) - 1, ds[len(ds)-1]}
	}
	reply.Done = x.Done()
	reply.Now = x.Now()
	reply.Snapshot = x.Snapshot()
	reply.Detail = x.Detail()
	reply.Events = reply.Detail.Events
	reply.Timeline = x.SoFar()
	return reply, nil
}

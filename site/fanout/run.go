package fanout

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Target is a backend and its number of slots (requests in flight).
type Target struct {
	Backend Backend
	Slots   int
	// Batch, when the backend is a Batcher, is the most units one request
	// carries (0 or 1: one unit per request). When the backend refuses
	// the tail of a batch as over one request's budget, its batches
	// shrink to what it admitted and the refused units go again.
	Batch int
}

// Options tune Run; the zero value takes the defaults.
type Options struct {
	// Attempts bounds the tries of one unit (default 8); a unit that
	// fails them all stops the run.
	Attempts int
	// Backoff is the first retry's delay (default 250ms), doubled on each
	// further retry of the unit up to MaxBackoff (default 8s); a reply's
	// Retry-After, when longer, wins.
	Backoff, MaxBackoff time.Duration
	// Down is how long a backend that failed twice in a row is set aside
	// before its first probe (default 500ms, doubled up to MaxBackoff).
	Down time.Duration
	// GiveUp stops the run when every backend has been down this long
	// (default 60s).
	GiveUp time.Duration
	// Window bounds the units taken beyond the first one not yet
	// delivered (default 4 × the units in flight, slots × batch, at
	// least 16): the memory of replies held back for order.
	Window int
	// Progress, when set, is called after each delivery (from Run's
	// goroutine).
	Progress func(Stats)
}

func (o *Options) defaults(inFlight int) {
	if o.Attempts <= 0 {
		o.Attempts = 8
	}
	if o.Backoff <= 0 {
		o.Backoff = 250 * time.Millisecond
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = 8 * time.Second
	}
	if o.Down <= 0 {
		o.Down = 500 * time.Millisecond
	}
	if o.GiveUp <= 0 {
		o.GiveUp = time.Minute
	}
	if o.Window <= 0 {
		o.Window = max(4*inFlight, 16)
	}
}

// Stats count a run's work.
type Stats struct {
	Delivered int
	// Retries are attempts that failed for a passing reason.
	Retries  int
	Backends []BackendStats
}

// BackendStats are one backend's share.
type BackendStats struct {
	Name string
	// Done are the units it answered; Failures its failed attempts.
	Done, Failures int
	// Down says whether it is set aside now.
	Down bool
}

// Run runs units 0…n-1 on the targets: body(i) is unit i's request. It
// calls deliver(i, reply) for every unit in order 0, 1, …, from the
// calling goroutine; an error from deliver stops the run and is
// returned. Run returns when every unit is delivered, the context is
// done (its error is returned; the units delivered so far stay
// delivered), or a unit failed Attempts times or every backend stayed
// down for GiveUp (an error saying so).
func Run(ctx context.Context, targets []Target, n int, body func(i int) []byte, opt Options, deliver func(i int, r Reply) error) (Stats, error) {
	slots, units := 0, 0
	for _, t := range targets {
		slots += max(t.Slots, 1)
		units += max(t.Slots, 1) * max(t.Batch, 1)
	}
	if slots == 0 && n > 0 {
		return Stats{}, errors.New("fanout: no backend")
	}
	opt.defaults(units)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := newSched(n, targets, opt)
	done := make(chan result, slots)
	for b, t := range targets {
		for range max(t.Slots, 1) {
			go s.slot(ctx, b, body, done)
		}
	}
	held := map[int]Reply{}
	next := 0
	for next < n {
		select {
		case <-ctx.Done():
			return s.stats(next), ctx.Err()
		case r := <-done:
			if r.err != nil {
				cancel()
				return s.stats(next), r.err
			}
			held[r.i] = r.reply
		}
		for {
			rep, ok := held[next]
			if !ok {
				break
			}
			delete(held, next)
			if err := deliver(next, rep); err != nil {
				cancel()
				return s.stats(next), err
			}
			next++
			s.delivered(next)
			if opt.Progress != nil {
				opt.Progress(s.stats(next))
			}
		}
	}
	return s.stats(next), nil
}

// result is a slot's outcome for unit i: a reply, or the error that
// stops the run.
type result struct {
	i     int
	reply Reply
	err   error
}

// slot is one request in flight on backend b, taking units until there
// are none: several at once when the target batches.
func (s *sched) slot(ctx context.Context, b int, body func(int) []byte, done chan<- result) {
	t := s.targets[b]
	batcher, _ := t.Backend.(Batcher)
	send := func(r result) bool {
		select {
		case done <- r:
			return true
		case <-ctx.Done():
			return false
		}
	}
	for {
		limit := 1
		if batcher != nil {
			limit = s.batchOf(b)
		}
		ws, ok := s.take(ctx, b, limit)
		if !ok {
			return
		}
		if ws[0].probe {
			if fatal := s.probed(b, t.Backend.(Prober).Probe(ctx)); fatal != nil && ctx.Err() == nil {
				send(result{err: fatal})
				return
			}
			continue
		}
		var reps []Reply
		var err error
		if len(ws) == 1 {
			var rep Reply
			rep, err = t.Backend.Simulate(ctx, body(ws[0].i))
			reps = []Reply{rep}
		} else {
			bodies := make([][]byte, len(ws))
			for k, w := range ws {
				bodies[k] = body(w.i)
			}
			reps, err = batcher.SimulateBatch(ctx, bodies)
			if err == nil && len(reps) != len(ws) {
				err = fmt.Errorf("a batch of %d answered %d replies", len(ws), len(reps))
			}
		}
		if ctx.Err() != nil {
			return
		}
		admitted := len(ws)
		for k, w := range ws {
			var rep Reply
			failure := err
			if err == nil {
				rep = reps[k]
				if len(ws) > 1 && rep.overShare() {
					// Over the batch's budget, not the run's: it goes
					// again, and this backend's batches shrink to what
					// fitted.
					admitted = min(admitted, k)
					s.requeue(w)
					continue
				}
				if rep.Transient() {
					failure = &StatusError{Reply: rep}
				}
			}
			if failure == nil {
				s.answered(b)
				if !send(result{i: w.i, reply: rep}) {
					return
				}
				continue
			}
			if fatal := s.failed(b, w, failure, rep.RetryAfter); fatal != nil {
				send(result{err: fatal})
				return
			}
		}
		if admitted < len(ws) {
			s.shrink(b, admitted)
		}
	}
}

// errGaveUp formats the error of a unit that failed every attempt.
func errGaveUp(i, attempts int, last error) error {
	return fmt.Errorf("unit %d failed %d attempts; the last: %w", i, attempts, last)
}

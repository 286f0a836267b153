package fanout

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// sched hands units to slots: retries that are due first, then fresh
// units inside the window. Its state changes under mu; a change closes
// wake so that waiting slots look again.
type sched struct {
	mu      sync.Mutex
	wake    chan struct{}
	n       int
	opt     Options
	targets []Target
	next    int // the next fresh unit
	base    int // the first unit not delivered
	retries []work
	backs   []backState
	retried int
	allDown time.Time // when every backend went down (zero: one is up)
}

// work is a unit to run (or a probe of the slot's backend).
type work struct {
	i        int
	attempts int // failed attempts so far
	due      time.Time
	probe    bool
}

// backState is a backend's health and batch size.
type backState struct {
	batch          int // units per request (Target.Batch, shrunk by refusals)
	done, failures int
	streak         int           // consecutive failed attempts
	downUntil      time.Time     // set aside until then (zero: up)
	downFor        time.Duration // the current set-aside period
	probing        bool
}

func newSched(n int, targets []Target, opt Options) *sched {
	s := &sched{wake: make(chan struct{}), n: n, opt: opt, targets: targets, backs: make([]backState, len(targets))}
	for b, t := range targets {
		s.backs[b].batch = max(t.Batch, 1)
	}
	return s
}

// batchOf is backend b's batch size now.
func (s *sched) batchOf(b int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.backs[b].batch
}

// shrink lowers backend b's batch size to n (at least 1).
func (s *sched) shrink(b, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.backs[b].batch = max(1, min(s.backs[b].batch, n))
}

// requeue puts w back to run at once, as it was: its batch, not the
// run, was over the budget.
func (s *sched) requeue(w work) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.changed()
	w.due = time.Now()
	s.retries = append(s.retries, w)
}

// changed wakes every waiting slot; mu is held.
func (s *sched) changed() {
	close(s.wake)
	s.wake = make(chan struct{})
}

// take returns the next work for a slot of backend b, up to limit units
// (or a probe of b), waiting when there is none yet; false when the run is
// over for this slot.
func (s *sched) take(ctx context.Context, b, limit int) ([]work, bool) {
	for {
		s.mu.Lock()
		now := time.Now()
		bs := &s.backs[b]
		var wait time.Duration = -1
		switch {
		case !bs.downUntil.IsZero() && now.Before(bs.downUntil):
			wait = bs.downUntil.Sub(now)
		case !bs.downUntil.IsZero():
			if _, ok := s.targets[b].Backend.(Prober); ok && !bs.probing {
				bs.probing = true
				s.mu.Unlock()
				return []work{{probe: true}}, true
			}
			if !bs.probing {
				bs.downUntil = time.Time{} // cannot probe: try a unit
				s.updateAllDown(now)
				s.mu.Unlock()
				continue
			}
			wait = s.opt.Down // another slot probes
		default:
			if ws := s.ready(now, limit); len(ws) > 0 {
				s.mu.Unlock()
				return ws, true
			}
			if s.base >= s.n {
				s.mu.Unlock()
				return nil, false
			}
			for _, r := range s.retries {
				if d := r.due.Sub(now); wait < 0 || d < wait {
					wait = d
				}
			}
		}
		ch := s.wake
		s.mu.Unlock()
		var timer <-chan time.Time
		var t *time.Timer
		if wait >= 0 {
			t = time.NewTimer(wait)
			timer = t.C
		}
		select {
		case <-ctx.Done():
		case <-ch:
		case <-timer:
		}
		if t != nil {
			t.Stop()
		}
		if ctx.Err() != nil {
			return nil, false
		}
	}
}

// ready takes up to limit units that can run now: due retries first,
// then fresh units inside the window; mu is held.
func (s *sched) ready(now time.Time, limit int) []work {
	var ws []work
	for len(ws) < limit {
		if w, ok := s.due(now); ok {
			ws = append(ws, w)
			continue
		}
		if s.next < s.n && s.next < s.base+s.opt.Window {
			ws = append(ws, work{i: s.next})
			s.next++
			continue
		}
		break
	}
	return ws
}

// due pops the retry that is due first; mu is held.
func (s *sched) due(now time.Time) (work, bool) {
	best := -1
	for k, r := range s.retries {
		if !r.due.After(now) && (best < 0 || r.due.Before(s.retries[best].due)) {
			best = k
		}
	}
	if best < 0 {
		return work{}, false
	}
	w := s.retries[best]
	s.retries = append(s.retries[:best], s.retries[best+1:]...)
	return w, true
}

// answered records backend b's reply (a success or a refusal).
func (s *sched) answered(b int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	bs := &s.backs[b]
	bs.done++
	bs.streak, bs.downFor = 0, 0
}

// failed records a failed attempt of w on backend b and queues its retry;
// it returns the error that stops the run when w has no attempts left or
// every backend has been down for GiveUp.
func (s *sched) failed(b int, w work, err error, after time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.changed()
	now := time.Now()
	bs := &s.backs[b]
	bs.failures++
	bs.streak++
	s.retried++
	w.attempts++
	if w.attempts >= s.opt.Attempts {
		return errGaveUp(w.i, w.attempts, fmt.Errorf("%s: %w", s.targets[b].Backend.Name(), err))
	}
	if bs.streak >= 2 {
		s.setDown(bs, now)
	}
	delay := s.opt.Backoff << min(w.attempts-1, 16)
	delay = min(delay, s.opt.MaxBackoff)
	if after > delay {
		delay = after
	}
	if len(s.targets) > 1 && w.attempts == 1 {
		delay = 0 // another backend may take it at once
	}
	w.due = now.Add(delay)
	s.retries = append(s.retries, w)
	if s.updateAllDown(now) {
		return fmt.Errorf("every backend has failed for %s; the last error: %s: %w", s.opt.GiveUp, s.targets[b].Backend.Name(), err)
	}
	return nil
}

// isDown says whether the backend is set aside or has failed its last
// two attempts (a backend that cannot be probed is tried with units).
func (bs *backState) isDown() bool { return !bs.downUntil.IsZero() || bs.streak >= 2 }

// setDown sets a backend aside for its next period; mu is held.
func (s *sched) setDown(bs *backState, now time.Time) {
	if bs.downFor == 0 {
		bs.downFor = s.opt.Down
	} else {
		bs.downFor = min(2*bs.downFor, s.opt.MaxBackoff)
	}
	bs.downUntil = now.Add(bs.downFor)
}

// probed records a probe of backend b; it returns the error that stops
// the run when every backend has been down for GiveUp.
func (s *sched) probed(b int, err error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.changed()
	bs := &s.backs[b]
	bs.probing = false
	now := time.Now()
	if err == nil {
		bs.downUntil, bs.streak = time.Time{}, 0
	} else {
		s.setDown(bs, now)
	}
	if s.updateAllDown(now) {
		return fmt.Errorf("every backend has failed for %s; the last probe: %s: %w", s.opt.GiveUp, s.targets[b].Backend.Name(), err)
	}
	return nil
}

// updateAllDown tracks since when every backend is down and reports
// whether that has lasted GiveUp; mu is held.
func (s *sched) updateAllDown(now time.Time) bool {
	for _, bs := range s.backs {
		if !bs.isDown() {
			s.allDown = time.Time{}
			return false
		}
	}
	if s.allDown.IsZero() {
		s.allDown = now
	}
	return now.Sub(s.allDown) >= s.opt.GiveUp
}

// delivered moves the window: units before base are delivered.
func (s *sched) delivered(base int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.base = base
	s.changed()
}

// stats snapshots the counters.
func (s *sched) stats(delivered int) Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Stats{Delivered: delivered, Retries: s.retried}
	for b, bs := range s.backs {
		st.Backends = append(st.Backends, BackendStats{Name: s.targets[b].Backend.Name(), Done: bs.done, Failures: bs.failures, Down: bs.isDown()})
	}
	return st
}

package api

import (
	"context"
	"errors"
	"math"
	"sync"
	"time"
)

// admission bounds the requests that simulate at once (issue 17): at most
// slots run together, their estimated memory within memory bytes (a
// request alone is always let in: its own memory is bounded by its
// budget), and at most queue more wait, first come first served. A request
// beyond that is refused at once with errBusy.
type admission struct {
	slots, queue int
	memory       float64

	mu      sync.Mutex
	running int
	inUse   float64
	waiting []*waiter
	// hold is a moving average of how long a request holds its slot,
	// for Retry-After.
	hold time.Duration
	// peakRunning and peakWaiting are the most requests that ever ran
	// and waited at once (the bound the tests check).
	peakRunning, peakWaiting int
}

// waiter is a request queued for a slot; ready is closed when it gets one.
type waiter struct {
	mem     float64
	ready   chan struct{}
	granted bool
}

// errBusy is the refusal of a request the queue has no room for.
var errBusy = errors.New("the server is busy: every simulation slot is taken and the queue is full")

func newAdmission(slots, queue int, memory float64) *admission {
	return &admission{slots: max(slots, 1), queue: max(queue, 0), memory: memory}
}

// acquire waits for a slot for a request of mem estimated bytes and
// returns the function that gives it back; errBusy when the queue is full,
// ctx's error when ctx is done first.
func (a *admission) acquire(ctx context.Context, mem float64) (release func(), err error) {
	if a == nil {
		return func() {}, nil
	}
	a.mu.Lock()
	if len(a.waiting) == 0 && a.fits(mem) {
		a.take(mem)
		a.mu.Unlock()
		return a.releaser(mem), nil
	}
	if len(a.waiting) >= a.queue {
		a.mu.Unlock()
		return nil, errBusy
	}
	w := &waiter{mem: mem, ready: make(chan struct{})}
	a.waiting = append(a.waiting, w)
	a.peakWaiting = max(a.peakWaiting, len(a.waiting))
	a.mu.Unlock()
	select {
	case <-w.ready:
		return a.releaser(mem), nil
	case <-ctx.Done():
		a.mu.Lock()
		granted := w.granted
		if !granted {
			for i, x := range a.waiting {
				if x == w {
					a.waiting = append(a.waiting[:i], a.waiting[i+1:]...)
					break
				}
			}
		}
		a.mu.Unlock()
		if granted {
			a.releaser(mem)()
		}
		return nil, ctx.Err()
	}
}

// fits reports whether a request of mem bytes may start now (a.mu held).
func (a *admission) fits(mem float64) bool {
	return a.running < a.slots && (a.running == 0 || a.inUse+mem <= a.memory)
}

func (a *admission) take(mem float64) {
	a.running++
	a.inUse += mem
	a.peakRunning = max(a.peakRunning, a.running)
}

// peaks returns the most requests that ran and waited at once.
func (a *admission) peaks() (running, waiting int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.peakRunning, a.peakWaiting
}

// releaser returns the slot once, then lets in the waiters that fit, in
// order.
func (a *admission) releaser(mem float64) func() {
	start := time.Now()
	var once sync.Once
	return func() {
		once.Do(func() {
			a.mu.Lock()
			defer a.mu.Unlock()
			a.running--
			a.inUse -= mem
			a.hold = (3*a.hold + time.Since(start)) / 4
			for len(a.waiting) > 0 && a.fits(a.waiting[0].mem) {
				w := a.waiting[0]
				a.waiting = a.waiting[1:]
				a.take(w.mem)
				w.granted = true
				close(w.ready)
			}
		})
	}
}

// retryAfter is the seconds a refused request should wait: the queue's
// expected drain time, at least one second.
func (a *admission) retryAfter() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	waits := float64(len(a.waiting)+1) / float64(a.slots)
	return int(math.Max(1, math.Ceil(waits*a.hold.Seconds())))
}

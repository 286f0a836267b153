package fanout

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// echo answers every request with its body; fail says, per call, whether
// the call fails and how.
type echo struct {
	name  string
	mu    sync.Mutex
	calls int
	fail  func(call int, body []byte) (Reply, error, bool)
	delay time.Duration
}

func (e *echo) Name() string { return e.name }

func (e *echo) Simulate(ctx context.Context, body []byte) (Reply, error) {
	e.mu.Lock()
	e.calls++
	call := e.calls
	e.mu.Unlock()
	if e.delay > 0 {
		select {
		case <-time.After(e.delay):
		case <-ctx.Done():
			return Reply{}, ctx.Err()
		}
	}
	if e.fail != nil {
		if r, err, ok := e.fail(call, body); ok {
			return r, err
		}
	}
	return Reply{Status: 200, Body: append([]byte("ok "), body...)}, nil
}

func bodies(i int) []byte { return []byte(fmt.Sprint(i)) }

// collect runs n units and returns the replies in delivery order.
func collect(t *testing.T, targets []Target, n int, opt Options) ([]Reply, Stats, error) {
	t.Helper()
	var got []Reply
	st, err := Run(context.Background(), targets, n, bodies, opt, func(i int, r Reply) error {
		if i != len(got) {
			t.Fatalf("delivered %d after %d replies", i, len(got))
		}
		got = append(got, r)
		return nil
	})
	return got, st, err
}

func fast() Options {
	return Options{Backoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond, Down: time.Millisecond}
}

func TestRunDeliversInOrder(t *testing.T) {
	a := &echo{name: "a", delay: time.Millisecond}
	b := &echo{name: "b", delay: 100 * time.Microsecond}
	got, st, err := collect(t, []Target{{Backend: a, Slots: 3}, {Backend: b, Slots: 2}}, 200, fast())
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range got {
		if want := fmt.Sprintf("ok %d", i); string(r.Body) != want {
			t.Fatalf("reply %d is %q; want %q", i, r.Body, want)
		}
	}
	if st.Backends[0].Done+st.Backends[1].Done != 200 || st.Backends[0].Done == 0 || st.Backends[1].Done == 0 {
		t.Errorf("shares %+v; want both backends used, 200 in all", st.Backends)
	}
}

// Passing failures (transport errors, 429, 5xx) are retried, on another
// backend when there is one; a refusal (4xx) is the unit's reply.
func TestRunRetriesPassingFailures(t *testing.T) {
	flaky := &echo{name: "flaky", delay: 100 * time.Microsecond, fail: func(call int, body []byte) (Reply, error, bool) {
		switch call % 4 {
		case 1:
			return Reply{}, errors.New("connection reset"), true
		case 2:
			return Reply{Status: 503, RetryAfter: 0}, nil, true
		case 3:
			return Reply{Status: 429}, nil, true
		}
		return Reply{}, nil, false
	}}
	refuse := &echo{name: "refuse", delay: 100 * time.Microsecond, fail: func(call int, body []byte) (Reply, error, bool) {
		if string(body) == "7" {
			return Reply{Status: 422, Body: []byte("too big")}, nil, true
		}
		return Reply{}, nil, false
	}}
	// flaky fails three calls in four, so a unit routed to it eight times
	// in a row (the default Attempts) would give up about one run in ten;
	// the attempts limit is TestRunGivesUp's subject, not this test's.
	opt := fast()
	opt.Attempts = 1000
	got, st, err := collect(t, []Target{{Backend: flaky, Slots: 2}, {Backend: refuse, Slots: 1}}, 40, opt)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range got {
		want := fmt.Sprintf("ok %d", i)
		if i == 7 && r.Status == 422 {
			continue
		}
		if string(r.Body) != want || r.Status != 200 {
			t.Errorf("reply %d is %d %q; want 200 %q", i, r.Status, r.Body, want)
		}
	}
	if st.Retries == 0 {
		t.Error("no retries counted")
	}
}

// A backend that dies is set aside and its units finish elsewhere.
func TestRunSurvivesADeadBackend(t *testing.T) {
	var dead atomic.Bool
	dying := &echo{name: "dying", fail: func(call int, body []byte) (Reply, error, bool) {
		if call > 5 {
			dead.Store(true)
		}
		if dead.Load() {
			return Reply{}, errors.New("connection refused"), true
		}
		return Reply{}, nil, false
	}}
	ok := &echo{name: "ok", delay: 200 * time.Microsecond}
	got, st, err := collect(t, []Target{{Backend: dying, Slots: 4}, {Backend: ok, Slots: 2}}, 300, fast())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 300 || st.Backends[1].Done < 290 {
		t.Errorf("%d replies, shares %+v", len(got), st.Backends)
	}
	if !st.Backends[0].Down {
		t.Error("the dead backend is not set aside")
	}
}

// A unit that fails every attempt stops the run with an error naming it;
// so does a run whose only backend stays down.
func TestRunGivesUp(t *testing.T) {
	bad := &echo{name: "bad", fail: func(call int, body []byte) (Reply, error, bool) {
		if string(body) == "3" {
			return Reply{Status: 500, Body: []byte("boom")}, nil, true
		}
		return Reply{}, nil, false
	}}
	opt := fast()
	opt.Attempts = 3
	got, _, err := collect(t, []Target{{Backend: bad, Slots: 1}}, 10, opt)
	if err == nil || !strings.Contains(err.Error(), "unit 3 failed 3 attempts") || !strings.Contains(err.Error(), "boom") {
		t.Errorf("error %v", err)
	}
	if len(got) != 3 {
		t.Errorf("%d delivered before the failing unit; want 3", len(got))
	}
	down := &echo{name: "down", fail: func(int, []byte) (Reply, error, bool) { return Reply{}, errors.New("refused"), true }}
	opt = fast()
	opt.GiveUp = 20 * time.Millisecond
	opt.Attempts = 1000
	if _, _, err := collect(t, []Target{{Backend: down, Slots: 2}}, 5, opt); err == nil || !strings.Contains(err.Error(), "every backend") {
		t.Errorf("error %v; want every backend failed", err)
	}
}

// Cancelling stops the run; what was delivered is a prefix.
func TestRunCancel(t *testing.T) {
	slow := &echo{name: "slow", delay: 2 * time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err := Run(ctx, []Target{{Backend: slow, Slots: 2}}, 1000, bodies, Options{}, func(i int, r Reply) error {
		if i != n {
			t.Fatalf("delivered %d after %d", i, n)
		}
		n++
		if n == 10 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) || n < 10 || n > 20 {
		t.Errorf("err %v after %d deliveries", err, n)
	}
}

// The window bounds how far past the first undelivered unit work starts.
func TestRunWindow(t *testing.T) {
	var maxAhead atomic.Int64
	var delivered atomic.Int64
	var mu sync.Mutex
	b := &echo{name: "b", fail: func(call int, body []byte) (Reply, error, bool) {
		var i int64
		fmt.Sscan(string(body), &i)
		mu.Lock()
		if d := i - delivered.Load(); d > maxAhead.Load() {
			maxAhead.Store(d)
		}
		mu.Unlock()
		if i%50 == 0 {
			time.Sleep(5 * time.Millisecond) // hold the window's base back
		}
		return Reply{}, nil, false
	}}
	opt := fast()
	opt.Window = 8
	_, err := Run(context.Background(), []Target{{Backend: b, Slots: 4}}, 400, bodies, opt, func(i int, r Reply) error {
		delivered.Store(int64(i + 1))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if m := maxAhead.Load(); m >= 8 {
		t.Errorf("work started %d units past the first undelivered; the window is 8", m)
	}
}

// batcher records the sizes of its batches; its first batch fails.
type batcher struct {
	echo
	sizes []int
}

func (b *batcher) SimulateBatch(ctx context.Context, bodies [][]byte) ([]Reply, error) {
	b.mu.Lock()
	b.sizes = append(b.sizes, len(bodies))
	first := len(b.sizes) == 1
	b.mu.Unlock()
	if first {
		return nil, errors.New("connection reset")
	}
	var out []Reply
	for _, body := range bodies {
		r, _ := b.Simulate(ctx, body)
		out = append(out, r)
	}
	return out, nil
}

// A batching target takes several units per request; a failed batch's
// units are all retried.
func TestRunBatches(t *testing.T) {
	b := &batcher{echo: echo{name: "b"}}
	got, _, err := collect(t, []Target{{Backend: b, Slots: 1, Batch: 4}}, 10, fast())
	if err != nil || len(got) != 10 {
		t.Fatalf("%d replies, %v", len(got), err)
	}
	for i, r := range got {
		if string(r.Body) != fmt.Sprintf("ok %d", i) {
			t.Errorf("reply %d: %q", i, r.Body)
		}
	}
	if fmt.Sprint(b.sizes) != "[4 4 4 2]" {
		t.Errorf("batch sizes %v; want [4 4 4 2] (the first one failed)", b.sizes)
	}
}

// overBudget admits the first 3 runs of a batch and refuses the rest as
// the API does a batch over one request's budget.
type overBudget struct {
	echo
	sizes []int
}

func (b *overBudget) SimulateBatch(ctx context.Context, bodies [][]byte) ([]Reply, error) {
	b.mu.Lock()
	b.sizes = append(b.sizes, len(bodies))
	b.mu.Unlock()
	var out []Reply
	for k, body := range bodies {
		if k >= 3 {
			out = append(out, Reply{Status: 422, Body: []byte(`{"error":{"message":"over the batch's budget","path":"requests","budget":"events"}}`)})
			continue
		}
		r, _ := b.Simulate(ctx, body)
		out = append(out, r)
	}
	return out, nil
}

// A batch's tail refused as over its budget runs again in smaller
// batches: every unit gets its own reply, and no refusal is delivered.
func TestRunShrinksBatchesOverBudget(t *testing.T) {
	b := &overBudget{echo: echo{name: "b"}}
	got, st, err := collect(t, []Target{{Backend: b, Slots: 1, Batch: 8}}, 20, fast())
	if err != nil || len(got) != 20 {
		t.Fatalf("%d replies, %v", len(got), err)
	}
	for i, r := range got {
		if r.Status != 200 || string(r.Body) != fmt.Sprintf("ok %d", i) {
			t.Errorf("reply %d: %d %q", i, r.Status, r.Body)
		}
	}
	if b.sizes[0] != 8 || b.sizes[len(b.sizes)-1] > 3 || st.Backends[0].Failures != 0 {
		t.Errorf("batch sizes %v, failures %d; want 8 first, then at most 3, no failures", b.sizes, st.Backends[0].Failures)
	}
}

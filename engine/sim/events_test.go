package sim

import (
	"math/rand/v2"
	"testing"
)

// refQueue is the event queue's specification: every pending event with
// its insertion sequence, the earliest (at, seq) first; a timer's pending
// event is replaced when it is armed again.
type refQueue struct {
	seq     uint64
	pending []refEntry
}

type refEntry struct {
	ev    event
	seq   uint64
	timer int // -1: not a timer
}

func (r *refQueue) push(e event, timer int) {
	if timer >= 0 {
		r.disarm(timer)
	}
	r.seq++
	r.pending = append(r.pending, refEntry{e, r.seq, timer})
}

func (r *refQueue) disarm(timer int) {
	for i, p := range r.pending {
		if p.timer == timer {
			r.pending = append(r.pending[:i], r.pending[i+1:]...)
			return
		}
	}
}

func (r *refQueue) pop() (event, bool) {
	if len(r.pending) == 0 {
		return event{}, false
	}
	m := 0
	for i, p := range r.pending {
		if p.ev.at < r.pending[m].ev.at || p.ev.at == r.pending[m].ev.at && p.seq < r.pending[m].seq {
			m = i
		}
	}
	e := r.pending[m].ev
	r.pending = append(r.pending[:m], r.pending[m+1:]...)
	return e, true
}

// TestEventQueueOrder drives the queue (heap pushes, in-order pushes to
// the lane, some of them out of order, timers armed, re-armed and
// disarmed) and the specification with the same random operations: every
// pop returns the same event. Events carry a unique id in b, so a wrong
// order among events of one time is seen. The time scales put the timers
// in one calendar bucket, in many, and beyond the calendar's window (the
// timer heap), with few and many timers.
func TestEventQueueOrder(t *testing.T) {
	for _, scale := range []int64{1, 1 << 12, 1 << 20} {
		for _, timers := range []int{8, 64} {
			for seed := range uint64(10) {
				eventQueueOrder(t, seed, scale, timers)
			}
		}
	}
}

// eventQueueOrder is one run of TestEventQueueOrder: times are drawn in
// units of scale ns, timers timers.
func eventQueueOrder(t *testing.T, seed uint64, scale int64, timers int) {
	rng := rand.New(rand.NewPCG(seed, 7))
	var q eventQueue
	q.init(4, timers, 0)
	var ref refQueue
	now, id, laneAt := int64(0), int32(0), int64(0)
	for step := range 10000 {
		id++
		switch op := rng.IntN(10); {
		case op < 3: // a heap event, often at a time already pending
			e := event{at: now + rng.Int64N(50)*scale, kind: evTimer, b: id}
			q.push(e)
			ref.push(e, -1)
		case op < 6: // the lane: a tick one period on, sometimes early
			laneAt = max(laneAt, now) + rng.Int64N(3)*10*scale
			e := event{at: laneAt, kind: evTick, b: id}
			if rng.IntN(8) == 0 {
				e.at = now + rng.Int64N(20)*scale
			}
			q.pushInOrder(e)
			ref.push(e, -1)
		case op < 7: // a timer armed or re-armed
			k := rng.IntN(timers)
			e := event{at: now + rng.Int64N(40)*scale + rng.Int64N(scale), kind: evComputeEnd, a: int32(k), b: id}
			q.arm(k, e)
			ref.push(e, k)
		case op < 8:
			k := rng.IntN(timers)
			q.disarm(k)
			ref.disarm(k)
		default:
			want, wok := ref.pop()
			p, pok := q.peek()
			if pok != wok || p != want {
				t.Fatalf("scale %d timers %d seed %d step %d: peek %+v %v, want %+v %v", scale, timers, seed, step, p, pok, want, wok)
			}
			// Every other time what peek found is removed by popPeeked
			// (a wrong removal shows at a later pop).
			got, ok := p, pok
			if step%2 == 0 {
				got, ok = q.pop()
			} else if ok {
				q.popPeeked()
			}
			if ok != wok || got != want {
				t.Fatalf("scale %d timers %d seed %d step %d: pop %+v %v, want %+v %v", scale, timers, seed, step, got, ok, want, wok)
			}
			if ok {
				now = got.at
			}
		}
	}
	for {
		want, wok := ref.pop()
		got, ok := q.pop()
		if ok != wok || got != want {
			t.Fatalf("scale %d timers %d seed %d drain: pop %+v %v, want %+v %v", scale, timers, seed, got, ok, want, wok)
		}
		if !ok {
			break
		}
	}
}

// TestEventQueueTimerTie re-arms the earliest timer of the calendar at
// its own time, tied with another: the new sequence puts it after the
// other, as pushing a new event would (the calendar must search its
// bucket again).
func TestEventQueueTimerTie(t *testing.T) {
	var q eventQueue
	q.init(4, 2+calHeapMin, 0)
	for k := range calHeapMin { // fill the heap, so that the calendar takes timers 0 and 1
		q.arm(2+k, event{at: 1e12, kind: evComputeEnd, a: int32(2 + k)})
	}
	q.arm(0, event{at: 100, kind: evComputeEnd, a: 0})
	q.arm(1, event{at: 100, kind: evComputeEnd, a: 1})
	q.arm(0, event{at: 100, kind: evComputeEnd, a: 0})
	for _, want := range []int32{1, 0} {
		if e, ok := q.pop(); !ok || e.a != want {
			t.Fatalf("pop %+v %v, want timer %d", e, ok, want)
		}
	}
}

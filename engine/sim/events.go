package sim

import "math/bits"

// evKind names what an event does when it fires.
type evKind uint8

const (
	evEnd             evKind = iota // end of the repetition (run.duration)
	evFork                          // a group's tasks are created (WF_FORK)
	evTick                          // scheduler_tick() on a CPU (a = cpu)
	evComputeEnd                    // the running task's compute/spin segment ends (a = cpu)
	evTimer                         // hrtimer expiry: a sleeping task wakes (a = task)
	evWakeArrive                    // a woken task reaches its target rq (a = task)
	evHousekeeping                  // per-CPU kernel noise starts (a = cpu)
	evHousekeepingEnd               // per-CPU kernel noise ends (a = cpu)
	evCoreEval                      // a core's mode may change (qualification/hold/switch end; a = core)
	evILB                           // nohz idle balance runs on the ILB CPU (a = cpu)
	evStopper                       // active_load_balance_cpu_stop() on a source CPU (a = src, b = dst)
	evIRQEnd                        // the ILB softirq on an idle CPU ends (a = cpu)
	evWakeIssue                     // a deferred try_to_wake_up() of a wake batch (a = task, b = waker, gen = sync)
	evResched                       // a CPU told to reschedule (resched_curr()) reaches schedule() (a = cpu)
	evDeviceIRQ                     // a managed device vector fires (a = vector)
	evRTOPush                       // the RT push IPI reaches an overloaded CPU (rto_push_irq_work_func(); a = cpu)
	evDLServer                      // the fair server's dl_timer fires (dl_server_timer(); a = cpu)
	evRTPeriod                      // def_rt_bandwidth's period timer fires (sched_rt_period_timer())
)

// event is one entry of the queue: integer-ns time, what to do and on
// what (ties fire in insertion order: the heap entry carries the
// sequence). gen is a small third argument (a wake-up's sync flag, a
// stopper's migration cause).
type event struct {
	at   int64
	kind evKind
	a, b int32
	gen  uint32
}

// eventQueue is a min-heap of events ordered by (at, seq). The heap holds
// small entries (time, sequence, slot) and the events' payloads sit in
// slots recycled through a free list, so sifting moves 16 bytes per level
// instead of a whole event. Steady-state push/pop do not allocate.
//
// Beside it sit the timers: one slot per object that has at most one
// pending event of a kind (a CPU's compute end, a core's mode
// re-evaluation), re-armed in place like an hrtimer (hrtimer_start() on an
// armed timer moves it). Re-arming takes a new sequence number, exactly
// as pushing a new event and ignoring the old one would, so the order of
// the events that fire is the same; the superseded ones are simply never
// queued. A timer that fires within calBuckets buckets of 2^calShift ns
// from the last timer that fired sits in a calendar (a ring of bucket
// lists, Brown's calendar queue), the others in a heap of their own:
// arming, moving and cancelling a calendar timer relinks it in constant
// time, and only the bucket of the earliest timer is searched, when it
// fires or moves later. Unlike the kernel's timer wheel the order stays
// exact. Most timers are compute ends a few milliseconds out, moved each
// time the SMT sibling's load changes (115k re-arms per simulated second
// on a fully loaded Vera, each a sift of a 528-timer heap before).
//
// And a lane: a FIFO for the periodic ticks, which are pushed in the order
// they fire (pushInOrder), so they need no sifting. A pop takes the
// earliest (at, seq) of the three.
type eventQueue struct {
	h     []heapEntry
	slots []event
	free  []uint32
	seq   uint64
	// horizon is the last time an event can fire at (the end of the
	// repetition); later events are never processed, so push drops them
	// (0: no horizon).
	horizon int64

	tev []event     // timer id → its pending event
	ts  []timerSlot // timer id → its key and where it is queued
	// th is a heap of the timers outside the calendar (slot = timer id).
	th []heapEntry
	// The calendar holds the timers of calBuckets buckets of 2^calShift ns
	// from calBase (a bucket number, at >> calShift: the last fired
	// timer's, so no calendar timer is before it), each bucket a list in
	// a ring (cal, the first timer id of ring slot b & (calBuckets-1), -1
	// empty; calBits, the non-empty slots). calMin is the earliest timer
	// of the calendar (-1: empty).
	cal     [calBuckets]int32
	calN    [calBuckets]uint8 // timers in each ring slot (at most calBucketMax)
	calBits [calBuckets / 64]uint64
	calBase int64
	calMin  int32
	calLen  int // timers in the calendar
	// calTop is calMin's key (slot = id) when calMin ≥ 0.
	calTop heapEntry

	// lane is a FIFO of events pushed in time order (pushInOrder): the
	// periodic ticks, each armed one period after the one that fires.
	// An event that would come before the lane's last one goes to the
	// heap instead, so the lane is always sorted by (at, seq).
	lane     []laneEntry // ring buffer, len a power of two
	laneHead int
	laneLen  int
	peeked   uint8 // where the event peek returned is (popPeeked)
}

// calShift and calBuckets size the timer calendar: buckets of 2^16 ns
// (65.5 µs), 512 of them (33.5 ms). A bucket holds at most calBucketMax
// timers, so that finding the earliest one stays short; the others go to
// the heap (a workload of microsecond computes has every CPU's compute
// end in one or two buckets). The calendar takes timers only once the
// heap holds calHeapMin: a heap that small is cheaper.
const (
	calShift     = 16
	calBuckets   = 512
	calBucketMax = 8
	calHeapMin   = 16
)

// timerSlot is one timer's key (at, seq) and place: its index in th (-1
// when not there) or its calendar ring slot with its bucket list links
// (bucket -1 when not in the calendar).
type timerSlot struct {
	at         int64
	seq        uint32
	pos        int32
	bucket     int32
	next, prev int32
}

// laneEntry is one event of the lane with its insertion sequence.
type laneEntry struct {
	ev  event
	seq uint32
}

// heapEntry is one heap element: the event's time, its insertion sequence
// (low 32 bits: ties between events of one time fire in insertion order;
// a repetition's event budget keeps it far below 2^32 pushes) and the slot
// of its payload.
type heapEntry struct {
	at   int64
	seq  uint32
	slot uint32
}

// init sizes the queue for about n pending events that fire up to
// horizon, and timers timers (ids 0…timers-1).
func (q *eventQueue) init(n, timers int, horizon int64) {
	q.horizon = horizon
	q.h = make([]heapEntry, 0, n)
	q.slots = make([]event, 0, n)
	q.free = make([]uint32, 0, n)
	q.th = make([]heapEntry, 0, timers)
	q.ts = make([]timerSlot, timers)
	for i := range q.ts {
		q.ts[i] = timerSlot{pos: -1, bucket: -1, next: -1, prev: -1}
	}
	q.tev = make([]event, timers)
	for i := range q.cal {
		q.cal[i] = -1
	}
	q.calBits = [calBuckets / 64]uint64{}
	q.calN = [calBuckets]uint8{}
	q.calMin, q.calLen = -1, 0
	q.lane = make([]laneEntry, 64)
	q.laneHead, q.laneLen = 0, 0
}

// before orders entries by time, then insertion.
func before(a, b *heapEntry) bool {
	return a.at < b.at || a.at == b.at && a.seq < b.seq
}

// The heap is 4-ary: half the depth of a binary heap, and a parent's four
// children sit next to each other. Sifting moves a hole instead of
// swapping, so each level costs one copy.

// push adds an event.
func (q *eventQueue) push(e event) {
	if q.horizon > 0 && e.at > q.horizon {
		return
	}
	q.seq++
	var slot uint32
	if n := len(q.free); n > 0 {
		slot = q.free[n-1]
		q.free = q.free[:n-1]
		q.slots[slot] = e
	} else {
		slot = uint32(len(q.slots))
		q.slots = append(q.slots, e)
	}
	x := heapEntry{at: e.at, seq: uint32(q.seq), slot: slot}
	q.h = append(q.h, x)
	h := q.h
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !before(&x, &h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = x
}

// pushInOrder adds an event that usually comes after every event pushed
// this way before it (a periodic tick): it joins the lane, or the heap when
// it would not.
func (q *eventQueue) pushInOrder(e event) {
	if q.horizon > 0 && e.at > q.horizon {
		return
	}
	if q.laneLen > 0 {
		if last := &q.lane[(q.laneHead+q.laneLen-1)&(len(q.lane)-1)]; e.at < last.ev.at {
			q.push(e)
			return
		}
	}
	if q.laneLen == len(q.lane) {
		q.growLane()
	}
	q.seq++
	q.lane[(q.laneHead+q.laneLen)&(len(q.lane)-1)] = laneEntry{ev: e, seq: uint32(q.seq)}
	q.laneLen++
}

// growLane doubles the lane's ring buffer.
func (q *eventQueue) growLane() {
	n := len(q.lane)
	lane := make([]laneEntry, 2*max(n, 32))
	for i := range q.laneLen {
		lane[i] = q.lane[(q.laneHead+i)&(n-1)]
	}
	q.lane, q.laneHead = lane, 0
}

// laneFirst reports whether the lane's first event (the lane is not
// empty) comes before the heap's and the timers'.
func (q *eventQueue) laneFirst() bool {
	l := &q.lane[q.laneHead]
	x := heapEntry{at: l.ev.at, seq: l.seq}
	return (len(q.h) == 0 || before(&x, &q.h[0])) && (!q.timersArmed() || before(&x, q.timerTop()))
}

// pop removes and returns the earliest event; ok is false when empty.
func (q *eventQueue) pop() (event, bool) {
	if q.laneLen > 0 && q.laneFirst() {
		e := q.lane[q.laneHead].ev
		q.laneHead = (q.laneHead + 1) & (len(q.lane) - 1)
		q.laneLen--
		return e, true
	}
	return q.popHeaps()
}

// popHeaps removes and returns the earliest event of the heap and the
// timers.
func (q *eventQueue) popHeaps() (event, bool) {
	if q.timersArmed() {
		if t := q.timerTop(); len(q.h) == 0 || before(t, &q.h[0]) {
			return q.popTimer(t), true
		}
	}
	n := len(q.h)
	if n == 0 {
		return event{}, false
	}
	h := q.h
	top := h[0]
	n--
	last := h[n]
	h = h[:n]
	q.h = h
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		end := min(c+4, n)
		for j := c + 1; j < end; j++ {
			if before(&h[j], &h[m]) {
				m = j
			}
		}
		if !before(&h[m], &last) {
			break
		}
		h[i] = h[m]
		i = m
	}
	if n > 0 {
		h[i] = last
	}
	q.free = append(q.free, top.slot)
	return q.slots[top.slot], true
}

// timersArmed says a timer is armed.
func (q *eventQueue) timersArmed() bool { return len(q.th) > 0 || q.calMin >= 0 }

// timerTop is the earliest armed timer's key (slot = id), the heap's or
// the calendar's (a timer is armed).
func (q *eventQueue) timerTop() *heapEntry {
	if q.calMin < 0 || len(q.th) > 0 && before(&q.th[0], &q.calTop) {
		return &q.th[0]
	}
	return &q.calTop
}

// popTimer removes and returns the earliest timer's event; t is its key
// (timerTop).
func (q *eventQueue) popTimer(t *heapEntry) event {
	id := int(t.slot)
	// Every pending timer fires at or after this one: the calendar's
	// window starts at its bucket.
	q.calBase = t.at >> calShift
	if t == &q.calTop {
		q.calUnlink(id)
		q.findCalMin()
	} else {
		q.removeTimerAt(0)
	}
	return q.tev[id]
}

// Where the event peek returned is (peeked).
const (
	peekedHeap uint8 = iota
	peekedLane
	peekedTimer
)

// peek returns the earliest event without removing it, and notes where
// it is for popPeeked.
func (q *eventQueue) peek() (event, bool) {
	if q.laneLen > 0 && q.laneFirst() {
		q.peeked = peekedLane
		return q.lane[q.laneHead].ev, true
	}
	if q.timersArmed() {
		if t := q.timerTop(); len(q.h) == 0 || before(t, &q.h[0]) {
			q.peeked = peekedTimer
			return q.tev[t.slot], true
		}
	}
	if len(q.h) == 0 {
		return event{}, false
	}
	q.peeked = peekedHeap
	return q.slots[q.h[0].slot], true
}

// popPeeked removes the event the last peek returned, which must have
// found one, without comparing the lane, the timers and the heap again:
// nothing may change the queue in between (the event loop peeks, then
// pops what it will dispatch).
func (q *eventQueue) popPeeked() {
	switch q.peeked {
	case peekedLane:
		q.laneHead = (q.laneHead + 1) & (len(q.lane) - 1)
		q.laneLen--
	case peekedTimer:
		q.popTimer(q.timerTop())
	default:
		q.popHeaps()
	}
}

// arm sets timer id to fire e, replacing its pending event if it has one
// (an event past the horizon disarms it).
func (q *eventQueue) arm(id int, e event) {
	if q.horizon > 0 && e.at > q.horizon {
		q.disarm(id)
		return
	}
	q.seq++
	q.tev[id] = e
	t := &q.ts[id]
	switch {
	case t.bucket >= 0:
		// A later key for the earliest timer (a new sequence is later on
		// a tie) makes the calendar search again.
		isMin := q.calMin == int32(id)
		later := isMin && e.at >= t.at
		b := e.at >> calShift
		if d := b - q.calBase; d >= 0 && d < calBuckets && t.bucket == int32(b&(calBuckets-1)) && !later {
			t.at, t.seq = e.at, uint32(q.seq)
			if isMin || q.calBefore(int32(id), q.calMin) {
				q.setCalMin(int32(id))
			}
			return
		}
		q.calUnlink(id)
		if isMin {
			q.findCalMin()
		}
	case t.pos >= 0:
		// It stays in the heap unless the calendar takes it once it has
		// left the heap.
		if !q.calTakes(e.at, len(q.th)-1) {
			t.at, t.seq = e.at, uint32(q.seq)
			q.th[t.pos] = heapEntry{at: e.at, seq: t.seq, slot: uint32(id)}
			q.siftTimer(int(t.pos))
			return
		}
		q.removeTimerAt(int(t.pos))
	}
	t.at, t.seq = e.at, uint32(q.seq)
	q.insertTimer(id)
}

// calTakes says the calendar takes a timer firing at at beside a heap of
// heapLen timers: the heap is not small (calHeapMin), at falls in the
// calendar's window, and its bucket is not full (calBucketMax).
func (q *eventQueue) calTakes(at int64, heapLen int) bool {
	b := at >> calShift
	d := b - q.calBase
	return heapLen >= calHeapMin && d >= 0 && d < calBuckets && q.calN[b&(calBuckets-1)] < calBucketMax
}

// insertTimer queues timer id, armed and in neither the calendar nor the
// heap: in the calendar when it takes it (calTakes), else in the heap.
func (q *eventQueue) insertTimer(id int) {
	t := &q.ts[id]
	if q.calTakes(t.at, len(q.th)) {
		q.calLink(id, int32(t.at>>calShift&(calBuckets-1)))
		if q.calMin < 0 || q.calBefore(int32(id), q.calMin) {
			q.setCalMin(int32(id))
		}
		return
	}
	i := len(q.th)
	q.th = append(q.th, heapEntry{at: t.at, seq: t.seq, slot: uint32(id)})
	q.siftTimer(i)
}

// disarm cancels timer id's pending event, if any.
func (q *eventQueue) disarm(id int) {
	t := &q.ts[id]
	switch {
	case t.bucket >= 0:
		q.calUnlink(id)
		if q.calMin == int32(id) {
			q.findCalMin()
		}
	case t.pos >= 0:
		q.removeTimerAt(int(t.pos))
	}
}

// calBefore orders two calendar timers by (at, seq).
func (q *eventQueue) calBefore(a, b int32) bool {
	x, y := &q.ts[a], &q.ts[b]
	return x.at < y.at || x.at == y.at && x.seq < y.seq
}

// calLink adds timer id to the front of ring slot slot's list.
func (q *eventQueue) calLink(id int, slot int32) {
	t := &q.ts[id]
	head := q.cal[slot]
	t.bucket, t.next, t.prev = slot, head, -1
	if head >= 0 {
		q.ts[head].prev = int32(id)
	}
	q.cal[slot] = int32(id)
	q.calN[slot]++
	q.calLen++
	q.calBits[slot>>6] |= 1 << (uint(slot) & 63)
}

// calUnlink removes timer id from its calendar bucket.
func (q *eventQueue) calUnlink(id int) {
	t := &q.ts[id]
	q.calN[t.bucket]--
	q.calLen--
	if t.prev >= 0 {
		q.ts[t.prev].next = t.next
	} else {
		q.cal[t.bucket] = t.next
		if t.next < 0 {
			q.calBits[t.bucket>>6] &^= 1 << (uint(t.bucket) & 63)
		}
	}
	if t.next >= 0 {
		q.ts[t.next].prev = t.prev
	}
	t.bucket, t.next, t.prev = -1, -1, -1
}

// findCalMin finds the calendar's earliest timer: the first non-empty
// bucket from calBase's ring slot on (every calendar timer is in
// calBase's window), searched.
func (q *eventQueue) findCalMin() {
	if q.calLen == 0 {
		q.calMin = -1
		return
	}
	// A timer is in the calendar, so some ring slot's bit is set: the
	// walk from calBase's slot, wrapping once, meets it.
	start := int(q.calBase & (calBuckets - 1))
	w := start >> 6
	m := q.calBits[w] &^ (1<<(uint(start)&63) - 1)
	for m == 0 {
		w = (w + 1) % len(q.calBits)
		m = q.calBits[w]
	}
	best := q.cal[w<<6+bits.TrailingZeros64(m)]
	for id := q.ts[best].next; id >= 0; id = q.ts[id].next {
		if q.calBefore(id, best) {
			best = id
		}
	}
	q.setCalMin(best)
}

// setCalMin makes timer id the calendar's earliest.
func (q *eventQueue) setCalMin(id int32) {
	t := &q.ts[id]
	q.calMin, q.calTop = id, heapEntry{at: t.at, seq: t.seq, slot: uint32(id)}
}

// removeTimerAt removes the timer at index i of th.
func (q *eventQueue) removeTimerAt(i int) {
	th := q.th
	q.ts[th[i].slot].pos = -1
	n := len(th) - 1
	if i != n {
		th[i] = th[n]
		q.ts[th[i].slot].pos = int32(i)
	}
	q.th = th[:n]
	if i < n {
		q.siftTimer(i)
	}
}

// siftTimer restores the (binary) timer heap around index i, whose entry
// changed, keeping the timers' pos in step.
func (q *eventQueue) siftTimer(i int) {
	th := q.th
	x := th[i]
	for i > 0 {
		p := (i - 1) / 2
		if !before(&x, &th[p]) {
			break
		}
		th[i] = th[p]
		q.ts[th[i].slot].pos = int32(i)
		i = p
	}
	n := len(th)
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && before(&th[c+1], &th[c]) {
			c++
		}
		if !before(&th[c], &x) {
			break
		}
		th[i] = th[c]
		q.ts[th[i].slot].pos = int32(i)
		i = c
	}
	th[i] = x
	q.ts[x.slot].pos = int32(i)
}

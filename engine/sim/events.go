package sim

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
// Beside it sits a heap of timers: one slot per object that has at most
// one pending event of a kind (a CPU's compute end, a core's mode
// re-evaluation), re-armed in place like an hrtimer (hrtimer_start() on an
// armed timer moves it). Re-arming takes a new sequence number, exactly
// as pushing a new event and ignoring the old one would, so the order of
// the events that fire is the same; the superseded ones are simply never
// queued.
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

	th   []heapEntry // armed timers (slot = timer id)
	tpos []int32     // timer id → its index in th, -1 when not armed
	tev  []event     // timer id → its event

	// lane is a FIFO of events pushed in time order (pushInOrder): the
	// periodic ticks, each armed one period after the one that fires.
	// An event that would come before the lane's last one goes to the
	// heap instead, so the lane is always sorted by (at, seq).
	lane     []laneEntry // ring buffer, len a power of two
	laneHead int
	laneLen  int
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
	q.tpos = make([]int32, timers)
	for i := range q.tpos {
		q.tpos[i] = -1
	}
	q.tev = make([]event, timers)
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
	return (len(q.h) == 0 || before(&x, &q.h[0])) && (len(q.th) == 0 || before(&x, &q.th[0]))
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
	if len(q.th) > 0 && (len(q.h) == 0 || before(&q.th[0], &q.h[0])) {
		id := q.th[0].slot
		q.removeTimerAt(0)
		return q.tev[id], true
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

// peek returns the earliest event without removing it.
func (q *eventQueue) peek() (event, bool) {
	if q.laneLen > 0 && q.laneFirst() {
		return q.lane[q.laneHead].ev, true
	}
	if len(q.th) > 0 && (len(q.h) == 0 || before(&q.th[0], &q.h[0])) {
		return q.tev[q.th[0].slot], true
	}
	if len(q.h) == 0 {
		return event{}, false
	}
	return q.slots[q.h[0].slot], true
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
	x := heapEntry{at: e.at, seq: uint32(q.seq), slot: uint32(id)}
	i := int(q.tpos[id])
	if i < 0 {
		i = len(q.th)
		q.th = append(q.th, x)
	} else {
		q.th[i] = x
	}
	q.siftTimer(i)
}

// disarm cancels timer id's pending event, if any.
func (q *eventQueue) disarm(id int) {
	if i := q.tpos[id]; i >= 0 {
		q.removeTimerAt(int(i))
	}
}

// removeTimerAt removes the timer at index i of th.
func (q *eventQueue) removeTimerAt(i int) {
	th := q.th
	q.tpos[th[i].slot] = -1
	n := len(th) - 1
	if i != n {
		th[i] = th[n]
		q.tpos[th[i].slot] = int32(i)
	}
	q.th = th[:n]
	if i < n {
		q.siftTimer(i)
	}
}

// siftTimer restores the (binary) timer heap around index i, whose entry
// changed, keeping tpos in step.
func (q *eventQueue) siftTimer(i int) {
	th := q.th
	x := th[i]
	for i > 0 {
		p := (i - 1) / 2
		if !before(&x, &th[p]) {
			break
		}
		th[i] = th[p]
		q.tpos[th[i].slot] = int32(i)
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
		q.tpos[th[i].slot] = int32(i)
		i = c
	}
	th[i] = x
	q.tpos[x.slot] = int32(i)
}

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
)

// event is one entry of the queue: integer-ns time, insertion sequence
// (ties fire in insertion order), what to do and on what. gen lets an
// object invalidate its earlier events without removing them.
type event struct {
	at   int64
	seq  uint64
	kind evKind
	a, b int32
	gen  uint32
}

// eventQueue is a binary min-heap of events ordered by (at, seq). It
// holds values, so steady-state push/pop do not allocate.
type eventQueue struct {
	h   []event
	seq uint64
}

// less orders events by time, then insertion.
func (q *eventQueue) less(i, j int) bool {
	if q.h[i].at != q.h[j].at {
		return q.h[i].at < q.h[j].at
	}
	return q.h[i].seq < q.h[j].seq
}

// push adds an event.
func (q *eventQueue) push(e event) {
	q.seq++
	e.seq = q.seq
	q.h = append(q.h, e)
	i := len(q.h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !q.less(i, p) {
			break
		}
		q.h[i], q.h[p] = q.h[p], q.h[i]
		i = p
	}
}

// pop removes and returns the earliest event; ok is false when empty.
func (q *eventQueue) pop() (event, bool) {
	n := len(q.h)
	if n == 0 {
		return event{}, false
	}
	top := q.h[0]
	n--
	q.h[0] = q.h[n]
	q.h = q.h[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && q.less(r, l) {
			m = r
		}
		if !q.less(m, i) {
			break
		}
		q.h[i], q.h[m] = q.h[m], q.h[i]
		i = m
	}
	return top, true
}

// peek returns the earliest event without removing it.
func (q *eventQueue) peek() (event, bool) {
	if len(q.h) == 0 {
		return event{}, false
	}
	return q.h[0], true
}

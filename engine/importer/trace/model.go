package trace

import (
	"math"
)

// nBuckets is the burst histogram's size: log2 buckets of work in ns
// (bucket k holds bursts in [2^k, 2^(k+1)) ns; 2^40 ns is 18 minutes).
const nBuckets = 41

// bucket accumulates the activations whose burst falls in one histogram
// bucket: their count, work and the sleep before them.
type bucket struct {
	n     int64
	work  float64 // reference ns of work
	sleep float64 // ns asleep before these activations
}

// waitKind is what ended a task's wait.
type waitKind uint8

const (
	waitStart waitKind = iota // the trace's start or the task's fork
	waitTimer                 // a timer or interrupt (no task woke it)
	waitTask                  // a task woke it
)

// task is what the replay keeps of one traced task: bounded aggregates,
// never its events.
type task struct {
	pid  int
	comm string
	prio int
	// first is when the task was first seen; forkAt when it was forked
	// (-1: it existed before the trace).
	first, forkAt int64
	// cpuTime is the time it ran (ns); work the same scaled by each
	// CPU's speed.
	cpuTime int64
	work    float64
	// running state
	running  bool
	runCPU   int
	runStart int64
	blocked  bool
	blockAt  int64
	exited   bool
	// the activation in progress: its work so far and how it began
	burst   float64
	wait    waitKind
	sleep   int64
	inBurst bool
	// histograms of finished activations, by how they began
	hist [3][nBuckets]bucket
	// wakeups counts the times it was woken from a sleep, by whom.
	wakeups, timerWakes, taskWakes int64
	// periodicity of timer wake-ups: intervals between consecutive
	// timer wake-ups (count, sum, sum of squares, in µs) that are within
	// 1.5 times the running mean; ivLong counts the longer ones (missed
	// periods), ivOdd those of them that are not near a whole number of
	// periods.
	lastTimerWake      int64
	ivN, ivLong, ivOdd int64
	ivSum, ivSq        float64
	cpus               cpuSet
	runs               int64
	// choice: woken while its last CPU ran another task and another CPU
	// was idle; stayedBusy counts the times it then ran on that CPU.
	choice     bool
	stayedBusy int64
	// sleepFam is the family it was counted under while blocked.
	sleepFam string
	// startsWaiting: its first activation began with a wake-up (it was
	// asleep before it first ran), after firstSleep; firstByTask says a
	// task (not a timer) woke it the first time it was woken.
	startsWaiting        bool
	firstByTask          bool
	firstSleep           int64
	fanWoken, familyWoke int64 // wake-ups in a fan-out burst; of those, by a task of its family
}

// cpuSet remembers up to two distinct CPUs (enough to tell a task that
// only ever ran on one CPU).
type cpuSet struct {
	a, b int
	n    int
}

func (s *cpuSet) add(c int) {
	switch {
	case s.n == 0:
		s.a, s.n = c, 1
	case s.n == 1 && c != s.a:
		s.b, s.n = c, 2
	}
}

// bucketOf is the histogram bucket of a burst of w reference ns.
func bucketOf(w float64) int {
	if w < 1 {
		return 0
	}
	k := int(math.Log2(w))
	return min(max(k, 0), nBuckets-1)
}

// endActivation files the activation in progress into its histogram.
func (t *task) endActivation() {
	if !t.inBurst {
		return
	}
	b := &t.hist[t.wait][bucketOf(t.burst)]
	b.n++
	b.work += t.burst
	b.sleep += float64(t.sleep)
	t.burst, t.inBurst = 0, false
}

// activations counts the finished activations of every kind.
func (t *task) activations() int64 {
	var n int64
	for k := range t.hist {
		for _, b := range t.hist[k] {
			n += b.n
		}
	}
	return n
}

// interval files the time between two timer wake-ups (µs).
func (t *task) interval(iv float64) {
	if t.ivN > 0 {
		mean := t.ivSum / float64(t.ivN)
		if iv > 1.5*mean {
			t.ivLong++
			if f := iv / mean; math.Abs(f-math.Round(f)) > 0.15 {
				t.ivOdd++
			}
			return
		}
	}
	t.ivN++
	t.ivSum += iv
	t.ivSq += iv * iv
}

package sim

import (
	"testing"
)

// TestKernelCostsFollowCoreSpeed: the kernel-instruction costs are a
// reference core's; hikey960's A53s (speed 0.55) take them ÷ 0.55. A
// microsecond more per context switch moves a sched-pipe loop (two
// switches, one on each side) by 2 µs on the A73s and by 2 ÷ 0.55 µs on
// the A53s.
func TestKernelCostsFollowCoreSpeed(t *testing.T) {
	loop := func(cpus, set string) float64 {
		r := resolveJSON(t, `{"schedplay":1,"machine":{"preset":"hikey960","latency":{"variation":0`+set+`}},
			"policy":{"preset":"misfit"},"workload":{"preset":"sched-pipe"},"run":{"seed":1,"reps":1}}`)
		for i := range r.Workload.Groups {
			r.Workload.Groups[i].CPUs = cpus
		}
		return mustRun(t, r, Options{}).Reps[0].OpTimeNs
	}
	for _, tc := range []struct {
		cpus  string
		speed float64
	}{{"4-7", 1.0}, {"0-3", 0.55}} {
		base := loop(tc.cpus, "")
		more := loop(tc.cpus, `,"context_switch":"1700ns"`)
		want := 2 * 1000 / tc.speed
		if got := more - base; got < 0.97*want || got > 1.03*want {
			t.Errorf("CPUs %s: a context switch 1 µs dearer moved a loop by %.0f ns; want %.0f (2 switches at speed %.2f)", tc.cpus, got, want, tc.speed)
		}
	}
}

// TestWakerPaysItsOwnWakeUps: a task that wakes seven waiters on other
// CPUs and then blocks stays on its CPU until it has issued them all
// (try_to_wake_up() runs in its context, endWakeBatch), so the cost of the
// batch is its own run time, not the start of the next task's.
func TestWakerPaysItsOwnWakeUps(t *testing.T) {
	r := resolveJSON(t, `{"schedplay":1,"machine":{"preset":"hikey960","latency":{"variation":0}},"policy":{"preset":"misfit"},
		"workload":{"groups":[
		 {"name":"waker","count":1,"cpus":"4","program":[{"sleep":"1ms"},{"send":"go","wake":7},{"recv":"back"}]},
		 {"name":"next","count":1,"cpus":"4","program":[{"sleep":"1ms"},{"compute":"100us"}]},
		 {"name":"waiter","count":7,"cpus":"0-3,5-7","pin":"each","program":[{"recv":"go"},{"send":"back"}]}]},
		"run":{"duration":"20ms","until":"done","seed":1,"reps":1}}`)
	res := mustRun(t, r, Options{Timeline: true})
	tl := res.Timeline
	var waker, next int = -1, -1
	for i, ti := range tl.Tasks {
		switch ti.Name {
		case "waker/0":
			waker = i
		case "next/0":
			next = i
		}
	}
	if waker < 0 || next < 0 {
		t.Fatalf("tasks %+v", tl.Tasks)
	}
	var held int64 // the waker's time on CPU 4 after its sleep
	for _, iv := range tl.Runs[4] {
		if iv.Task == waker && iv.Start >= 1_000_000 {
			held += iv.End - iv.Start
		}
	}
	// seven remote wake-ups at the A73's costs: wakeup + ipi_send + 4 lines
	l := r.WithDefaults().Machine.Latency
	batch := 7 * int64(l.Wakeup+l.IPISend)
	if held < batch {
		t.Errorf("the waker left CPU 4 after %d ns; want at least its seven wake-ups' %d ns", held, batch)
	}
}

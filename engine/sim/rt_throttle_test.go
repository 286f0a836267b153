package sim

import (
	"context"
	"slices"
	"testing"
)

// rtThrottleDoc is one CPU (or two) with an RT hog and an RT periodic task
// of a higher priority on CPU 0, under generation gen, run for 3 s.
func rtThrottleDoc(gen string) string {
	return `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":1,"threads_per_core":1},"policy":{"generation":"` + gen + `"},
		"workload":{"groups":[{"name":"hog","count":1,"policy":"fifo","rt_priority":50,"program":[{"compute":"10s"}]},
			{"name":"cyclictest","count":1,"policy":"fifo","rt_priority":90,"program":[{"periodic":{"every":"10ms","count":1000,"do":[{"compute":"10us"}]}}]}]},
		"run":{"duration":"3s","reps":1,"seed":1}}`
}

// TestRTThrottlingIdlesTheCPU: 6.1 throttles a CPU's RT class once its RT
// tasks have run 950 ms of the period (sched_rt_runtime_exceeded(), at the
// first update_curr_rt() past it, ≈950 ms), whether or not anything else
// wants the CPU: it idles until the period timer at 1000 ms, and even a
// higher-priority RT task waking meanwhile waits for it (≈50 ms). 6.12 and the tip have no
// such throttling (and no fair task here to start the fair server): the
// CPU never idles and the periodic task's wake-ups are never held.
func TestRTThrottlingIdlesTheCPU(t *testing.T) {
	for _, c := range []struct {
		gen      string
		throttle bool
	}{{"6.1", true}, {"6.12", false}, {"tip-2026-09", false}} {
		res := mustRun(t, resolveJSON(t, rtThrottleDoc(c.gen)), Options{Timeline: true})
		var gap, gapAt int64 // the longest stretch CPU 0 ran nothing, and where it began
		end := int64(0)
		for _, r := range res.Timeline.Runs[0] {
			if r.Start-end > gap {
				gap, gapAt = r.Start-end, end
			}
			end = max(end, r.End)
		}
		lat := res.Reps[0].Latency.Max
		if c.throttle && (gap < 47_000_000 || gap > 51_000_000 || gapAt < 948_000_000 || gapAt > 953_000_000 || lat < 40_000_000) ||
			!c.throttle && (gap > 1_000_000 || lat > 100_000) {
			t.Errorf("%s: CPU 0 idled at most %.3f ms from %.3f ms, the periodic RT task's wake-up latency max %.3f ms; want throttling %v (≈50 ms idle from ≈950 ms, wake-ups held)",
				c.gen, float64(gap)/1e6, float64(gapAt)/1e6, float64(lat)/1e6, c.throttle)
		}
	}
}

// TestRTPeriodsStartAtTheFirstRTEnqueue: the period timer is started by
// the first RT enqueue while it is inactive (inc_rt_group() →
// start_rt_bandwidth()) and fires at once, so periods run from there: an
// RT hog that starts at 300 ms is throttled at 1252 ms and runs again at
// 1300 ms. When no CPU has RT time or RT tasks at a period's end the timer
// stops (rt_period_active = 0): the hog ends at 1548 ms, and the period
// at 2300 ms pays its last 250 ms back and, with no RT time or task left,
// stops the timer.
func TestRTPeriodsStartAtTheFirstRTEnqueue(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":1,"threads_per_core":1},"policy":{"generation":"6.1"},
		"workload":{"groups":[{"name":"hog","count":1,"policy":"fifo","rt_priority":50,"start":"300ms","program":[{"compute":"1200ms"}]},
			{"name":"sleeper","count":1,"program":[{"sleep":"4s"}]}]},
		"run":{"duration":"5s","seed":1}}`)
	c := &s.cpus[0]
	for _, k := range []struct {
		at        int64
		throttled bool
		active    bool
	}{{1_250_000_000, false, true}, {1_260_000_000, true, true}, {1_310_000_000, false, true}, {2_290_000_000, false, true}, {2_310_000_000, false, false}} {
		if err := s.runUntil(context.Background(), k.at, 0, 1); err != nil {
			t.Fatal(err)
		}
		if c.rtThrottled != k.throttled || s.rtPeriodActive != k.active {
			t.Errorf("at %d ms: throttled %v (rt_time %d ns), period timer active %v; want %v, %v", k.at/1_000_000, c.rtThrottled, c.rtTime, s.rtPeriodActive, k.throttled, k.active)
		}
	}
}

// TestUpdateCurrRTCountsEveryRun: rt_time takes an RT task's run when it
// sleeps (dequeue_task_rt() → update_curr_rt()), not only at the ticks it
// is running for: a 2 ms run between two ticks counts 2 ms.
func TestUpdateCurrRTCountsEveryRun(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":1,"threads_per_core":1},"policy":{"generation":"6.1"},
		"workload":{"groups":[{"name":"rt","count":1,"policy":"fifo","rt_priority":50,"start":"1ms","program":[{"compute":"2ms"},{"sleep":"1s"}]}]},
		"run":{"duration":"2s","seed":1}}`)
	if err := s.runUntil(context.Background(), 3_900_000, 0, 1); err != nil {
		t.Fatal(err)
	}
	if rt := s.cpus[0].rtTime; rt < 2_000_000 || rt > 2_100_000 {
		t.Errorf("after a 2 ms RT run ending before the next tick: rt_time %d ns; want ≈2 ms", rt)
	}
}

// throttledDoc is two CPUs under 6.1: an RT hog on CPU 0, a fair hog on
// CPU 1 and a fair task allowed on both that wakes every 10 ms for 1 ms.
const throttledDoc = `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":2,"threads_per_core":1},"policy":{"generation":"6.1"},
	"workload":{"groups":[{"name":"rt","count":1,"cpus":"0","policy":"fifo","rt_priority":50,"program":[{"compute":"10s"}]},
		{"name":"hog","count":1,"cpus":"1","program":[{"compute":"10s"}]},
		{"name":"tick","count":1,"cpus":"0-1","program":[{"periodic":{"every":"10ms","count":300,"do":[{"compute":"1ms"}]}}]}]},
	"run":{"duration":"2s","reps":1,"seed":1}}`

// TestThrottledRTLeavesNrRunning: a throttled RT class is off
// rq->nr_running (dequeue_top_rt_rq() → sub_nr_running()), so the CPU it
// leaves idle is idle to the wake-up path (idle_cpu(): curr is the idle
// task, nr_running 0) until the period timer puts it back. The fair task
// then wakes onto CPU 0 in 950–1000 ms, where before the throttle it
// shares CPU 1 with the fair hog (once CPU 0's capacity shows the RT hog,
// rt_pressure.go, a pass of CPU 1 pulls it there; it runs 1 ms from
// x4.05 ms of every 10, so 977 ms finds CPU 0 idle).
func TestThrottledRTLeavesNrRunning(t *testing.T) {
	s := simOf(t, throttledDoc)
	c := &s.cpus[0]
	for _, k := range []struct {
		at   int64
		idle bool
	}{{900_000_000, false}, {977_000_000, true}, {1_010_000_000, false}} {
		if err := s.runUntil(context.Background(), k.at, 0, 1); err != nil {
			t.Fatal(err)
		}
		if s.availableIdle(0) != k.idle || (c.nrRunningAll() == 0) != k.idle {
			t.Errorf("at %d ms: CPU 0 throttled %v, available_idle_cpu() %v, nr_running %d; want idle %v",
				k.at/1_000_000, c.rtThrottled, s.availableIdle(0), c.nrRunningAll(), k.idle)
		}
	}
	// The wake-ups in the throttled windows find CPU 0 idle at once
	// (select_idle_sibling()'s target test); counted as tasks, the throttled
	// RT hog made them scan and fall back to the busy target.
	res := mustRun(t, resolveJSON(t, throttledDoc), Options{Timeline: true})
	idleHits := 0
	for _, d := range res.Timeline.Decisions {
		if d.Kind == "wakeup" && d.Task == 2 && d.At%1_000_000_000 >= 952_000_000 && slices.Contains(d.Path, "select_idle_sibling: target 0 idle") {
			idleHits++
		}
	}
	if idleHits < 3 {
		t.Errorf("%d wake-ups of the fair task in the throttled windows found CPU 0 idle; want ≥ 3", idleHits)
	}
}

// TestUnthrottleSetsOverload: the period timer's sched_rt_rq_enqueue()
// puts the RT class back on rq->nr_running with add_nr_running(), which
// marks the root domain overloaded when the CPU goes from under two tasks
// to two or more: an RT hog and a fair task on one CPU, at 1000 ms.
func TestUnthrottleSetsOverload(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":1,"threads_per_core":1},"policy":{"generation":"6.1"},
		"workload":{"groups":[{"name":"rt","count":1,"policy":"fifo","rt_priority":50,"program":[{"compute":"10s"}]},
			{"name":"fair","count":1,"program":[{"compute":"10s"}]}]},
		"run":{"duration":"2s","seed":1}}`)
	if err := s.runUntil(context.Background(), 990_000_000, 0, 1); err != nil {
		t.Fatal(err)
	}
	if !s.cpus[0].rtThrottled || s.cpus[0].nrRunningAll() != 1 {
		t.Fatalf("at 990 ms: throttled %v, nr_running %d; want the RT class throttled and the fair task alone counted", s.cpus[0].rtThrottled, s.cpus[0].nrRunningAll())
	}
	s.rdOverloaded = false
	if err := s.runUntil(context.Background(), 1_000_500_000, 0, 1); err != nil {
		t.Fatal(err)
	}
	if s.cpus[0].rtThrottled || !s.rdOverloaded {
		t.Errorf("at 1000.5 ms: throttled %v, root domain overloaded %v; want the class back and the overload set", s.cpus[0].rtThrottled, s.rdOverloaded)
	}
}

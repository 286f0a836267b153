package sim

import (
	"fmt"
	"testing"
)

// rtDoc is a scenario on a machine of cpus one-thread cores whose groups
// are given as JSON, run for 1 s (or until done).
func rtDoc(cpus int, groups string) string {
	return fmt.Sprintf(`{"schedplay":1,"machine":{"nodes":1,"cores_per_node":%d,"threads_per_core":1},
		"workload":{"groups":[%s]},"run":{"duration":"1s","reps":1,"seed":1}}`, cpus, groups)
}

// TestRTPreemptsAFairHogAtOnce: cyclictest -p on a CPU a fair hog holds.
// Its timer wakes it with no slack (hrtimer_nanosleep() gives an RT task
// none), on its own CPU (select_task_rq_rt(): no RT task runs there), and
// wakeup_preempt() reschedules the hog at once (resched_curr(), not
// lazy): the latency is the wake-up and the switch, a few microseconds.
// The same loop as SCHED_OTHER waits for its 50 µs slack and for the
// fair class's preemption.
func TestRTPreemptsAFairHogAtOnce(t *testing.T) {
	for _, gen := range []string{"6.1", "6.12", "tip-2026-09"} {
		lat := func(policy string) *Result {
			doc := rtDoc(1, `{"name":"hog","count":1,"program":[{"compute":"10s"}]},
				{"name":"cyclictest","count":1`+policy+`,"program":[{"periodic":{"every":"1ms","count":500,"do":[{"compute":"2us"}]}}]}`)
			doc = `{"policy":{"generation":"` + gen + `"},` + doc[1:]
			return mustRun(t, resolveJSON(t, doc), Options{})
		}
		rt, fair := lat(`,"policy":"fifo","rt_priority":95`).Reps[0], lat(``).Reps[0]
		if rt.Latency.P99 > 10_000 || fair.Latency.P50 < 50_000 {
			t.Errorf("%s: wake-up latency p50/p99 %d/%d ns as SCHED_FIFO and %d/%d ns as SCHED_OTHER beside a hog; want p99 under 10 µs for FIFO, p50 above the 50 µs slack for OTHER",
				gen, rt.Latency.P50, rt.Latency.P99, fair.Latency.P50, fair.Latency.P99)
		}
	}
}

// TestRTRunsBeforeFair: an RT task queued beside a fair one runs first
// and to its end (pick_next_task_rt() before the fair class); the fair
// task gets the CPU only then.
func TestRTRunsBeforeFair(t *testing.T) {
	for _, policy := range []string{"fifo", "rr"} {
		doc := rtDoc(1, `{"name":"fair","count":1,"program":[{"timed":"fair","do":[{"compute":"50ms"}]}]},
			{"name":"rt","count":1,"policy":"`+policy+`","rt_priority":10,"start":"1ms","program":[{"timed":"rt","do":[{"compute":"50ms"}]}]}`)
		res := mustRun(t, resolveJSON(t, doc), Options{})
		fair, rt := res.Summary.Timed[0].Time.Mean, res.Summary.Timed[1].Time.Mean
		if rt > 51e6 || fair < 99e6 {
			t.Errorf("%s: the RT task's 50 ms took %.1f ms and the fair task's %.1f ms; want the RT task never preempted (≈50 ms) and the fair one waiting for it (≈100 ms)",
				policy, rt/1e6, fair/1e6)
		}
	}
}

// TestRTWakeeAvoidsACPUOfItsPriority: an RT task waking on a CPU whose
// curr is an RT task of its priority or higher, or a pinned RT task of
// any priority, goes to a CPU running lower priorities
// (select_task_rq_rt() → find_lowest_rq()) instead of queueing; behind an
// unpinned lower priority it stays and preempts (and the preempted task is
// pushed away, TestRTPushAtSetNextTask).
func TestRTWakeeAvoidsACPUOfItsPriority(t *testing.T) {
	// the sleeper starts on CPU 0 (forked from CPU 1: the fair slow path
	// takes the idle CPU); the other task arrives there at 20 ms
	run := func(prio int, cpus string) (int64, int64) {
		doc := rtDoc(2, fmt.Sprintf(`{"name":"sleeper","count":1,"parent_cpu":1,"policy":"fifo","rt_priority":50,"program":[{"repeat":40,"do":[{"sleep":"5ms"},{"compute":"100us"}]}]},
			{"name":"other","count":1,"cpus":"%s","parent_cpu":1,"policy":"fifo","rt_priority":%d,"start":"20ms","program":[{"compute":"500ms"}]}`, cpus, prio))
		r := mustRun(t, resolveJSON(t, doc), Options{}).Reps[0]
		return r.Migrations.Wakeup, r.Latency.Max
	}
	for _, c := range []struct {
		prio  int
		cpus  string
		moves int64
	}{{50, "0-1", 1}, {60, "0-1", 1}, {10, "0", 1}, {10, "0-1", 0}} {
		if m, lat := run(c.prio, c.cpus); m != c.moves || lat > 20_000 {
			t.Errorf("an RT task of priority %d (cpus %s) takes the sleeper's CPU: %d wake-up migrations, wake-up latency max %d ns; want %d and no wait behind it",
				c.prio, c.cpus, m, lat, c.moves)
		}
	}
}

// TestRRSliceRoundRobin: two SCHED_RR tasks of one priority on one CPU
// take turns every RR_TIMESLICE (100 ms, task_tick_rt()); two SCHED_FIFO
// tasks run one after the other.
func TestRRSliceRoundRobin(t *testing.T) {
	switches := func(policy string) int64 {
		doc := rtDoc(1, `{"name":"rt","count":2,"policy":"`+policy+`","rt_priority":20,"program":[{"compute":"400ms"}]}`)
		return mustRun(t, resolveJSON(t, doc), Options{}).Reps[0].ContextSwitches
	}
	// each switch-in stalls the task for the context switch, so 100 ms
	// turns leave each a few microseconds of work for a last turn
	if rr, fifo := switches("rr"), switches("fifo"); rr < 8 || rr > 10 || fifo != 2 {
		t.Errorf("two 400 ms tasks on one CPU: %d context switches as SCHED_RR, %d as SCHED_FIFO; want 8 turns of 100 ms (and the switches' tails, 10 at most) and 2", rr, fifo)
	}
}

// TestRTCurrLeavesTheFairClassWithoutCurr: while an RT task runs,
// cfs_rq->curr is NULL (put_prev_task_fair() left the preempted fair task
// queued): update_curr() charges no one, and the cfs_rq's PELT sees no
// running fair entity, so the CPU's fair utilization (cpu_util_cfs())
// decays under an RT hog instead of growing.
func TestRTCurrLeavesTheFairClassWithoutCurr(t *testing.T) {
	s := simOf(t, rtDoc(1, `{"name":"fair","count":1,"program":[{"compute":"1s"}]},
		{"name":"rt","count":1,"policy":"fifo","rt_priority":10,"program":[{"compute":"1s"}]}`))
	c := &s.cpus[0]
	fair := place(s, 0, 0)
	s.schedule(c)
	updateCPUAt(s, c, 50_000_000)
	before, v := s.cpuUtilCfs(c), fair.vruntime
	rt := s.tasks[1]
	rt.remaining = 1e12
	s.enqueueTaskRT(c, rt)
	s.schedule(c)
	if c.curr != rt || c.cfsCurr() != nil || fair.state != taskRunnable {
		t.Fatalf("after the RT task's enqueue: curr %v, cfs curr %v, fair task state %d; want the RT task running and the fair one queued", c.curr, c.cfsCurr(), fair.state)
	}
	s.now = 150_000_000
	s.syncCPU(c)
	if s.updateCurr(c) || fair.vruntime != v {
		t.Errorf("update_curr() under an RT curr moved the fair task's vruntime %d → %d", v, fair.vruntime)
	}
	s.updateCfsRqLoadAvg(c)
	if after := s.cpuUtilCfs(c); after >= before/2 {
		t.Errorf("cpu_util_cfs() %d after 100 ms of an RT hog, %d before; want it decaying (no fair curr running)", after, before)
	}
}

// TestTimelineTaskPrio: a timeline names each task's p->prio, as
// sched_switch prints it: 120 + nice for SCHED_OTHER and SCHED_BATCH,
// 120 for SCHED_IDLE, 99 - rt_priority for SCHED_FIFO and SCHED_RR; and
// its policy unless it is SCHED_OTHER.
func TestTimelineTaskPrio(t *testing.T) {
	doc := rtDoc(2, `{"name":"n","count":1,"nice":5,"program":[{"compute":"1ms"}]},
		{"name":"f","count":1,"policy":"fifo","rt_priority":95,"program":[{"compute":"1ms"}]},
		{"name":"r","count":1,"policy":"rr","rt_priority":99,"program":[{"compute":"1ms"}]},
		{"name":"b","count":1,"policy":"batch","nice":-3,"program":[{"compute":"1ms"}]},
		{"name":"i","count":1,"policy":"idle","program":[{"compute":"1ms"}]}`)
	res := mustRun(t, resolveJSON(t, doc), Options{Timeline: true})
	var got []string
	for _, ti := range res.Timeline.Tasks {
		got = append(got, fmt.Sprintf("%d %s", ti.Prio, ti.Policy))
	}
	if want := "[125  4 SCHED_FIFO 0 SCHED_RR 117 SCHED_BATCH 120 SCHED_IDLE]"; fmt.Sprint(got) != want {
		t.Errorf("timeline prios and policies %v; want %s", got, want)
	}
}

// TestRTPickPutsADelayedPrev: a fair task that slept while ineligible
// stays queued as a delayed entity and is still cfs_rq->curr for the pick
// that follows; when that pick is an RT task's, put_prev_task_fair()
// still runs put_prev_entity(), so no later fair pick sees it as curr.
func TestRTPickPutsADelayedPrev(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":1,"threads_per_core":1},"policy":{"generation":"6.12"},
		"workload":{"groups":[{"name":"fair","count":2,"program":[{"compute":"1s"}]},
		{"name":"rt","count":1,"policy":"fifo","rt_priority":10,"program":[{"compute":"1s"}]}]},"run":{"duration":"2s","seed":1}}`)
	c := &s.cpus[0]
	a, b := place(s, 0, 0), place(s, 1, 0)
	s.schedule(c)
	run := c.curr
	s.now = 20_000_000
	s.syncCPU(c)
	s.updateCurr(c) // run is now well ahead of the other: ineligible
	rt := s.tasks[2]
	rt.remaining = 1e12
	s.enqueueTaskRT(c, rt) // queued, no preemption yet
	if !s.dequeueCurrDelayed(c, run) {
		t.Fatalf("set-up: %s (vruntime %d against %d) was not delayed", run.name, a.vruntime, b.vruntime)
	}
	s.schedule(c)
	if c.curr != rt || c.delayedPrev != nil || run.protected {
		t.Errorf("after the RT pick: curr %v, delayed prev %v; want the RT task and no delayed prev left as cfs_rq->curr", c.curr.name, c.delayedPrev)
	}
}

// TestRTThreadForkedAsFair: cyclictest's timerthread() and rt-app's
// threads set their RT policy themselves once they run
// (sched_setscheduler(0, ...)); pthread_create() gives them the main
// thread's SCHED_OTHER, so wake_up_new_task() places them with
// select_task_rq_fair()'s fork slow path: away from the parent's CPU, on
// an idle one. select_task_rq_rt() would keep them on the parent's CPU.
func TestRTThreadForkedAsFair(t *testing.T) {
	doc := rtDoc(4, `{"name":"cyclictest","count":1,"parent_cpu":0,"policy":"fifo","rt_priority":99,"program":[{"compute":"1ms"}]}`)
	res := mustRun(t, resolveJSON(t, doc), Options{Timeline: true})
	d := res.Timeline.Decisions[0]
	if d.Kind != "fork" || d.To == 0 || d.Path[0] != "select_task_rq_fair" {
		t.Errorf("the RT thread's fork: %s to CPU %d by %v; want the fair slow path's idle CPU, not the parent's CPU 0", d.Kind, d.To, d.Path)
	}
}

// TestPeriodicSkipMissed: a periodic loop whose body (2.5 ms) outlasts its
// 1 ms period. cyclictest's timerthread() moves its next expiry past now
// after each wake-up (skip_missed), so it sleeps to the next boundary and
// every sample is a timer wake-up's latency, under its 50 µs slack plus
// the wake-up; without the skip the loop falls further behind its absolute
// schedule, running each late period at once with its growing overrun as
// its latency.
func TestPeriodicSkipMissed(t *testing.T) {
	run := func(skip string) Latency {
		doc := rtDoc(1, `{"name":"cyclictest","count":1,"program":[{"periodic":{"every":"1ms","count":40`+skip+`,"do":[{"compute":"2500us"}]}}]}`)
		return mustRun(t, resolveJSON(t, doc), Options{}).Reps[0].Latency
	}
	skip, all := run(`,"skip_missed":true`), run(``)
	if skip.Max > 200_000 || skip.Count != 40 {
		t.Errorf("skip_missed: %d samples, max %d ns; want 40, each under 200 µs", skip.Count, skip.Max)
	}
	if all.Max < 10_000_000 {
		t.Errorf("without skip_missed: max latency %d ns; want the overrun of the late periods (over 10 ms)", all.Max)
	}
}

// TestEqualPrioWakeeTakesThePinnedPath: a SCHED_FIFO 50 task pinned to
// CPU 0 wakes every 10 ms while a migratable FIFO 50 hog runs there and
// CPU 1 idles. wakeup_preempt_rt() calls check_preempt_equal_prio(): the
// hog could run on CPU 1 and the pinned task nowhere else, so the wakee
// is requeued ahead of the hog and runs at once, and its
// set_next_task_rt() pushes the hog to CPU 1. Without it the pinned task
// waited behind the hog for up to 91 ms.
func TestEqualPrioWakeeTakesThePinnedPath(t *testing.T) {
	doc := rtDoc(2, `{"name":"pinned","count":1,"cpus":"0","parent_cpu":0,"policy":"fifo","rt_priority":50,"program":[{"repeat":5,"do":[{"sleep":"10ms"},{"compute":"100us"}]}]},
		{"name":"hog","count":1,"parent_cpu":1,"policy":"fifo","rt_priority":50,"start":"1ms","program":[{"compute":"100ms"}]}`)
	rep := mustRun(t, resolveJSON(t, doc), Options{}).Reps[0]
	if rep.Latency.Max > 1_000_000 || rep.Migrations.RT == 0 {
		t.Errorf("pinned task's wake-up latency max %d ns with %d RT migrations; want under 1 ms, the hog pushed to CPU 1", rep.Latency.Max, rep.Migrations.RT)
	}
}

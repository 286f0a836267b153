package sim

import (
	"context"
	"fmt"
	"testing"
)

// fairServerDoc is one CPU with a SCHED_FIFO group and a fair one (JSON
// programs), under generation gen with features (a JSON object, or ""),
// run for 3 s.
func fairServerDoc(gen, features, rt, fair string) string {
	if features == "" {
		features = "{}"
	}
	return `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":1,"threads_per_core":1},"policy":{"generation":"` + gen + `","features":` + features + `},
		"workload":{"groups":[{"name":"rt","count":1,"policy":"fifo","rt_priority":50,"program":` + rt + `},
			{"name":"fair","count":1,"program":` + fair + `}]},"run":{"duration":"3s","reps":1,"seed":1}}`
}

// fairRunNs is the time task k ran over a repetition's timeline, and the
// start of its first run.
func fairRunNs(t *testing.T, res *Result, k int) (ran, first int64) {
	t.Helper()
	first = -1
	for _, cpu := range res.Timeline.Runs {
		for _, r := range cpu {
			if r.Task == k {
				ran += r.End - r.Start
				if first < 0 || r.Start < first {
					first = r.Start
				}
			}
		}
	}
	return ran, first
}

// TestFairServerRunsAStarvedFairTask: an RT hog and a fair task on one
// CPU. From 6.12 on the deferred server waits for its zero-laxity point
// (950 ms into its first period), then runs the fair task for its 50 ms,
// throttles until the next period and runs it again at its start: the
// fair task's 100 ms of compute end at 2000 ms, and its last step (the
// end of its timed block) waits for the third period, at 2950 ms. 6.1 has
// no server but RT throttling (rt_throttle.go): the RT class is throttled
// at the first tick past 950 ms of RT time, 952 ms, and the fair task runs
// until the period timer at 1000 ms. Without either (6.1 with
// RT_THROTTLING off) the fair task never runs. The repetition reports the
// fair server's 100 ms (fair_server_ns) or the RT class's throttled time
// (rt_throttled_ns: 952–1000, 1952–2000 and 2948 ms to the end, 148 ms).
func TestFairServerRunsAStarvedFairTask(t *testing.T) {
	for _, c := range []struct {
		gen, features       string
		ran, first          int64
		done                bool
		server, rtThrottled int64
	}{{"6.1", `{"RT_THROTTLING":false}`, 0, -1, false, 0, 0}, {"6.1", ``, 100_000_000, 952_000_000, true, 0, 148_000_000},
		{"6.12", ``, 100_000_000, 950_000_000, true, 100_000_000, 0}, {"tip-2026-09", ``, 100_000_000, 950_000_000, true, 100_000_000, 0}} {
		doc := fairServerDoc(c.gen, c.features, `[{"compute":"10s"}]`, `[{"timed":"fair","do":[{"compute":"100ms"}]}]`)
		res := mustRun(t, resolveJSON(t, doc), Options{Timeline: true})
		ran, first := fairRunNs(t, res, 1)
		done := res.Summary.Timed[0].Count.Mean == 1
		took := res.Summary.Timed[0].Time.Mean // from its first run to its last step, two periods later
		if ran < c.ran || ran > c.ran+100_000 || first != c.first || done != c.done || done && (took < 1.999e9 || took > 2.001e9) {
			t.Errorf("%s%s: the fair task ran %.3f ms from %.3f ms, its timed block done: %v (in %.3f ms); want %.0f ms from %.0f ms, done %v (in 2000 ms)",
				c.gen, c.features, float64(ran)/1e6, float64(first)/1e6, done, took/1e6, float64(c.ran)/1e6, float64(c.first)/1e6, c.done)
		}
		if r := res.Reps[0]; r.FairServerNs < c.server || r.FairServerNs > c.server+100_000 || r.RTThrottledNs < c.rtThrottled || r.RTThrottledNs > c.rtThrottled+100_000 {
			t.Errorf("%s%s: fair_server_ns %d, rt_throttled_ns %d; want %d and %d", c.gen, c.features, r.FairServerNs, r.RTThrottledNs, c.server, c.rtThrottled)
		}
	}
}

// TestFairServerCountsTheFairClassOwnTime: an RT task that leaves the CPU
// 2 % of each 10 ms gives a fair hog 0.2 ms of every 10 ms on its own.
// That time counts against the server's runtime (dl_server_update()), so
// its zero-laxity point moves later: dl_server_timer() forwards the timer
// to deadline − runtime, and the server first runs after 950 ms. There the
// runtime left would overflow the bandwidth by the deadline, so
// replenish_dl_entity() starts a new period with the full 50 ms. With 10 %
// left (1 ms in 10) the fair hog gets 100 ms a second on its own, which
// starts a new deferred period every 50 ms: the server never runs, and the
// fair hog's runs are only those the RT task leaves it.
func TestFairServerCountsTheFairClassOwnTime(t *testing.T) {
	run := func(gen, rtCompute string) (ran, serverAt, serverRan int64) {
		features := ""
		if gen == "6.1" {
			features = `{"RT_THROTTLING":false}`
		}
		doc := fairServerDoc(gen, features, `[{"periodic":{"every":"10ms","count":1000,"do":[{"compute":"`+rtCompute+`"}]}}]`, `[{"compute":"10s"}]`)
		res := mustRun(t, resolveJSON(t, doc), Options{Timeline: true})
		ran, _ = fairRunNs(t, res, 1)
		serverAt = -1
		for _, r := range res.Timeline.Runs[0] {
			if r.Task == 1 && r.Start > 100_000_000 && r.End-r.Start > 2_000_000 { // longer than the RT task ever leaves it
				if serverAt < 0 {
					serverAt = r.Start
				}
				serverRan += r.End - r.Start
			}
		}
		return ran, serverAt, serverRan
	}
	for _, gen := range []string{"6.12", "tip-2026-09"} {
		if ran, at, sr := run(gen, "9.8ms"); at < 955_000_000 || at > 1_000_000_000 || sr < 100_000_000 || ran < sr+10_000_000 {
			t.Errorf("%s, RT 98 %%: the server first ran the fair hog at %.1f ms, %.1f ms in all, the hog %.1f ms in all; want the zero-laxity point after 955 ms, ≥ 50 ms in each of the two whole periods after it, and the hog's own time besides",
				gen, float64(at)/1e6, float64(sr)/1e6, float64(ran)/1e6)
		}
		if ran, at, _ := run(gen, "9ms"); at >= 0 || ran < 290_000_000 || ran > 310_000_000 {
			t.Errorf("%s, RT 90 %%: the server ran the fair hog from %.1f ms, the hog %.1f ms in all; want no server run and ≈300 ms",
				gen, float64(at)/1e6, float64(ran)/1e6)
		}
	}
	if ran, at, _ := run("6.1", "9.8ms"); at >= 0 || ran > 80_000_000 {
		t.Errorf("6.1 without RT throttling, RT 98 %%: the fair hog ran %.1f ms in 3 s, a long run from %.1f ms; want its own ≈70 ms only (no server)", float64(ran)/1e6, float64(at)/1e6)
	}
}

// TestFairServerOnAnIdleCPU: a fair task runs 5 ms on CPU 0 and sleeps.
// 6.12.118 accounts idle time only when the CPU leaves idle, so the
// server's timer finds it runtime and activates it (B → D), rescheduling
// the idle CPU; the server then stays queued. Under DL_SERVER_IDLE the
// timer first accounts the idle time, which used the runtime up (→ C), and
// the server stops (C → A).
func TestFairServerOnAnIdleCPU(t *testing.T) {
	for _, c := range []struct {
		idle           bool
		active, queued bool
	}{{false, true, true}, {true, false, false}} {
		s := simOf(t, fmt.Sprintf(`{"schedplay":1,"machine":{"nodes":1,"cores_per_node":1,"threads_per_core":1},"policy":{"features":{"DL_SERVER_IDLE":%v}},
			"workload":{"groups":[{"name":"w","count":1,"program":[{"compute":"5ms"},{"sleep":"10s"}]}]},"run":{"duration":"10s","seed":1}}`, c.idle))
		if err := s.runUntil(context.Background(), 2_500_000_000, 0, 1); err != nil {
			t.Fatal(err)
		}
		fs := &s.cpus[0].fs
		if fs.active != c.active || fs.queued != c.queued || !s.cpus[0].inIdle {
			t.Errorf("DL_SERVER_IDLE %v: after 2.5 s of idle the server is active %v, queued %v (%s), cpu idle %v; want active %v, queued %v, idle",
				c.idle, fs.active, fs.queued, fs.describe(), s.cpus[0].inIdle, c.active, c.queued)
		}
	}
}

// TestFairServerIdleTimeDefers: a fair task that runs 1 ms every 100 ms
// alone on its CPU. The idle time between its runs counts against the
// server's runtime (dl_server_update_idle_time() at idle exit, or
// update_curr_idle()), the task's next run then starts a new period, and
// the server's timer never gets to activate it in either form.
func TestFairServerIdleTimeDefers(t *testing.T) {
	for _, idle := range []bool{false, true} {
		s := simOf(t, fmt.Sprintf(`{"schedplay":1,"machine":{"nodes":1,"cores_per_node":1,"threads_per_core":1},"policy":{"features":{"DL_SERVER_IDLE":%v}},
			"workload":{"groups":[{"name":"w","count":1,"program":[{"periodic":{"every":"100ms","count":100,"do":[{"compute":"1ms"}]}}]}]},"run":{"duration":"3s","seed":1}}`, idle))
		for at := int64(100_000_000); at <= 3_000_000_000; at += 10_000_000 {
			if err := s.runUntil(context.Background(), at, 0, 1); err != nil {
				t.Fatal(err)
			}
			if s.cpus[0].fs.queued {
				t.Fatalf("DL_SERVER_IDLE %v: at %d ms the server is queued (%s) on a CPU that idles 99 %% of the time; want it deferred", idle, at/1_000_000, s.cpus[0].fs.describe())
			}
		}
	}
}

// TestDLEntityOverflow: runtime / (deadline − now) against 50 ms / 1 s,
// at DL_SCALE.
func TestDLEntityOverflow(t *testing.T) {
	s := simOf(t, fairServerDoc("6.12", "", `[{"compute":"1ms"}]`, `[{"compute":"1ms"}]`))
	c := &s.cpus[0]
	for _, k := range []struct {
		runtime, left int64
		want          bool
	}{{50_000_000, 1_000_000_000, false}, {50_000_000, 999_000_000, true}, {25_000_000, 500_000_000, false}, {25_000_000, 400_000_000, true}, {0, 10, false}, {1_000_000, 0, true}} {
		c.fs.runtime, c.fs.deadline = k.runtime, s.now+k.left
		if got := s.dlEntityOverflow(c); got != k.want {
			t.Errorf("runtime %d ns, %d ns to the deadline: overflow %v; want %v", k.runtime, k.left, got, k.want)
		}
	}
}

// TestUpdateDLEntity: a server starting with its deadline passed, or one
// whose runtime would overflow by it, gets a new deferred period (B); one
// handling a starvation with its deadline ahead gets the revised runtime
// (density × laxity) and runs at once (D); one that can keep its
// parameters keeps them and waits for its zero-laxity point.
func TestUpdateDLEntity(t *testing.T) {
	s := simOf(t, fairServerDoc("6.12", "", `[{"compute":"1ms"}]`, `[{"compute":"1ms"}]`))
	c := &s.cpus[0]
	s.now = 5_000_000_000
	for _, k := range []struct {
		name                      string
		runtime, left             int64
		deferRunning              bool
		wantRuntime, wantDeadline int64
		wantThrottled             bool
	}{
		{"deadline passed", 10_000_000, -1, false, 50_000_000, 1_000_000_000, true},
		{"overflow", 40_000_000, 100_000_000, false, 50_000_000, 1_000_000_000, true},
		{"revised wake-up", 40_000_000, 100_000_000, true, fairServerDensity * 100_000_000 >> bwShift, 100_000_000, false},
		{"kept", 4_000_000, 100_000_000, false, 4_000_000, 100_000_000, true},
	} {
		c.fs = fairServer{init: true, runtime: k.runtime, deadline: s.now + k.left, deferRunning: k.deferRunning}
		s.updateDLEntity(c)
		if c.fs.runtime != k.wantRuntime || c.fs.deadline-s.now != k.wantDeadline || c.fs.throttled != k.wantThrottled || c.fs.armed != k.wantThrottled {
			t.Errorf("%s: runtime %d, deadline in %d, throttled %v, armed %v; want %d, %d, %v",
				k.name, c.fs.runtime, c.fs.deadline-s.now, c.fs.throttled, c.fs.armed, k.wantRuntime, k.wantDeadline, k.wantThrottled)
		}
	}
}

// TestFairServerIdleExitCountsIdleTime: 6.12.118 counts idle time when the
// CPU leaves idle for any task (put_prev_task_idle() →
// dl_server_update_idle_time()), here an RT task's wake-ups every 10 ms
// after the fair task ran 5 ms and went to sleep. The idle time uses the
// server's runtime up (clamped at 0), so its zero-laxity timer, armed for
// 950 ms, is forwarded to the deadline: at 980 ms the server still waits
// (B). Counted only at fair enqueues, the runtime would stay 45 ms and the
// server would have run at 955 ms, found no fair task and stopped.
func TestFairServerIdleExitCountsIdleTime(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":1,"threads_per_core":1},"policy":{"generation":"6.12"},
		"workload":{"groups":[{"name":"w","count":1,"program":[{"compute":"5ms"},{"sleep":"10s"}]},
			{"name":"rt","count":1,"policy":"fifo","rt_priority":50,"start":"1ms","program":[{"periodic":{"every":"10ms","count":1000,"do":[{"compute":"100us"}]}}]}]},"run":{"duration":"3s","seed":1}}`)
	if err := s.runUntil(context.Background(), 980_000_000, 0, 1); err != nil {
		t.Fatal(err)
	}
	fs := &s.cpus[0].fs
	if !fs.active || fs.queued || !fs.throttled || fs.runtime != 0 {
		t.Errorf("at 980 ms the server is %s with %d ns of runtime; want B (zero-laxity wait) with the runtime used up by idle time", fs.describe(), fs.runtime)
	}
}

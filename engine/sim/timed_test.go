package sim

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"schedplay/engine/scenario"
)

// wakeLoopDoc is perf bench futex wake with k pinned waiters on vera
// (CPUs 0…k−1) and a waker on CPU 8, in the same LLC, whose timed section
// holds k sends of wake 1 (wakes per send) or k/wakes sends of wake n; run
// is the run section. The costs are nominal (machine.latency.variation 0).
func wakeLoopDoc(k, wakes int, run string) string {
	return fmt.Sprintf(`{"schedplay":1,"machine":{"preset":"vera","latency":{"variation":0}},"policy":{"preset":"v6-on"},
	"workload":{"groups":[
		{"name":"waker","count":1,"cpus":"8","program":[{"repeat":10,"do":[{"sleep":"1ms"},
			{"timed":"wake loop","do":[{"repeat":%d,"do":[{"send":"futex","wake":%d}]}]},
			{"repeat":%d,"do":[{"recv":"done"}]}]}]},
		{"name":"waiter","count":%d,"cpus":"0-%d","pin":"each","program":[{"repeat":10,"do":[{"recv":"futex"},{"send":"done"}]}]}]},
	"run":%s}`, k/wakes, wakes, k, k, k-1, run)
}

const plainRun = `{"duration":"1s","seed":1,"reps":2}`

// A timed section around k sends of wake 1 measures the waker's k
// try_to_wake_up()s of waiters on other CPUs of its LLC: k × (latency.wakeup
// + latency.ipi_send + ttwuWakerLines × cacheline.llc) of the machine (its
// CPU is stalled for each; the context switch that brought it in precedes
// the section). The tolerance, half a wake-up, tells k wakes from k ± 1.
func TestTimedWakeLoopCostsKWakes(t *testing.T) {
	for _, k := range []int{1, 3, 8} {
		r := resolveJSON(t, wakeLoopDoc(k, 1, plainRun))
		l := r.WithDefaults().Machine.Latency
		w := float64(l.Wakeup + l.IPISend + ttwuWakerLines*l.Cacheline.LLC)
		res := mustRun(t, r, Options{})
		for i, rep := range res.Reps {
			got, ok := rep.TimedSection("wake loop")
			if !ok || got.Count != 10 {
				t.Fatalf("k=%d rep %d: timed %+v; want 10 executions of \"wake loop\"", k, i, rep.Timed)
			}
			if want := float64(k) * w; math.Abs(got.MeanNs-want) > w/2 {
				t.Errorf("k=%d rep %d: wake loop %.0f ns; want %d × (latency.wakeup + ipi_send + remote lines) %.0f = %.0f ± %.0f", k, i, got.MeanNs, k, w, want, w/2)
			}
		}
		s := res.Summary.Timed
		if len(s) != 1 || s[0].Name != "wake loop" || s[0].Time.N != 2 || s[0].Count.Mean != 10 {
			t.Errorf("k=%d: summary %+v", k, s)
		}
	}
}

// One send of wake 8 is one batch: the waker waits for its 8
// try_to_wake_up()s, their lines and IPI sends too.
func TestTimedWakeAllCostsTheBatch(t *testing.T) {
	r := resolveJSON(t, wakeLoopDoc(8, 8, plainRun))
	l := r.WithDefaults().Machine.Latency
	w := float64(l.Wakeup + l.IPISend + ttwuWakerLines*l.Cacheline.LLC)
	got, _ := mustRun(t, r, Options{}).Reps[0].TimedSection("wake loop")
	if want := 8 * w; got.Count != 10 || math.Abs(got.MeanNs-want) > w/2 {
		t.Errorf("wake all: %+v; want 10 × %.0f ± %.0f ns", got, want, w/2)
	}
}

// A section counts time blocked, as wall time does: a timed sleep of 1ms
// on an idle CPU (its tick stopped) lasts 1ms plus the task's 50us timer
// slack, plus the latencies of its wake-up and switch-in.
func TestTimedSectionCountsBlockedTime(t *testing.T) {
	r := resolveJSON(t, `{"schedplay":1,"machine":{"preset":"vera"},"policy":{"preset":"v6-on"},
		"workload":{"groups":[{"name":"s","count":1,"program":[{"repeat":5,"do":[{"timed":"nap","do":[{"sleep":"1ms"}]},{"compute":"50us"}]}]}]},
		"run":{"duration":"1s","seed":1,"reps":1}}`)
	l := r.WithDefaults().Machine.Latency
	lat := float64(l.Wakeup + l.IPI + l.IdleExit + l.ContextSwitch + l.ProcessSwitch)
	lo := 1e6 + float64(scenario.DefaultTimerSlack)
	got, _ := mustRun(t, r, Options{}).Reps[0].TimedSection("nap")
	if got.Count != 5 || got.MeanNs < lo || got.MeanNs > lo+lat {
		t.Errorf("timed sleep: %+v; want 5 executions in [1ms + slack, 1ms + slack + %.0f ns]", got, lat)
	}
}

// Only executions that end after the warm-up count; the durations of
// those that do are unchanged, and a warm-up past the last one leaves the
// section declared with no executions.
func TestTimedSectionWarmup(t *testing.T) {
	all := mustRun(t, resolveJSON(t, wakeLoopDoc(8, 1, plainRun)), Options{}).Reps[0]
	part := mustRun(t, resolveJSON(t, wakeLoopDoc(8, 1, `{"duration":"1s","seed":1,"reps":2,"warmup":"4500us"}`)), Options{}).Reps[0]
	a, _ := all.TimedSection("wake loop")
	p, _ := part.TimedSection("wake loop")
	if p.Count <= 0 || p.Count >= a.Count || p.MeanNs != a.MeanNs {
		t.Errorf("warm-up 4.5ms: %+v; without: %+v; want fewer executions of the same duration", p, a)
	}
	late := mustRun(t, resolveJSON(t, wakeLoopDoc(8, 1, `{"duration":"100ms","until":"duration","seed":1,"reps":2,"warmup":"50ms"}`)), Options{})
	if got := late.Reps[0].Timed; len(got) != 1 || got[0].Count != 0 || got[0].MeanNs != 0 {
		t.Errorf("warm-up past the program: %+v; want the section with no executions", got)
	}
	if s := late.Summary.Timed; len(s) != 1 || s[0].Time.N != 0 || s[0].Count.N != 2 {
		t.Errorf("summary %+v; want no duration and 2 repetitions of count 0", s)
	}
}

// Sections come out sorted by name in the repetitions and the summary,
// whatever order the programs name them in; several tasks executing one
// name pool their executions; nested sections each count.
func TestTimedSectionsSortedAndPooled(t *testing.T) {
	r := resolveJSON(t, `{"schedplay":1,"machine":{"preset":"vera"},"policy":{"preset":"v6-on"},
		"workload":{"groups":[
			{"name":"a","count":3,"program":[{"timed":"zeta","do":[{"repeat":4,"do":[{"timed":"alpha","do":[{"compute":"10us"}]}]}]}]},
			{"name":"b","count":2,"program":[{"timed":"mid","do":[{"compute":"20us"}]},{"timed":"alpha","do":[{"compute":"10us"}]}]}]},
		"run":{"duration":"1s","seed":1,"reps":2}}`)
	res := mustRun(t, r, Options{})
	var names []string
	for _, s := range res.Reps[0].Timed {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"alpha", "mid", "zeta"}) {
		t.Fatalf("repetition sections %v; want alpha, mid, zeta", names)
	}
	counts := map[string]int64{"alpha": 3*4 + 2, "mid": 2, "zeta": 3}
	for i, s := range res.Summary.Timed {
		if s.Name != names[i] || s.Count.Mean != float64(counts[s.Name]) {
			t.Errorf("summary %d: %+v; want %s with %d executions", i, s, names[i], counts[s.Name])
		}
	}
	zeta, _ := res.Reps[0].TimedSection("zeta")
	alpha, _ := res.Reps[0].TimedSection("alpha")
	if zeta.MeanNs < 4*alpha.MeanNs {
		t.Errorf("zeta %.0f ns holds four alphas of %.0f ns", zeta.MeanNs, alpha.MeanNs)
	}
}

// A workload without timed sections has none in its result (the JSON
// keys are absent).
func TestNoTimedSections(t *testing.T) {
	res := mustRun(t, resolve(t, "vera", "v6-on", "sched-pipe", `{"duration":"20ms","seed":1,"reps":1}`), Options{})
	if res.Reps[0].Timed != nil || res.Summary.Timed != nil {
		t.Errorf("timed sections %v / %v for a workload without any", res.Reps[0].Timed, res.Summary.Timed)
	}
}

// With "ipc": "futex" each send is a futex(FUTEX_WAKE) syscall: against
// the same loop on a channel of no kind, it adds latency.syscall and
// ipc.futex_wake per send (kernel work, at the waker's core speed), and
// the first send pulls the hash bucket's line from the CPU of the waiter
// that queued on it last (futex_q_lock() in futex_wait_setup()). A woken
// waiter does not take the lock again on its way out (futex_unqueue()),
// so the other sends find the line on the waker's CPU. Each waiter waits
// once, as perf's do. Nominal costs, so the difference is exact to
// rounding.
func TestTimedFutexWakeLoopPaysTheSyscalls(t *testing.T) {
	const k = 8
	doc := func(ipc string) string {
		return fmt.Sprintf(`{"schedplay":1,"machine":{"preset":"vera","latency":{"variation":0}},"policy":{"preset":"v6-on"},
			"workload":{"groups":[
				{"name":"waker","count":1,"cpus":"8","program":[{"sleep":"1ms"},
					{"timed":"wake loop","do":[{"repeat":%d,"do":[{"send":"futex"%s}]}]}]},
				{"name":"waiter","count":%d,"cpus":"0-%d","pin":"each","program":[{"recv":"futex"},{"compute":"100us"}]}]},
			"run":{"duration":"1s","seed":1,"reps":1}}`, k, ipc, k, k-1)
	}
	futex := doc(`,"ipc":"futex"`)
	loop := func(doc string) float64 {
		got, ok := mustRun(t, resolveJSON(t, doc), Options{}).Reps[0].TimedSection("wake loop")
		if !ok || got.Count != 1 {
			t.Fatalf("timed %+v; want one execution of \"wake loop\"", got)
		}
		return got.MeanNs
	}
	m := resolveJSON(t, futex).WithDefaults().Machine
	speed := simOf(t, futex).cpus[8].speed
	want := k*float64(m.Latency.Syscall+m.IPC.FutexWake)/speed + float64(m.Latency.Cacheline.LLC)
	if d := loop(futex) - loop(doc("")); math.Abs(d-want) > float64(k) {
		t.Errorf("the futex kind adds %.0f ns to the wake loop; want %d × (syscall %d + futex_wake %d) ÷ speed %.3f + the bucket's line %d = %.0f ns",
			d, k, m.Latency.Syscall, m.IPC.FutexWake, speed, m.Latency.Cacheline.LLC, want)
	}
}

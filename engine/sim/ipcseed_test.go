package sim_test

import (
	"testing"

	"schedplay/engine/scenario"
	"schedplay/engine/topo"
)

// An idle cyclictest (SCHED_OTHER, every CPU in WFI) has one path per
// wake-up: timer slack, idle exit, ttwu, the switch. Its latencies are a
// distribution because each charge of those costs varies
// (machine.latency.variation): p50 < p99 < max, with the median just
// above slack + the nominal path and a tail a few µs long; with the
// variation at 0 every wake-up is the same constant: ttwu and the switch
// at the speed of the thread's CPU (vera's classes run at 0.95–1.0).
func TestIdleCyclictestLatencyIsADistribution(t *testing.T) {
	r, res := seedRun(t, "vera-cyclictest-idle", "", "run.reps=1")
	l := r.WithDefaults().Machine.Latency
	path := int64(scenario.DefaultTimerSlack) + int64(l.IdleExit+l.Wakeup+l.ContextSwitch)
	got := res.Reps[0].Latency
	if !(got.P50 < got.P99 && got.P99 < got.Max) {
		t.Errorf("p50 %d, p99 %d, max %d ns; want p50 < p99 < max", got.P50, got.P99, got.Max)
	}
	if got.P50 < path-int64(l.Wakeup) || got.P50 > path+1000 || got.Max > path+20000 {
		t.Errorf("p50 %d ns, max %d ns; want the median near slack + path %d ns and a tail under 20 µs", got.P50, got.Max, path)
	}
	_, flat := seedRun(t, "vera-cyclictest-idle", "", "run.reps=1", "machine.latency.variation=0")
	tp, err := topo.Build(r.Machine, r.Policy.DomainPolicy)
	if err != nil {
		t.Fatal(err)
	}
	cpu := -1 // the one CPU the thread ran on
	for i, b := range flat.Reps[0].BusyNs {
		if b > 0 {
			cpu = i
		}
	}
	sp := tp.CPUs[cpu].Speed
	want := int64(scenario.DefaultTimerSlack) + int64(l.IdleExit) +
		int64(float64(l.Wakeup)/sp) + int64(float64(l.ContextSwitch)/sp)
	if f := flat.Reps[0].Latency; f.P50 != f.Max || f.P50 != want {
		t.Errorf("variation 0: p50 %d, max %d ns; want every wake-up at slack + path = %d ns (CPU %d, speed %.3f)", f.P50, f.Max, want, cpu, sp)
	}
}

// perf bench sched messaging -g 4 on Vera: 160,000 messages of 100 bytes.
// Senders fill a receiver's socket (238 skbs) and sleep; a receiver that
// drains it to a quarter wakes all of them; most reads find data, so a
// context switch happens only every 10 to 50 messages (the perf stat
// sample in tools/perf/builtin-stat.c, hackbench 10 on an oversubscribed
// 2011 machine, counts 41,190 switches for 400,000 messages: one per 10).
func TestSeedMessagingSwitchesPerMessage(t *testing.T) {
	_, res := seedRun(t, "vera-sched-messaging", "", "run.reps=1")
	rep := res.Reps[0]
	const messages = 4 * 20 * 20 * 100
	if per := float64(rep.ContextSwitches) / messages; per < 0.02 || per > 0.2 {
		t.Errorf("%d context switches for %d messages (%.3f per message); want 0.02 to 0.2", rep.ContextSwitches, messages, per)
	}
}

package sim_test

import (
	"fmt"
	"math"
	"testing"
)

// metric "ops" reports perf bench's ops/sec: group 0's operations per
// second of the measured window, in "ops/s", and no GFLOP/s (the token's
// bit of work is not floating point), so that ops/s × µs/op = 10⁶.
func TestOpsMetricIsOpsPerSecond(t *testing.T) {
	_, res := seedRun(t, "vera-sched-pipe", "", "run.reps=2")
	if res.Unit != "ops/s" {
		t.Errorf("unit %q; want ops/s", res.Unit)
	}
	for i, r := range res.Reps {
		if r.GFLOPS != 0 {
			t.Errorf("rep %d: %.3f GFLOP/s reported for a pipe ping-pong", i, r.GFLOPS)
		}
		if r.Ops == 0 || r.OpTimeNs == 0 {
			t.Fatalf("rep %d: %d ops, op time %.0f ns", i, r.Ops, r.OpTimeNs)
		}
		if got := r.Throughput * r.OpTimeNs; math.Abs(got-1e9) > 1e-6*1e9 {
			t.Errorf("rep %d: %.0f ops/s × %.0f ns/op = %.0f; want 1e9", i, r.Throughput, r.OpTimeNs, got)
		}
	}
}

// A run cut by run.duration after its programs finished measures its rates
// over the time they ran (perf bench's "Total time"), not over the idle
// tail: until=duration then gives the figures of until=done.
func TestRatesStopAtCompletion(t *testing.T) {
	_, done := seedRun(t, "vera-sched-pipe", "", "run.reps=1")
	c := done.Reps[0].Completion
	if c == 0 {
		t.Fatal("the pipe ping-pong did not finish")
	}
	long := fmt.Sprintf(`run.duration="%dns"`, c+c/4)
	_, cut := seedRun(t, "vera-sched-pipe", "", "run.reps=1", "run.until=duration", long)
	d, k := done.Reps[0], cut.Reps[0]
	if k.Completion != c || k.Elapsed <= c {
		t.Fatalf("cut run: completion %d, elapsed %d; want completion %d before the end", k.Completion, k.Elapsed, c)
	}
	if k.Throughput != d.Throughput || k.OpTimeNs != d.OpTimeNs {
		t.Errorf("until=duration: %.1f ops/s, %.1f ns/op; until=done: %.1f ops/s, %.1f ns/op", k.Throughput, k.OpTimeNs, d.Throughput, d.OpTimeNs)
	}
}

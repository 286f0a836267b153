package sim_test

import (
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

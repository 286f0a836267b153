package sim

import (
	"math"
	"testing"
)

// TestSeriesLastPartialBucket: a repetition that ends inside a series
// bucket reports the rate over the part of the bucket it covers. One
// thread computes 30 ms on an idle big core of a 2 s run (20 ms buckets):
// it runs at one busy thread until it exits, so the bucket 20–40 ms where
// it ends reads ≈1 (not ≈0.5, the work spread over the whole step).
func TestSeriesLastPartialBucket(t *testing.T) {
	r := resolveJSON(t, `{"schedplay":1,"machine":{"preset":"hikey960-dynamiq"},"policy":{"preset":"none"},
		"workload":{"groups":[{"name":"w","count":1,"program":[{"compute":"30ms"}]}]},
		"run":{"duration":"2s","until":"done","seed":1,"reps":1}}`)
	res := mustRun(t, r, Options{})
	rep := res.Reps[0]
	if rep.Completion == 0 || rep.Series.StepNs != 20e6 {
		t.Fatalf("completion %d, step %d; want a finished run with 20 ms buckets", rep.Completion, rep.Series.StepNs)
	}
	v := rep.Series.Values
	if want := int((rep.Elapsed + rep.Series.StepNs - 1) / rep.Series.StepNs); len(v) != want {
		t.Fatalf("%d buckets for a run of %d ns; want %d", len(v), rep.Elapsed, want)
	}
	if rep.Elapsed%rep.Series.StepNs == 0 {
		t.Fatalf("run ends at %d ns, on a bucket boundary: the test needs a partial last bucket", rep.Elapsed)
	}
	// Each bucket's rate times the time it covers is the work done in it;
	// they add up to the work done over the run.
	total := 0.0
	for i, x := range v {
		span := min(rep.Series.StepNs, rep.Elapsed-int64(i)*rep.Series.StepNs)
		total += x * float64(span)
	}
	if math.Abs(total-float64(rep.Elapsed)*rep.Throughput) > 1e-3*total {
		t.Errorf("series integrates to %.0f ref-ns; throughput × elapsed is %.0f", total, float64(rep.Elapsed)*rep.Throughput)
	}
	last := v[len(v)-1]
	if last < 0.9*v[0] || last > 1.1*v[0] {
		t.Errorf("last (partial) bucket %.3f, first %.3f: the thread ran at the same rate until it exited (series %v)", last, v[0], v)
	}
}

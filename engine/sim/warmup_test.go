package sim

import (
	"strings"
	"testing"
)

// TestWarmupCoveringTheRunWarns: with until=done a run may end before its
// warm-up is over; its figures are then zeros, and the result must say so
// instead of passing them off as measurements.
func TestWarmupCoveringTheRunWarns(t *testing.T) {
	until := "done"
	doc := func(compute, warmup string) string {
		return `{"schedplay": 1, "machine": {"preset": "hikey960"},
		 "workload": {"groups": [{"name": "w", "count": 2, "program": [{"compute": "` + compute + `"}]}]},
		 "run": {"duration": "100ms", "until": "` + until + `", "reps": 2, "warmup": "` + warmup + `"}}`
	}
	warned := func(res *Result) bool {
		for _, w := range res.Warnings {
			if strings.Contains(w, "run.warmup 50ms") && strings.Contains(w, "covered the whole of every repetition") &&
				strings.Contains(w, "no figures were measured") {
				return true
			}
		}
		return false
	}
	res := mustRun(t, resolveJSON(t, doc("2ms", "50ms")), Options{})
	if res.Reps[0].Elapsed > 50_000_000 {
		t.Fatalf("the run lasted %d ns; the test wants it to end inside the 50ms warm-up", res.Reps[0].Elapsed)
	}
	if res.Summary.Throughput.Mean != 0 {
		t.Errorf("throughput %g measured inside the warm-up", res.Summary.Throughput.Mean)
	}
	if !warned(res) {
		t.Errorf("no warm-up warning; warnings: %q", res.Warnings)
	}
	// A run that outlasts its warm-up measures something and warns of nothing.
	res = mustRun(t, resolveJSON(t, doc("80ms", "50ms")), Options{})
	if res.Summary.Throughput.Mean == 0 || len(res.Warnings) != 0 {
		t.Errorf("throughput %g, warnings %q; want figures and no warning", res.Summary.Throughput.Mean, res.Warnings)
	}
	// Under until=duration the run goes on to 100ms, but its programs
	// finished inside the warm-up: the rates stop at their completion, so
	// nothing was measured either.
	until = "duration"
	res = mustRun(t, resolveJSON(t, doc("2ms", "50ms")), Options{})
	if res.Summary.Throughput.Mean != 0 || !warned(res) {
		t.Errorf("until=duration: throughput %g, warnings %q; want zeros and the warning", res.Summary.Throughput.Mean, res.Warnings)
	}
	// No warm-up, no warning, even for a run that ends at once.
	res = mustRun(t, resolveJSON(t, `{"schedplay": 1, "machine": {"preset": "hikey960"}, "workload": {"preset": "idle"}, "run": {"duration": "10ms"}}`), Options{})
	if len(res.Warnings) != 0 {
		t.Errorf("warnings %q without a warm-up", res.Warnings)
	}
}

package compare

import (
	"math"
	"strings"
	"testing"

	"schedplay/engine/sim"
)

// results builds a result whose repetitions completed at the given times
// (ms; 0 = cut off by run.duration).
func results(ms ...float64) *sim.Result {
	res := &sim.Result{Unit: "work/s"}
	for i, c := range ms {
		res.Reps = append(res.Reps, sim.RepMetrics{Seed: uint64(i + 1), Throughput: 1, Completion: int64(c * 1e6)})
	}
	return res
}

func completionRow(t *testing.T, a, b *sim.Result) (Row, bool) {
	t.Helper()
	for _, r := range Rows(a, b) {
		if r.Metric == "Completion time" {
			return r, true
		}
	}
	return Row{}, false
}

// TestCompletionCountsFinishedOnly: a repetition cut off by run.duration
// has no completion time; the row averages the finished ones and says how
// many finished instead of averaging zeros or hiding the row.
func TestCompletionCountsFinishedOnly(t *testing.T) {
	r, ok := completionRow(t, results(100, 0, 120, 0, 110), results(90, 95, 100, 85, 80))
	if !ok {
		t.Fatal("no completion row when 3 of 5 and 5 of 5 repetitions finished")
	}
	if r.A.N != 3 || r.A.Of != 5 || math.Abs(r.A.Mean-110) > 1e-9 || math.Abs(r.A.Stddev-10) > 1e-9 {
		t.Errorf("A = %+v; want 110 ± 10 over 3 of 5", r.A)
	}
	if r.B.N != 5 || r.B.Of != 0 || math.Abs(r.B.Mean-90) > 1e-9 {
		t.Errorf("B = %+v; want 90 over all 5 (Of unset)", r.B)
	}
	if r.DiffPct == nil || math.Abs(*r.DiffPct-(90-110)/110.0*100) > 1e-9 || r.P == nil {
		t.Errorf("diff %v p %v; want −18.18%% and a p-value", r.DiffPct, r.P)
	}

	r, ok = completionRow(t, results(0, 0, 0), results(50, 0, 70))
	if !ok || r.A.N != 0 || r.A.Of != 3 || r.A.Mean != 0 || r.DiffPct != nil || r.P != nil {
		t.Errorf("none of A finished: %+v ok=%v; want N 0 of 3, no difference, no p", r, ok)
	}
	if _, ok := completionRow(t, results(0, 0), results(0, 0)); ok {
		t.Error("a completion row when no repetition finished on either side")
	}

	tab := &Table{A: "a", B: "b", Reps: 5, Sets: []RowSet{{Rows: Rows(results(100, 0, 120, 0, 110), results(0, 0, 0, 0, 0))}}}
	var b strings.Builder
	if err := WriteText(&b, tab); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	var head, line string
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "Metric"):
			head = l
		case strings.HasPrefix(l, "Completion time"):
			line = l
		}
	}
	if !strings.Contains(line, "110 ± 10 ms (3 of 5 finished)") || !strings.Contains(line, "0 of 5 finished") || !strings.HasSuffix(line, "n/a") {
		t.Errorf("completion line %q; want A \"110 ± 10 ms (3 of 5 finished)\", B \"0 of 5 finished\", difference n/a", line)
	}
	col := func(s, sub string) int { return len([]rune(s[:strings.Index(s, sub)])) }
	if col(head, "B ") != col(line, "0 of 5") || col(head, "Difference") != col(line, "n/a") {
		t.Errorf("columns not aligned:\n%s\n%s", head, line)
	}
	t.Logf("\n%s", out)
}

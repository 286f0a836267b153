package compare

import (
	"strings"
	"testing"

	"schedplay/engine/sim"
)

// timedResult is a result whose repetitions time "wake loop" (mean µs
// values, count 10; a negative value means no execution) and op time.
func timedResult(means ...float64) *sim.Result {
	res := &sim.Result{Unit: "work/s"}
	for i, m := range means {
		rep := sim.RepMetrics{Seed: uint64(i), OpTimeNs: 127250, Ops: 80}
		wl := sim.TimedSection{Name: "wake loop", Count: 10, MeanNs: m * 1e3}
		if m < 0 {
			wl = sim.TimedSection{Name: "wake loop"}
		}
		rep.Timed = []sim.TimedSection{{Name: "b section", Count: 1, MeanNs: 1000}, wl}
		res.Reps = append(res.Reps, rep)
	}
	return res
}

// One row per timed section, sorted by name, in µs, lower is better; a
// repetition without executions is left out and counted as such. The op
// time (elapsed/ops) of a workload that times its own sections is not a row.
func TestTimedRows(t *testing.T) {
	rows := Rows(timedResult(16, 18, -1), timedResult(8, 8, 8))
	var timed []Row
	for _, r := range rows {
		if r.Metric == "Op time" {
			t.Errorf("op time row for a workload with timed sections: %+v", r)
		}
		if strings.HasPrefix(r.Metric, "Timed ") {
			timed = append(timed, r)
		}
	}
	if len(timed) != 2 || timed[0].Metric != "Timed b section" || timed[1].Metric != "Timed wake loop" {
		t.Fatalf("timed rows %+v", timed)
	}
	wl := timed[1]
	if wl.Unit != "us" || !wl.LowerIsBetter || wl.A.Mean != 17 || wl.A.N != 2 || wl.A.Of != 3 || wl.B.Mean != 8 || wl.B.Of != 0 {
		t.Errorf("wake loop row %+v", wl)
	}
	if wl.DiffPct == nil || *wl.DiffPct > -50 || *wl.DiffPct < -55 {
		t.Errorf("wake loop difference %v; want (8−17)/17 = −52.9%%", wl.DiffPct)
	}
	var b strings.Builder
	if err := WriteText(&b, &Table{A: "a", B: "b", Reps: 3, Sets: []RowSet{{Rows: rows}}}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"Timed wake loop", "17.0 ± 1.4 us (2 of 3 finished)", "timed wake loop."} {
		if !strings.Contains(b.String(), f) {
			t.Errorf("text lacks %q:\n%s", f, b.String())
		}
	}
	plain := timedResult(16)
	plain.Reps[0].Timed = nil
	var op bool
	for _, r := range Rows(plain, plain) {
		op = op || r.Metric == "Op time"
		if strings.HasPrefix(r.Metric, "Timed") {
			t.Errorf("timed row without timed sections: %+v", r)
		}
	}
	if !op {
		t.Error("no op time row for a workload without timed sections (sched pipe's usecs/op)")
	}
}

// An ops workload (ops/s) that times its own sections has no throughput
// rows (ops/s over the whole run counts its pauses); without timed sections
// it keeps them (perf bench sched pipe's ops/sec).
func TestOpsThroughputRowsYieldToTimedSections(t *testing.T) {
	throughputRows := func(a, b *sim.Result) int {
		n := 0
		for _, r := range Rows(a, b) {
			if strings.Contains(r.Metric, "throughput") || strings.Contains(r.Metric, "per-run average") {
				n++
			}
		}
		return n
	}
	timed := timedResult(16, 18)
	timed.Unit = "ops/s"
	if n := throughputRows(timed, timed); n != 0 {
		t.Errorf("%d throughput rows for a timed ops workload; want none", n)
	}
	plain := timedResult(16)
	plain.Unit = "ops/s"
	plain.Reps[0].Timed = nil
	if n := throughputRows(plain, plain); n != 4 {
		t.Errorf("%d throughput rows for an untimed ops workload; want 4", n)
	}
	timed.Unit = "work/s"
	if n := throughputRows(timed, timed); n != 4 {
		t.Errorf("%d throughput rows for a timed work/s workload; want 4", n)
	}
}

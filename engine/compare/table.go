// Package compare runs two policies (or two variants of a scenario) over the
// same seeds and turns the results into the mailing-list comparison table:
// one row per metric with A and B as mean ± sample standard deviation, the
// signed difference of B against A in percent, whether lower is better, and
// the two-sided p-value of Welch's t-test. The table is data (JSON for the
// API and the UI) and renders as aligned plain text for an email.
package compare

import (
	"math"

	"schedplay/engine/sim"
)

// Value is one side of a row: mean ± sample standard deviation over N
// repetitions (N is 1 for a single figure such as the best run).
type Value struct {
	Mean   float64 `json:"mean"`
	Stddev float64 `json:"stddev"`
	N      int     `json:"n"`
	// Of, when set, is the number of repetitions run, of which only the N
	// that finished count (completion time with run.until "done": a
	// repetition cut off by run.duration has no completion time). With
	// N = 0, Mean and Stddev are 0 and mean nothing.
	Of int `json:"of,omitempty"`
}

// Row is one metric of the table.
type Row struct {
	Metric string `json:"metric"`
	Unit   string `json:"unit,omitempty"`
	A      Value  `json:"a"`
	B      Value  `json:"b"`
	// DiffPct is (B−A)/|A| in percent; nil when A is 0.
	DiffPct *float64 `json:"diff_pct"`
	// LowerIsBetter says which direction of DiffPct is an improvement.
	LowerIsBetter bool `json:"lower_is_better"`
	// P is the two-sided Welch t-test p-value; nil for single figures.
	P *float64 `json:"p,omitempty"`
}

// RowSet is the table for one value of the varied parameter.
type RowSet struct {
	Value string `json:"value,omitempty"`
	Rows  []Row  `json:"rows"`
}

// Table is a whole comparison.
type Table struct {
	Scenario string   `json:"scenario,omitempty"`
	A        string   `json:"a"`
	B        string   `json:"b"`
	Reps     int      `json:"reps"`
	Seeds    []uint64 `json:"seeds"`
	Vary     string   `json:"vary,omitempty"`
	Sets     []RowSet `json:"sets"`
}

// metric extracts one number per repetition.
type metric struct {
	name, unit string
	lower      bool
	get        func(r *sim.RepMetrics) float64
	// present says whether the metric applies to these results.
	present func(reps []sim.RepMetrics) bool
	// counts, when set, says which repetitions have a value (the others
	// are left out of the mean and reported as "N of M").
	counts func(r *sim.RepMetrics) bool
}

func always([]sim.RepMetrics) bool { return true }

func anyRep(f func(r *sim.RepMetrics) bool) func([]sim.RepMetrics) bool {
	return func(reps []sim.RepMetrics) bool {
		for i := range reps {
			if f(&reps[i]) {
				return true
			}
		}
		return false
	}
}

func hasLatency(r *sim.RepMetrics) bool { return r.Latency.Count > 0 }

// finished: every program completed before run.duration (RepMetrics.Completion is 0 otherwise).
func finished(r *sim.RepMetrics) bool { return r.Completion > 0 }

func metrics() []metric {
	us := func(ns int64) float64 { return float64(ns) / 1e3 }
	return []metric{
		{"Mode transitions", "", true, func(r *sim.RepMetrics) float64 { return float64(r.ModeTransitions) }, always, nil},
		{"PE alternations", "", true, func(r *sim.RepMetrics) float64 { return float64(r.PEAlternations) }, always, nil},
		{"Migrations", "", true, func(r *sim.RepMetrics) float64 { return float64(r.Migrations.Total) }, always, nil},
		{"Context switches", "", true, func(r *sim.RepMetrics) float64 { return float64(r.ContextSwitches) }, always, nil},
		{"Completion time", "ms", true, func(r *sim.RepMetrics) float64 { return float64(r.Completion) / 1e6 },
			anyRep(finished), finished},
		{"Latency p50", "us", true, func(r *sim.RepMetrics) float64 { return us(r.Latency.P50) }, anyRep(hasLatency), nil},
		{"Latency p99", "us", true, func(r *sim.RepMetrics) float64 { return us(r.Latency.P99) }, anyRep(hasLatency), nil},
		{"Latency p99.9", "us", true, func(r *sim.RepMetrics) float64 { return us(r.Latency.P999) }, anyRep(hasLatency), nil},
		{"Latency max", "us", true, func(r *sim.RepMetrics) float64 { return us(r.Latency.Max) }, anyRep(hasLatency), nil},
		{"Op time", "us/op", true, func(r *sim.RepMetrics) float64 { return r.OpTimeNs / 1e3 }, anyRep(func(r *sim.RepMetrics) bool { return r.OpTimeNs > 0 && untimed(r) }), nil},
	}
}

// Rows builds the rows comparing result a with result b.
func Rows(a, b *sim.Result) []Row {
	// The repetitions' throughput in the result's unit (GFLOP/s for an
	// sgemm workload, whose Throughput is its GFLOPS).
	tp, unit := func(r *sim.RepMetrics) float64 { return r.Throughput }, a.Unit
	ta, tb := collect(a.Reps, tp), collect(b.Reps, tp)
	var rows []Row
	// An ops workload that times its own sections (perf bench futex) is
	// measured by them: its ops/s over the whole run, like its op time,
	// would count the pauses between rounds.
	timed := sim.TimedNames(a.Reps, b.Reps)
	// A latency workload (cyclictest) is measured by its wake-up latency:
	// the little work its loop computes per second is not a figure.
	if (unit != "ops/s" || len(timed) == 0) && !a.IsLatency() {
		rows = append(rows,
			seriesRow("Average throughput", unit, false, ta, tb),
			singleRow("Best throughput", unit, false, maxOf(ta), maxOf(tb)),
			singleRow("Min per-run average", unit, false, minOf(ta), minOf(tb)),
			singleRow("Max per-run average", unit, false, maxOf(ta), maxOf(tb)))
	}
	for _, m := range metrics() {
		if !m.present(a.Reps) && !m.present(b.Reps) {
			continue
		}
		if m.name == "Op time" && a.IsLatency() {
			continue // a cyclictest loop's op time is its timer period
		}
		if m.counts != nil {
			rows = append(rows, partialRow(m.name, m.unit, m.lower, a.Reps, b.Reps, m.get, m.counts))
			continue
		}
		rows = append(rows, seriesRow(m.name, m.unit, m.lower, collect(a.Reps, m.get), collect(b.Reps, m.get)))
	}
	return append(rows, timedRows(a, b, timed)...)
}

// partialRow is seriesRow over the repetitions that have a value; a side
// where some have none says how many of its repetitions counted (Of).
func partialRow(name, unit string, lower bool, a, b []sim.RepMetrics, get func(r *sim.RepMetrics) float64, counts func(r *sim.RepMetrics) bool) Row {
	pick := func(reps []sim.RepMetrics) []float64 {
		out := []float64{}
		for i := range reps {
			if counts(&reps[i]) {
				out = append(out, get(&reps[i]))
			}
		}
		return out
	}
	xa, xb := pick(a), pick(b)
	r := seriesRow(name, unit, lower, xa, xb)
	for _, side := range []struct {
		v    *Value
		n, m int
	}{{&r.A, len(xa), len(a)}, {&r.B, len(xb), len(b)}} {
		if side.n < side.m {
			side.v.Of = side.m
		}
		if side.n == 0 {
			side.v.Mean, side.v.Stddev = 0, 0
			r.DiffPct = nil
		}
	}
	return r
}

func collect(reps []sim.RepMetrics, get func(r *sim.RepMetrics) float64) []float64 {
	out := make([]float64, len(reps))
	for i := range reps {
		out[i] = get(&reps[i])
	}
	return out
}

func seriesRow(name, unit string, lower bool, a, b []float64) Row {
	ma, sa := meanStddev(a)
	mb, sb := meanStddev(b)
	r := Row{Metric: name, Unit: unit, LowerIsBetter: lower,
		A: Value{Mean: ma, Stddev: sa, N: len(a)}, B: Value{Mean: mb, Stddev: sb, N: len(b)}, DiffPct: diffPct(ma, mb)}
	if p := welchP(a, b); !math.IsNaN(p) {
		r.P = &p
	}
	return r
}

func singleRow(name, unit string, lower bool, a, b float64) Row {
	return Row{Metric: name, Unit: unit, LowerIsBetter: lower,
		A: Value{Mean: a, N: 1}, B: Value{Mean: b, N: 1}, DiffPct: diffPct(a, b)}
}

func diffPct(a, b float64) *float64 {
	if a == 0 || math.IsNaN(a) || math.IsNaN(b) {
		return nil
	}
	d := (b - a) / math.Abs(a) * 100
	return &d
}

func maxOf(xs []float64) float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		m = math.Max(m, x)
	}
	if len(xs) == 0 {
		return math.NaN()
	}
	return m
}

func minOf(xs []float64) float64 {
	m := math.Inf(1)
	for _, x := range xs {
		m = math.Min(m, x)
	}
	if len(xs) == 0 {
		return math.NaN()
	}
	return m
}

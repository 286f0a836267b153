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

// throughputOf picks GFLOP/s when the results carry it.
func throughputOf(res *sim.Result) (func(r *sim.RepMetrics) float64, string) {
	for _, r := range res.Reps {
		if r.GFLOPS > 0 {
			return func(r *sim.RepMetrics) float64 { return r.GFLOPS }, "GFLOP/s"
		}
	}
	return func(r *sim.RepMetrics) float64 { return r.Throughput }, res.Unit
}

func hasLatency(r *sim.RepMetrics) bool { return r.Latency.Count > 0 }

func metrics() []metric {
	us := func(ns int64) float64 { return float64(ns) / 1e3 }
	return []metric{
		{"Mode transitions", "", true, func(r *sim.RepMetrics) float64 { return float64(r.ModeTransitions) }, always},
		{"PE alternations", "", true, func(r *sim.RepMetrics) float64 { return float64(r.PEAlternations) }, always},
		{"Migrations", "", true, func(r *sim.RepMetrics) float64 { return float64(r.Migrations.Total) }, always},
		{"Context switches", "", true, func(r *sim.RepMetrics) float64 { return float64(r.ContextSwitches) }, always},
		{"Completion time", "ms", true, func(r *sim.RepMetrics) float64 { return float64(r.Completion) / 1e6 },
			func(reps []sim.RepMetrics) bool {
				for _, r := range reps {
					if r.Completion == 0 {
						return false
					}
				}
				return len(reps) > 0
			}},
		{"Latency p50", "us", true, func(r *sim.RepMetrics) float64 { return us(r.Latency.P50) }, anyRep(hasLatency)},
		{"Latency p99", "us", true, func(r *sim.RepMetrics) float64 { return us(r.Latency.P99) }, anyRep(hasLatency)},
		{"Latency p99.9", "us", true, func(r *sim.RepMetrics) float64 { return us(r.Latency.P999) }, anyRep(hasLatency)},
		{"Latency max", "us", true, func(r *sim.RepMetrics) float64 { return us(r.Latency.Max) }, anyRep(hasLatency)},
		{"Op time", "us/op", true, func(r *sim.RepMetrics) float64 { return r.OpTimeNs / 1e3 }, anyRep(func(r *sim.RepMetrics) bool { return r.OpTimeNs > 0 })},
	}
}

// Rows builds the rows comparing result a with result b.
func Rows(a, b *sim.Result) []Row {
	tp, unit := throughputOf(a)
	ta, tb := collect(a.Reps, tp), collect(b.Reps, tp)
	rows := []Row{
		seriesRow("Average throughput", unit, false, ta, tb),
		singleRow("Best throughput", unit, false, maxOf(ta), maxOf(tb)),
		singleRow("Min per-run average", unit, false, minOf(ta), minOf(tb)),
		singleRow("Max per-run average", unit, false, maxOf(ta), maxOf(tb)),
	}
	for _, m := range metrics() {
		if !m.present(a.Reps) && !m.present(b.Reps) {
			continue
		}
		rows = append(rows, seriesRow(m.name, m.unit, m.lower, collect(a.Reps, m.get), collect(b.Reps, m.get)))
	}
	return rows
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
		A: Value{ma, sa, len(a)}, B: Value{mb, sb, len(b)}, DiffPct: diffPct(ma, mb)}
	if p := welchP(a, b); !math.IsNaN(p) {
		r.P = &p
	}
	return r
}

func singleRow(name, unit string, lower bool, a, b float64) Row {
	return Row{Metric: name, Unit: unit, LowerIsBetter: lower,
		A: Value{a, 0, 1}, B: Value{b, 0, 1}, DiffPct: diffPct(a, b)}
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

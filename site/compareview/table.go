package compareview

import (
	"fmt"
	"math"

	"schedplay/engine/compare"
)

// Significance is the level below which a difference counts as
// significant in the table's marks (Welch's p).
const Significance = 0.05

// Cells are one table row's texts and marks.
type Cells struct {
	Metric, A, B, Diff, P string
	// Lower is "lower is better" for this metric.
	Lower bool
	// Verdict is "better", "worse", "same" (no significant difference) or
	// "" (no difference to judge): B against A.
	Verdict string
}

// RowCells formats a table row for the page (the same figures as
// compare.WriteText).
func RowCells(r compare.Row) Cells {
	c := Cells{Metric: r.Metric, A: valueText(r.A, r.Unit), B: valueText(r.B, r.Unit), Lower: r.LowerIsBetter, Diff: "n/a", P: ""}
	if r.P != nil {
		c.P = pText(*r.P)
	}
	if r.DiffPct == nil {
		return c
	}
	d := *r.DiffPct
	c.Diff = compare.PctText(d)
	switch {
	case d == 0 || r.P != nil && *r.P >= Significance:
		c.Verdict = "same"
	case (d < 0) == r.LowerIsBetter:
		c.Verdict = "better"
	default:
		c.Verdict = "worse"
	}
	return c
}

func valueText(v compare.Value, unit string) string {
	if v.Of > 0 && v.N == 0 {
		return compare.FinishedText(v) // none of the repetitions has a value
	}
	var s string
	switch {
	case math.IsNaN(v.Mean):
		s = "n/a"
	case v.N > 1:
		sd := v.Stddev
		if sd <= 1e-9*math.Abs(v.Mean) {
			sd = 0 // rounding noise of identical repetitions
		}
		s = compare.MeanSD(v.Mean, sd)
	default:
		s = compare.MeanSD(v.Mean, 0)
		s = s[:len(s)-len(" ± 0")]
	}
	if unit != "" {
		s += " " + unit
	}
	if v.Of > 0 {
		s += " (" + compare.FinishedText(v) + ")"
	}
	return s
}

func pText(p float64) string {
	if p < 0.001 {
		return "p<0.001"
	}
	return fmt.Sprintf("p=%.3f", p)
}

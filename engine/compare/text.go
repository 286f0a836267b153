package compare

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// WriteText renders the table as fixed-width plain text in the style of
// the scheduler mailing-list comparisons, columns aligned with spaces so it
// survives being pasted into an email:
//
//	Metric               A                         B                         Difference
//	Average throughput   1942.1 ± 61.3 GFLOP/s     2010.5 ± 12.8 GFLOP/s     +3.52%  (p=0.04)
func WriteText(w io.Writer, t *Table) error {
	var b strings.Builder
	if t.Scenario != "" {
		fmt.Fprintf(&b, "%s\n", t.Scenario)
	}
	fmt.Fprintf(&b, "A = %s, B = %s; %d repetitions each%s\n", t.A, t.B, t.Reps, seedsText(t.Seeds))
	for i, set := range t.Sets {
		b.WriteByte('\n')
		if t.Vary != "" {
			fmt.Fprintf(&b, "%s = %s\n", t.Vary, set.Value)
		}
		writeRows(&b, set.Rows)
		if i == len(t.Sets)-1 {
			writeLegend(&b, set.Rows)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func seedsText(seeds []uint64) string {
	if len(seeds) == 0 {
		return ""
	}
	return " (" + SeedRange(seeds[0], seeds[len(seeds)-1]) + ")"
}

// SeedRange names the seeds first..last of consecutive repetitions
// ("seeds 1-5"); seeds wrap past 2^64-1 to 0, which the text says.
func SeedRange(first, last uint64) string {
	span := func(a, b uint64) string {
		if a == b {
			return fmt.Sprint(a)
		}
		return fmt.Sprintf("%d-%d", a, b)
	}
	switch {
	case first == last:
		return fmt.Sprintf("seed %d", first)
	case last < first:
		return "seeds " + span(first, math.MaxUint64) + " and " + span(0, last)
	}
	return "seeds " + span(first, last)
}

func writeRows(b *strings.Builder, rows []Row) {
	cells := [][]string{{"Metric", "A", "B", "Difference"}}
	for _, r := range rows {
		cells = append(cells, []string{r.Metric, valueText(r.A, r.Unit), valueText(r.B, r.Unit), diffText(r)})
	}
	width := make([]int, 4)
	for _, row := range cells {
		for i, c := range row {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	for _, row := range cells {
		var line strings.Builder
		for i, c := range row {
			line.WriteString(c)
			if i < len(row)-1 {
				line.WriteString(strings.Repeat(" ", width[i]-len([]rune(c))+3))
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
}

func writeLegend(b *strings.Builder, rows []Row) {
	var lower []string
	for _, r := range rows {
		if r.LowerIsBetter {
			lower = append(lower, strings.ToLower(r.Metric))
		}
	}
	b.WriteString("\nDifference is B against A; p is Welch's t-test (two-sided).\n")
	if len(lower) > 0 {
		fmt.Fprintf(b, "Lower is better for: %s.\n", strings.Join(lower, ", "))
	}
}

func valueText(v Value, unit string) string {
	if v.Of > 0 && v.N == 0 {
		return FinishedText(v)
	}
	s := num(v.Mean)
	if v.N > 1 {
		s = MeanSD(v.Mean, v.Stddev)
	}
	if unit != "" {
		s += " " + unit
	}
	if v.Of > 0 {
		s += " (" + FinishedText(v) + ")"
	}
	return s
}

// FinishedText says how many repetitions a partial value covers ("3 of 5
// finished"); "" when it covers them all.
func FinishedText(v Value) string {
	if v.Of == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d finished", v.N, v.Of)
}

func diffText(r Row) string {
	if r.DiffPct == nil {
		return "n/a"
	}
	s := PctText(*r.DiffPct)
	if r.P != nil {
		s += "  (" + pText(*r.P) + ")"
	}
	return s
}

// PctText prints a signed percentage with two decimals, or two
// significant digits when it is non-zero but below 0.005 % ("-0.0012%",
// not a "-0.00%" that a p<0.001 beside it would contradict).
func PctText(d float64) string {
	a := math.Abs(d)
	if a == 0 || a >= 0.005 || math.IsNaN(a) || math.IsInf(a, 0) {
		return fmt.Sprintf("%+.2f%%", d)
	}
	prec := int(math.Ceil(-math.Log10(a))) + 1
	s := strconv.FormatFloat(d, 'f', min(prec, 12), 64) + "%"
	if d > 0 {
		s = "+" + s
	}
	return s
}

func pText(p float64) string {
	if p < 0.001 {
		return "p<0.001"
	}
	return fmt.Sprintf("p=%.3f", p)
}

// MeanSD prints mean ± sd with the stddev to two significant digits and
// the mean to the same decimal place ("9685.40 ± 0.46", "637 ± 21").
func MeanSD(mean, sd float64) string {
	// A stddev below a billionth of the mean is float rounding of equal
	// values, not spread: print it as 0 rather than "± 0.000000".
	if sd == 0 || math.IsNaN(sd) || math.IsInf(sd, 0) || sd < math.Abs(mean)*1e-9 {
		return num(mean) + " ± 0"
	}
	d := max(0, min(6, 1-int(math.Floor(math.Log10(sd)))))
	return fmt.Sprintf("%.*f ± %.*f", d, mean, d, sd)
}

// num formats a figure with about four significant digits.
func num(v float64) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v):
		return "n/a"
	case a >= 1000 || a == math.Trunc(a) && a < 1e15:
		return fmt.Sprintf("%.0f", v)
	case a >= 100:
		return fmt.Sprintf("%.1f", v)
	case a >= 1:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

package site

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"schedplay/site/viewkit"
)

// FormatNs renders a duration in ns with a unit that keeps 3 significant
// digits ("750 ns", "1.25 µs", "12.5 ms", "2 s").
func FormatNs(ns float64) string {
	a := math.Abs(ns)
	switch {
	case a < 1e3:
		return trimNum(ns, 0) + " ns"
	case a < 1e6:
		return sig3(ns/1e3) + " µs"
	case a < 1e9:
		return sig3(ns/1e6) + " ms"
	}
	return sig3(ns/1e9) + " s"
}

// sig3 formats with three significant digits, no trailing zeros.
func sig3(v float64) string {
	a := math.Abs(v)
	d := 0
	switch {
	case a < 10:
		d = 2
	case a < 100:
		d = 1
	}
	return trimNum(v, d)
}

func trimNum(v float64, d int) string {
	s := strconv.FormatFloat(v, 'f', d, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// FormatNum renders a value with 3–4 significant digits and a k/M suffix
// for big counts.
func FormatNum(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1e9:
		return sig3(v/1e9) + "G"
	case a >= 1e6:
		return sig3(v/1e6) + "M"
	case a >= 1e4:
		return sig3(v/1e3) + "k"
	case a >= 1000:
		return trimNum(v, 0)
	case a == math.Trunc(a):
		return trimNum(v, 0)
	}
	return sig3(v)
}

// FormatMeanSD renders "mean ± sd" with matching precision.
func FormatMeanSD(mean, sd float64, n int) string {
	if n <= 1 {
		return FormatNum(mean)
	}
	return FormatNum(mean) + " ± " + FormatNum(sd)
}

// FormatThroughput renders a throughput with its unit, TFLOP/s for large
// GFLOP/s figures.
func FormatThroughput(mean, sd float64, n int, unit string) string {
	if unit == "GFLOP/s" && math.Abs(mean) >= 1000 {
		unit = "TFLOP/s"
		mean /= 1000
		sd /= 1000
		if n <= 1 {
			return fmt.Sprintf("%.3f %s", mean, unit)
		}
		return fmt.Sprintf("%.3f ± %.3f %s", mean, sd, unit)
	}
	return FormatMeanSD(mean, sd, n) + " " + unit
}

// TaskColor is a stable, distinct colour for task id, clear of the mode
// colours' hues (viewkit.TaskColor).
func TaskColor(task int, dark bool) string { return viewkit.TaskColor(task, dark) }

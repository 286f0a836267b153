package site

import (
	"math"
	"strconv"
	"strings"

	"schedplay/engine/compare"
	enginepalette "schedplay/engine/palette"
	"schedplay/engine/sim"
)

// FormatNs renders a duration in ns with a unit that keeps 3 significant
// digits ("750 ns", "1.25 µs", "12.5 ms", "2 s").
func FormatNs(ns float64) string {
	f, unit := nsScale(ns)
	if f == 1 {
		return trimNum(ns, 0) + " ns"
	}
	return sig3(ns/f) + " " + unit
}

// nsScale is the unit FormatNs writes ns in, and its size in ns.
func nsScale(ns float64) (float64, string) {
	a := math.Abs(ns)
	switch {
	case a < 1e3:
		return 1, "ns"
	case a < 1e6:
		return 1e3, "µs"
	case a < 1e9:
		return 1e6, "ms"
	}
	return 1e9, "s"
}

// FormatNsMeanSD renders a duration's mean ± stddev over n repetitions in
// the unit of the mean, by compare.MeanSD's rule: the stddev to two
// significant digits and the mean to the same decimal place ("161.234 ±
// 0.056 µs", "5.8 ± 1.6 µs"). One repetition has no spread: FormatNs.
func FormatNsMeanSD(mean, sd float64, n int) string {
	if n <= 1 {
		return FormatNs(mean)
	}
	f, unit := nsScale(mean)
	return compare.MeanSD(mean/f, sd/f) + " " + unit
}

// FormatNsStat is FormatNsMeanSD of a summary statistic.
func FormatNsStat(st sim.Stat) string { return FormatNsMeanSD(st.Mean, st.Stddev, st.N) }

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

// numScale is the k/M/G scale FormatNum writes v at, and its suffix.
func numScale(v float64) (float64, string) {
	a := math.Abs(v)
	switch {
	case a >= 1e9:
		return 1e9, "G"
	case a >= 1e6:
		return 1e6, "M"
	case a >= 1e4:
		return 1e3, "k"
	}
	return 1, ""
}

// FormatMeanSD renders "mean ± sd" over n repetitions by compare.MeanSD's
// rule (the stddev to two significant digits, the mean to the same
// decimal place), both at the mean's k/M/G scale: "2287 ± 70",
// "8.1712M ± 0.0086M". One repetition has no spread: FormatNum.
func FormatMeanSD(mean, sd float64, n int) string {
	if n <= 1 {
		return FormatNum(mean)
	}
	f, sfx := numScale(mean)
	m, d, _ := strings.Cut(compare.MeanSD(mean/f, sd/f), " ± ")
	if d != "0" {
		d += sfx
	}
	return m + sfx + " ± " + d
}

// FormatThroughput renders a throughput's mean ± stddev with its unit
// (FormatMeanSD), TFLOP/s for large GFLOP/s figures.
func FormatThroughput(mean, sd float64, n int, unit string) string {
	if unit == "GFLOP/s" && math.Abs(mean) >= 1000 {
		unit = "TFLOP/s"
		mean /= 1000
		sd /= 1000
	}
	return FormatMeanSD(mean, sd, n) + " " + unit
}

// TaskColor is a stable, distinct colour for task id as a CSS hsl()
// string (engine/palette.Task: golden-ratio hue steps along arcs that
// avoid the mode colours, three lightness steps), the same colour the
// timeline exports draw.
func TaskColor(task int, dark bool) string { return enginepalette.Task(task, dark).CSS() }

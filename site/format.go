package site

import (
	"fmt"
	"math"
	"strconv"
	"strings"
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

// Task colour hues avoid the mode colours' hues (viewkit.ModeColor: red ≈2°,
// orange ≈24°, yellow ≈45°, teal ≈173°) by at least 30 degrees, so
// a task bar never reads as a core mode: tasks take hues from two arcs,
// yellow-green to green and azure to magenta.
var taskArcs = [...][2]float64{{82, 140}, {206, 330}}

// taskLight are the lightness steps tasks cycle through (light theme;
// the dark theme adds 18), so neighbours in hue differ in lightness too.
var taskLight = [...]float64{42, 32, 52}

// TaskColor is a stable, distinct colour for task id: golden-ratio steps
// along the allowed hue arcs, cycling three lightness steps.
func TaskColor(task int, dark bool) string {
	span := 0.0
	for _, a := range taskArcs {
		span += a[1] - a[0]
	}
	u := math.Mod(float64(max(task, 0))*0.6180339887498949, 1) * span
	h := taskArcs[0][0]
	for _, a := range taskArcs {
		if u <= a[1]-a[0] {
			h = a[0] + u
			break
		}
		u -= a[1] - a[0]
	}
	l := taskLight[max(task, 0)%len(taskLight)]
	if dark {
		return fmt.Sprintf("hsl(%.0f 62%% %.0f%%)", h, l+18)
	}
	return fmt.Sprintf("hsl(%.0f 66%% %.0f%%)", h, l)
}

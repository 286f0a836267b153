package compareview

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"schedplay/engine/compare"
	"schedplay/engine/scenario"
)

// MaxSweepPoints bounds a sweep (the API's --vary limit).
const MaxSweepPoints = 32

// ParseSweep reads a sweep's field path and its comma-separated values;
// an integer range "1..8" stands for 1,2,…,8.
func ParseSweep(path, list string) (string, []string, error) {
	path = strings.TrimSpace(path)
	if path == "" {
		return "", nil, fmt.Errorf("name the field to vary, e.g. workload.groups[0].count")
	}
	list, err := expandRanges(list)
	if err != nil {
		return "", nil, err
	}
	p, values, err := compare.ParseVary(path + "=" + list)
	if err != nil {
		return "", nil, err
	}
	for i, v := range values {
		if v == "" {
			return "", nil, fmt.Errorf("value %d of the list is empty", i+1)
		}
	}
	if len(values) > MaxSweepPoints {
		return "", nil, fmt.Errorf("%d values; a sweep has at most %d", len(values), MaxSweepPoints)
	}
	return p, values, nil
}

// expandRanges replaces each "a..b" item of a comma-separated list (whole
// numbers, a ≤ b) by a, a+1, …, b.
func expandRanges(list string) (string, error) {
	var out []string
	for _, item := range strings.Split(list, ",") {
		lo, hi, ok := strings.Cut(strings.TrimSpace(item), "..")
		if !ok {
			out = append(out, item)
			continue
		}
		a, err1 := strconv.Atoi(strings.TrimSpace(lo))
		b, err2 := strconv.Atoi(strings.TrimSpace(hi))
		if err1 != nil || err2 != nil || a > b {
			return "", fmt.Errorf("range %q: write whole numbers low..high, e.g. 1..8", strings.TrimSpace(item))
		}
		if b-a >= MaxSweepPoints {
			return "", fmt.Errorf("range %q has %d values; a sweep has at most %d", strings.TrimSpace(item), b-a+1, MaxSweepPoints)
		}
		for v := a; v <= b; v++ {
			out = append(out, strconv.Itoa(v))
		}
	}
	return strings.Join(out, ","), nil
}

// SweepSet is the override of one sweep point. The request sends it as
// compare's "vary" (one value), so it applies after each side's own
// overrides, as `schedplay compare --vary` does.
func SweepSet(path, value string) ([]scenario.Override, error) {
	o, err := scenario.ParseSet(path + "=" + value)
	if err != nil {
		return nil, err
	}
	return []scenario.Override{o}, nil
}

// DefaultSweepValues suggests values around a group's task count n: 1, 2,
// 4, 8 for tiny counts, else n/4, n/2, n, 2n (22, 44, 88, 176 for 88).
func DefaultSweepValues(n int) string {
	if n <= 2 {
		return "1,2,4,8"
	}
	vals := []int{max(1, n/4), max(1, n/2), n, 2 * n}
	var out []string
	last := 0
	for _, v := range vals {
		if v != last {
			out = append(out, strconv.Itoa(v))
		}
		last = v
	}
	return strings.Join(out, ",")
}

// Point is one sweep point: the metric for both sides.
type Point struct {
	Value string
	A, B  compare.Value
	// Err says why the point failed ("" when it has values).
	Err string
}

// SweepSummary is the status line of a finished sweep of n values whose
// points are pts: "Done: 4 points." when every point has values, else how
// many succeeded and which failed, with why ("Done: 2 of 4 points; 2
// failed: 88 (…), 176 (…)."). failed reports whether any point failed.
func SweepSummary(pts []Point, n int) (text string, failed bool) {
	var bad []string
	for _, p := range pts {
		if p.Err != "" {
			bad = append(bad, p.Value+" ("+p.Err+")")
		}
	}
	if len(bad) == 0 && len(pts) == n {
		return fmt.Sprintf("Done: %d points.", n), false
	}
	text = fmt.Sprintf("Done: %d of %d points", len(pts)-len(bad), n)
	if len(bad) > 0 {
		text += fmt.Sprintf("; %d failed: %s", len(bad), strings.Join(bad, ", "))
	}
	return text + ".", true
}

// RowOf finds a metric's row in a comparison table's first row set.
func RowOf(t *compare.Table, metric string) (compare.Row, bool) {
	if t == nil || len(t.Sets) == 0 {
		return compare.Row{}, false
	}
	for _, r := range t.Sets[0].Rows {
		if r.Metric == metric {
			return r, true
		}
	}
	return compare.Row{}, false
}

// Chart is the geometry of a sweep chart: x is the point's index (values
// are categories: 22, 44, 88 are evenly spaced), y the metric, with the
// error bars (mean ± stddev) inside the range.
type Chart struct {
	W, H                  float64
	Left, Right, Top, Bot float64
	YMin, YMax            float64
	N                     int
}

// NewChart fits the points' error bars into w×h pixels.
func NewChart(points []Point, n int, w, h float64) Chart {
	c := Chart{W: w, H: h, Left: 64, Right: w - 16, Top: 14, Bot: h - 46, N: n}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range points {
		if p.Err != "" {
			continue
		}
		for _, v := range []compare.Value{p.A, p.B} {
			lo = math.Min(lo, v.Mean-v.Stddev)
			hi = math.Max(hi, v.Mean+v.Stddev)
		}
	}
	if math.IsInf(lo, 0) {
		lo, hi = 0, 1
	}
	if lo > 0 && lo < (hi-lo)*2 {
		lo = 0 // keep zero in view unless the data sit far above it
	}
	pad := (hi - lo) * 0.08
	if pad == 0 {
		pad = math.Max(math.Abs(hi)*0.05, 1)
	}
	c.YMin, c.YMax = lo-pad, hi+pad
	if lo == 0 {
		c.YMin = 0
	}
	return c
}

// X is the x position of point i.
func (c Chart) X(i int) float64 {
	if c.N <= 1 {
		return (c.Left + c.Right) / 2
	}
	return c.Left + (c.Right-c.Left)*float64(i)/float64(c.N-1)
}

// Y is the y position of value v.
func (c Chart) Y(v float64) float64 {
	return c.Bot - (v-c.YMin)/(c.YMax-c.YMin)*(c.Bot-c.Top)
}

// SweepSVG draws the sweep as an inline SVG document: one polyline with
// markers and error bars (mean ± stddev) per side, the values on the x
// axis, the metric on the y axis. Every text is escaped. points may hold
// fewer entries than values (a running or cancelled sweep).
func SweepSVG(points []Point, path string, values []string, metric, unit, a, b string, w, h float64) string {
	c := NewChart(points, len(values), w, h)
	var s strings.Builder
	fmt.Fprintf(&s, `<svg xmlns="http://www.w3.org/2000/svg" class="sweep-svg" viewBox="0 0 %.0f %.0f" width="%.0f" height="%.0f" role="img" aria-label="%s">`,
		w, h, w, h, html.EscapeString(metric+" against "+path))
	// axes and y grid
	fmt.Fprintf(&s, `<g class="axis"><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`,
		c.Left, c.Top, c.Left, c.Bot, c.Left, c.Bot, c.Right, c.Bot)
	for _, v := range niceTicks(c.YMin, c.YMax, 5) {
		y := c.Y(v)
		fmt.Fprintf(&s, `<line class="grid" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/><text x="%.1f" y="%.1f" text-anchor="end">%s</text>`,
			c.Left, y, c.Right, y, c.Left-6, y+4, html.EscapeString(tickText(v)))
	}
	for i, v := range values {
		fmt.Fprintf(&s, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, c.X(i), c.Bot+16, html.EscapeString(v))
	}
	fmt.Fprintf(&s, `<text class="xlabel" x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, (c.Left+c.Right)/2, c.H-18, html.EscapeString(path))
	label := metric
	if unit != "" {
		label += " (" + unit + ")"
	}
	fmt.Fprintf(&s, `<text class="ylabel" x="%.1f" y="%.1f">%s</text></g>`, c.Left, c.Top-3, html.EscapeString(label))
	for side, name := range []string{a, b} {
		cls := []string{"side-a", "side-b"}[side]
		var pts []string
		fmt.Fprintf(&s, `<g class="%s">`, cls)
		for i, p := range points {
			if p.Err != "" {
				continue
			}
			v := p.A
			if side == 1 {
				v = p.B
			}
			x, y := c.X(i), c.Y(v.Mean)
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, y))
			if v.Stddev > 0 {
				y0, y1 := c.Y(v.Mean-v.Stddev), c.Y(v.Mean+v.Stddev)
				fmt.Fprintf(&s, `<path class="errbar" d="M%.1f %.1fV%.1fM%.1f %.1fh8M%.1f %.1fh8"/>`, x, y0, y1, x-4, y0, x-4, y1)
			}
			fmt.Fprintf(&s, `<circle cx="%.1f" cy="%.1f" r="3.5"><title>%s = %s: %s</title></circle>`,
				x, y, html.EscapeString(name), html.EscapeString(p.Value), html.EscapeString(compare.MeanSD(v.Mean, v.Stddev)))
		}
		if len(pts) > 1 {
			fmt.Fprintf(&s, `<polyline fill="none" points="%s"/>`, strings.Join(pts, " "))
		}
		fmt.Fprintf(&s, `<text class="key" x="%.1f" y="%.1f">● %s</text></g>`, c.Left+float64(side)*(c.Right-c.Left)/2, c.H-3, html.EscapeString(name))
	}
	s.WriteString(`</svg>`)
	return s.String()
}

// niceTicks returns about n round values in [lo, hi].
func niceTicks(lo, hi float64, n int) []float64 {
	if hi <= lo || n < 1 {
		return nil
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var out []float64
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		out = append(out, v)
	}
	return out
}

func tickText(v float64) string {
	if math.Abs(v) < 1e-12 {
		return "0"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

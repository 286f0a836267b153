package compareview

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"schedplay/engine/compare"
	"schedplay/engine/export"
	"schedplay/engine/scenario"
	plans "schedplay/engine/sweep"
	"schedplay/presets"
	"schedplay/site"
	"schedplay/site/viewkit"
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
	for _, v := range export.NiceTicks(c.YMin, c.YMax, 5) {
		y := c.Y(v)
		fmt.Fprintf(&s, `<line class="grid" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/><text x="%.1f" y="%.1f" text-anchor="end">%s</text>`,
			c.Left, y, c.Right, y, c.Left-6, y+4, html.EscapeString(site.FormatTick(v)))
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

// WorkerStorageKey is where the page keeps the sweep's Worker URL
// (localStorage, never in a share link).
const WorkerStorageKey = "schedplay.sweep.worker"

// CheckWorkerURL reads the Worker URL field: "" (run in this browser) or
// an http(s) URL without a query, fragment or spaces, returned without
// its trailing slash.
func CheckWorkerURL(s string) (string, error) {
	s = strings.TrimRight(strings.TrimSpace(s), "/")
	if s == "" {
		return "", nil
	}
	rest, ok := strings.CutPrefix(s, "https://")
	if !ok {
		rest, ok = strings.CutPrefix(s, "http://")
	}
	host, _, _ := strings.Cut(rest, "/")
	if !ok || host == "" || strings.ContainsAny(s, "?# \t\n\"<>\\") || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return "", fmt.Errorf("%q: give the Worker's address, e.g. https://schedplay-api.you.workers.dev", s)
	}
	return s, nil
}

// SweepPlan is the sweep of field over values under the two sides, as
// runs: every value × side × repetition one simulate request
// (engine/sweep), the same units whether they run in this browser or on
// a Worker.
func SweepPlan(doc *scenario.Scenario, ps *presets.Set, a, b compare.Side, field string, values []string) (*plans.Plan, error) {
	return plans.NewPlan(plans.Spec{Scenario: doc, Presets: ps, Sides: []compare.Side{a, b},
		Vary: []plans.Vary{{Path: field, Values: values}}, PerPoint: true})
}

// PointOf turns the runs of one value (both sides, every repetition: a
// group of plan) into its point and its comparison table, the table
// POST /api/v1/compare gives for that value. A refused run makes the
// point failed, with the refusal.
func PointOf(plan *plans.Plan, recs []plans.Record, value, a, b string) (Point, *compare.Table) {
	pt := Point{Value: value}
	for _, r := range recs {
		if r.Status != 200 {
			pt.Err = viewkit.Reply{Status: r.Status, Body: string(r.Error)}.ErrorText()
			return pt, nil
		}
	}
	bySide, _, err := plan.Merge(recs)
	if err != nil || bySide[0] == nil || bySide[1] == nil {
		pt.Err = "the reply could not be read"
		return pt, nil
	}
	t := &compare.Table{Scenario: bySide[0].Scenario, A: a, B: b, Reps: plan.Reps(), Sets: []compare.RowSet{{Value: value, Rows: compare.Rows(bySide[0], bySide[1])}}}
	for i := 0; i < plan.Reps(); i++ {
		t.Seeds = append(t.Seeds, plan.Seed()+uint64(i))
	}
	return pt, t
}

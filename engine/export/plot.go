package export

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"schedplay/engine/palette"
)

// PlotPoint is one marker of a line: mean ± sample standard deviation.
// OK is false where the line has no value (a failed or missing point).
type PlotPoint struct {
	Mean, Stddev float64
	OK           bool
}

// PlotLine is one named line of a plot, one point per category.
type PlotLine struct {
	Name   string
	Points []PlotPoint
}

// Plot is one panel: categories on x (evenly spaced, in order), the
// metric on y, one line per series with error bars.
type Plot struct {
	Title  string // above the panel ("" for none)
	XLabel string
	X      []string
	YLabel string
	Lines  []PlotLine
}

// Plot geometry (px).
const (
	plotPanelH = 300
	plotLeft   = 72
	plotRight  = 20
	plotTop    = 34
	plotBottom = 52
	plotKeyH   = 18
)

// PlotSVG writes the panels as one SVG document, stacked vertically, each
// width px wide; line i is drawn in task colour i (engine/palette) in
// every panel, with its name in the key under the panels. Every text is
// escaped.
func PlotSVG(w io.Writer, panels []Plot, width int) error {
	bw := bufio.NewWriter(w)
	names := []string{}
	for _, p := range panels {
		for i, l := range p.Lines {
			if i >= len(names) {
				names = append(names, l.Name)
			}
		}
	}
	keyRows := (len(names) + 3) / 4
	h := len(panels)*plotPanelH + keyRows*plotKeyH + 8
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", width, h, width, h)
	fmt.Fprintf(bw, `<rect width="%d" height="%d" fill="%s"/>`+"\n", width, h, palette.Hex(backgroundColor))
	for i, p := range panels {
		plotPanel(bw, p, float64(width), float64(i*plotPanelH))
	}
	y := len(panels)*plotPanelH + 4
	for i, n := range names {
		x := plotLeft + (i%4)*((width-plotLeft)/4)
		ry := y + (i/4)*plotKeyH
		fmt.Fprintf(bw, `<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d" fill="%s">%s</text>`+"\n",
			x, ry, lineColor(i), x+14, ry+9, palette.Hex(textColor), esc(n))
	}
	bw.WriteString("</svg>\n")
	return bw.Flush()
}

// lineColor is line i's colour.
func lineColor(i int) string { return palette.Task(i, false).CSS() }

// plotPanel draws one panel whose top is at y0.
func plotPanel(w *bufio.Writer, p Plot, width, y0 float64) {
	left, right, top, bot := float64(plotLeft), width-plotRight, y0+plotTop, y0+plotPanelH-plotBottom
	lo, hi := plotRange(p.Lines)
	n := len(p.X)
	x := func(i int) float64 { return left + (right-left)*(float64(i)+0.5)/float64(max(n, 1)) }
	y := func(v float64) float64 { return bot - (v-lo)/(hi-lo)*(bot-top) }
	axis, grid, text := palette.Hex(axisColor), palette.Hex(gridColor), palette.Hex(textColor)
	if p.Title != "" {
		fmt.Fprintf(w, `<text x="%.1f" y="%.1f" fill="%s" font-weight="bold">%s</text>`+"\n", left, y0+14, text, esc(p.Title))
	}
	label := p.YLabel
	fmt.Fprintf(w, `<text x="%.1f" y="%.1f" fill="%s">%s</text>`+"\n", left, top-6, text, esc(label))
	for _, v := range NiceTicks(lo, hi, 5) {
		fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/><text x="%.1f" y="%.1f" fill="%s" text-anchor="end">%s</text>`+"\n",
			left, y(v), right, y(v), grid, left-6, y(v)+4, text, esc(TickText(v)))
	}
	fmt.Fprintf(w, `<path d="M%.1f %.1fV%.1fH%.1f" fill="none" stroke="%s"/>`+"\n", left, top, bot, right, axis)
	for i, c := range p.X {
		fmt.Fprintf(w, `<text x="%.1f" y="%.1f" fill="%s" text-anchor="middle">%s</text>`+"\n", x(i), bot+16, text, esc(c))
	}
	fmt.Fprintf(w, `<text x="%.1f" y="%.1f" fill="%s" text-anchor="middle">%s</text>`+"\n", (left+right)/2, bot+36, text, esc(p.XLabel))
	for li, l := range p.Lines {
		col := lineColor(li)
		fmt.Fprintf(w, `<g stroke="%s" fill="%s">`+"\n", col, col)
		var pts []string
		for i, pt := range l.Points {
			if !pt.OK || i >= n {
				continue
			}
			px, py := x(i), y(pt.Mean)
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px, py))
			if pt.Stddev > 0 {
				y1, y2 := y(pt.Mean-pt.Stddev), y(pt.Mean+pt.Stddev)
				fmt.Fprintf(w, `<path d="M%.1f %.1fV%.1fM%.1f %.1fh8M%.1f %.1fh8" fill="none"/>`+"\n", px, y1, y2, px-4, y1, px-4, y2)
			}
			fmt.Fprintf(w, `<circle cx="%.1f" cy="%.1f" r="3"><title>%s, %s: %s ± %s</title></circle>`+"\n",
				px, py, esc(l.Name), esc(p.X[i]), TickText(pt.Mean), TickText(pt.Stddev))
		}
		if len(pts) > 1 {
			fmt.Fprintf(w, `<polyline fill="none" stroke-width="1.5" points="%s"/>`+"\n", strings.Join(pts, " "))
		}
		w.WriteString("</g>\n")
	}
}

// plotRange is the y range of the lines' error bars, padded, keeping zero
// in view unless the data sit far above it.
func plotRange(lines []PlotLine) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, l := range lines {
		for _, p := range l.Points {
			if p.OK && !math.IsNaN(p.Mean) {
				lo, hi = math.Min(lo, p.Mean-p.Stddev), math.Max(hi, p.Mean+p.Stddev)
			}
		}
	}
	if math.IsInf(lo, 0) {
		return 0, 1
	}
	if lo > 0 && lo < (hi-lo)*2 {
		lo = 0
	}
	pad := (hi - lo) * 0.08
	if pad == 0 {
		pad = math.Max(math.Abs(hi)*0.05, 1)
	}
	if lo == 0 {
		return 0, hi + pad
	}
	return lo - pad, hi + pad
}

// NiceTicks returns about n round values (1, 2 or 5 × 10^k apart) in
// [lo, hi].
func NiceTicks(lo, hi float64, n int) []float64 {
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

// TickText renders an axis tick value with at most four significant
// digits and a k/M/G suffix from 10 000, never an exponent ("12.5k", not
// "1.25e+04"); every chart of the page and of the CLI writes ticks with it.
func TickText(v float64) string {
	a := math.Abs(v)
	switch {
	case a < 1e-12:
		return "0"
	case a >= 1e9:
		return tickDigits(v/1e9) + "G"
	case a >= 1e6:
		return tickDigits(v/1e6) + "M"
	case a >= 1e4:
		return tickDigits(v/1e3) + "k"
	}
	return tickDigits(v)
}

// tickDigits writes v in fixed point with four significant digits,
// trailing zeros dropped.
func tickDigits(v float64) string {
	d := min(max(0, 3-int(math.Floor(math.Log10(math.Abs(v))))), 12)
	s := strconv.FormatFloat(v, 'f', d, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

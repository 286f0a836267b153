package export

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"

	"schedplay/engine/sim"
)

// axis draws the time axis under the plot: a line, ticks every "nice"
// step (1, 2 or 5 × 10^k ns, about one per 100 px) with labels, and faint
// grid lines up through the plot.
func axis(d *drawing, sc scale, y int) {
	x0, x1 := int(sc.x0/cpx), int((sc.x0+sc.width)/cpx)
	d.lines = append(d.lines, lineEl{x0: x0, y0: y, x1: x1, y1: y, stroke: axisColor})
	span := sc.t1 - sc.t0
	want := max(int64(sc.width/cpx/100), 2)
	step := niceStep(span / want)
	unit, name := timeUnit(step)
	first := (sc.t0 + step - 1) / step * step
	if sc.t0 < 0 {
		first = sc.t0 / step * step
	}
	for t := first; t <= sc.t1; t += step {
		x := int(sc.x(t) / cpx)
		d.lines = append(d.lines,
			lineEl{x0: x, y0: titleH, x1: x, y1: y - 1, stroke: gridColor},
			lineEl{x0: x, y0: y, x1: x, y1: y + 4, stroke: axisColor})
		d.texts = append(d.texts, textEl{x: x, y: y + 15, s: formatTick(t, unit) + " " + name, anchor: "middle"})
	}
}

// niceStep rounds d up to 1, 2 or 5 × 10^k (at least 1).
func niceStep(d int64) int64 {
	p := int64(1)
	for {
		for _, m := range []int64{1, 2, 5} {
			if m*p >= d {
				return m * p
			}
		}
		p *= 10
	}
}

// timeUnit picks the unit of a tick step: the largest one the step is at
// least a tenth of ("0.5 ms", not "500 µs").
func timeUnit(step int64) (int64, string) {
	switch {
	case step*10 >= 1e9:
		return 1e9, "s"
	case step*10 >= 1e6:
		return 1e6, "ms"
	case step*10 >= 1e3:
		return 1e3, "µs"
	}
	return 1, "ns"
}

// formatTick prints t/unit exactly, without trailing zeros.
func formatTick(t, unit int64) string {
	neg := t < 0
	if neg {
		t = -t
	}
	s := strconv.FormatInt(t/unit, 10)
	if frac := t % unit; frac != 0 {
		digits := len(strconv.FormatInt(unit, 10)) - 1
		f := fmt.Sprintf("%0*d", digits, frac)
		s += "." + strings.TrimRight(f, "0")
	}
	if neg {
		s = "-" + s
	}
	return s
}

// legendItem is one swatch and its label.
type legendItem struct {
	fill  color.RGBA
	label string
}

// legend draws the mode and task legend from y and returns the drawing's
// total height.
func legend(d *drawing, tl *sim.Timeline, y int) int {
	items := []legendItem{}
	for _, m := range []sim.Mode{sim.ModeST, sim.ModeSMT, sim.ModePartitioned, sim.ModeSwitching, sim.ModeIdle} {
		items = append(items, legendItem{ModeColor(m), "core " + modeLabels[m]})
	}
	if d.merged {
		items = append(items, legendItem{busyColor, "busy (merged slices)"})
	}
	n := min(len(tl.Tasks), maxLegendTsk)
	for i := 0; i < n; i++ {
		items = append(items, legendItem{TaskColor(i), tl.Tasks[i].Name})
	}
	if rest := len(tl.Tasks) - n; rest > 0 {
		items = append(items, legendItem{color.RGBA{}, fmt.Sprintf("… %d more tasks", rest)})
	}
	perRow := max((d.w-marginLeft)/legendItemW, 1)
	for i, it := range items {
		x := marginLeft + (i%perRow)*legendItemW
		ry := y + (i/perRow)*legendRowH
		if it.fill.A != 0 {
			d.slices = append(d.slices, rectEl{x0: int64(x) * cpx, x1: int64(x+10) * cpx, y: ry, h: 10, fill: it.fill})
		}
		label := it.label
		if r := []rune(label); len(r) > 24 && it.fill.A != 0 {
			label = string(r[:23]) + "…"
		}
		d.texts = append(d.texts, textEl{x: x + 14, y: ry + 9, s: label, anchor: "start"})
	}
	rows := (len(items) + perRow - 1) / perRow
	return y + rows*legendRowH + 6
}

//go:build js && wasm

package playground

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"honnef.co/go/js/dom/v2"

	"schedplay/site"
	"schedplay/site/viewkit"
)

// Structured editors for the machine's lists: every cell edits its own
// path (so the validator's issue lands on it), rows are added, removed and
// reordered as whole-list edits, and the curves redraw their sparkline as
// the user types. The JSON tab stays the power-user view of the same
// document.

// cell is one input of a structured editor: it edits path (text as a
// string, else the JSON value it spells, as the number boxes do).
func (a *App) cell(b builder, parent dom.Element, path, label string, v any, text, optional bool) *dom.HTMLInputElement {
	in := b.el(parent, "input", "cell").(*dom.HTMLInputElement)
	id := FieldID(path)
	in.SetID(id)
	in.SetAttribute("type", "text")
	in.SetAttribute("aria-label", label)
	if !text {
		in.SetAttribute("inputmode", "decimal")
	}
	if v != nil {
		in.SetValue(scalarText(v))
	}
	if iss := a.state.IssuesUnder(path); len(iss) > 0 {
		in.SetAttribute("aria-invalid", "true")
		in.SetAttribute("title", iss[0].Message)
	}
	b.on(in, "change", func(dom.Event) {
		t := in.Value()
		if t == "" && optional {
			a.dispatch(EditField{Path: path, Value: site.Delete})
			return
		}
		a.dispatch(EditText{Path: path, Text: t, AsString: text, Scalar: !text})
	})
	return in
}

// removeItem removes item idx of the n-item list at path; the last item
// takes the field with it, back to its default (an empty list is an
// error).
func (a *App) removeItem(path string, n, idx int) {
	if n == 1 {
		a.dispatch(EditField{Path: path, Value: site.Delete})
		return
	}
	a.dispatch(EditField{Path: fmt.Sprintf("%s[%d]", path, idx), Value: site.Delete})
}

// classRowsAtOnce is how many core-class rows the editor builds in one
// task: a longer table is built in slices of as many rows, each in a page
// task of its own (viewkit.Yield) after the editor's. Vera has 155
// classes; built at once after its first figures they held the main
// thread for 0.5-0.7 s.
const classRowsAtOnce = 4

// classesField is the core-class table: a row per class (name, cores,
// capacity, speed, threads, cluster cores) with move up/down and remove,
// and "+ class". A long table is built in slices (classRowsAtOnce); the
// rows an issue or the focus is on are built at once.
func (a *App) classesField(b builder, row dom.Element, f Field, v any, id string) {
	list, _ := v.([]any)
	box := b.el(row, "div", "structured")
	box.SetID(id)
	if len(list) == 0 {
		b.text(box, "p", "muted small", "One class: every core of capacity 1024, speed 1.")
	} else {
		tbl := b.el(box, "table", "classes")
		head := b.el(b.el(tbl, "thead", ""), "tr", "")
		for _, c := range ClassColumns {
			b.text(head, "th", "", c.Label)
		}
		b.el(head, "th", "")
		body := b.el(tbl, "tbody", "")
		now := len(list)
		if now > classRowsAtOnce {
			now = 0 // all in tasks after this one
		}
		if len(a.state.IssuesUnder(f.Path)) > 0 {
			now = len(list) // goToField finds every cell
		}
		if i, ok := itemOf(a.focusID, id); ok && i < len(list) {
			now = max(now, i+1) // update gives the focus back
		}
		for i := range now {
			a.classRow(b, body, f, list, i, id)
		}
		setPerf("classRowsOf", float64(len(list)))
		setPerf("classRows", float64(now))
		setPerf("classSlices", 0)
		if now < len(list) {
			a.spawn(func() {
				for i, slices := now, 0; i < len(list); slices++ {
					viewkit.Yield()
					if !isConnected(body) {
						return // the editor was rebuilt meanwhile
					}
					for end := min(len(list), i+classRowsAtOnce); i < end; i++ {
						a.classRow(b, body, f, list, i, id)
					}
					setPerf("classRows", float64(i))
					setPerf("classSlices", float64(slices+1))
				}
			})
		}
	}
	b.button(box, id+"-add", "chip add", "+ class", func() {
		a.dispatch(EditField{Path: f.Path, Value: appendItem(list, newClass(len(list)))})
	})
}

// classRow is row i of the core-class table.
func (a *App) classRow(b builder, body dom.Element, f Field, list []any, i int, id string) {
	m, _ := list[i].(map[string]any)
	tr := b.el(body, "tr", "")
	for _, c := range ClassColumns {
		p := fmt.Sprintf("%s[%d].%s", f.Path, i, c.Key)
		a.cell(b, b.el(tr, "td", ""), p, fmt.Sprintf("class %d %s", i, c.Label), m[c.Key], c.Text, c.Optional)
	}
	td := b.el(tr, "td", "row-tools")
	up := b.button(td, fmt.Sprintf("%s-%d-up", id, i), "icon", "↑", func() {
		a.dispatch(EditField{Path: f.Path, Value: moveItem(list, i, -1)})
	})
	up.SetAttribute("aria-label", fmt.Sprintf("move class %d up", i))
	if i == 0 {
		up.SetAttribute("disabled", "")
	}
	down := b.button(td, fmt.Sprintf("%s-%d-down", id, i), "icon", "↓", func() {
		a.dispatch(EditField{Path: f.Path, Value: moveItem(list, i, 1)})
	})
	down.SetAttribute("aria-label", fmt.Sprintf("move class %d down", i))
	if i == len(list)-1 {
		down.SetAttribute("disabled", "")
	}
	rm := b.button(td, fmt.Sprintf("%s-%d-remove", id, i), "icon danger", "✕", func() {
		a.removeItem(f.Path, len(list), i) // [] is an error: back to one class
	})
	rm.SetAttribute("aria-label", fmt.Sprintf("remove class %d", i))
}

// itemOf is i when the element id names a control of item i of the list
// editor id (id-i-…).
func itemOf(elem, id string) (int, bool) {
	rest, ok := strings.CutPrefix(elem, id+"-")
	if !ok {
		return 0, false
	}
	num, _, _ := strings.Cut(rest, "-")
	i, err := strconv.Atoi(num)
	return i, err == nil && i >= 0
}

// yieldField edits the SMT yield: one number per busy-thread count, with a
// sparkline of the core's throughput.
func (a *App) yieldField(b builder, row dom.Element, f Field, v any, id string) {
	list, _ := v.([]any)
	box := b.el(row, "div", "structured points")
	box.SetID(id)
	spark := a.sparkline(b, box, id+"-spark", "core throughput by busy threads")
	var ins []*dom.HTMLInputElement
	redraw := func() {
		ys := make([]float64, len(ins))
		xs := make([]float64, len(ins))
		for i, in := range ins {
			ys[i], _ = strconv.ParseFloat(in.Value(), 64)
			xs[i] = float64(i + 1)
		}
		drawSpark(spark, xs, ys, a.dark)
	}
	pts := b.el(box, "div", "point-row")
	for i, x := range list {
		l := b.el(pts, "label", "point")
		b.text(l, "span", "muted small", strconv.Itoa(i+1))
		in := a.cell(b, l, fmt.Sprintf("%s[%d]", f.Path, i), fmt.Sprintf("yield with %d busy threads", i+1), x, false, false)
		ins = append(ins, in)
		b.on(in, "input", func(dom.Event) { redraw() })
	}
	if len(list) == 0 {
		b.text(pts, "span", "muted small", "model default "+f.Help)
	}
	b.button(pts, id+"-add", "chip add", "+", func() {
		next := any(1)
		if n := len(list); n > 0 {
			next = list[n-1]
		}
		a.dispatch(EditField{Path: f.Path, Value: appendItem(list, next)})
	}).SetAttribute("aria-label", "add a thread count")
	if len(list) > 0 {
		b.button(pts, id+"-drop", "chip", "−", func() {
			a.removeItem(f.Path, len(list), len(list)-1)
		}).SetAttribute("aria-label", "remove the last thread count")
	}
	redraw()
}

// boostField edits the boost curve: [busy core fraction, multiplier]
// points, with a sparkline of the piecewise-linear curve.
func (a *App) boostField(b builder, row dom.Element, f Field, v any, id string) {
	list, _ := v.([]any)
	box := b.el(row, "div", "structured points")
	box.SetID(id)
	spark := a.sparkline(b, box, id+"-spark", "speed multiplier by busy core fraction")
	type pt struct{ x, y *dom.HTMLInputElement }
	var ins []pt
	redraw := func() {
		var xs, ys []float64
		for _, p := range ins {
			x, _ := strconv.ParseFloat(p.x.Value(), 64)
			y, _ := strconv.ParseFloat(p.y.Value(), 64)
			xs, ys = append(xs, x), append(ys, y)
		}
		if len(xs) == 0 {
			xs, ys = []float64{0, 1}, []float64{1, 1}
		}
		drawSpark(spark, xs, ys, a.dark)
	}
	tbl := b.el(box, "div", "curve")
	for i, p := range list {
		pair, _ := p.([]any)
		get := func(k int) any {
			if k < len(pair) {
				return pair[k]
			}
			return nil
		}
		r := b.el(tbl, "div", "curve-row")
		var q pt
		q.x = a.cell(b, r, fmt.Sprintf("%s[%d][0]", f.Path, i), fmt.Sprintf("point %d busy fraction", i), get(0), false, false)
		b.text(r, "span", "muted small", "busy →")
		q.y = a.cell(b, r, fmt.Sprintf("%s[%d][1]", f.Path, i), fmt.Sprintf("point %d multiplier", i), get(1), false, false)
		b.text(r, "span", "muted small", "×")
		idx := i
		b.button(r, fmt.Sprintf("%s-%d-remove", id, i), "icon danger", "✕", func() {
			a.removeItem(f.Path, len(list), idx)
		}).SetAttribute("aria-label", fmt.Sprintf("remove point %d", i))
		ins = append(ins, q)
		b.on(q.x, "input", func(dom.Event) { redraw() })
		b.on(q.y, "input", func(dom.Event) { redraw() })
	}
	if len(list) == 0 {
		b.text(tbl, "p", "muted small", "No curve: a multiplier of 1 at every load.")
	}
	b.button(box, id+"-add", "chip add", "+ point", func() {
		next := []any{1, 1}
		if n := len(list); n == 0 {
			a.dispatch(EditField{Path: f.Path, Value: []any{[]any{0, 1}, next}})
			return
		}
		a.dispatch(EditField{Path: f.Path, Value: appendItem(list, next)})
	})
	redraw()
}

// prioritiesField edits per-CPU priorities: a sparkline of all of them and
// a grid of one box per CPU (folded away on large machines).
func (a *App) prioritiesField(b builder, row dom.Element, f Field, v any, id string) {
	list, _ := v.([]any)
	box := b.el(row, "div", "structured")
	box.SetID(id)
	if len(list) == 0 {
		b.text(box, "p", "muted small", "None (priority=arch needs them).")
		cpus, err := a.cpus()
		if err == nil && len(cpus) > 0 {
			b.button(box, id+"-fill", "chip add", fmt.Sprintf("+ one per CPU (%d)", len(cpus)), func() {
				out := make([]any, len(cpus))
				for i := range out {
					out[i] = 0
				}
				a.dispatch(EditField{Path: f.Path, Value: out})
			})
		}
		return
	}
	spark := a.sparkline(b, box, id+"-spark", "priority by CPU")
	xs := make([]float64, len(list))
	for i := range xs {
		xs[i] = float64(i)
	}
	drawSpark(spark, xs, numbers(list), a.dark)
	grid := dom.Element(box)
	if len(list) > 32 {
		d := b.el(box, "details", "")
		if len(a.state.IssuesUnder(f.Path)) > 0 {
			d.SetAttribute("open", "")
		}
		b.text(d, "summary", "", fmt.Sprintf("%d values, one per CPU", len(list)))
		grid = d
	}
	g := b.el(grid, "div", "prio-grid")
	for i, x := range list {
		l := b.el(g, "label", "point")
		b.text(l, "span", "muted small", strconv.Itoa(i))
		a.cell(b, l, fmt.Sprintf("%s[%d]", f.Path, i), fmt.Sprintf("priority of CPU %d", i), x, false, false)
	}
}

// sparkline adds a small canvas for drawSpark.
func (a *App) sparkline(b builder, parent dom.Element, id, label string) *dom.HTMLCanvasElement {
	c := b.el(parent, "canvas", "sparkline").(*dom.HTMLCanvasElement)
	c.SetID(id)
	c.SetAttribute("role", "img")
	c.SetAttribute("aria-label", label)
	dpr := devicePixelRatio()
	c.SetWidth(int(sparkW * dpr))
	c.SetHeight(int(sparkH * dpr))
	c.Style().SetProperty("width", fmt.Sprintf("%.0fpx", sparkW), "")
	c.Style().SetProperty("height", fmt.Sprintf("%.0fpx", sparkH), "")
	return c
}

const sparkW, sparkH = 140.0, 34.0

// drawSpark draws ys against xs as a line from 0 to the largest value,
// each point marked; data-points says what it drew (tests read it).
func drawSpark(c *dom.HTMLCanvasElement, xs, ys []float64, dark bool) {
	ctx := c.GetContext2d()
	dpr := devicePixelRatio()
	ctx.Call("setTransform", dpr, 0, 0, dpr, 0, 0)
	ctx.ClearRect(0, 0, sparkW, sparkH)
	pal := palette(dark)
	c.SetAttribute("data-points", fmt.Sprint(ys))
	if len(xs) == 0 {
		return
	}
	x0, x1, top := xs[0], xs[0], 0.0
	for i := range xs {
		x0, x1 = math.Min(x0, xs[i]), math.Max(x1, xs[i])
		top = math.Max(top, ys[i])
	}
	if x1 == x0 {
		x1 = x0 + 1
	}
	if top <= 0 {
		top = 1
	}
	px := func(x float64) float64 { return 4 + (x-x0)/(x1-x0)*(sparkW-8) }
	py := func(y float64) float64 { return sparkH - 3 - math.Max(y, 0)/top*(sparkH-8) }
	ctx.SetStrokeStyle(pal.grid)
	ctx.BeginPath()
	ctx.MoveTo(2, sparkH-3)
	ctx.LineTo(sparkW-2, sparkH-3)
	ctx.Stroke()
	ctx.SetStrokeStyle(pal.accent)
	ctx.Value.Set("lineWidth", 1.5)
	ctx.BeginPath()
	for i := range xs {
		if i == 0 {
			ctx.MoveTo(px(xs[i]), py(ys[i]))
		} else {
			ctx.LineTo(px(xs[i]), py(ys[i]))
		}
	}
	ctx.Stroke()
	ctx.SetFillStyle(pal.accent)
	if len(xs) <= 32 {
		for i := range xs {
			ctx.FillRect(px(xs[i])-1.5, py(ys[i])-1.5, 3, 3)
		}
	}
	ctx.SetFillStyle(pal.muted)
	ctx.SetFont("9px system-ui, sans-serif")
	ctx.FillText(site.FormatTick(top), 2, 9, 40)
	ctx.SetLineWidth(1)
}

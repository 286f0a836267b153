//go:build js && wasm

package canvastl

import (
	"fmt"
	"math"

	"honnef.co/go/js/dom/v2"

	"schedplay/engine/sim"
	"schedplay/site"
	"schedplay/site/viewkit"
)

// Timeline geometry (CSS pixels).
const (
	tlGutter = 78.0
	tlAxisH  = 18.0
	tlPadR   = 6.0
	zoomStep = 0.8
)

// Timeline is a compact per-CPU canvas timeline (rows grouped by core, a
// mode band per core) drawn with package site's pure geometry. Its time
// window is set from outside (SetWindow), so several timelines can share
// one: user zoom and pan only call OnWindow.
type Timeline struct {
	Box    dom.HTMLElement
	canvas *dom.HTMLCanvasElement
	ctx    *dom.CanvasRenderingContext2D
	hover  dom.HTMLElement
	tl     *sim.Timeline
	cpus   []site.LaneCPU
	layout site.Layout
	maxH   float64
	w, h   float64
	// T0, T1 is the visible window (ns); End the shared end of time.
	T0, T1, End int64
	Markers     []Marker
	// OnWindow is called with a new window when the user zooms or pans.
	OnWindow func(t0, t1 int64)
	dark     bool
	drag     bool
	dragX    float64
	lanes    site.LaneBatcher
	cols     []float64
	bat      viewkit.Batches // rectangles by fill style (one call into the page per fill)
}

// NewTimeline adds a timeline canvas with the given id under parent, at
// most maxH pixels tall.
func NewTimeline(b *viewkit.B, parent dom.Element, id, label string, maxH float64) *Timeline {
	t := &Timeline{maxH: maxH, dark: viewkit.Dark()}
	t.Box = b.El(parent, "div", "vk-timeline")
	t.canvas = b.El(t.Box, "canvas", "").(*dom.HTMLCanvasElement)
	t.canvas.SetID(id)
	t.canvas.SetAttribute("tabindex", "0")
	t.canvas.SetAttribute("role", "img")
	t.canvas.SetAttribute("aria-label", label+". Keys: + and - zoom, arrows pan, 0 shows the whole run.")
	t.ctx = t.canvas.GetContext2d()
	t.hover = b.El(t.Box, "div", "vk-hover muted small")
	t.hover.SetTextContent("\u00a0")
	t.listen(b)
	return t
}

// SetData sets the timeline and its CPUs' places (nil cpus: one core per
// CPU).
func (t *Timeline) SetData(tl *sim.Timeline, cpus []site.LaneCPU) {
	t.tl = tl
	if tl != nil && len(cpus) != len(tl.Runs) {
		cpus = make([]site.LaneCPU, len(tl.Runs))
		for i := range cpus {
			cpus[i] = site.LaneCPU{CPU: i, Core: i}
		}
	}
	t.cpus = cpus
	t.w = 0 // re-layout
}

// SetWords sets the machine's mode wording: without SMT the mode bands
// stay empty.
func (t *Timeline) SetWords(w viewkit.ModeWords) { t.lanes.HideModes = !w.SMT() }

// SetMaxHeight changes the canvas's height limit (px); the next Draw lays
// the rows out again.
func (t *Timeline) SetMaxHeight(h float64) {
	if h != t.maxH {
		t.maxH, t.w = h, 0
	}
}

// SetWindow sets the visible window and the end of time.
func (t *Timeline) SetWindow(t0, t1, end int64) { t.T0, t.T1, t.End = t0, t1, end }

func (t *Timeline) listen(b *viewkit.B) {
	c := t.canvas
	b.OnActive(c, "wheel", func(ev dom.Event) {
		ev.PreventDefault()
		dx, dy := viewkit.EvFloat(ev, "deltaX"), viewkit.EvFloat(ev, "deltaY")
		if viewkit.EvFloat(ev, "deltaMode") == 1 {
			dx, dy = dx*16, dy*16
		}
		if viewkit.EvBool(ev, "shiftKey") || math.Abs(dx) > math.Abs(dy) {
			d := dx
			if math.Abs(dy) > math.Abs(dx) {
				d = dy
			}
			t.panPx(d)
			return
		}
		t.zoomBy(math.Exp(dy*0.002), t.localX(ev))
	})
	b.On(c, "mousedown", func(ev dom.Event) { t.drag, t.dragX = true, viewkit.EvFloat(ev, "clientX"); c.Focus() })
	b.On(dom.GetWindow(), "mouseup", func(dom.Event) { t.drag = false })
	b.On(c, "mousemove", func(ev dom.Event) {
		if t.drag {
			x := viewkit.EvFloat(ev, "clientX")
			t.panPx(t.dragX - x)
			t.dragX = x
			return
		}
		t.showHover(ev)
	})
	b.On(c, "dblclick", func(dom.Event) { t.emit(0, t.End) })
	b.On(c, "keydown", func(ev dom.Event) {
		switch ev.(*dom.KeyboardEvent).Key() {
		case "+", "=":
			t.zoomBy(zoomStep, -1)
		case "-", "_":
			t.zoomBy(1/zoomStep, -1)
		case "ArrowLeft":
			t.panPx(-80)
		case "ArrowRight":
			t.panPx(80)
		case "0", "Home":
			t.emit(0, t.End)
		default:
			return
		}
		ev.PreventDefault()
	})
}

func (t *Timeline) localX(ev dom.Event) float64 {
	return viewkit.EvFloat(ev, "clientX") - t.canvas.GetBoundingClientRect().Left()
}

func (t *Timeline) scale() site.TimeScale {
	return site.TimeScale{T0: t.T0, T1: t.T1, Left: tlGutter, Right: t.w - tlPadR}
}

func (t *Timeline) emit(t0, t1 int64) {
	if t.OnWindow != nil && t.End > 0 {
		t.OnWindow(t0, t1)
	}
}

// ZoomBy zooms by factor around x (the centre when x < 0).
func (t *Timeline) zoomBy(f, x float64) {
	if t.End == 0 || t.w == 0 {
		return
	}
	s := t.scale()
	at := (t.T0 + t.T1) / 2
	if x >= s.Left {
		at = s.PxToTime(x)
	}
	t.emit(site.ZoomAt(t.T0, t.T1, at, f, t.End))
}

func (t *Timeline) panPx(dx float64) {
	if t.End == 0 || t.w == 0 {
		return
	}
	t.emit(site.Pan(t.T0, t.T1, int64(dx*t.scale().NsPerPx()), t.End))
}

// ZoomIn, ZoomOut and Reset are the buttons' actions.
func (t *Timeline) ZoomIn()  { t.zoomBy(zoomStep, -1) }
func (t *Timeline) ZoomOut() { t.zoomBy(1/zoomStep, -1) }
func (t *Timeline) Reset()   { t.emit(0, t.End) }

func (t *Timeline) showHover(ev dom.Event) {
	if t.tl == nil || t.w == 0 {
		return
	}
	r := t.canvas.GetBoundingClientRect()
	x, y := viewkit.EvFloat(ev, "clientX")-r.Left(), viewkit.EvFloat(ev, "clientY")-r.Top()
	h := site.HitTest(t.layout, t.scale(), t.tl, x, y-tlAxisH)
	txt := "\u00a0"
	switch {
	case h.Row < 0:
	case h.CPU >= 0 && h.Interval >= 0:
		iv := t.tl.Runs[h.CPU][h.Interval]
		name := fmt.Sprintf("task %d", iv.Task)
		if iv.Task >= 0 && iv.Task < len(t.tl.Tasks) {
			name = t.tl.Tasks[iv.Task].Name
		}
		txt = fmt.Sprintf("cpu %d: %s, %s – %s", h.CPU, name, site.FormatNs(float64(iv.Start)), site.FormatNs(float64(iv.End)))
		if iv.Decision >= 0 && iv.Decision < len(t.tl.Decisions) {
			txt += " · placed by " + viewkit.DecisionSummary(t.tl.Decisions[iv.Decision])
		}
	case h.CPU >= 0:
		txt = fmt.Sprintf("cpu %d idle at %s", h.CPU, site.FormatNs(float64(h.T)))
	default:
		txt = fmt.Sprintf("%s: %d busy at %s", t.layout.Rows[h.Row].Label, h.Busy, site.FormatNs(float64(h.T)))
	}
	t.hover.SetTextContent(txt)
}

// Draw renders the canvas for the current data, window and markers.
func (t *Timeline) Draw() {
	if t.tl == nil || len(t.tl.Runs) == 0 {
		t.canvas.SetAttribute("data-drawn", "0")
		return
	}
	w := float64(t.Box.OffsetWidth())
	if w < 260 {
		w = 260
	}
	if w != t.w {
		t.layout = site.LayoutLanes(t.cpus, t.maxH-tlAxisH, false)
		t.canvas.SetAttribute("data-labels", t.layout.DrawnLabels())
		h := math.Min(t.layout.Height+tlAxisH+2, t.maxH)
		dpr := viewkit.DevicePixelRatio()
		t.w, t.h = w, h
		t.canvas.SetWidth(int(w * dpr))
		t.canvas.SetHeight(int(h * dpr))
		t.canvas.Style().SetProperty("width", fmt.Sprintf("%.0fpx", w), "")
		t.canvas.Style().SetProperty("height", fmt.Sprintf("%.0fpx", h), "")
		t.ctx.Call("setTransform", dpr, 0, 0, dpr, 0, 0)
	}
	if t.T1 <= t.T0 {
		t.T0, t.T1 = 0, max(t.End, t.tl.EndNs)
	}
	pal := viewkit.PaletteFor(t.dark)
	ctx := t.ctx
	ctx.ClearRect(0, 0, t.w, t.h)
	sc := t.scale()
	site.DrawTimeAxis(t.ctx, sc, tlAxisH, t.w, t.h, pal.Muted, pal.Grid)
	ctx.Save()
	ctx.BeginPath()
	ctx.Rect(0, tlAxisH, t.w, t.h-tlAxisH)
	ctx.Call("clip")
	t.drawBands(sc)
	if t.layout.CoresPerRow > 1 {
		t.drawAggregated(sc, pal)
	} else {
		t.drawRows(sc, pal)
	}
	t.drawLabels(pal)
	ctx.Restore()
	t.drawMarkers(sc, pal)
	t.canvas.SetAttribute("data-drawn", "1")
	t.canvas.SetAttribute("data-t0", fmt.Sprint(sc.T0))
	t.canvas.SetAttribute("data-t1", fmt.Sprint(sc.T1))
}

func (t *Timeline) drawBands(sc site.TimeScale) {
	t.lanes.Bands(&t.bat, t.layout.Bands, t.tl, sc, tlAxisH, math.Inf(-1), math.Inf(1), t.dark)
	t.bat.Fill(t.ctx.Value)
}

func (t *Timeline) drawRows(sc site.TimeScale, pal viewkit.Palette) {
	t.lanes.Rows(&t.bat, t.layout.Rows, t.tl, sc, tlAxisH, t.dark, pal.Busy, pal.Grid)
	t.bat.Fill(t.ctx.Value)
}

func (t *Timeline) drawAggregated(sc site.TimeScale, pal viewkit.Palette) {
	for _, r := range t.layout.Rows {
		t.cols = site.BusyColumns(t.tl.Runs, r.CPUs, sc, t.cols)
		for x, f := range t.cols {
			if f > 0 {
				t.bat.Add(pal.Busy, math.Min(1, math.Ceil(f*8)/8), sc.Left+float64(x), tlAxisH+r.Y, 1, r.H)
			}
		}
	}
	t.bat.Fill(t.ctx.Value)
}

func (t *Timeline) drawLabels(pal viewkit.Palette) {
	ctx := t.ctx
	ctx.SetFillStyle(pal.Muted)
	ctx.SetFont("10px ui-monospace, monospace")
	for _, r := range t.layout.Rows {
		if r.H >= 8 {
			ctx.FillText(viewkit.ShortLabel(r.Label), 4, tlAxisH+r.Y+r.H/2, tlGutter-8)
		}
	}
}

// markLabelW is the widest a marker's label is drawn (px).
const markLabelW = 136.0

func (t *Timeline) drawMarkers(sc site.TimeScale, pal viewkit.Palette) {
	ctx := t.ctx
	var placed [][3]float64 // labels drawn: x0, x1, line
	for _, m := range t.Markers {
		if m.At < sc.T0 || m.At > sc.T1 {
			continue
		}
		x := math.Round(sc.TimeToPx(m.At)) + 0.5
		ctx.SetStrokeStyle(pal.Mark)
		ctx.SetLineWidth(2)
		ctx.BeginPath()
		ctx.MoveTo(x, tlAxisH)
		ctx.LineTo(x, t.h)
		ctx.Stroke()
		ctx.SetLineWidth(1)
		for _, r := range t.layout.Rows {
			for _, c := range r.CPUs {
				if c == m.CPU {
					ctx.SetStrokeStyle(pal.Mark)
					ctx.StrokeRect(sc.Left+0.5, tlAxisH+r.Y+0.5, sc.Right-sc.Left-1, r.H-1)
				}
			}
		}
		if m.Label != "" {
			ctx.SetFillStyle(pal.Mark)
			ctx.SetFont("bold 11px system-ui, sans-serif")
			lw := math.Min(ctx.Call("measureText", m.Label).Get("width").Float(), markLabelW)
			lx := x + 4
			if lx+lw > t.w-tlPadR {
				lx = x - 4 - lw
			}
			line := markLine(placed, lx, lx+lw)
			placed = append(placed, [3]float64{lx, lx + lw, float64(line)})
			ctx.FillText(m.Label, lx, tlAxisH+8+13*float64(line), markLabelW)
		}
	}
	if len(t.Markers) > 0 {
		t.canvas.SetAttribute("data-marker-at", fmt.Sprint(t.Markers[0].At))
		t.canvas.SetAttribute("data-marker-cpu", fmt.Sprint(t.Markers[0].CPU))
	} else {
		t.canvas.RemoveAttribute("data-marker-at")
		t.canvas.RemoveAttribute("data-marker-cpu")
	}
}

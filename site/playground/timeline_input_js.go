//go:build js && wasm

package playground

import (
	"math"

	"honnef.co/go/js/dom/v2"

	"schedplay/site"
)

// Timeline input: pointer drag and wheel pan/zoom, pinch and one-finger
// pan on touch screens, and keys on the focused canvas. Every handler only
// dispatches Zoom, Hover or ScrollRows.

func (t *timelineView) listen() {
	c := t.canvas
	t.funcs = append(t.funcs,
		addListener(c, "wheel", t.onWheel),
		addListener(c, "mousedown", func(ev dom.Event) {
			t.drag = true
			t.dragX = evFloat(ev, "clientX")
			c.Focus()
		}),
		addListener(dom.GetWindow().Document(), "mouseup", func(dom.Event) { t.drag = false }),
		addListener(c, "mousemove", t.onMove),
		addListener(c, "mouseleave", func(dom.Event) { t.a.dispatch(Hover{}) }),
		addListener(c, "keydown", t.onKey),
		addListener(c, "touchstart", t.onTouch),
		addListener(c, "touchmove", t.onTouch),
		addListener(c, "touchend", func(dom.Event) { t.pinch = 0; t.drag = false }),
	)
	t.funcs = append(t.funcs, t.listenExplain()...) // click / Enter → explain panel (explain_js.go)
}

func (t *timelineView) localXY(ev dom.Event) (float64, float64) {
	r := t.canvas.GetBoundingClientRect()
	return evFloat(ev, "clientX") - r.Left(), evFloat(ev, "clientY") - r.Top()
}

// zoomBy zooms around x (or the centre when x < 0).
func (t *timelineView) zoomBy(f, x float64) {
	t0, t1, end := t.window()
	if end == 0 {
		return
	}
	s := t.scale()
	at := (t0 + t1) / 2
	if x >= s.Left {
		at = s.PxToTime(x)
	}
	n0, n1 := site.ZoomAt(t0, t1, at, f, end)
	t.a.dispatch(Zoom{T0: n0, T1: n1})
}

func (t *timelineView) panPx(dx float64) {
	t0, t1, end := t.window()
	if end == 0 {
		return
	}
	n0, n1 := site.Pan(t0, t1, int64(dx*t.scale().NsPerPx()), end)
	t.a.dispatch(Zoom{T0: n0, T1: n1})
}

func (t *timelineView) onWheel(ev dom.Event) {
	ev.PreventDefault()
	dx, dy := evFloat(ev, "deltaX"), evFloat(ev, "deltaY")
	if evFloat(ev, "deltaMode") == 1 {
		dx, dy = dx*16, dy*16
	}
	x, _ := t.localXY(ev)
	// The same gestures in both layouts: the wheel zooms, Shift (or a
	// sideways wheel) pans; with one row per CPU the wheel over the CPU
	// labels scrolls the rows (setHelp says so).
	switch {
	case evBool(ev, "shiftKey") || math.Abs(dx) > math.Abs(dy):
		d := dx
		if math.Abs(dy) > math.Abs(dx) {
			d = dy
		}
		t.panPx(d)
	case t.a.state.View.AllRows && x < tlGutter:
		t.a.dispatch(ScrollRows{Y: t.clampScroll(t.a.state.View.ScrollY + dy)})
	default:
		t.zoomBy(math.Exp(dy*0.002), x)
	}
}

// scrollToCPU scrolls one row per CPU so that cpu's row is in view (the
// slice being explained); it does nothing when the row shows already.
func (t *timelineView) scrollToCPU(cpu int) {
	if !t.a.state.View.AllRows {
		return
	}
	ri := t.layout.RowOf(cpu)
	if ri < 0 {
		return
	}
	r, y := t.layout.Rows[ri], t.a.state.View.ScrollY
	if r.Y >= y && r.Y+r.H <= y+t.h-tlAxisH {
		return
	}
	t.a.dispatch(ScrollRows{Y: t.clampScroll(r.Y - (t.h-tlAxisH)/3)})
}

func (t *timelineView) clampScroll(y float64) float64 {
	maxY := t.layout.Height - (t.h - tlAxisH)
	if y > maxY {
		y = maxY
	}
	if y < 0 {
		y = 0
	}
	return y
}

func (t *timelineView) onMove(ev dom.Event) {
	x, y := t.localXY(ev)
	if t.drag {
		cx := evFloat(ev, "clientX")
		t.panPx(t.dragX - cx)
		t.dragX = cx
		return
	}
	t.a.dispatch(Hover{X: x, Y: y, On: true})
}

func (t *timelineView) onTouch(ev dom.Event) {
	pts := touchPoints(ev)
	r := t.canvas.GetBoundingClientRect()
	switch len(pts) {
	case 1:
		ev.PreventDefault()
		if ev.Type() == "touchstart" || !t.drag {
			t.drag, t.dragX = true, pts[0][0]
			t.a.dispatch(Hover{X: pts[0][0] - r.Left(), Y: pts[0][1] - r.Top(), On: true})
			return
		}
		t.panPx(t.dragX - pts[0][0])
		t.dragX = pts[0][0]
	case 2:
		ev.PreventDefault()
		d := math.Hypot(pts[0][0]-pts[1][0], pts[0][1]-pts[1][1])
		if t.pinch > 0 && d > 0 {
			t.zoomBy(t.pinch/d, (pts[0][0]+pts[1][0])/2-r.Left())
		}
		t.pinch = d
	}
}

func (t *timelineView) onKey(ev dom.Event) {
	k := ev.(*dom.KeyboardEvent).Key()
	switch k {
	case "+", "=", "w":
		t.zoomBy(zoomStep, -1)
	case "-", "_", "s":
		t.zoomBy(1/zoomStep, -1)
	case "ArrowLeft", "a":
		t.panPx(-panStepPx)
	case "ArrowRight", "d":
		t.panPx(panStepPx)
	case "0", "Home":
		t.a.dispatch(Zoom{})
	case "ArrowDown", "PageDown":
		step := 40.0
		if k == "PageDown" {
			step = t.h - tlAxisH - 20
		}
		t.a.dispatch(ScrollRows{Y: t.clampScroll(t.a.state.View.ScrollY + step)})
	case "ArrowUp", "PageUp":
		step := 40.0
		if k == "PageUp" {
			step = t.h - tlAxisH - 20
		}
		t.a.dispatch(ScrollRows{Y: t.clampScroll(t.a.state.View.ScrollY - step)})
	default:
		return
	}
	ev.PreventDefault()
}

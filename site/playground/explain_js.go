//go:build js && wasm

package playground

import (
	"fmt"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"schedplay/engine/explain"
	"schedplay/engine/sim"
	"schedplay/site"
	"schedplay/site/viewkit"
)

// The explain panel: click a slice of the timeline (or press Enter on the
// focused timeline, or the "why?" button) and the panel under the canvas
// says which decision put the task there, in kernel vocabulary, each
// kernel function linked to its docs/KERNEL-MAP.md entry (shown in the
// panel; the link itself is the raw file). Escape closes it. Every text
// goes in through SetTextContent.

// explainer owns the panel; timeline_input_js.go's listen adds its
// listeners (listenExplain).
type explainer struct {
	t            *timelineView
	panel        dom.HTMLElement
	kernel       dom.HTMLElement
	funcs        []js.Func // the panel content's listeners
	downX, downY float64
	kernelMap    viewkit.KernelMap
	res          *sim.Result // the run the open panel explains
}

// listenExplain mounts the (hidden) panel and the "why?" button and
// returns the listeners it added to the canvas.
func (t *timelineView) listenExplain() []js.Func {
	x := &explainer{t: t}
	x.panel = viewkit.NewElement(t.a.doc.Underlying(), "section")
	x.panel.SetID("explain-panel")
	x.panel.SetAttribute("class", "explain-panel")
	x.panel.SetAttribute("role", "region")
	x.panel.SetAttribute("aria-label", "Why is this slice here?")
	x.panel.SetAttribute("tabindex", "-1")
	x.panel.SetAttribute("hidden", "")
	t.box.AppendChild(x.panel)
	var out []js.Func
	if ctl := t.head.QuerySelector(".tl-ctl"); ctl != nil {
		why := viewkit.NewElement(t.a.doc.Underlying(), "button")
		why.SetTextContent("why?")
		why.SetAttribute("type", "button")
		why.SetID("explain-why")
		why.SetAttribute("title", "Explain the slice under the pointer, or the first one in view (Enter on the timeline)")
		ctl.AppendChild(why)
		out = append(out, addListener(why, "click", func(dom.Event) { x.openKey() }))
	}
	out = append(out, x.watchRuns())
	c := t.canvas
	c.SetAttribute("aria-label", c.GetAttribute("aria-label")+" Enter explains the slice under the pointer (or the first in view), Escape closes the explanation.")
	out = append(out,
		addListener(c, "mousedown", func(ev dom.Event) { x.downX, x.downY = evFloat(ev, "clientX"), evFloat(ev, "clientY") }),
		addListener(c, "click", x.onClick),
		addListener(c, "keydown", func(ev dom.Event) {
			switch ev.(*dom.KeyboardEvent).Key() {
			case "Enter":
				ev.PreventDefault()
				x.openKey()
			case "Escape":
				x.close(false)
			}
		}),
		addListener(x.panel, "keydown", func(ev dom.Event) {
			if ev.(*dom.KeyboardEvent).Key() == "Escape" {
				ev.PreventDefault()
				x.close(true)
			}
		}),
	)
	return out
}

// watchRuns closes the panel when the timeline is redrawn for another
// run (an edit re-ran the scenario): the explanation would be stale. It
// observes the canvas's data-* attributes, which every draw sets.
func (x *explainer) watchRuns() js.Func {
	fn := js.FuncOf(func(js.Value, []js.Value) any {
		guard(func(dom.Event) {
			if x.res != nil && x.t.a.state.Run.Result != x.res {
				x.res = nil
				x.close(false)
			}
		})(nil)
		return nil
	})
	obs := js.Global().Get("MutationObserver").New(fn)
	opts := js.Global().Get("Object").New()
	opts.Set("attributes", true)
	obs.Call("observe", x.t.canvas.Underlying(), opts)
	return fn
}

// timeline is the drawn run's timeline, or nil.
func (x *explainer) timeline() *sim.Timeline {
	if r := x.t.a.state.Run.Result; r != nil {
		return r.Timeline
	}
	return nil
}

// onClick opens the slice under a click that was not the end of a drag.
func (x *explainer) onClick(ev dom.Event) {
	cx, cy := evFloat(ev, "clientX"), evFloat(ev, "clientY")
	if (cx-x.downX)*(cx-x.downX)+(cy-x.downY)*(cy-x.downY) > 16 {
		return // a pan
	}
	lx, ly := x.t.localXY(ev)
	if h := x.hit(lx, ly); h.Interval >= 0 {
		x.open(h.CPU, h.Interval, false)
	}
}

// hit resolves a canvas position to a slice, as the tooltip does.
func (x *explainer) hit(lx, ly float64) site.Hit {
	top := tlAxisH
	if x.t.a.state.View.AllRows {
		top -= x.t.a.state.View.ScrollY
	}
	return site.HitTest(x.t.layout, x.t.scale(), x.timeline(), lx, ly-top)
}

// openKey opens the slice under the pointer, else the first in view.
func (x *explainer) openKey() {
	tl := x.timeline()
	if tl == nil {
		return
	}
	v := x.t.a.state.View
	if v.Hovering {
		if h := x.hit(v.HoverX, v.HoverY); h.Interval >= 0 {
			x.open(h.CPU, h.Interval, true)
			return
		}
	}
	t0, t1, _ := x.t.window()
	if cpu, idx := FirstVisibleSlice(tl, t0, t1); cpu >= 0 {
		x.open(cpu, idx, true)
	}
}

// close hides the panel; refocus returns the focus to the timeline.
func (x *explainer) close(refocus bool) {
	if x.panel.HasAttribute("hidden") {
		return
	}
	x.panel.SetAttribute("hidden", "")
	releaseAll(x.funcs)
	x.funcs = nil
	viewkit.Clear(x.panel)
	x.t.a.dispatch(SetExplained{}) // the slice's outline goes
	if refocus {
		x.t.canvas.Focus()
	}
}

// open fills the panel for Runs[cpu][idx]; focus moves to it when asked
// (keyboard) so Escape and Tab work from there.
func (x *explainer) open(cpu, idx int, focus bool) {
	tl := x.timeline()
	e, ok := ExplainSlice(tl, cpu, idx)
	if !ok {
		return
	}
	releaseAll(x.funcs)
	x.funcs = nil
	x.res = x.t.a.state.Run.Result
	x.t.a.dispatch(SetExplained{Explained{CPU: cpu, Idx: idx, On: true}}) // outlined on the timeline
	x.t.scrollToCPU(cpu)
	p := x.panel
	viewkit.Clear(p)
	p.RemoveAttribute("hidden")
	p.SetAttribute("data-cpu", fmt.Sprint(cpu))
	p.SetAttribute("data-interval", fmt.Sprint(idx))
	p.SetAttribute("data-decision", fmt.Sprint(e.Decision))
	p.SetAttribute("data-kind", e.Kind)
	b := builder{doc: x.t.a.doc, funcs: &x.funcs}
	head := b.el(p, "div", "explain-head")
	b.text(head, "h3", "", "Why is "+e.Task+" on cpu "+fmt.Sprint(cpu)+"?")
	b.button(head, "explain-close", "link", "Close", func() { x.close(true) }).SetAttribute("aria-label", "Close the explanation (Escape)")
	b.text(p, "p", "explain-slice", fmt.Sprintf("This slice: %s → %s (%s).", site.FormatNs(float64(e.Slice.Start)), site.FormatNs(float64(e.Slice.End)), site.FormatNs(float64(e.Slice.End-e.Slice.Start))))
	if len(e.Lines) > 0 {
		x.pathList(b, p, "explain-path", "explain-path", e.Lines, true)
	}
	if len(e.ExecLines) > 0 {
		// the parent is no task of the timeline: no slice leads here
		b.text(p, "p", "explain-exec-head", "Before it forked, the parent was exec'ed and placed (sched_exec()):")
		x.pathList(b, p, "explain-exec", "explain-path explain-exec", e.ExecLines, false).SetAttribute("data-decision", fmt.Sprint(e.Exec))
	}
	for _, n := range e.Notes {
		b.text(p, "p", "muted small explain-note", n)
	}
	nav := b.el(p, "div", "explain-nav")
	for _, side := range []struct {
		id, label string
		pl        *Placement
	}{{"explain-prev", "← previous placement", e.Prev}, {"explain-next", "next placement →", e.Next}} {
		if side.pl == nil {
			b.text(nav, "span", "muted small", strings.TrimSpace(strings.Trim(side.label, "←→"))+": none")
			continue
		}
		pl := *side.pl
		btn := b.button(nav, side.id, "", side.label+": "+PlacementText(tl, pl), func() { x.show(pl) })
		btn.SetAttribute("data-cpu", fmt.Sprint(pl.CPU))
	}
	x.kernel = b.el(p, "div", "kernel-entry")
	x.kernel.SetID("explain-kernel")
	x.kernel.SetAttribute("role", "region")
	x.kernel.SetAttribute("aria-live", "polite")
	if focus {
		p.Focus()
	}
}

// pathList draws a decision's lines as a list, each kernel function a
// link; the first line is the headline when headline is set.
func (x *explainer) pathList(b builder, parent dom.Element, id, cls string, lines []explain.Line, headline bool) dom.HTMLElement {
	ol := b.el(parent, "ol", cls)
	ol.SetID(id)
	for i, line := range lines {
		lc := ""
		if i == 0 && headline {
			lc = "explain-headline"
		}
		li := b.el(ol, "li", lc)
		for _, seg := range line {
			if seg.Func == "" {
				b.text(li, "span", "", seg.Text)
				continue
			}
			x.kernelLink(b, li, seg)
		}
	}
	return ol
}

// show opens another slice of the task, panning the timeline to it when
// it is out of view (the window keeps its width).
func (x *explainer) show(pl Placement) {
	t0, t1, end := x.t.window()
	if pl.End < t0 || pl.Start > t1 {
		w := t1 - t0
		n0 := max(min((pl.Start+pl.End)/2-w/2, end-w), 0)
		x.t.a.dispatch(Zoom{T0: n0, T1: n0 + w})
	}
	x.open(pl.CPU, pl.Interval, true)
}

// kernelLink is a kernel function name: its href is the raw
// KERNEL-MAP.md entry; a plain click shows the entry in the panel.
func (x *explainer) kernelLink(b builder, parent dom.Element, seg explain.Segment) {
	a := b.text(parent, "a", "kernel", seg.Text)
	a.SetAttribute("href", explain.KernelLink(seg.Anchor))
	a.SetAttribute("target", "_blank")
	a.SetAttribute("rel", "noopener")
	a.SetAttribute("data-func", seg.Func)
	a.SetAttribute("title", seg.Func+"() in docs/KERNEL-MAP.md")
	anchor := seg.Anchor
	b.on(a, "click", func(ev dom.Event) {
		if evBool(ev, "ctrlKey") || evBool(ev, "metaKey") || evBool(ev, "shiftKey") {
			return // a new tab or window, as asked
		}
		ev.PreventDefault()
		x.t.a.spawn(func() { x.showKernelEntry(anchor) })
	})
}

// showKernelEntry shows a function's KERNEL-MAP.md entry in the panel
// (the file is fetched once); when it cannot be read, the link opens.
func (x *explainer) showKernelEntry(anchor string) {
	box := x.kernel
	if box == nil {
		return
	}
	x.kernelMap.Show(viewkit.NewB(), box, anchor, "h4", func() bool { return isConnected(box) })
}

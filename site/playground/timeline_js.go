//go:build js && wasm

package playground

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"schedplay/engine/sim"
	"schedplay/site"
	"schedplay/site/viewkit"
)

// Timeline geometry constants (CSS pixels).
const (
	tlGutter  = 92.0 // row labels
	tlAxisH   = 20.0
	tlMaxH    = 470.0
	tlPadR    = 8.0
	zoomStep  = 0.8
	panStepPx = 80.0
)

// timelineView owns the timeline canvas: it draws from State (via the app)
// and turns pointer, wheel, touch and key input into Zoom/Hover/ScrollRows
// actions.
type timelineView struct {
	a      *App
	box    dom.HTMLElement
	head   dom.HTMLElement
	leg    dom.HTMLElement
	words  viewkit.ModeWords // what leg shows (legendSet)
	legSet bool
	canvas *dom.HTMLCanvasElement
	ctx    *dom.CanvasRenderingContext2D
	bat    viewkit.Batches // rectangles by fill style (one call into the page per fill)
	tip    dom.HTMLElement
	funcs  []js.Func
	dirty  bool    // redraw even if drawSig is unchanged (resize, colour scheme)
	drawn  drawSig // what the canvas shows
	key    string  // what the cached layout was computed for
	layout site.Layout
	cpus   []site.LaneCPU
	cols   []float64
	w, h   float64
	dragX  float64
	drag   bool
	pinch  float64
	lanes  site.LaneBatcher
	// results counts the distinct results the canvas has drawn
	// (data-result: a test sees a new timeline arrive).
	results int
	lastRes *sim.Result
	// the search's matches, for the result and query they were made for
	matchRes   *sim.Result
	matchQuery string
	match      []bool
	matchN     int
	help       dom.HTMLElement
	findCount  dom.HTMLElement
	allRows    *dom.HTMLInputElement
	taskLeg    dom.HTMLElement
	taskLegKey string
}

func newTimelineView(a *App, b builder, parent dom.Element) *timelineView {
	t := &timelineView{a: a}
	t.box = b.el(parent, "section", "timeline")
	t.box.SetID("timeline-box")
	t.head = b.el(t.box, "div", "tl-head")
	b.text(t.head, "h2", "", "Timeline")
	ctl := b.el(t.head, "div", "tl-ctl")
	b.button(ctl, "zoom-in", "", "+", func() { t.zoomBy(zoomStep, -1) }).SetAttribute("aria-label", "zoom in (+)")
	b.button(ctl, "zoom-out", "", "−", func() { t.zoomBy(1/zoomStep, -1) }).SetAttribute("aria-label", "zoom out (-)")
	b.button(ctl, "zoom-reset", "", "whole run", func() { a.dispatch(Zoom{}) }).SetAttribute("aria-label", "show the whole run (0)")
	rows := b.el(ctl, "label", "check")
	cb := b.el(rows, "input", "").(*dom.HTMLInputElement)
	cb.SetID("all-rows")
	cb.SetAttribute("type", "checkbox")
	b.on(cb, "change", func(dom.Event) { a.dispatch(SetAllRows{On: cb.Checked()}) })
	t.allRows = cb
	b.text(rows, "span", "", "one row per CPU")
	// jump to a CPU (one row per CPU, scrolled to it, outlined)
	jump := b.el(ctl, "label", "tl-field")
	jin := b.el(jump, "input", "").(*dom.HTMLInputElement)
	jin.SetID("jump-cpu")
	jin.SetAttribute("type", "text")
	jin.SetAttribute("inputmode", "numeric")
	jin.SetAttribute("size", "7")
	jin.SetAttribute("placeholder", "go to CPU")
	jin.SetAttribute("aria-label", "jump to CPU (Enter)")
	b.on(jin, "change", func(dom.Event) { t.jumpTo(jin.Value()) })
	// find a task or group: its slices are highlighted on every row
	find := b.el(ctl, "label", "tl-field")
	fin := b.el(find, "input", "").(*dom.HTMLInputElement)
	fin.SetID("find-task")
	fin.SetAttribute("type", "search")
	fin.SetAttribute("size", "12")
	fin.SetAttribute("placeholder", "find task/group")
	fin.SetAttribute("aria-label", "highlight the slices of the tasks whose name contains this")
	b.on(fin, "input", func(dom.Event) { a.dispatch(FindTasks{Query: fin.Value()}) })
	cnt := b.el(ctl, "span", "muted small")
	cnt.SetID("find-count")
	cnt.SetAttribute("aria-live", "polite")
	t.findCount = cnt
	t.leg = b.el(t.head, "div", "legend")
	t.leg.SetID("mode-legend")
	t.taskLeg = b.el(t.head, "div", "legend task-legend")
	t.taskLeg.SetID("task-legend")
	wrap := b.el(t.box, "div", "tl-wrap")
	t.canvas = b.el(wrap, "canvas", "").(*dom.HTMLCanvasElement)
	t.canvas.SetID("timeline")
	t.canvas.SetAttribute("tabindex", "0")
	t.canvas.SetAttribute("role", "img")
	t.canvas.SetAttribute("aria-label", "Per-CPU timeline. Keys: + and - zoom, arrows pan, 0 shows the whole run, Page Up/Down scroll rows.")
	t.ctx = t.canvas.GetContext2d()
	t.tip = b.el(wrap, "div", "tooltip")
	t.tip.SetID("tooltip")
	t.tip.SetAttribute("role", "status")
	help := b.text(t.box, "p", "muted small", "")
	help.SetID("timeline-help")
	t.help = help
	t.setHelp(false)
	t.listen()
	t.dirty = true
	return t
}

func (t *timelineView) release() { releaseAll(t.funcs) }

// setHelp says what the gestures do; they are the same in both layouts
// (the wheel zooms), and one row per CPU adds scrolling.
func (t *timelineView) setHelp(allRows bool) {
	msg := "Wheel or pinch zooms, Shift+wheel or drag pans, hover explains a slice; keyboard: + − ← → 0 (focus the timeline)."
	if allRows {
		msg += " One row per CPU: the wheel over the CPU labels, or Page Up/Down, scrolls the rows; “go to CPU” jumps to one."
	}
	msg += " Click a slice, or press Enter on the timeline, for the decision that put it there; Escape closes."
	if t.help.TextContent() != msg {
		t.help.SetTextContent(msg)
	}
}

// allRowsHeight is the canvas height with one row per CPU: most of the
// window, so that many cores show at once.
func (t *timelineView) allRowsHeight() float64 {
	h := js.Global().Get("innerHeight").Float() * 0.8
	return math.Min(math.Max(h, tlMaxH), 1000)
}

// jumpTo shows one row per CPU scrolled to the CPU typed (outlined).
func (t *timelineView) jumpTo(text string) {
	cpu, err := strconv.Atoi(strings.TrimSpace(text))
	if err != nil || cpu < 0 || cpu >= len(t.cpus) {
		t.a.dispatch(SetNotice{Notice: Notice{Kind: "error", Text: fmt.Sprintf("There is no CPU %q on this machine (CPUs 0–%d).", text, len(t.cpus)-1)}})
		return
	}
	h := t.allRowsHeight()
	l := site.LayoutLanes(t.cpus, h-tlAxisH, true)
	y := 0.0
	if ri := l.RowOf(cpu); ri >= 0 {
		// the row a third of the way down, its core's band in view
		y = math.Min(l.Rows[ri].Y-(h-tlAxisH)/3, l.Height-(h-tlAxisH))
	}
	t.a.dispatch(JumpCPU{CPU: cpu, ScrollY: math.Max(y, 0)})
}

// matches are the tasks the search finds in the drawn result.
func (t *timelineView) matches(res *sim.Result, q string) ([]bool, int) {
	if res != t.matchRes || q != t.matchQuery {
		t.matchRes, t.matchQuery = res, q
		t.match, t.matchN = nil, 0
		if res != nil && res.Timeline != nil {
			t.match, t.matchN = site.TaskMatches(res.Timeline.Tasks, q)
		}
	}
	return t.match, t.matchN
}

// setLegend shows the mode legend in the words of the result machine's
// SMT model (none without SMT).
func (t *timelineView) setLegend(w viewkit.ModeWords) {
	if t.legSet && w == t.words {
		return
	}
	t.words, t.legSet = w, true
	viewkit.NewB().FillModeLegend(t.leg, w)
}

// window returns the visible window, defaulting to the whole run.
func (t *timelineView) window() (int64, int64, int64) {
	res := t.a.state.Run.Result
	end := int64(0)
	if res != nil && res.Timeline != nil {
		end = res.Timeline.EndNs
	}
	v := t.a.state.View
	if v.T1 <= v.T0 || end == 0 {
		return 0, end, end
	}
	return v.T0, v.T1, end
}

func (t *timelineView) scale() site.TimeScale {
	t0, t1, _ := t.window()
	return site.TimeScale{T0: t0, T1: t1, Left: tlGutter, Right: t.w - tlPadR}
}

// drawSig is everything the canvas's pixels and tooltip depend on: a
// render that changes none of it (a Tick of the running request, a status
// line) leaves the canvas as it is.
type drawSig struct {
	res            *sim.Result
	cat            *site.Catalog
	allRows        bool
	w              float64
	t0, t1         int64
	scrollY        float64
	hovering       bool
	hoverX, hoverY float64
	dark           bool
	find           string
	mark           int
	marked         bool
	explained      Explained
}

// draw renders the canvas: geometry first, then passes grouped by fill
// style (Perfetto's approach), then the hover line and tooltip.
func (t *timelineView) draw() {
	t0 := nowMs()
	s := t.a.state
	res := s.Run.Result
	var tl *sim.Timeline
	if res != nil {
		tl = res.Timeline
	}
	if tl == nil || len(tl.Runs) == 0 {
		t.box.SetAttribute("data-empty", "1")
		t.tip.Style().SetProperty("display", "none", "")
		if res != nil {
			t.canvas.SetAttribute("data-drawn", "0")
		}
		return
	}
	t.box.RemoveAttribute("data-empty")
	t.setLegend(s.Run.Words)
	t.setHelp(s.View.AllRows)
	if t.allRows.Checked() != s.View.AllRows {
		t.allRows.SetChecked(s.View.AllRows) // "go to CPU" turns it on
	}
	t.lanes.HideModes = !s.Run.Words.SMT()
	w := float64(t.canvas.ParentElement().(dom.HTMLElement).OffsetWidth())
	if w < 300 {
		w = 300
	}
	key := fmt.Sprintf("%p|%v|%.0f|%p", res, s.View.AllRows, w, s.Catalog)
	if key != t.key {
		cpus := s.Run.CPUs
		if len(cpus) != len(tl.Runs) && s.Run.ResultDoc == s.Doc.Canonical() {
			cpus, _ = t.a.cpus() // the run started before the presets were known
		}
		if len(cpus) != len(tl.Runs) {
			cpus = make([]site.LaneCPU, len(tl.Runs))
			for i := range cpus {
				cpus[i] = site.LaneCPU{CPU: i, Core: i}
			}
		}
		t.cpus = cpus
		t.layout = site.LayoutLanes(cpus, tlMaxH-tlAxisH, s.View.AllRows)
		t.canvas.SetAttribute("data-labels", t.layout.DrawnLabels())
		h := t.layout.Height + tlAxisH + 2
		if h > tlMaxH {
			h = tlMaxH
		}
		if s.View.AllRows {
			h = math.Min(t.layout.Height+tlAxisH+2, t.allRowsHeight())
			if h > tlMaxH {
				t.layout = site.LayoutLanes(cpus, h-tlAxisH, true)
			}
		}
		dpr := devicePixelRatio()
		t.w, t.h = w, h
		t.canvas.SetWidth(int(w * dpr))
		t.canvas.SetHeight(int(h * dpr))
		t.canvas.Style().SetProperty("width", fmt.Sprintf("%.0fpx", w), "")
		t.canvas.Style().SetProperty("height", fmt.Sprintf("%.0fpx", h), "")
		t.ctx.Call("setTransform", dpr, 0, 0, dpr, 0, 0)
		t.key = key
	}
	sc := t.scale()
	scrollY := 0.0
	if s.View.AllRows {
		scrollY = s.View.ScrollY
	}
	sig := drawSig{res: res, cat: s.Catalog, allRows: s.View.AllRows, w: w, t0: sc.T0, t1: sc.T1, scrollY: scrollY,
		hovering: s.View.Hovering, hoverX: s.View.HoverX, hoverY: s.View.HoverY, dark: t.a.dark,
		find: s.View.Find, mark: s.View.MarkCPU, marked: s.View.Marked, explained: s.View.Explained}
	match, nMatch := t.matches(res, s.View.Find)
	t.showFindCount(nMatch, len(tl.Tasks))
	t.setTaskLegend(tl, t.layout.Aggregated)
	if sig == t.drawn && !t.dirty {
		return
	}
	t.drawn, t.dirty = sig, false
	pal := palette(t.a.dark)
	ctx := t.ctx
	ctx.ClearRect(0, 0, t.w, t.h)
	top := tlAxisH - scrollY // content y → canvas y offset
	site.DrawTimeAxis(ctx, sc, tlAxisH, t.w, t.h, pal.muted, pal.grid)
	// clip to the content area
	ctx.Save()
	ctx.BeginPath()
	ctx.Rect(0, tlAxisH, t.w, t.h-tlAxisH)
	ctx.Call("clip")
	i0, i1 := t.layout.VisibleRows(scrollY, scrollY+t.h-tlAxisH)
	// Mode bands, then CPU rows: rectangles batched by fill style and alpha
	// (viewkit.Batches), one call into the page per batch.
	t.lanes.Bands(&t.bat, t.layout.Bands, tl, sc, top, scrollY, scrollY+t.h, t.a.dark)
	t.bat.Fill(ctx.Value)
	agg := t.layout.Aggregated
	if agg {
		t.drawAggregated(tl, sc, top, i0, i1, pal.busy, nil)
		if match != nil {
			// the found tasks' share of each row, over the grey
			t.drawAggregated(tl, sc, top, i0, i1, pal.accent, match)
		}
	}
	if !agg {
		t.lanes.Match = match
		t.lanes.Rows(&t.bat, t.layout.Rows[i0:i1], tl, sc, top, t.a.dark, pal.busy, pal.grid)
	}
	t.bat.Fill(ctx.Value)
	t.drawMarks(tl, sc, top, pal)
	// labels and node separators
	ctx.SetFillStyle(pal.muted)
	ctx.SetFont("10px ui-monospace, monospace")
	for ri := i0; ri < i1; ri++ {
		r := t.layout.Rows[ri]
		switch {
		case r.H >= 9:
			ctx.FillText(viewkit.ShortLabel(r.Label), 4, top+r.Y+r.H/2, tlGutter-8)
		case !agg && r.Thread == 0 && r.H*float64(r.Threads) >= 9:
			// lanes too thin for CPU labels: name the core once
			ctx.FillText(fmt.Sprintf("core %d", r.Core), 4, top+r.Y+r.H*float64(r.Threads)/2, tlGutter-8)
		}
	}
	for n, y := range t.layout.NodeY {
		if n == 0 {
			continue
		}
		ctx.SetStrokeStyle(pal.fg)
		ctx.BeginPath()
		ctx.MoveTo(0, top+y-site.NodeGap/2)
		ctx.LineTo(t.w, top+y-site.NodeGap/2)
		ctx.Stroke()
	}
	ctx.Restore()
	t.drawHover(tl, sc, top, scrollY)
	t.canvas.SetAttribute("data-drawn", "1")
	if res != t.lastRes {
		t.lastRes = res
		t.results++
		t.canvas.SetAttribute("data-result", fmt.Sprint(t.results))
	}
	t.canvas.SetAttribute("data-span", fmt.Sprint(sc.T1-sc.T0))
	t.canvas.SetAttribute("data-t0", fmt.Sprint(sc.T0))
	t.canvas.SetAttribute("data-rows", fmt.Sprint(len(t.layout.Rows)))
	t.canvas.SetAttribute("data-visible-rows", fmt.Sprintf("%d-%d", i0, i1))
	t.canvas.SetAttribute("data-scroll-y", fmt.Sprint(scrollY))
	t.canvas.SetAttribute("data-find", fmt.Sprint(nMatch))
	calls, rects := t.bat.TakeCounts()
	t.canvas.SetAttribute("data-fill-calls", fmt.Sprint(calls))
	t.canvas.SetAttribute("data-fill-rects", fmt.Sprint(rects))
	setPerf("lastDrawMs", nowMs()-t0)
}

// aggLevels quantises an aggregated row's busy fraction for batching.
const aggLevels = 8

// drawAggregated fills aggregated rows by the busy fraction of their CPUs
// per pixel column (of the tasks match marks, when set), batched by
// quantised level (one fill per level).
func (t *timelineView) drawAggregated(tl *sim.Timeline, sc site.TimeScale, top float64, i0, i1 int, busy string, match []bool) {
	for ri := i0; ri < i1; ri++ {
		r := t.layout.Rows[ri]
		t.cols = site.MatchColumns(tl.Runs, r.CPUs, match, sc, t.cols)
		start, cur := 0, -1
		flush := func(end int) {
			if cur > 0 {
				t.bat.Add(busy, float64(cur)/aggLevels, sc.Left+float64(start), top+r.Y, float64(end-start), r.H)
			}
		}
		for x, f := range t.cols {
			lv := int(math.Ceil(f*aggLevels - 1e-9))
			lv = min(max(lv, 0), aggLevels)
			if lv != cur {
				flush(x)
				start, cur = x, lv
			}
		}
		flush(len(t.cols))
	}
	t.bat.Fill(t.ctx.Value)
}

// drawMarks outlines the CPU "jump to CPU" went to and the slice the
// explain panel explains.
func (t *timelineView) drawMarks(tl *sim.Timeline, sc site.TimeScale, top float64, pal pal) {
	v := t.a.state.View
	ctx := t.ctx
	ctx.SetLineWidth(2)
	if v.Marked {
		if ri := t.layout.RowOf(v.MarkCPU); ri >= 0 {
			r := t.layout.Rows[ri]
			ctx.SetStrokeStyle(pal.accent)
			ctx.StrokeRect(sc.Left-1, top+r.Y-1, sc.Right-sc.Left+2, r.H+1)
			// its label, over the gutter (thin lanes name only cores)
			ctx.SetFillStyle(pal.bg)
			ctx.FillRect(0, top+r.Y+r.H/2-6, tlGutter-4, 12)
			ctx.SetFillStyle(pal.accent)
			ctx.SetFont("bold 10px ui-monospace, monospace")
			ctx.FillText(fmt.Sprintf("cpu%d ▸", v.MarkCPU), 4, top+r.Y+r.H/2, tlGutter-8)
			t.canvas.SetAttribute("data-marked-row", strconv.Itoa(ri))
		}
	} else {
		t.canvas.RemoveAttribute("data-marked-row")
	}
	if e := v.Explained; e.On {
		if x0, x1, y, h, ok := site.SliceBox(t.layout, sc, tl, e.CPU, e.Idx); ok {
			ctx.SetStrokeStyle(pal.fg)
			ctx.StrokeRect(x0-1, top+y-1, x1-x0+2, h+1)
			ctx.SetStrokeStyle(pal.bg)
			ctx.SetLineWidth(1)
			ctx.StrokeRect(x0+0.5, top+y+0.5, math.Max(x1-x0-1, 0), math.Max(h-2, 0))
			t.canvas.SetAttribute("data-explained", fmt.Sprintf("%d:%d", e.CPU, e.Idx))
		}
	} else {
		t.canvas.RemoveAttribute("data-explained")
	}
	ctx.SetLineWidth(1)
}

// showFindCount says how many tasks the search found.
func (t *timelineView) showFindCount(n, of int) {
	txt := ""
	if t.a.state.View.Find != "" {
		txt = fmt.Sprintf("%d of %d tasks", n, of)
	}
	if t.findCount.TextContent() != txt {
		t.findCount.SetTextContent(txt)
	}
}

// setTaskLegend lists the workload's groups with their tasks' colours
// (one row per CPU), or says what an aggregated row's grey means; and what
// the mode band is.
func (t *timelineView) setTaskLegend(tl *sim.Timeline, agg bool) {
	key := fmt.Sprintf("%p|%v|%v", tl, agg, t.a.dark)
	if key == t.taskLegKey {
		return
	}
	t.taskLegKey = key
	viewkit.Clear(t.taskLeg)
	b := viewkit.NewB()
	if agg {
		sw := b.El(t.taskLeg, "span", "swatch")
		sw.Style().SetProperty("background", palette(t.a.dark).busy, "")
		b.Text(t.taskLeg, "span", "", "share of a row's CPUs busy (darker: more)")
		if t.a.state.Run.Words.SMT() {
			b.Text(t.taskLeg, "span", "muted", "· the band above each row: the share of its cores in each mode")
		}
		return
	}
	b.Text(t.taskLeg, "span", "muted", "tasks:")
	for _, g := range taskGroups(tl) {
		for _, task := range g.tasks[:min(len(g.tasks), 3)] {
			sw := b.El(t.taskLeg, "span", "swatch")
			sw.Style().SetProperty("background", site.TaskColor(task, t.a.dark), "")
		}
		label := g.name
		if len(g.tasks) > 1 {
			label += fmt.Sprintf(" ×%d", len(g.tasks))
		}
		b.Text(t.taskLeg, "span", "", label)
	}
}

// drawHover draws the hover line and fills the tooltip (text only).
func (t *timelineView) drawHover(tl *sim.Timeline, sc site.TimeScale, top, scrollY float64) {
	v := t.a.state.View
	if !v.Hovering || v.HoverX < sc.Left || v.HoverY < tlAxisH {
		t.tip.Style().SetProperty("display", "none", "")
		return
	}
	pal := palette(t.a.dark)
	t.ctx.SetStrokeStyle(pal.fg)
	t.ctx.SetGlobalAlpha(0.6)
	t.ctx.BeginPath()
	t.ctx.MoveTo(math.Round(v.HoverX)+0.5, tlAxisH)
	t.ctx.LineTo(math.Round(v.HoverX)+0.5, t.h)
	t.ctx.Stroke()
	t.ctx.SetGlobalAlpha(1)
	h := site.HitTest(t.layout, sc, tl, v.HoverX, v.HoverY-top)
	lines := tooltipLines(h, t.layout, tl, t.cpus, t.a.state.Run.Words)
	if len(lines) == 0 {
		t.tip.Style().SetProperty("display", "none", "")
		return
	}
	viewkit.Clear(t.tip)
	for i, l := range lines {
		p := viewkit.NewElement(t.a.doc.Underlying(), "div")
		if i == 0 {
			p.SetAttribute("class", "tip-title")
		}
		p.SetTextContent(l)
		t.tip.AppendChild(p)
	}
	x := v.HoverX + 14
	if x > t.w-300 {
		x = v.HoverX - 310
	}
	t.tip.Style().SetProperty("left", fmt.Sprintf("%.0fpx", math.Max(x, 0)), "")
	t.tip.Style().SetProperty("top", fmt.Sprintf("%.0fpx", v.HoverY+12), "")
	t.tip.Style().SetProperty("display", "block", "")
}

//go:build js && wasm

package playground

import (
	"fmt"
	"math"
	"strconv"

	"honnef.co/go/js/dom/v2"

	"schedplay/engine/sim"
	"schedplay/site"
	"schedplay/site/viewkit"
)

func (a *App) renderFigures() {
	s := a.state
	r := s.Run
	policy := a.figuresPolicy()
	sig := fmt.Sprintf("%p|%s|%s|%v|%s|%d|%v|%d|%p|%s", r.Result, r.Status, r.Err, r.Invalid, s.Doc.Name(), r.Provisional, s.Issues, len(s.History), lastResult(s.History), policy)
	// provisional: repetition 0 shown while all repetitions run.
	provisional := r.Provisional > 0 && r.Status == StatusRunning && r.Result != nil
	a.update("figures", sig, func(b builder, el dom.HTMLElement) {
		el.SetAttribute("data-status", string(r.Status))
		if provisional {
			el.SetAttribute("data-provisional", strconv.Itoa(r.Provisional))
		} else {
			el.RemoveAttribute("data-provisional")
		}
		head := b.el(el, "div", "fig-head")
		title := s.Doc.Name()
		if title == "" {
			title = "untitled scenario"
		}
		h := b.text(head, "h2", "", title)
		h.SetID("scenario-title")
		if policy != "" {
			p := b.text(head, "span", "muted fig-policy", "policy "+policy)
			p.SetID("fig-policy")
			p.SetAttribute("title", "the policy preset and the fair.c generation (policy.generation) of the run the figures show")
		}
		switch {
		case r.Status == StatusFailed && r.Invalid:
			// The validator's issues are the reason, as they are now.
			msg := "Not run: checking the scenario…"
			if n := len(s.Issues); n > 0 {
				msg = "Not run: " + problems(n) + " in the scenario."
			}
			b.text(el, "p", "issue run-error", msg).SetID("run-error")
		case r.Status == StatusFailed:
			e := b.text(el, "p", "issue run-error", r.Err)
			e.SetID("run-error")
			if r.ErrPath != "" {
				b.text(e, "code", "", " ("+r.ErrPath+")")
			}
		}
		a.issueList(b, el)
		a.runHistory(b, el)
		res := r.Result
		if res == nil {
			if r.Status == StatusRunning {
				b.text(el, "p", "muted", "simulating…")
			}
			return
		}
		if provisional {
			el.Class().Remove("stale")
			note := b.text(el, "p", "muted provisional", fmt.Sprintf("1 of %d repetitions — refining…", r.Provisional))
			note.SetID("provisional-note")
			note.SetAttribute("title", "repetition 0 alone, without ± spread; the figures are replaced when all repetitions finish")
		} else if r.Status == StatusStale || r.Status == StatusRunning || r.Status == StatusFailed {
			el.Class().Add("stale")
		} else {
			el.Class().Remove("stale")
		}
		grid := b.el(el, "div", "figs")
		for _, f := range site.KeyFigures(res, r.Words.SMT(), r.Words.TransitionsTitle()) {
			if f.Kind == "reps" && provisional {
				f.Value, f.Title = fmt.Sprintf("1 of %d (refining…)", r.Provisional), "provisional: repetition 0 only"
			}
			e := b.el(grid, "div", "fig")
			e.SetID("fig-" + figureID(f.Kind))
			b.text(e, "span", "k", f.Label)
			b.text(e, "span", "v", f.Value)
			if f.Title != "" {
				e.SetAttribute("title", f.Title)
			}
		}
		if warm := WarmupNs(r.ResultDoc, s.Catalog); warm > 0 {
			note := b.text(el, "p", "muted warmup-note", "measured after a "+site.FormatNs(float64(warm))+" warm-up: every figure leaves out the run's first "+site.FormatNs(float64(warm)))
			note.SetID("warmup-note")
		}
		for _, w := range res.Warnings {
			b.text(el, "p", "warn", "⚠ "+w)
		}
	})
}

// figuresPolicy states the policy and fair.c generation of the scenario
// the figures belong to: the shown result's, else the current one's
// ("v6-on · tip-2026-09"); "" before the presets are loaded.
func (a *App) figuresPolicy() string {
	s := a.state
	if s.Catalog == nil {
		return ""
	}
	r := s.Run
	if r.Result == nil || r.ResultDoc == "" {
		return s.Doc.PolicySummary(s.Catalog)
	}
	if a.policySumKey != r.ResultDoc || a.policySumCat != s.Catalog {
		a.policySumKey, a.policySumCat, a.policySum = r.ResultDoc, s.Catalog, ""
		if d, err := site.ParseDoc([]byte(r.ResultDoc)); err == nil {
			a.policySum = d.PolicySummary(s.Catalog)
		}
	}
	return a.policySum
}

// lastResult is the newest result of the history (a signature part).
func lastResult(h []RunRecord) *sim.Result {
	if len(h) == 0 {
		return nil
	}
	return h[len(h)-1].Result
}

// runHistory lists the last finished runs, newest first, to go back to
// (the one shown marked); one run has no history to show.
func (a *App) runHistory(b builder, parent dom.Element) {
	h := a.state.History
	if len(h) < 2 {
		return
	}
	box := b.el(parent, "div", "run-history")
	box.SetID("run-history")
	b.text(box, "span", "muted small", "Earlier runs:")
	cur := a.state.Run.ResultDoc
	for i := len(h) - 1; i >= 0; i-- {
		idx, rec := i, h[i]
		label := rec.Name
		if label == "" {
			label = "untitled"
		}
		btn := b.button(box, fmt.Sprintf("history-%d", i), "chip", label+" · "+rec.Headline, func() { a.dispatch(RestoreRun{Index: idx}) })
		if rec.Doc.Canonical() == cur {
			btn.SetAttribute("aria-current", "true")
			btn.Class().Add("current")
		}
		if rec.Result == nil {
			btn.SetAttribute("title", "runs it again (only the last results are kept)")
		}
	}
}

// figureID is the element id suffix of a key figure (fig-…): the
// headline is "throughput", the latency percentiles "lat".
func figureID(kind string) string {
	switch kind {
	case "headline":
		return "throughput"
	case "latency":
		return "lat"
	}
	return kind
}

// problems is "1 problem" or "n problems".
func problems(n int) string {
	if n == 1 {
		return "1 problem"
	}
	return strconv.Itoa(n) + " problems"
}

// issueList lists every issue of the scenario (the validator's messages
// and the editors' parse errors) under the title, each a link to its field.
func (a *App) issueList(b builder, parent dom.Element) {
	is := a.state.Issues
	if len(is) == 0 {
		return
	}
	ul := b.el(parent, "ul", "issue issue-list")
	ul.SetID("issue-list")
	ul.SetAttribute("aria-label", problems(len(is)))
	for _, x := range is {
		li := b.el(ul, "li", "")
		path := x.Path
		label := x.Message
		if path != "" {
			label = path + ": " + x.Message
		}
		btn := b.button(li, "", "link issue-link", label, func() { a.goToField(path) })
		btn.SetAttribute("data-path", path)
		btn.SetAttribute("title", "show this field")
	}
}

func (a *App) renderCharts() {
	s := a.state
	res := s.Run.Result
	// ResultDoc (hence the warm-up) is only ever set with Result, so the
	// result's address covers it: the document is parsed once per result,
	// not on every render (hover, zoom, ticks).
	sig := fmt.Sprintf("%p|%v|%p", res, a.dark, s.Catalog)
	if p := a.panels["charts"]; res != nil && p != nil && p.sig != sig && a.chartsHeld != res {
		// A new result's charts are built in the frame after the one that
		// draws its figures and timeline: they sit below them, and on a
		// small machine they cost as much as the rest of the render (a
		// canvas, its context and its text each), so a knob's redrawn
		// timeline does not wait for them (issue 13, docs/speed.md).
		a.chartsHeld = res
		a.scheduleRender()
		return
	}
	a.update("charts", sig, func(b builder, el dom.HTMLElement) {
		if res == nil || len(res.Reps) == 0 {
			return
		}
		if !res.IsLatency() {
			// A latency workload's work/s is not its result (its load's
			// throughput, or a timer loop's).
			a.seriesChart(b, el, res, WarmupNs(s.Run.ResultDoc, s.Catalog))
		}
		a.migrationBars(b, el, res)
		a.latencyChart(b, el, res)
		a.residencyMap(b, el, res)
	})
}

func (a *App) card(b builder, parent dom.Element, id, title string) dom.HTMLElement {
	c := b.el(parent, "div", "chart")
	c.SetID(id)
	b.text(c, "h3", "", title)
	return c
}

func (a *App) canvas(b builder, parent dom.Element, w, h float64) *dom.CanvasRenderingContext2D {
	cv := b.el(parent, "canvas", "").(*dom.HTMLCanvasElement)
	dpr := devicePixelRatio()
	cv.SetWidth(int(w * dpr))
	cv.SetHeight(int(h * dpr))
	cv.Style().SetProperty("width", fmt.Sprintf("%.0fpx", w), "")
	cv.Style().SetProperty("height", fmt.Sprintf("%.0fpx", h), "")
	ctx := cv.GetContext2d()
	ctx.Call("scale", dpr, dpr)
	return ctx
}

// seriesChart draws throughput over time, one step line per repetition
// (repetition 0 solid), over the whole run: the warm-up, which no figure
// counts, is shaded and labelled.
func (a *App) seriesChart(b builder, parent dom.Element, res *sim.Result, warm int64) {
	c := a.card(b, parent, "chart-series", "Throughput over time ("+res.Unit+")")
	maxV, end, points := 0.0, int64(0), 0
	reps := make([][]SeriesBucket, len(res.Reps))
	for i, r := range res.Reps {
		reps[i] = SeriesBuckets(r)
		for _, p := range reps[i] {
			maxV = math.Max(maxV, p.V)
			end = max(end, p.T1)
		}
		points = max(points, len(reps[i]))
	}
	if points < 2 || maxV <= 0 || end <= 0 {
		b.text(c, "p", "muted", "no series recorded")
		return
	}
	const w, h = 380.0, 150.0
	ctx := a.canvas(b, c, w, h)
	pal := palette(a.dark)
	l, r, t, bt := 44.0, w-8, 8.0, h-20
	x := func(ns int64) float64 { return l + (r-l)*float64(ns)/float64(end) }
	ctx.SetFont("11px system-ui, sans-serif")
	if warm > 0 {
		// The warm-up: simulated, drawn, but outside every figure.
		xw := x(min(warm, end))
		ctx.SetFillStyle(pal.grid)
		ctx.SetGlobalAlpha(0.5)
		ctx.FillRect(l, t, xw-l, bt-t)
		ctx.SetGlobalAlpha(1)
		ctx.SetFillStyle(pal.muted)
		ctx.FillText("warm-up, not measured", l+4, bt-6, math.Max(xw-l-8, 40))
		if warm < end {
			ctx.FillText(site.FormatNs(float64(warm)), xw-16, h-4, 60)
		}
		c.SetAttribute("data-warmup-ns", strconv.FormatInt(warm, 10))
		note := b.text(c, "p", "muted chart-note", "shaded: the "+site.FormatNs(float64(warm))+" warm-up, simulated but not measured")
		note.SetID("series-warmup")
	}
	axes(ctx, pal, l, r, t, bt)
	ctx.SetFillStyle(pal.muted)
	ctx.FillText(site.FormatTick(maxV), 2, t+8, l-4)
	ctx.FillText("0", l-12, bt, 12)
	// The axis ends where the longest repetition ended (completion or
	// run.duration), not at a whole bucket past it.
	ctx.FillText(site.FormatNs(float64(end)), r-48, h-4, 48)
	c.SetAttribute("data-end-ns", strconv.FormatInt(end, 10))
	ctx.SetLineWidth(1)
	for i, pts := range reps {
		ctx.SetStrokeStyle(site.TaskColor(i, a.dark))
		ctx.SetGlobalAlpha(map[bool]float64{true: 1, false: 0.45}[i == 0])
		ctx.BeginPath()
		for k, p := range pts {
			y := bt - (bt-t)*p.V/maxV
			if k == 0 {
				ctx.MoveTo(x(p.T0), y)
			} else {
				ctx.LineTo(x(p.T0), y)
			}
			ctx.LineTo(x(p.T1), y)
		}
		ctx.Stroke()
	}
	ctx.SetGlobalAlpha(1)
}

func axes(ctx *dom.CanvasRenderingContext2D, pal pal, l, r, t, bt float64) {
	ctx.SetStrokeStyle(pal.grid)
	ctx.SetLineWidth(1)
	ctx.BeginPath()
	ctx.MoveTo(l, t)
	ctx.LineTo(l, bt)
	ctx.LineTo(r, bt)
	ctx.Stroke()
}

// migrationBars shows migrations by cause (repetition mean).
func (a *App) migrationBars(b builder, parent dom.Element, res *sim.Result) {
	c := a.card(b, parent, "chart-migrations", "Migrations by cause (mean per repetition)")
	var sum sim.Migrations
	for _, r := range res.Reps {
		m := r.Migrations
		sum.Wakeup += m.Wakeup
		sum.Periodic += m.Periodic
		sum.Newidle += m.Newidle
		sum.Nohz += m.Nohz
		sum.Active += m.Active
		sum.Misfit += m.Misfit
		sum.Asym += m.Asym
		sum.RT += m.RT
	}
	n := float64(len(res.Reps))
	type bar struct {
		k, kernel string
		v         float64
	}
	rows := []bar{
		{"wake-up", "select_task_rq_fair", float64(sum.Wakeup) / n},
		{"periodic", "sched_balance_rq (tick)", float64(sum.Periodic) / n},
		{"new-idle", "sched_balance_newidle", float64(sum.Newidle) / n},
		{"nohz", "nohz idle balance", float64(sum.Nohz) / n},
		{"active", "active_load_balance_cpu_stop", float64(sum.Active) / n},
		{"misfit", "misfit task", float64(sum.Misfit) / n},
		{"asym", "asym packing", float64(sum.Asym) / n},
	}
	if sum.RT > 0 { // only a workload with SCHED_FIFO/RR tasks has them
		rows = append(rows, bar{"RT push", "push_rt_task (RT class)", float64(sum.RT) / n})
	}
	maxV := 0.0
	for _, r := range rows {
		maxV = math.Max(maxV, r.v)
	}
	tbl := b.el(c, "div", "bars")
	for _, r := range rows {
		row := b.el(tbl, "div", "bar-row")
		row.SetAttribute("title", r.kernel)
		b.text(row, "span", "bar-k", r.k)
		track := b.el(row, "span", "bar-track")
		fill := b.el(track, "span", "bar-fill")
		w := 0.0
		if maxV > 0 {
			w = 100 * r.v / maxV
		}
		fill.Style().SetProperty("width", fmt.Sprintf("%.1f%%", w), "")
		b.text(row, "span", "bar-v", site.FormatNum(r.v))
	}
}

// latencyChart shows repetition 0's wake-up latency percentiles and its
// log2 histogram, the sample count on a linear axis.
func (a *App) latencyChart(b builder, parent dom.Element, res *sim.Result) {
	c := a.card(b, parent, "chart-latency", "Wake-up latency, repetition 0")
	lat := res.Reps[0].Latency
	if lat.Count == 0 {
		b.text(c, "p", "muted", "no wake-ups recorded")
		return
	}
	pct := fmt.Sprintf("repetition 0: p50 %s · p99 %s · p99.9 %s · max %s · n=%d",
		site.FormatNs(float64(lat.P50)), site.FormatNs(float64(lat.P99)), site.FormatNs(float64(lat.P999)), site.FormatNs(float64(lat.Max)), lat.Count)
	if len(res.Reps) > 1 {
		pct += fmt.Sprintf(" (the figures above are means over %d repetitions)", len(res.Reps))
	}
	b.text(c, "p", "pct", pct)
	first, last := -1, -1
	var maxC int64
	for i, v := range lat.Buckets {
		if v > 0 {
			if first < 0 {
				first = i
			}
			last = i
			maxC = max(maxC, v)
		}
	}
	if first < 0 {
		return
	}
	const w, h = 380.0, 120.0
	ctx := a.canvas(b, c, w, h)
	pal := palette(a.dark)
	// Linear count axis: bar height ∝ samples (a non-empty bucket keeps
	// at least one pixel); buckets are log2 latency ranges.
	l, r, t, bt := 40.0, w-36, 14.0, h-16
	axes(ctx, pal, l, r, t, bt)
	ctx.SetFont("10px system-ui, sans-serif")
	ctx.SetFillStyle(pal.muted)
	ctx.FillText(site.FormatTick(float64(maxC)), 2, t+4, l-6)
	ctx.FillText("0", l-10, bt, 10)
	ctx.FillText("samples (linear) per log2 latency bucket", l+4, t-4, r-l-4)
	nb := last - first + 1
	bw := (r - l) / float64(nb)
	for i := first; i <= last; i++ {
		x := l + float64(i-first)*bw
		bh := HistBarHeight(lat.Buckets[i], maxC, bt-t)
		ctx.SetFillStyle(pal.accent)
		ctx.FillRect(x+1, bt-bh, math.Max(bw-2, 1), bh)
		if nb <= 16 || (i-first)%2 == 0 {
			ctx.SetFillStyle(pal.muted)
			ctx.FillText(site.FormatNs(math.Exp2(float64(i))), x, h-4, math.Max(bw*2-2, 10))
		}
	}
	// Each label is its bucket's lower bound; the last bucket's upper
	// bound closes the axis.
	if nb <= 16 || nb%2 == 0 {
		ctx.SetFillStyle(pal.muted)
		ctx.FillText(site.FormatNs(math.Exp2(float64(last+1))), r+2, h-4, w-r-2)
	}
}

// residencyMap is the per-core ST residency heat map (repetition 0):
// the fraction of the core's busy time spent in full-resource ST mode.
func (a *App) residencyMap(b builder, parent dom.Element, res *sim.Result) {
	words := a.state.Run.Words
	if !words.SMT() {
		return // one-thread cores: always "ST" when busy
	}
	c := a.card(b, parent, "chart-residency", fmt.Sprintf("Per-core %s residency (share of busy time in %[1]s mode)", words.STShort()))
	mr := res.Reps[0].ModeResidency
	if len(mr) == 0 {
		b.text(c, "p", "muted", "no mode residency recorded")
		return
	}
	// Whole-machine split of busy core time by mode (a stacked bar).
	var tot sim.ModeResidency
	for _, m := range mr {
		tot.ST += m.ST
		tot.SMT += m.SMT
		tot.Partitioned += m.Partitioned
		tot.Switching += m.Switching
	}
	if busy := tot.ST + tot.SMT + tot.Partitioned + tot.Switching; busy > 0 {
		bar := b.el(c, "div", "stack")
		bar.SetID("mode-split")
		for _, part := range []struct {
			m  sim.Mode
			ns int64
		}{{sim.ModeST, tot.ST}, {sim.ModeSMT, tot.SMT}, {sim.ModePartitioned, tot.Partitioned}, {sim.ModeSwitching, tot.Switching}} {
			if part.ns == 0 {
				continue
			}
			f := 100 * float64(part.ns) / float64(busy)
			seg := b.el(bar, "span", "stack-seg")
			seg.Style().SetProperty("width", fmt.Sprintf("%.2f%%", f), "")
			seg.Style().SetProperty("background", modeColor(part.m, a.dark), "")
			seg.SetAttribute("title", fmt.Sprintf("%s: %.1f%% of busy core time", words.Name(part.m), f))
			if f >= 12 {
				seg.SetTextContent(fmt.Sprintf("%.0f%%", f))
			}
		}
	}
	cols := int(math.Ceil(math.Sqrt(float64(len(mr)) * 3)))
	cols = min(max(cols, 4), 32)
	rows := (len(mr) + cols - 1) / cols
	cell := math.Min(22, 360/float64(cols))
	w, h := float64(cols)*cell+2, float64(rows)*cell+2
	ctx := a.canvas(b, c, w, h)
	ctx.SetFont(fmt.Sprintf("%.0fpx system-ui, sans-serif", math.Min(10, cell*0.45)))
	pal := palette(a.dark)
	// The cells are filled a colour at a time (viewkit.Batches: one call
	// into the page per colour, not two per core: Vera has 176 cores),
	// then labelled; the cells do not overlap.
	var cells viewkit.Batches
	for i, m := range mr {
		busy := m.ST + m.SMT + m.Partitioned + m.Switching
		x := 1 + float64(i%cols)*cell
		y := 1 + float64(i/cols)*cell
		style := pal.grid
		if busy > 0 {
			style = heat(float64(m.ST)/float64(busy), a.dark)
		}
		cells.Add(style, 1, x, y, cell-1, cell-1)
	}
	cells.Fill(ctx.Value)
	if cell >= 16 {
		ctx.SetFillStyle(pal.onHeat)
		for i := range mr {
			x := 1 + float64(i%cols)*cell
			y := 1 + float64(i/cols)*cell
			ctx.FillText(strconv.Itoa(i), x+2, y+cell*0.65, cell-3)
		}
	}
	leg := b.el(c, "div", "legend")
	sw := b.el(leg, "span", "swatch")
	sw.Style().SetProperty("background", heat(1, a.dark), "")
	b.text(leg, "span", "", "all "+words.STShort())
	sw = b.el(leg, "span", "swatch")
	sw.Style().SetProperty("background", heat(0, a.dark), "")
	b.text(leg, "span", "", words.NeverST())
}

// heat maps 0..1 to a colour from amber (partitioned) to teal (ST).
func heat(f float64, dark bool) string {
	h := 35 + f*135
	l := 55.0
	if dark {
		l = 45
	}
	return fmt.Sprintf("hsl(%.0f 65%% %.0f%%)", h, l)
}

type pal struct{ fg, muted, grid, accent, onHeat, busy, bg string }

func palette(dark bool) pal {
	if dark {
		return pal{fg: "#e6e6e6", muted: "#9aa0a6", grid: "#3a3f45", accent: "#6cb6ff", onHeat: "#111", busy: viewkit.PaletteFor(true).Busy, bg: "#16181b"}
	}
	return pal{fg: "#1b1f24", muted: "#5f6368", grid: "#d0d4d9", accent: "#1a73e8", onHeat: "#111", busy: viewkit.PaletteFor(false).Busy, bg: "#ffffff"}
}

//go:build js && wasm

package compareview

import (
	"fmt"

	"honnef.co/go/js/dom/v2"

	"schedplay/engine/explain"
	"schedplay/engine/sim"
	"schedplay/site"
	"schedplay/site/viewkit"
	"schedplay/site/viewkit/canvastl"
)

// renderTimelines draws both runs' repetition-0 timelines with one shared
// time window: zooming or panning either moves both.
func (v *view) renderTimelines() {
	b := v.b
	box := v.tlBox
	viewkit.Clear(box)
	head := b.El(box, "div", "cmp-row-head")
	b.Text(head, "h2", "", "Timelines (repetition 0, same seed)")
	ctl := b.El(head, "div", "tl-ctl")
	b.Button(ctl, "cmp-zoom-in", "", "+", func() { v.tls[0].ZoomIn() }).SetAttribute("aria-label", "zoom in")
	b.Button(ctl, "cmp-zoom-out", "", "−", func() { v.tls[0].ZoomOut() }).SetAttribute("aria-label", "zoom out")
	b.Button(ctl, "cmp-zoom-reset", "", "whole run", func() { v.tls[0].Reset() })
	words := v.words()
	b.ModeLegend(head, words).SetID("cmp-mode-legend")
	v.end = 0
	for _, r := range v.res {
		if r.Timeline != nil {
			v.end = max(v.end, r.Timeline.EndNs)
		}
	}
	v.t0, v.t1 = 0, v.end
	for i, name := range []string{v.pa, v.pb} {
		side := []string{"A", "B"}[i]
		b.Text(box, "h3", []string{"side-a-text", "side-b-text"}[i], side+" = "+name)
		t := canvastl.NewTimeline(b, box, []string{"tl-a", "tl-b"}[i], "Timeline of "+side+" ("+name+")", 300)
		t.SetData(v.res[i].Timeline, v.cpus)
		t.SetWords(words)
		t.OnWindow = v.setWindow
		v.tls[i] = t
	}
	b.Text(box, "p", "muted small", "Wheel zooms, drag pans, double-click shows the whole run; both timelines follow. The red line marks the first divergence.")
	b.On(dom.GetWindow(), "resize", func(dom.Event) { v.drawTimelines() })
	viewkit.Frame(v.drawTimelines)
}

// words names the machine's core modes (its SMT model).
func (v *view) words() viewkit.ModeWords {
	if v.resolved == nil {
		return viewkit.ModeWords{}
	}
	return viewkit.WordsFor(v.resolved.Machine)
}

// setWindow moves both timelines to [t0, t1].
func (v *view) setWindow(t0, t1 int64) {
	v.t0, v.t1 = t0, t1
	viewkit.Frame(v.drawTimelines)
}

func (v *view) drawTimelines() {
	for _, t := range v.tls {
		if t != nil {
			t.SetWindow(v.t0, v.t1, v.end)
			t.Draw()
		}
	}
}

// renderDivergence finds the first placement the two runs made
// differently, marks it on both timelines and shows both decision paths.
func (v *view) renderDivergence() {
	b := v.b
	box := v.divBox
	viewkit.Clear(box)
	head := b.El(box, "div", "cmp-row-head")
	b.Text(head, "h2", "", "First divergence")
	ta, tb := v.res[0].Timeline, v.res[1].Timeline
	d, ok := explain.FirstDivergence(ta, tb)
	if !ok {
		msg := "Both runs made the same placement decisions (every wake-up and migration chose the same CPU)."
		if ta != nil && tb != nil && (ta.Truncated || tb.Truncated) {
			msg += " The timelines were truncated, so only the recorded part was compared."
		}
		box.SetAttribute("data-found", "0")
		b.Text(box, "p", "", msg)
		return
	}
	box.SetAttribute("data-found", "1")
	box.SetAttribute("data-at", fmt.Sprint(d.At))
	b.Button(head, "zoom-divergence", "", "Zoom to it", func() {
		t0, t1 := DivergenceWindow(d, v.end)
		v.setWindow(t0, t1)
	})
	for i, dec := range []*sim.Decision{d.A, d.B} {
		v.tls[i].Markers = DivergenceMarkers(d, dec)
	}
	task := fmt.Sprintf("task %d", d.Task)
	if ta != nil && d.Task < len(ta.Tasks) {
		task = ta.Tasks[d.Task].Name
	}
	b.Text(box, "p", "", fmt.Sprintf("At %s the runs placed %s differently (its placement decision number %d). Each side's kernel path:",
		site.FormatNs(float64(d.At)), task, d.Ordinal+1))
	cols := b.El(box, "div", "div-cols")
	for i, dec := range []*sim.Decision{d.A, d.B} {
		col := b.El(cols, "div", "div-col")
		col.SetID([]string{"divergence-a", "divergence-b"}[i])
		b.Text(col, "h3", []string{"side-a-text", "side-b-text"}[i], []string{"A = " + v.pa, "B = " + v.pb}[i])
		if dec == nil {
			b.Text(col, "p", "muted", "No such decision: this run's record ended first.")
			continue
		}
		tasks := ta.Tasks
		if i == 1 {
			tasks = tb.Tasks
		}
		ol := b.El(col, "ol", "div-path")
		for _, line := range explain.Describe(*dec, tasks) {
			li := b.El(ol, "li", "")
			for _, seg := range line {
				if seg.Func == "" {
					b.Text(li, "span", "", seg.Text)
					continue
				}
				a := b.Link(li, "kernel", explain.KernelLink(seg.Anchor), seg.Text)
				a.SetAttribute("target", "_blank")
				a.SetAttribute("rel", "noopener")
				a.SetAttribute("title", seg.Func+"() in docs/KERNEL-MAP.md")
				anchor := seg.Anchor
				b.On(a, "click", func(ev dom.Event) {
					if viewkit.EvBool(ev, "ctrlKey") || viewkit.EvBool(ev, "metaKey") || viewkit.EvBool(ev, "shiftKey") {
						return // a new tab or window, as asked
					}
					ev.PreventDefault()
					go v.showKernelEntry(anchor)
				})
			}
		}
	}
	v.kernelBox = b.El(box, "div", "kernel-entry")
	v.kernelBox.SetID("kernel-entry")
	v.kernelBox.SetAttribute("role", "region")
	v.kernelBox.SetAttribute("aria-live", "polite")
	viewkit.Frame(v.drawTimelines)
}

// showKernelEntry shows a kernel function's docs/KERNEL-MAP.md entry
// under the decision paths (the file is fetched once); when the file
// cannot be read, it opens the link instead.
func (v *view) showKernelEntry(anchor string) {
	v.kernelMap.Show(v.b, v.kernelBox, anchor, "h3", nil)
}

// renderDeltas shows the per-core figures A, B and B−A: a heat strip per
// figure (one cell per core) and the table.
func (v *view) renderDeltas() {
	b := v.b
	box := v.deltaBox
	viewkit.Clear(box)
	b.Text(box, "h2", "", "Per-core deltas (B − A)")
	ds, err := explain.CoreDeltas(v.res[0], v.res[1], v.cores)
	if err != nil {
		b.Text(box, "p", "notice error", "The per-core figures cannot be compared: "+err.Error())
		return
	}
	rows := DeltaRows(ds)
	type figure struct {
		name string
		cell func(r DeltaRow) DeltaCell
	}
	figs := []figure{
		{"ST residency", func(r DeltaRow) DeltaCell { return r.ST }},
		{"busy time", func(r DeltaRow) DeltaCell { return r.Busy }},
		{"mode transitions", func(r DeltaRow) DeltaCell { return r.Trans }},
	}
	smt := v.words().SMT()
	if !smt {
		figs = figs[1:2] // one-thread cores have no modes: busy time only
	}
	strips := b.El(box, "div", "heat-strips")
	for _, f := range figs {
		line := b.El(strips, "div", "heat-line")
		b.Text(line, "span", "heat-name small", f.name)
		strip := b.El(line, "div", "heat-strip")
		for _, r := range rows {
			c := f.cell(r)
			cell := b.El(strip, "span", "heat-cell")
			cell.Style().SetProperty("background", HeatColor(c.Heat), "")
			cell.SetAttribute("title", fmt.Sprintf("core %d (CPUs %s): A %s, B %s, B−A %s", r.Core, r.CPUs, c.A, c.B, c.Diff))
		}
	}
	note := "Red: B higher than A; blue: B lower; the strongest colour is the largest change of that figure. ST residency is the share of the core's non-idle time in its one-thread mode (mean over the repetitions); busy time is summed over the core's CPUs; transitions are the core's mode changes in repetition 0."
	if !smt {
		note = "Red: B higher than A; blue: B lower; the strongest colour is the largest change. Busy time is summed over the core's CPUs. The machine has no SMT, so there are no core modes (ST residency, mode transitions) to compare."
	}
	b.Text(box, "p", "muted small", note)
	wrap := b.El(box, "div", "delta-wrap")
	tbl := b.El(wrap, "table", "cmp-table delta-table")
	tbl.SetID("delta-table")
	thead := b.El(tbl, "thead", "")
	tr := b.El(thead, "tr", "")
	b.Text(tr, "th", "", "core")
	b.Text(tr, "th", "", "CPUs")
	for _, f := range figs {
		th := b.Text(tr, "th", "", f.name)
		th.SetAttribute("colspan", "3")
	}
	tr = b.El(thead, "tr", "sub")
	b.Text(tr, "th", "", "")
	b.Text(tr, "th", "", "")
	for range figs {
		for _, h := range []string{"A", "B", "B−A"} {
			b.Text(tr, "th", "", h)
		}
	}
	tbody := b.El(tbl, "tbody", "")
	for _, r := range rows {
		tr := b.El(tbody, "tr", "")
		tr.SetAttribute("data-core", fmt.Sprint(r.Core))
		b.Text(tr, "th", "", fmt.Sprint(r.Core))
		b.Text(tr, "td", "muted", r.CPUs)
		for _, f := range figs {
			c := f.cell(r)
			b.Text(tr, "td", "num", c.A)
			b.Text(tr, "td", "num", c.B)
			d := b.Text(tr, "td", "num", c.Diff)
			d.Style().SetProperty("background", HeatColor(c.Heat), "")
		}
	}
}

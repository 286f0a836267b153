//go:build js && wasm

package stepview

import (
	"fmt"

	"honnef.co/go/js/dom/v2"

	"schedplay/engine/explain"
	"schedplay/engine/sim"
	"schedplay/site/viewkit"
)

// renderEvent shows the last event, the placement decisions it recorded
// and the run's latest decision (the last domain walk), in kernel
// vocabulary with linked function names.
func (v *view) renderEvent(r *sim.StepReply, tasks []sim.TaskInfo) {
	if v.pathB != nil {
		v.pathB.Release()
	}
	v.pathB = viewkit.NewB()
	b := v.pathB
	box := v.eventBox
	viewkit.Clear(box)
	b.Text(box, "h2", "", "Last event")
	if r.Event == nil {
		b.Text(box, "p", "muted", "The start: nothing has happened yet. Step runs the first event (usually the fork of the workload's tasks).")
	} else {
		p := b.Text(box, "p", "step-event-line", EventText(*r.Event))
		p.SetID("step-event-text")
		p.SetAttribute("data-kind", r.Event.Kind)
	}
	shown := map[int]bool{}
	for _, d := range r.Decisions {
		shown[d.Index] = true
		v.decision(b, box, fmt.Sprintf("Placement decision %d, made by this event", d.Index+1), d, tasks)
	}
	if d := r.LastDecision; d != nil && !shown[d.Index] {
		v.decision(b, box, fmt.Sprintf("The latest placement decision so far (%d, at %s): the last domain walk", d.Index+1, explain.FormatNs(d.At)), *d, tasks)
	}
	if len(r.Decisions) > 0 || r.LastDecision != nil {
		b.Text(box, "p", "muted small", "Each step shows what it settled on; the simulator records the CPU a scan chose (or why it stopped), a balance pass's domain, busiest group and group_type, not every CPU scanned nor the group statistics.")
	}
	v.kernelBox = b.El(box, "div", "kernel-entry")
	v.kernelBox.SetID("step-kernel")
	v.kernelBox.SetAttribute("role", "region")
	v.kernelBox.SetAttribute("aria-live", "polite")
}

// decision draws one decision as explain.Describe's lines.
func (v *view) decision(b *viewkit.B, parent dom.Element, title string, d sim.StepDecision, tasks []sim.TaskInfo) {
	wrap := b.El(parent, "div", "step-decision")
	wrap.SetAttribute("data-index", fmt.Sprint(d.Index))
	wrap.SetAttribute("data-kind", d.Kind)
	b.Text(wrap, "h3", "", title)
	ol := b.El(wrap, "ol", "div-path")
	for _, line := range explain.Describe(d.Decision, tasks) {
		li := b.El(ol, "li", "")
		for _, seg := range line {
			if seg.Func == "" {
				b.Text(li, "span", "", seg.Text)
				continue
			}
			a := b.Link(li, "kernel", explain.KernelLink(seg.Anchor), seg.Text)
			a.SetAttribute("target", "_blank")
			a.SetAttribute("rel", "noopener")
			a.SetAttribute("data-func", seg.Func)
			a.SetAttribute("title", seg.Func+"() in docs/KERNEL-MAP.md")
			anchor := seg.Anchor
			b.On(a, "click", func(ev dom.Event) {
				if viewkit.EvBool(ev, "ctrlKey") || viewkit.EvBool(ev, "metaKey") || viewkit.EvBool(ev, "shiftKey") {
					return
				}
				ev.PreventDefault()
				go v.showKernelEntry(anchor)
			})
		}
	}
}

// showKernelEntry shows a function's KERNEL-MAP.md entry under the
// decisions; when the file cannot be read, the link opens instead.
func (v *view) showKernelEntry(anchor string) {
	v.kernelMap.Show(v.pathB, v.kernelBox, anchor, "h3", nil)
}

// renderRunqueues draws the runqueue table, rows that changed since the
// previous step highlighted.
func (v *view) renderRunqueues(r *sim.StepReply) {
	b := v.b
	box := v.rqBox
	viewkit.Clear(box)
	b.Text(box, "h2", "", "Runqueues")
	rows := Rows(r.Detail)
	changed := Changed(v.rows, rows)
	if v.rows == nil {
		changed = map[int]bool{}
	}
	v.rows = rows
	wrap := b.El(box, "div", "step-rq-wrap")
	tbl := b.El(wrap, "table", "cmp-table step-table")
	tbl.SetID("runqueues")
	tr := b.El(b.El(tbl, "thead", ""), "tr", "")
	for _, h := range []string{"CPU", "running (rq->curr)", "queued, earliest deadline first", "state"} {
		b.Text(tr, "th", "", h)
	}
	tbody := b.El(tbl, "tbody", "")
	for _, row := range rows {
		cls := ""
		if changed[row.CPU] {
			cls = "changed"
		}
		tr := b.El(tbody, "tr", cls)
		tr.SetAttribute("data-cpu", fmt.Sprint(row.CPU))
		tr.SetAttribute("data-key", row.Key)
		b.Text(tr, "th", "", fmt.Sprint(row.CPU))
		b.Text(tr, "td", "mono", row.Curr)
		q := b.El(tr, "td", "mono")
		if len(row.Queued) == 0 {
			b.Text(q, "span", "muted", "–")
		}
		for _, e := range row.Queued {
			b.Text(q, "div", "", e)
		}
		b.Text(tr, "td", "small", row.State)
	}
	b.Text(box, "p", "muted small", "v = se->vruntime, d = se->deadline (virtual ns), lag = avg_vruntime(cfs_rq) − vruntime: an entity is eligible when its lag is ≥ 0, and pick_eevdf() runs the eligible one with the earliest deadline. Values are as of the runqueue's last update_curr(). Highlighted rows changed in the last step.")
}

// renderSide draws the LLCs' idle-core state and the recent events.
func (v *view) renderSide(r *sim.StepReply) {
	b := v.b
	viewkit.Clear(v.llcBox)
	b.Text(v.llcBox, "h2", "", "Idle cores")
	ul := b.El(v.llcBox, "ul", "step-llcs")
	for _, l := range r.Detail.LLCs {
		li := b.Text(ul, "li", "mono", LLCText(l))
		li.SetAttribute("data-llc", fmt.Sprint(l.ID))
	}
	b.Text(v.llcBox, "p", "small", fmt.Sprintf("rd->overloaded = %v · %d placement decisions so far", r.Detail.Overloaded, r.Detail.Decisions))
	b.Text(v.llcBox, "p", "muted small", "has_idle_cores and nr_idle_scan live in sched_domain_shared: the LLC's under 6.12, under the tip a wider asym-capacity domain's when there is one. has_idle_cores is set when a core went idle and cleared when select_idle_cpu() or select_idle_capacity() scanned without finding an idle core; nr_idle_scan is SIS_UTIL's scan budget, written by the periodic balance of the domain that holds it.")
	viewkit.Clear(v.recentBox)
	b.Text(v.recentBox, "h2", "", "Recent events")
	ol := b.El(v.recentBox, "ol", "step-recent-list")
	ol.SetID("step-recent-list")
	if len(r.Recent) == 0 {
		b.Text(ol, "li", "muted", "none yet")
	}
	for i := len(r.Recent) - 1; i >= 0; i-- {
		b.Text(ol, "li", "mono small", EventText(r.Recent[i]))
	}
}

//go:build js && wasm

package compareview

import (
	"encoding/json"
	"fmt"
	"strings"

	"honnef.co/go/js/dom/v2"

	"schedplay/engine/compare"
	"schedplay/site/viewkit"
)

// sweep is the sweep panel: one POST /api/v1/compare per value (both
// policies, the scenario's seeds), drawn as a curve with error bars as the
// points arrive. Cancel stops issuing requests and terminates the worker
// running the current one (engineCancel).
type sweep struct {
	v             *view
	box           dom.HTMLElement
	path, values  *dom.HTMLInputElement
	metric        *dom.HTMLSelectElement
	run, cancel   dom.HTMLElement
	progress      dom.HTMLElement
	status, chart dom.HTMLElement
	table         dom.HTMLElement
	running       bool
	stop          bool
	gen           int
	vals          []string
	field         string
	points        []Point
	tables        []*compare.Table
}

func newSweep(v *view, box dom.HTMLElement) *sweep {
	b := v.b
	s := &sweep{v: v, box: box}
	box.SetID("sweep")
	b.Text(box, "h2", "", "Sweep")
	b.Text(box, "p", "muted small", "Vary one field over a list of values and run both policies at each (one comparison per value, same seeds). Runs in the engine worker, off the page's thread.")
	form := b.El(box, "div", "sweep-form")
	s.path = field(b, form, "sweep-path", "Field", "workload.groups[0].count", 28)
	count := 0
	if r := v.resolved; r != nil && len(r.Workload.Groups) > 0 {
		count = r.Workload.Groups[0].Count
	}
	s.values = field(b, form, "sweep-values", "Values", DefaultSweepValues(count), 18)
	s.values.SetAttribute("title", "comma-separated values; 1..8 stands for 1,2,…,8")
	lab := b.El(form, "label", "")
	b.Text(lab, "span", "", "Metric ")
	s.metric = b.El(lab, "select", "").(*dom.HTMLSelectElement)
	s.metric.SetID("sweep-metric")
	if v.table != nil && len(v.table.Sets) > 0 {
		for _, r := range v.table.Sets[0].Rows {
			o := b.Text(s.metric, "option", "", r.Metric)
			o.SetAttribute("value", r.Metric)
		}
	}
	b.On(s.metric, "change", func(dom.Event) { s.redraw() })
	s.run = b.Button(form, "sweep-run", "primary", "Run sweep", func() { s.start(s.path.Value(), s.values.Value()) })
	s.cancel = b.Button(form, "sweep-cancel", "", "Cancel", s.doCancel)
	s.cancel.SetAttribute("disabled", "")
	s.progress = b.El(box, "progress", "sweep-progress")
	s.progress.SetID("sweep-progress")
	s.progress.SetAttribute("max", "1")
	s.progress.SetAttribute("value", "0")
	s.status = b.Text(box, "span", "small", "")
	s.status.SetID("sweep-status")
	s.status.SetAttribute("role", "status")
	s.chart = b.El(box, "div", "sweep-chart")
	s.chart.SetID("sweep-chart")
	s.table = b.El(box, "div", "sweep-points")
	s.enable(false)
	return s
}

func field(b *viewkit.B, parent dom.Element, id, label, value string, size int) *dom.HTMLInputElement {
	lab := b.El(parent, "label", "")
	b.Text(lab, "span", "", label+" ")
	in := b.El(lab, "input", "").(*dom.HTMLInputElement)
	in.SetID(id)
	in.SetAttribute("size", fmt.Sprint(size))
	in.SetAttribute("spellcheck", "false")
	in.SetValue(value)
	return in
}

// enable allows starting a sweep once the first runs are done (a sweep
// request would cancel them).
func (s *sweep) enable(on bool) {
	if on && !s.running {
		s.run.RemoveAttribute("disabled")
		if s.metric.Length() == 0 && s.v.table != nil && len(s.v.table.Sets) > 0 {
			for _, r := range s.v.table.Sets[0].Rows {
				o := s.v.b.Text(s.metric, "option", "", r.Metric)
				o.SetAttribute("value", r.Metric)
			}
		}
		return
	}
	s.run.SetAttribute("disabled", "")
}

// startFromURL starts ?sweep=path=v1,v2,….
func (s *sweep) startFromURL(spec string) {
	path, list, _ := strings.Cut(spec, "=")
	s.path.SetValue(path)
	s.values.SetValue(list)
	s.start(path, list)
}

func (s *sweep) setState(state string) { s.box.SetAttribute("data-state", state) }

// start checks the field and values and runs the points in a goroutine.
func (s *sweep) start(path, list string) {
	if s.running {
		return
	}
	p, vals, err := ParseSweep(path, list)
	if err == nil {
		_, err = SweepSet(p, vals[0])
	}
	if err != nil {
		s.status.SetTextContent(err.Error())
		s.status.SetAttribute("class", "small bad")
		s.setState("invalid")
		return
	}
	s.gen++
	s.running, s.stop = true, false
	s.field, s.vals = p, vals
	s.points, s.tables = nil, nil
	s.run.SetAttribute("disabled", "")
	s.cancel.RemoveAttribute("disabled")
	s.progress.SetAttribute("max", fmt.Sprint(len(vals)))
	s.progress.SetAttribute("value", "0")
	s.status.SetAttribute("class", "small")
	s.setState("running")
	s.redraw()
	go s.loop(s.gen)
}

// loop issues one compare request per value, in order.
func (s *sweep) loop(gen int) {
	defer func() {
		if gen == s.gen {
			s.running = false
			s.cancel.SetAttribute("disabled", "")
			s.enable(true)
		}
	}()
	for i, val := range s.vals {
		if s.stop || gen != s.gen {
			return
		}
		s.status.SetTextContent(fmt.Sprintf("Running %s = %s (%d of %d)…", s.field, val, i+1, len(s.vals)))
		r := viewkit.Fetch("POST", "/api/v1/compare", viewkit.CompareBody(s.v.doc, s.v.sides[0], s.v.sides[1], s.field+"="+val))
		if s.stop || r.Cancelled || gen != s.gen {
			s.finish("cancelled", fmt.Sprintf("Cancelled after %d of %d points.", len(s.points), len(s.vals)))
			return
		}
		pt := Point{Value: val}
		var reply struct {
			Table *compare.Table `json:"table"`
		}
		switch {
		case !r.OK():
			pt.Err = r.ErrorText()
		case json.Unmarshal([]byte(r.Body), &reply) != nil || reply.Table == nil:
			pt.Err = "the reply could not be read"
		}
		s.points = append(s.points, pt)
		s.tables = append(s.tables, reply.Table)
		s.progress.SetAttribute("value", fmt.Sprint(i+1))
		s.redraw()
	}
	// A point whose request failed is counted as failed, not done.
	text, failed := SweepSummary(s.points, len(s.vals))
	if failed {
		s.status.SetAttribute("class", "small bad")
		s.finish("failed", text)
		return
	}
	s.finish("done", text)
}

func (s *sweep) finish(state, text string) {
	s.status.SetTextContent(text)
	s.setState(state)
}

// doCancel stops the sweep: no new requests, and the running one's worker
// is terminated.
func (s *sweep) doCancel() {
	if !s.running {
		return
	}
	s.stop = true
	s.cancel.SetAttribute("disabled", "")
	s.status.SetTextContent("Cancelling…")
	viewkit.Cancel()
}

// redraw fills the points' values for the chosen metric and draws the
// chart and the points table.
func (s *sweep) redraw() {
	metric := s.metric.Value()
	unit := ""
	pts := make([]Point, len(s.points))
	for i, p := range s.points {
		pts[i] = p
		if p.Err != "" {
			continue
		}
		row, ok := RowOf(s.tables[i], metric)
		if !ok {
			pts[i].Err = "no " + metric + " at this value"
			continue
		}
		pts[i].A, pts[i].B, unit = row.A, row.B, row.Unit
	}
	w := float64(s.chart.OffsetWidth())
	if w < 320 {
		w = 640
	}
	if len(s.vals) > 0 {
		s.chart.SetInnerHTML(SweepSVG(pts, s.field, s.vals, metric, unit, "A = "+s.v.pa, "B = "+s.v.pb, w, 280))
	}
	s.chart.SetAttribute("data-points", fmt.Sprint(len(pts)))
	viewkit.Clear(s.table)
	if len(pts) == 0 {
		return
	}
	b := s.v.b
	tbl := b.El(s.table, "table", "cmp-table")
	tbl.SetID("sweep-table")
	tr := b.El(b.El(tbl, "thead", ""), "tr", "")
	for _, h := range []string{s.field, "A = " + s.v.pa, "B = " + s.v.pb} {
		b.Text(tr, "th", "", h)
	}
	tbody := b.El(tbl, "tbody", "")
	for _, p := range pts {
		tr := b.El(tbody, "tr", "")
		b.Text(tr, "th", "", p.Value)
		if p.Err != "" {
			td := b.Text(tr, "td", "bad", p.Err)
			td.SetAttribute("colspan", "2")
			continue
		}
		b.Text(tr, "td", "num", valueText(p.A, unit))
		b.Text(tr, "td", "num", valueText(p.B, unit))
	}
}

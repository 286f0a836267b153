//go:build js && wasm

package compareview

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"honnef.co/go/js/dom/v2"

	"schedplay/engine/compare"
	plans "schedplay/engine/sweep"
	"schedplay/site/fanout"
	"schedplay/site/viewkit"
)

// sweep is the sweep panel: every value × side × repetition is one
// simulate run (engine/sweep's plan), fanned out (site/fanout) to the
// engine worker in this browser, one batch per value, or to a Worker URL
// from the settings field, several batches in flight; each value's runs
// make its comparison table, drawn as a curve with error bars as the
// points arrive. Cancel stops the fan-out and terminates the worker
// running the current batch (engineCancel).
type sweep struct {
	v             *view
	box           dom.HTMLElement
	path, values  *dom.HTMLInputElement
	worker        *dom.HTMLInputElement
	metric        *dom.HTMLSelectElement
	run, cancel   dom.HTMLElement
	progress      dom.HTMLElement
	status, chart dom.HTMLElement
	table         dom.HTMLElement
	running       bool
	stop          context.CancelFunc
	local         bool // the running sweep runs in this browser
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
	b.Text(box, "p", "muted small", "Vary one field over a list of values and run both policies at each (one comparison per value, same seeds). Runs in the engine worker, off the page's thread, or on your schedplay Worker when Run on holds its address (docs/sweep.md).")
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
	s.worker = field(b, form, "sweep-worker", "Run on", viewkit.StorageGet(WorkerStorageKey), 34)
	s.worker.SetAttribute("placeholder", "this browser, or a Worker URL")
	s.worker.SetAttribute("title", "empty: the engine in this browser; or the address of your schedplay Worker (docs/sweep.md), kept in this browser only, never in links")
	b.On(s.worker, "change", func(dom.Event) {
		if u, err := CheckWorkerURL(s.worker.Value()); err == nil {
			viewkit.StorageSet(WorkerStorageKey, u)
		}
	})
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

// start checks the field, values and Worker URL and runs the points in
// a goroutine.
func (s *sweep) start(path, list string) {
	if s.running {
		return
	}
	p, vals, err := ParseSweep(path, list)
	if err == nil {
		_, err = SweepSet(p, vals[0])
	}
	var worker string
	if err == nil {
		worker, err = CheckWorkerURL(s.worker.Value())
	}
	var plan *plans.Plan
	if err == nil {
		plan, err = SweepPlan(s.v.sc, s.v.ps, s.v.sides[0], s.v.sides[1], p, vals)
	}
	if err != nil {
		s.status.SetTextContent(err.Error())
		s.status.SetAttribute("class", "small bad")
		s.setState("invalid")
		return
	}
	viewkit.StorageSet(WorkerStorageKey, worker)
	s.gen++
	ctx, stop := context.WithCancel(context.Background())
	s.running, s.stop, s.local = true, stop, worker == ""
	s.field, s.vals = p, vals
	s.points, s.tables = nil, nil
	s.run.SetAttribute("disabled", "")
	s.cancel.RemoveAttribute("disabled")
	s.progress.SetAttribute("max", fmt.Sprint(len(vals)))
	s.progress.SetAttribute("value", "0")
	s.status.SetAttribute("class", "small")
	s.setState("running")
	s.box.SetAttribute("data-on", map[bool]string{true: "browser", false: "worker"}[s.local])
	s.redraw()
	go s.loop(ctx, s.gen, plan, s.target(worker, plan))
}

// target is where the runs go: the engine worker in this browser, one
// batch per value (one request, as a comparison is); or the Worker at
// url, 4 batches of 8 runs in flight.
func (s *sweep) target(url string, plan *plans.Plan) fanout.Target {
	if url == "" {
		return fanout.Target{Backend: engineBackend{}, Slots: 1, Batch: min(plan.GroupSize(), 64)}
	}
	return fanout.Target{Backend: workerBackend{url}, Slots: 4, Batch: 8}
}

// loop runs the plan's units and turns each value's runs into its point
// as they arrive in order.
func (s *sweep) loop(ctx context.Context, gen int, plan *plans.Plan, t fanout.Target) {
	defer func() {
		if gen == s.gen {
			s.running = false
			s.cancel.SetAttribute("disabled", "")
			s.enable(true)
		}
	}()
	where := "in this browser"
	if !s.local {
		where = "on " + t.Backend.Name()
	}
	s.status.SetTextContent(fmt.Sprintf("Running %s = %s (1 of %d) %s…", s.field, s.vals[0], len(s.vals), where))
	var group []plans.Record
	deliver := func(i int, r fanout.Reply) error {
		if gen != s.gen {
			return context.Canceled
		}
		rec := plans.Record{Unit: i, Status: r.Status}
		if r.Status == 200 {
			rec.Result = r.Body
		} else {
			rec.Error = r.Body
		}
		group = append(group, rec)
		done := float64(i+1) / float64(plan.GroupSize())
		s.progress.SetAttribute("value", fmt.Sprint(done))
		if len(group) < plan.GroupSize() {
			return nil
		}
		k := len(s.points)
		pt, tbl := PointOf(plan, group, s.vals[k], s.v.pa, s.v.pb)
		group = group[:0]
		s.points = append(s.points, pt)
		s.tables = append(s.tables, tbl)
		s.redraw()
		if k+1 < len(s.vals) {
			s.status.SetTextContent(fmt.Sprintf("Running %s = %s (%d of %d) %s…", s.field, s.vals[k+1], k+2, len(s.vals), where))
		}
		return nil
	}
	_, err := fanout.Run(ctx, []fanout.Target{t}, plan.NumUnits(), func(i int) []byte { return plan.Body(plan.Unit(i)) }, fanout.Options{}, deliver)
	if gen != s.gen {
		return
	}
	switch {
	case errors.Is(err, context.Canceled):
		s.finish("cancelled", fmt.Sprintf("Cancelled after %d of %d points.", len(s.points), len(s.vals)))
		return
	case err != nil:
		s.status.SetAttribute("class", "small bad")
		s.finish("failed", fmt.Sprintf("Stopped after %d of %d points: %v", len(s.points), len(s.vals), err))
		return
	}
	// A point whose runs were refused is counted as failed, not done.
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

// doCancel stops the sweep: no new requests, and the engine worker
// running the current batch is terminated (a Worker's requests are
// aborted).
func (s *sweep) doCancel() {
	if !s.running {
		return
	}
	s.stop()
	s.cancel.SetAttribute("disabled", "")
	s.status.SetTextContent("Cancelling…")
	if s.local {
		viewkit.Cancel()
	}
}

// engineBackend runs requests on the engine worker in this browser
// (engineFetch): the same handler as a Worker's.
type engineBackend struct{}

func (engineBackend) Name() string { return "this browser" }

func (engineBackend) Simulate(ctx context.Context, body []byte) (fanout.Reply, error) {
	return engineReply(viewkit.Fetch("POST", "/api/v1/simulate", string(body)))
}

func (engineBackend) SimulateBatch(ctx context.Context, bodies [][]byte) ([]fanout.Reply, error) {
	rep, err := engineReply(viewkit.Fetch("POST", "/api/v1/batch", string(fanout.BatchBody(bodies))))
	if err != nil {
		return nil, err
	}
	return fanout.ParseBatch(rep, len(bodies))
}

// engineReply converts an engine worker reply; a cancelled or failed
// request (status 0: the worker died) is an error, which the fan-out
// retries unless the sweep was cancelled.
func engineReply(r viewkit.Reply) (fanout.Reply, error) {
	switch {
	case r.Cancelled:
		return fanout.Reply{}, context.Canceled
	case r.Status == 0:
		return fanout.Reply{}, errors.New(r.ErrorText())
	}
	return fanout.Reply{Status: r.Status, Body: []byte(r.Body)}, nil
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

package sweep

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"schedplay/engine/compare"
	"schedplay/engine/export"
	"schedplay/engine/sim"
)

// Summary reads the lines of a sweep in unit order and writes
// summary.csv, one row per point, policy and metric:
//
//	<varied paths…>,policy,metric,unit,mean,stddev,n,of,diff_pct,p
//
// mean ± stddev over n values from the point's "of" runs (n is 1 for a
// single figure such as the best run, and counts only the runs that have
// the metric: completion time needs a run that finished); diff_pct and p (Welch's t-test, compare's statistics) are
// against the first policy at the same point, empty for the first
// policy itself. It also keeps the chosen metric of the plotted points
// (at most MaxPanels × policies × values of the first varied field).
// Its memory is one point's lines plus those values.
type Summary struct {
	p      *Plan
	w      *csv.Writer
	metric string
	group  []Record
	next   int // the unit index the next line must have
	failed int
	unit   string
	seen   []string // metric names, first seen first
	// plot[panel][policy][x]
	plot [][][]export.PlotPoint
}

// NewSummary starts a summary of plan p's lines, writing the CSV to w;
// metric names the plotted metric ("" takes the first metric of the
// first point).
func (p *Plan) NewSummary(w io.Writer, metric string) *Summary {
	s := &Summary{p: p, w: csv.NewWriter(w), metric: metric}
	head := append(p.Paths(), "policy", "metric", "unit", "mean", "stddev", "n", "of", "diff_pct", "p")
	s.w.Write(head)
	return s
}

// Add takes the next record; records must come in unit order.
func (s *Summary) Add(r Record) error {
	if r.Unit != s.next {
		return fmt.Errorf("line for unit %d where unit %d was expected", r.Unit, s.next)
	}
	s.next++
	if r.Status != 200 {
		s.failed++
	}
	s.group = append(s.group, r)
	if len(s.group) == s.p.GroupSize() {
		err := s.flushGroup()
		s.group = s.group[:0]
		return err
	}
	return nil
}

// Done is the number of units added; Failed those without a result.
func (s *Summary) Done() int   { return s.next }
func (s *Summary) Failed() int { return s.failed }

// Close writes what is buffered. A partial last point (an interrupted
// sweep) is summarised over the repetitions it has.
func (s *Summary) Close() error {
	if len(s.group) > 0 {
		if err := s.flushGroup(); err != nil {
			return err
		}
		s.group = s.group[:0]
	}
	s.w.Flush()
	return s.w.Error()
}

// Merge gathers the records of one point (any subset of its units) into
// one result per side, holding the repetitions that succeeded in order,
// nil for a side without any; runs counts each side's records.
func (p *Plan) Merge(recs []Record) (bySide []*sim.Result, runs []int, err error) {
	bySide = make([]*sim.Result, len(p.policies))
	runs = make([]int, len(p.policies))
	for _, r := range recs {
		pol := p.Unit(r.Unit).Policy
		runs[pol]++
		if r.Status != 200 {
			continue
		}
		res, err := sim.DecodeResult(r.Result)
		if err != nil {
			return nil, nil, fmt.Errorf("unit %d: reading its result: %w", r.Unit, err)
		}
		if bySide[pol] == nil {
			bySide[pol] = res
		} else {
			bySide[pol].Reps = append(bySide[pol].Reps, res.Reps...)
		}
	}
	return bySide, runs, nil
}

// flushGroup writes the rows of the buffered point.
func (s *Summary) flushGroup() error {
	p := s.p
	u := p.Unit(s.group[0].Unit)
	byPolicy, runs, err := p.Merge(s.group)
	if err != nil {
		return err
	}
	coords := make([]string, len(p.vary))
	for i, j := range u.At {
		coords[i] = ValueText(p.vary[i].values[j])
	}
	ref := byPolicy[0]
	for pol, res := range byPolicy {
		if res == nil {
			continue
		}
		var rows []compare.Row
		if ref != nil {
			rows = compare.Rows(ref, res)
		} else {
			rows = compare.Rows(res, res)
		}
		for _, row := range rows {
			s.note(row, u, pol)
			rec := append(slices.Clone(coords), p.policies[pol], row.Metric, row.Unit,
				num(row.B.Mean), num(row.B.Stddev), strconv.Itoa(row.B.N), strconv.Itoa(runs[pol]), "", "")
			if pol > 0 && ref != nil {
				if row.DiffPct != nil {
					rec[len(rec)-2] = num(*row.DiffPct)
				}
				if row.P != nil {
					rec[len(rec)-1] = num(*row.P)
				}
			}
			if err := s.w.Write(rec); err != nil {
				return err
			}
		}
	}
	return nil
}

// note keeps the plotted metric's value of policy pol at unit u's point.
func (s *Summary) note(row compare.Row, u Unit, pol int) {
	if !slices.Contains(s.seen, row.Metric) {
		s.seen = append(s.seen, row.Metric)
	}
	if s.metric == "" {
		s.metric = row.Metric
	}
	if row.Metric != s.metric {
		return
	}
	s.unit = row.Unit
	panel, x := s.panelOf(u)
	if panel >= MaxPanels {
		return
	}
	if s.plot == nil {
		s.plot = make([][][]export.PlotPoint, min(s.panels(), MaxPanels))
	}
	if s.plot[panel] == nil {
		s.plot[panel] = make([][]export.PlotPoint, len(s.p.policies))
	}
	line := s.plot[panel][pol]
	if line == nil {
		line = make([]export.PlotPoint, s.xCount())
		s.plot[panel][pol] = line
	}
	if row.B.N > 0 && !math.IsNaN(row.B.Mean) {
		line[x] = export.PlotPoint{Mean: row.B.Mean, Stddev: row.B.Stddev, OK: true}
	}
}

// xCount is the number of x categories: the first varied field's values.
func (s *Summary) xCount() int {
	if len(s.p.vary) == 0 {
		return 1
	}
	return len(s.p.vary[0].values)
}

// panels is the number of combinations of the other varied fields.
func (s *Summary) panels() int {
	n := 1
	for _, v := range s.p.vary[min(1, len(s.p.vary)):] {
		n *= len(v.values)
	}
	return n
}

// panelOf returns the panel and the x index of unit u's point.
func (s *Summary) panelOf(u Unit) (panel, x int) {
	if len(u.At) == 0 {
		return 0, 0
	}
	for i := 1; i < len(u.At); i++ {
		panel = panel*len(s.p.vary[i].values) + u.At[i]
	}
	return panel, u.At[0]
}

// Metric is the plotted metric; Metrics every metric seen, in order.
func (s *Summary) Metric() string    { return s.metric }
func (s *Summary) Metrics() []string { return s.seen }

// MaxPanels bounds the plot's panels (one per combination of the varied
// fields after the first).
const MaxPanels = 24

// Plot writes the SVG plot of the chosen metric against the first varied
// field, one line per policy with error bars, one panel per combination
// of the other varied fields (at most MaxPanels: the first ones). It
// reports whether the metric had any value.
func (s *Summary) Plot(w io.Writer) (bool, error) {
	p := s.p
	xl, xs := "(nothing varied)", []string{""}
	if len(p.vary) > 0 {
		xl, xs = p.vary[0].path, nil
		for _, v := range p.vary[0].values {
			xs = append(xs, ValueText(v))
		}
	}
	yl := s.metric
	if s.unit != "" {
		yl += " (" + s.unit + ")"
	}
	var panels []export.Plot
	for i := 0; i < min(s.panels(), MaxPanels); i++ {
		pl := export.Plot{Title: s.panelTitle(i), XLabel: xl, X: xs, YLabel: yl}
		for pol, name := range p.policies {
			line := export.PlotLine{Name: name}
			if i < len(s.plot) && s.plot[i] != nil {
				line.Points = s.plot[i][pol]
			}
			pl.Lines = append(pl.Lines, line)
		}
		panels = append(panels, pl)
	}
	return s.plot != nil, export.PlotSVG(w, panels, 720)
}

// panelTitle names panel i by the values of the varied fields after the
// first ("" when there are none).
func (s *Summary) panelTitle(i int) string {
	vs := s.p.vary[min(1, len(s.p.vary)):]
	if len(vs) == 0 {
		return ""
	}
	parts := make([]string, len(vs))
	for k := len(vs) - 1; k >= 0; k-- {
		n := len(vs[k].values)
		parts[k] = vs[k].path + " = " + ValueText(vs[k].values[i%n])
		i /= n
	}
	title := parts[0]
	for _, x := range parts[1:] {
		title += ", " + x
	}
	return title
}

// num prints a float exactly (shortest form), "" for NaN.
func num(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

package site

import (
	"sort"
	"strings"

	"schedplay/engine/sim"
)

// VisibleRange is the index range [i, j) of the sorted, non-overlapping
// intervals that overlap [t0, t1).
func VisibleRange(runs []sim.Interval, t0, t1 int64) (int, int) {
	i := sort.Search(len(runs), func(i int) bool { return runs[i].End > t0 })
	j := sort.Search(len(runs), func(j int) bool { return runs[j].Start >= t1 })
	if j < i {
		j = i
	}
	return i, j
}

// PxRun is a horizontal run of pixels to fill: one task, or several merged
// intervals (Task = -1) when they are closer than a pixel.
type PxRun struct {
	X0, X1 float64
	Task   int
}

// Coalesce turns the visible intervals into pixel runs: intervals are
// clipped to the scale, and neighbours less than gapPx apart merge (a run
// that merges different tasks gets Task -1). Each run is at least minW
// wide so short slices stay visible. The result has at most about
// width/minW runs whatever the number of intervals.
func Coalesce(runs []sim.Interval, s TimeScale, gapPx, minW float64, out []PxRun) []PxRun {
	i, j := VisibleRange(runs, s.T0, s.T1)
	cur := PxRun{X0: -1}
	have := false
	for _, iv := range runs[i:j] {
		x0 := s.TimeToPx(iv.Start)
		x1 := s.TimeToPx(iv.End)
		if x0 < s.Left {
			x0 = s.Left
		}
		if x1 > s.Right {
			x1 = s.Right
		}
		if x1-x0 < minW {
			x1 = x0 + minW
		}
		if have && x0-cur.X1 < gapPx {
			if x1 > cur.X1 {
				cur.X1 = x1
			}
			if cur.Task != iv.Task {
				cur.Task = -1
			}
			continue
		}
		if have {
			out = append(out, cur)
		}
		cur = PxRun{X0: x0, X1: x1, Task: iv.Task}
		have = true
	}
	if have {
		out = append(out, cur)
	}
	return out
}

// IntervalAt finds the interval of one CPU under time t, accepting a miss
// of up to slack ns (so thin slices can be hovered). It returns the index
// or -1.
func IntervalAt(runs []sim.Interval, t, slack int64) int {
	i := sort.Search(len(runs), func(i int) bool { return runs[i].End > t })
	if i < len(runs) && runs[i].Start <= t {
		return i
	}
	best, bestD := -1, slack+1
	for _, k := range []int{i - 1, i} {
		if k < 0 || k >= len(runs) {
			continue
		}
		d := runs[k].Start - t
		if t >= runs[k].End {
			d = t - runs[k].End
		}
		if d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// ModeRun is a pixel run of one core mode.
type ModeRun struct {
	X0, X1 float64
	Mode   sim.Mode
}

// ModeRuns clips a core's mode intervals to the scale; idle stretches are
// skipped and sub-pixel neighbours of the same mode merge.
func ModeRuns(modes []sim.ModeInterval, s TimeScale, out []ModeRun) []ModeRun {
	i := sort.Search(len(modes), func(i int) bool { return modes[i].End > s.T0 })
	for _, m := range modes[i:] {
		if m.Start >= s.T1 {
			break
		}
		if m.Mode == sim.ModeIdle {
			continue
		}
		x0, x1 := s.TimeToPx(m.Start), s.TimeToPx(m.End)
		if x0 < s.Left {
			x0 = s.Left
		}
		if x1 > s.Right {
			x1 = s.Right
		}
		if x1-x0 < 1 {
			x1 = x0 + 1
		}
		if n := len(out); n > 0 && out[n-1].Mode == m.Mode && x0-out[n-1].X1 < 1 {
			out[n-1].X1 = x1
			continue
		}
		out = append(out, ModeRun{X0: x0, X1: x1, Mode: m.Mode})
	}
	return out
}

// Hit is what the pointer is over in the timeline.
type Hit struct {
	Row      int // row index, -1 for none
	CPU      int // the CPU when the row has one, else -1
	Interval int // index into Runs[CPU], or -1
	T        int64
	// Busy is the number of the row's CPUs running at T (aggregated rows).
	Busy int
}

// HitTest resolves a pointer position against the layout and timeline.
func HitTest(l Layout, s TimeScale, tl *sim.Timeline, x, y float64) Hit {
	h := Hit{Row: l.RowAt(y), CPU: -1, Interval: -1, T: s.PxToTime(x)}
	if h.Row < 0 || tl == nil || x < s.Left || x > s.Right {
		h.Row = -1
		return h
	}
	r := l.Rows[h.Row]
	slack := int64(3 * s.NsPerPx())
	if len(r.CPUs) == 1 {
		h.CPU = r.CPUs[0]
		if h.CPU < len(tl.Runs) {
			h.Interval = IntervalAt(tl.Runs[h.CPU], h.T, slack)
		}
		return h
	}
	for _, c := range r.CPUs {
		if c < len(tl.Runs) && IntervalAt(tl.Runs[c], h.T, 0) >= 0 {
			h.Busy++
		}
	}
	return h
}

// BusyColumns is the busy fraction of a group of CPUs per pixel column of
// the scale (an aggregated row): cols[i] covers [Left+i, Left+i+1) and
// ends up in 0..1 (1 = every CPU of the group busy for the whole pixel).
func BusyColumns(runs [][]sim.Interval, cpus []int, s TimeScale, cols []float64) []float64 {
	return MatchColumns(runs, cpus, nil, s, cols)
}

// MatchColumns is BusyColumns counting only the runs of the tasks match
// marks (every task when match is nil): how much of an aggregated row the
// tasks a search found take, per pixel column.
func MatchColumns(runs [][]sim.Interval, cpus []int, match []bool, s TimeScale, cols []float64) []float64 {
	n := int(s.Right - s.Left)
	if n < 0 {
		n = 0
	}
	if cap(cols) < n {
		cols = make([]float64, n)
	}
	cols = cols[:n]
	for i := range cols {
		cols[i] = 0
	}
	if len(cpus) == 0 || n == 0 {
		return cols
	}
	w := 1 / float64(len(cpus))
	for _, c := range cpus {
		if c >= len(runs) {
			continue
		}
		i, j := VisibleRange(runs[c], s.T0, s.T1)
		for _, iv := range runs[c][i:j] {
			if match != nil && (iv.Task < 0 || iv.Task >= len(match) || !match[iv.Task]) {
				continue
			}
			x0 := s.TimeToPx(iv.Start) - s.Left
			x1 := s.TimeToPx(iv.End) - s.Left
			if x0 < 0 {
				x0 = 0
			}
			if x1 > float64(n) {
				x1 = float64(n)
			}
			for x := int(x0); x < n && float64(x) < x1; x++ {
				lo, hi := float64(x), float64(x+1)
				if x0 > lo {
					lo = x0
				}
				if x1 < hi {
					hi = x1
				}
				if hi > lo {
					cols[x] += (hi - lo) * w
				}
			}
		}
	}
	return cols
}

// ModeShare is, for one pixel column, the share of a band's cores in each
// busy mode, indexed by mode-1 (ST, SMT, partitioned, switching); the rest
// of the column is idle.
type ModeShare [4]float64

// ModeShares computes an aggregated band's column shares: each core's
// mode intervals weighted by how much of the column they cover, divided
// by the number of cores. out is reused.
func ModeShares(modes [][]sim.ModeInterval, cores []int, s TimeScale, out []ModeShare) []ModeShare {
	n := max(int(s.Right-s.Left), 0)
	if cap(out) < n {
		out = make([]ModeShare, n)
	}
	out = out[:n]
	clear(out)
	if len(cores) == 0 || n == 0 {
		return out
	}
	w := 1 / float64(len(cores))
	for _, c := range cores {
		if c >= len(modes) {
			continue
		}
		ms := modes[c]
		i := sort.Search(len(ms), func(i int) bool { return ms[i].End > s.T0 })
		for _, m := range ms[i:] {
			if m.Start >= s.T1 {
				break
			}
			if m.Mode == sim.ModeIdle || int(m.Mode) > len(ModeShare{}) {
				continue
			}
			x0 := max(s.TimeToPx(m.Start)-s.Left, 0)
			x1 := min(s.TimeToPx(m.End)-s.Left, float64(n))
			for x := int(x0); x < n && float64(x) < x1; x++ {
				lo, hi := max(float64(x), x0), min(float64(x+1), x1)
				if hi > lo {
					out[x][m.Mode-1] += (hi - lo) * w
				}
			}
		}
	}
	return out
}

// TaskMatches marks the tasks whose name contains query, ignoring case (a
// group's tasks are named "group/i", so a group name finds them all), and
// counts them. An empty query matches nothing.
func TaskMatches(tasks []sim.TaskInfo, query string) ([]bool, int) {
	q := strings.ToLower(strings.TrimSpace(query))
	if q == "" {
		return nil, 0
	}
	match := make([]bool, len(tasks))
	n := 0
	for i, t := range tasks {
		if strings.Contains(strings.ToLower(t.Name), q) {
			match[i] = true
			n++
		}
	}
	return match, n
}

// RowOf is the index of the row that draws cpu, or -1.
func (l Layout) RowOf(cpu int) int {
	for i, r := range l.Rows {
		for _, c := range r.CPUs {
			if c == cpu {
				return i
			}
		}
	}
	return -1
}

// SliceBox is where Runs[cpu][idx] is drawn (content coordinates: the
// row's y and height, the slice's x clipped to the scale, at least a
// pixel wide); ok is false when it is out of the window or undrawn.
func SliceBox(l Layout, s TimeScale, tl *sim.Timeline, cpu, idx int) (x0, x1, y, h float64, ok bool) {
	if tl == nil || cpu < 0 || cpu >= len(tl.Runs) || idx < 0 || idx >= len(tl.Runs[cpu]) {
		return 0, 0, 0, 0, false
	}
	iv := tl.Runs[cpu][idx]
	if iv.End <= s.T0 || iv.Start >= s.T1 {
		return 0, 0, 0, 0, false
	}
	ri := l.RowOf(cpu)
	if ri < 0 {
		return 0, 0, 0, 0, false
	}
	x0, x1 = max(s.TimeToPx(iv.Start), s.Left), min(s.TimeToPx(iv.End), s.Right)
	if x1-x0 < 1 {
		x1 = x0 + 1
	}
	return x0, x1, l.Rows[ri].Y, l.Rows[ri].H, true
}

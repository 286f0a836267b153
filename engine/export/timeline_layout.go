package export

import (
	"errors"
	"fmt"
	"image/color"
	"math/bits"
	"strconv"
	"strings"

	"schedplay/engine/sim"
	"schedplay/engine/topo"
)

// Lane is one timeline row: a logical CPU and where it sits.
type Lane struct {
	CPU    int
	Core   int
	Thread int // SMT thread inside the core (PE0 = 0)
}

// LanesFromTopology orders the CPUs as the playground draws them: cores in
// index order (so nodes and clusters stay together), each core's threads in
// order, PE0 above PE1.
func LanesFromTopology(t *topo.Topology) []Lane {
	var out []Lane
	for core, cpus := range t.CoreCPUs {
		for th, c := range cpus {
			out = append(out, Lane{CPU: int(c), Core: core, Thread: th})
		}
	}
	return out
}

// CPUCores maps each CPU to its core index (the cpuCore argument of CPUCSV).
func CPUCores(t *topo.Topology) []int {
	out := make([]int, len(t.CPUs))
	for i, c := range t.CPUs {
		out[i] = c.Core
	}
	return out
}

// TimelineOptions steer a timeline export. The zero value draws the whole
// timeline 1200 px wide.
type TimelineOptions struct {
	// Start and End bound the time window (ns); End 0 means Timeline.EndNs.
	Start, End int64
	// Width is the image width in px (default 1200, at least 300).
	Width int
	// LaneHeight is a CPU row's height in px (default: 12 for up to 64
	// CPUs, 8 up to 128, else 5).
	LaneHeight int
	// Title is shown above the timeline (the scenario name; escaped).
	Title string
	// MaxElements caps the slice rectangles (default 20000): narrow slices
	// merge into wider "busy" runs until the drawing fits.
	MaxElements int
}

// Drawing constants (px).
const (
	marginLeft   = 64
	marginRight  = 28
	titleH       = 24
	axisH        = 26
	legendRowH   = 16
	legendItemW  = 150
	coreGap      = 2
	maxLegendTsk = 12
	cpx          = 100 // centipixels per pixel: geometry is integer
	minSlice     = 50  // 0.5 px: narrower slices aggregate
)

// rectEl is a filled rectangle; x in centipixels, y and h in px.
type rectEl struct {
	x0, x1 int64
	y, h   int
	fill   color.RGBA
	title  string
}

// textEl is a label at (x, y) px.
type textEl struct {
	x, y   int
	s      string
	anchor string // "start", "middle" or "end"
	size   int    // font size in px; 0 is the default 10
}

// lineEl is a one-pixel line (axis, ticks).
type lineEl struct {
	x0, y0, x1, y1 int
	stroke         color.RGBA
}

// drawing is the geometry shared by the SVG and PNG writers.
type drawing struct {
	w, h       int
	title      string
	background []rectEl // lanes and idle bands, drawn first
	slices     []rectEl // task slices, busy runs and mode band runs
	lines      []lineEl
	texts      []textEl
	// merged is true when slices narrower than 0.5 px (or wider, after the
	// element cap) were drawn as aggregated runs.
	merged bool
}

// errNoLanes is returned for an empty lane order.
var errNoLanes = errors.New("export: timeline has no CPU lanes")

// layoutTimeline computes the drawing of tl over the window of opt.
func layoutTimeline(tl *sim.Timeline, lanes []Lane, opt TimelineOptions) (*drawing, error) {
	if tl == nil {
		return nil, errors.New("export: no timeline (run with the timeline enabled)")
	}
	if len(lanes) == 0 {
		return nil, errNoLanes
	}
	start, end := opt.Start, opt.End
	if end == 0 {
		end = tl.EndNs
	}
	if end <= start {
		return nil, fmt.Errorf("export: empty time window [%d, %d)", start, end)
	}
	w := opt.Width
	if w == 0 {
		w = 1200
	}
	w = max(w, 300)
	laneH := opt.LaneHeight
	if laneH <= 0 {
		laneH = 12
		if len(lanes) > 128 {
			laneH = 5
		} else if len(lanes) > 64 {
			laneH = 8
		}
	}
	bandH := max(3, min(5, laneH/2))
	maxEl := opt.MaxElements
	if maxEl <= 0 {
		maxEl = 20000
	}
	d := &drawing{w: w, title: opt.Title}
	sc := scale{t0: start, t1: end, x0: marginLeft * cpx, width: int64(w-marginLeft-marginRight) * cpx}
	y := titleH
	type rowPos struct {
		lane Lane
		y    int
	}
	var rows []rowPos
	bandY := map[int]int{}
	var bandOrder []int
	prevCore := -1
	for _, l := range lanes {
		if l.Core != prevCore {
			if prevCore >= 0 {
				y += coreGap
			}
			if _, dup := bandY[l.Core]; !dup {
				bandY[l.Core] = y
				bandOrder = append(bandOrder, l.Core)
			}
			y += bandH
			prevCore = l.Core
		}
		rows = append(rows, rowPos{l, y})
		y += laneH
	}
	plotBottom := y
	for _, r := range rows {
		d.background = append(d.background, rectEl{x0: sc.x0, x1: sc.x0 + sc.width, y: r.y, h: laneH, fill: laneColor})
		if laneH >= 8 {
			d.texts = append(d.texts, textEl{x: marginLeft - 4, y: r.y + laneH - 2, s: fmt.Sprintf("cpu %d", r.lane.CPU), anchor: "end"})
		}
	}
	for _, core := range bandOrder {
		d.background = append(d.background, rectEl{x0: sc.x0, x1: sc.x0 + sc.width, y: bandY[core], h: bandH, fill: bandColor})
	}
	// Rows too thin for a label each get one per core ("cpu 0,176").
	for i := 0; laneH < 8 && i < len(rows); {
		j, cpus := i, []string{}
		for ; j < len(rows) && rows[j].lane.Core == rows[i].lane.Core; j++ {
			cpus = append(cpus, strconv.Itoa(rows[j].lane.CPU))
		}
		mid := rows[i].y + (j-i)*laneH/2
		d.texts = append(d.texts, textEl{x: marginLeft - 4, y: mid + 3, s: "cpu " + strings.Join(cpus, ","), anchor: "end", size: 7})
		i = j
	}
	// Slices: aggregate more coarsely until the element cap holds.
	for minW := int64(minSlice); ; minW *= 2 {
		d.slices = d.slices[:0]
		merged := false
		for _, r := range rows {
			if r.lane.CPU >= 0 && r.lane.CPU < len(tl.Runs) {
				merged = runRects(&d.slices, tl, tl.Runs[r.lane.CPU], sc, r.y, laneH, minW, r.lane.CPU) || merged
			}
		}
		for _, core := range bandOrder {
			if core >= 0 && core < len(tl.Modes) {
				merged = modeRects(&d.slices, tl.Modes[core], sc, bandY[core], bandH, minW) || merged
			}
		}
		d.merged = merged
		if len(d.slices) <= maxEl || minW > sc.width {
			break
		}
	}
	if len(d.slices) > 3000 {
		for i := range d.slices {
			d.slices[i].title = ""
		}
	}
	axis(d, sc, plotBottom)
	d.h = legend(d, tl, plotBottom+axisH)
	return d, nil
}

// scale maps time (ns) to x (centipixels) with exact integer arithmetic,
// so the geometry is the same on every platform.
type scale struct {
	t0, t1    int64
	x0, width int64
}

// x maps t (clamped to the window) to centipixels.
func (s scale) x(t int64) int64 {
	t = min(max(t, s.t0), s.t1)
	hi, lo := bits.Mul64(uint64(t-s.t0), uint64(s.width))
	q, _ := bits.Div64(hi, lo, uint64(s.t1-s.t0))
	return s.x0 + int64(q)
}

// runRects appends one CPU row's slices: slices at least minW wide in their
// task's colour (touching slices of the same task joined), narrower ones
// merged into grey busy runs. It reports whether anything was merged.
func runRects(out *[]rectEl, tl *sim.Timeline, ivs []sim.Interval, sc scale, y, h int, minW int64, cpu int) bool {
	merged := false
	first := len(*out)
	var busy *rectEl
	flush := func() {
		if busy != nil {
			if busy.x1-busy.x0 < minSlice {
				busy.x1 = busy.x0 + minSlice
			}
			*out = append(*out, *busy)
			busy = nil
		}
	}
	for _, iv := range ivs {
		if iv.End <= sc.t0 || iv.Start >= sc.t1 {
			continue
		}
		x0, x1 := sc.x(iv.Start), sc.x(iv.End)
		if x1-x0 >= minW {
			flush()
			if n := len(*out); n > first {
				last := &(*out)[n-1]
				if last.fill == TaskColor(iv.Task) && x0-last.x1 < minSlice && last.title == taskTitle(tl, iv.Task, cpu) {
					last.x1 = x1
					continue
				}
			}
			*out = append(*out, rectEl{x0: x0, x1: x1, y: y, h: h, fill: TaskColor(iv.Task), title: taskTitle(tl, iv.Task, cpu)})
			continue
		}
		merged = true
		if busy != nil && x0-busy.x1 <= minW {
			busy.x1 = max(busy.x1, x1)
			continue
		}
		flush()
		busy = &rectEl{x0: x0, x1: x1, y: y, h: h, fill: busyColor, title: fmt.Sprintf("cpu %d: busy (several short slices)", cpu)}
	}
	flush()
	return merged
}

// taskTitle is a slice's tooltip text.
func taskTitle(tl *sim.Timeline, task, cpu int) string {
	name := fmt.Sprintf("task %d", task)
	if task >= 0 && task < len(tl.Tasks) {
		name = tl.Tasks[task].Name
	}
	return fmt.Sprintf("%s on cpu %d", name, cpu)
}

// modeRects appends one core's mode band. Runs of intervals narrower than
// minW merge into one rectangle in the colour of the mode that lasted
// longest in the run. Idle stretches are left to the band background.
func modeRects(out *[]rectEl, ivs []sim.ModeInterval, sc scale, y, h int, minW int64) bool {
	merged := false
	var run *rectEl
	var dur [len(modeLabels)]int64
	flush := func() {
		if run == nil {
			return
		}
		best := sim.ModeST
		for m := range dur {
			if dur[m] > dur[best] {
				best = sim.Mode(m)
			}
		}
		run.fill = ModeColor(best)
		run.title = "core mostly " + modeLabels[best]
		if run.x1-run.x0 < minSlice {
			run.x1 = run.x0 + minSlice
		}
		*out = append(*out, *run)
		run = nil
		dur = [len(modeLabels)]int64{}
	}
	for _, iv := range ivs {
		if iv.End <= sc.t0 || iv.Start >= sc.t1 || iv.Mode == sim.ModeIdle || int(iv.Mode) >= len(modeLabels) {
			continue
		}
		x0, x1 := sc.x(iv.Start), sc.x(iv.End)
		if x1-x0 >= minW {
			flush()
			if n := len(*out); n > 0 {
				last := &(*out)[n-1]
				if last.y == y && last.fill == ModeColor(iv.Mode) && x0-last.x1 < minSlice {
					last.x1 = x1
					continue
				}
			}
			*out = append(*out, rectEl{x0: x0, x1: x1, y: y, h: h, fill: ModeColor(iv.Mode), title: "core " + modeLabels[iv.Mode]})
			continue
		}
		merged = true
		if run != nil && x0-run.x1 > minW {
			flush()
		}
		if run == nil {
			run = &rectEl{x0: x0, x1: x1, y: y, h: h}
		}
		run.x1 = max(run.x1, x1)
		dur[iv.Mode] += min(iv.End, sc.t1) - max(iv.Start, sc.t0)
	}
	flush()
	return merged
}

//go:build js && wasm

package site

import (
	"math"

	"schedplay/engine/sim"
	"schedplay/site/viewkit"
)

// LaneBatcher adds a timeline's lanes to rectangle batches: the mode bands
// and the per-CPU rows of a Layout, as the playground and the compare and
// embed timelines draw them. It keeps its run buffers across draws.
type LaneBatcher struct {
	// HideModes leaves the mode bands empty (a machine without SMT,
	// whose one-thread cores are always "ST" when busy).
	HideModes bool
	// Match, when set, marks the tasks a search found: the other tasks'
	// slices are drawn faint.
	Match   []bool
	modeBuf []ModeRun
	runsBuf []PxRun
	shares  []ModeShare
	taskCSS [2][]string // TaskColor by theme and task, formatted once
}

// taskColor is TaskColor(task, dark), formatted on first use: a draw asks
// for one per pixel run.
func (lb *LaneBatcher) taskColor(task int, dark bool) string {
	d := 0
	if dark {
		d = 1
	}
	c := lb.taskCSS[d]
	for len(c) <= task {
		c = append(c, TaskColor(len(c), dark))
	}
	lb.taskCSS[d] = c
	return c[task]
}

// Bands adds the mode strips of the bands whose content span meets
// [lo, hi], drawn at y0 + band.Y. A one-core band shows its core's modes;
// an aggregated band stacks, per pixel column, the share of its cores in
// each mode (ST at the bottom, then SMT, partitioned, switching; the rest
// idle), so the mix reads at a glance.
func (lb *LaneBatcher) Bands(bat *viewkit.Batches, bands []Band, tl *sim.Timeline, sc TimeScale, y0, lo, hi float64, dark bool) {
	if lb.HideModes {
		return
	}
	for _, bd := range bands {
		if bd.Y+bd.H < lo || bd.Y > hi {
			continue
		}
		if len(bd.Cores) > 1 {
			lb.shareBand(bat, bd, tl, sc, y0, dark)
			continue
		}
		for _, core := range bd.Cores {
			if core >= len(tl.Modes) {
				continue
			}
			lb.modeBuf = ModeRuns(tl.Modes[core], sc, lb.modeBuf[:0])
			for _, m := range lb.modeBuf {
				bat.Add(viewkit.ModeColor(m.Mode, dark), 1, m.X0, y0+bd.Y, m.X1-m.X0, bd.H)
			}
		}
	}
}

// shareLevels quantises a band's mode shares (for run-length batching).
const shareLevels = 16

// shareBand draws an aggregated band as stacked mode shares: columns with
// the same quantised stack merge into one rectangle per mode.
func (lb *LaneBatcher) shareBand(bat *viewkit.Batches, bd Band, tl *sim.Timeline, sc TimeScale, y0 float64, dark bool) {
	lb.shares = ModeShares(tl.Modes, bd.Cores, sc, lb.shares)
	var cur, q [4]int // cumulative quantised shares
	start := -1
	bottom := y0 + bd.Y + bd.H
	flush := func(end int) {
		if start < 0 {
			return
		}
		prev := 0
		for m, c := range cur {
			if c > prev {
				h0, h1 := float64(prev)/shareLevels*bd.H, float64(c)/shareLevels*bd.H
				bat.Add(viewkit.ModeColor(sim.Mode(m+1), dark), 1, sc.Left+float64(start), bottom-h1, float64(end-start), h1-h0)
			}
			prev = max(prev, c)
		}
	}
	for x, sh := range lb.shares {
		acc := 0.0
		for m := range sh {
			acc += sh[m]
			q[m] = int(math.Round(math.Min(acc, 1) * shareLevels))
		}
		if x == 0 || q != cur {
			flush(x)
			start, cur = x, q
		}
	}
	flush(len(lb.shares))
}

// Rows adds one-CPU rows drawn at y0 + row.Y: a grid strip, then each
// CPU's coalesced runs in its task's colour (busy when the task is unknown).
func (lb *LaneBatcher) Rows(bat *viewkit.Batches, rows []Row, tl *sim.Timeline, sc TimeScale, y0 float64, dark bool, busy, grid string) {
	for _, r := range rows {
		bat.Add(grid, 0.25, sc.Left, y0+r.Y, sc.Right-sc.Left, r.H-1)
		for _, cpu := range r.CPUs {
			if cpu >= len(tl.Runs) {
				continue
			}
			lb.runsBuf = Coalesce(tl.Runs[cpu], sc, 1, 1, lb.runsBuf[:0])
			for _, pr := range lb.runsBuf {
				style, alpha := busy, 1.0
				if pr.Task >= 0 {
					style = lb.taskColor(pr.Task, dark)
				}
				if lb.Match != nil && (pr.Task < 0 || pr.Task >= len(lb.Match) || !lb.Match[pr.Task]) {
					alpha = 0.18
				}
				bat.Add(style, alpha, pr.X0, y0+r.Y, pr.X1-pr.X0, r.H-1)
			}
		}
	}
}

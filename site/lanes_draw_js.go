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
	modeBuf   []ModeRun
	runsBuf   []PxRun
	taskCSS   [2][]string // TaskColor by theme and task, formatted once
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
// [lo, hi], drawn at y0 + band.Y: each core's modes at alpha 1/cores (at
// least 0.25), so an aggregated band shows the mix.
func (lb *LaneBatcher) Bands(bat *viewkit.Batches, bands []Band, tl *sim.Timeline, sc TimeScale, y0, lo, hi float64, dark bool) {
	if lb.HideModes {
		return
	}
	for _, bd := range bands {
		if bd.Y+bd.H < lo || bd.Y > hi {
			continue
		}
		alpha := math.Max(1/float64(len(bd.Cores)), 0.25)
		for _, core := range bd.Cores {
			if core >= len(tl.Modes) {
				continue
			}
			lb.modeBuf = ModeRuns(tl.Modes[core], sc, lb.modeBuf[:0])
			for _, m := range lb.modeBuf {
				bat.Add(viewkit.ModeColor(m.Mode, dark), alpha, m.X0, y0+bd.Y, m.X1-m.X0, bd.H)
			}
		}
	}
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
				style := busy
				if pr.Task >= 0 {
					style = lb.taskColor(pr.Task, dark)
				}
				bat.Add(style, 1, pr.X0, y0+r.Y, pr.X1-pr.X0, r.H-1)
			}
		}
	}
}

package compareview

import (
	"schedplay/engine/explain"
	"schedplay/engine/sim"
	"schedplay/site"
	"schedplay/site/viewkit/canvastl"
)

// DivergenceMarkers are one side's timeline markers for a divergence: a
// line at the divergence time (the earlier of the two decisions) on both
// timelines, with the CPU this side chose highlighted when its decision is
// the one at that time, and a second line at this side's own decision
// when it came later. dec is this side's decision (nil when its record
// ended first).
func DivergenceMarkers(d explain.Divergence, dec *sim.Decision) []canvastl.Marker {
	if dec == nil {
		return []canvastl.Marker{{At: d.At, CPU: -1, Label: "first divergence (record ended)"}}
	}
	if dec.At == d.At {
		return []canvastl.Marker{{At: d.At, CPU: dec.To, Label: "first divergence"}}
	}
	return []canvastl.Marker{
		{At: d.At, CPU: -1, Label: "first divergence"},
		{At: dec.At, CPU: dec.To, Label: "this run's decision"},
	}
}

// DivergenceWindow is the window "Zoom to it" shows: both decisions with
// a margin, at least 1/50 of the run (and 20 µs) wide, inside [0, end].
func DivergenceWindow(d explain.Divergence, end int64) (int64, int64) {
	lo, hi := d.At, d.At
	for _, dec := range []*sim.Decision{d.A, d.B} {
		if dec != nil {
			lo, hi = min(lo, dec.At), max(hi, dec.At)
		}
	}
	span := max(end/50, 20_000, (hi-lo)*5/4)
	mid := lo + (hi-lo)/2
	return site.ClampWindow(mid-span/2, mid+span/2, end)
}

// Package canvastl is the compact canvas timeline of the compare and
// embed views: per-CPU rows grouped by core with a mode band per core,
// drawn with package site's pure geometry (lanes, pixel runs, time scale),
// with a time window set from outside so that several timelines can share
// one, and markers (vertical lines with an outlined CPU row).
//
// It imports package site, so site itself must not import it (nor the
// views built on it).
package canvastl

// Marker is a vertical line on a timeline at a time (ns), with one CPU
// row outlined.
type Marker struct {
	At    int64
	CPU   int // outlined row's CPU, -1 for none
	Label string
}

// markLine is the first text line (0 = top) where a marker label spanning
// [x0, x1] overlaps no label already placed, so that two close markers'
// labels ("first divergence", "this run's decision") stack, not overlap.
func markLine(placed [][3]float64, x0, x1 float64) int {
	for line := 0; ; line++ {
		free := true
		for _, p := range placed {
			if int(p[2]) == line && x0 < p[1]+6 && p[0] < x1+6 {
				free = false
				break
			}
		}
		if free {
			return line
		}
	}
}

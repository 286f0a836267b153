// Package canvastl is the compact canvas timeline of the compare and
// embed views: per-CPU rows grouped by core with a mode band per core,
// drawn with package site's pure geometry (lanes, pixel runs, time scale),
// with a time window set from outside so that several timelines can share
// one, and markers (vertical lines with an outlined CPU row).
//
// It imports package site, so site itself must not import it (nor the
// views built on it); package viewkit and the export menu stay free of
// site so the playground can use them.
package canvastl

// Marker is a vertical line on a timeline at a time (ns), with one CPU
// row outlined.
type Marker struct {
	At    int64
	CPU   int // outlined row's CPU, -1 for none
	Label string
}

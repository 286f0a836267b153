package export

import (
	"image/color"

	"schedplay/engine/palette"
	"schedplay/engine/sim"
)

// TaskColor is the colour of task i: the page's light-theme task colour
// (engine/palette.Task), so an exported timeline matches the screen.
// Negative ids (several tasks) take the busy colour.
func TaskColor(i int) color.RGBA {
	if i < 0 {
		return busyColor
	}
	return palette.Task(i, false).RGBA()
}

// Fixed colours of the drawing.
var (
	busyColor       = palette.Busy(false) // aggregated slices of several tasks
	backgroundColor = color.RGBA{0xff, 0xff, 0xff, 0xff}
	laneColor       = color.RGBA{0xf4, 0xf4, 0xf4, 0xff}
	bandColor       = palette.Mode(sim.ModeIdle, false) // idle core
	axisColor       = color.RGBA{0x42, 0x42, 0x42, 0xff}
	gridColor       = color.RGBA{0xbd, 0xbd, 0xbd, 0xff} // darker than the idle band, so it shows across it
	textColor       = color.RGBA{0x21, 0x21, 0x21, 0xff}
)

// modeLabels name the modes in the legend, indexed by sim.Mode.
var modeLabels = [...]string{
	sim.ModeIdle:        "idle",
	sim.ModeST:          "ST",
	sim.ModeSMT:         "SMT",
	sim.ModePartitioned: "partitioned",
	sim.ModeSwitching:   "switching",
}

// ModeColor is the band colour of mode m: the page's light-theme mode
// colour (engine/palette.Mode).
func ModeColor(m sim.Mode) color.RGBA { return palette.Mode(m, false) }

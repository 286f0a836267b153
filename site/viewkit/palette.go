package viewkit

import (
	"fmt"
	"math"

	"schedplay/engine/sim"
)

// Palette is the drawing colours of one theme (a copy of site's palette so
// the views stay independent of the playground's internals).
type Palette struct{ FG, Muted, Grid, Accent, Busy, BG, Mark, MarkB string }

// PaletteFor returns the light or dark palette.
func PaletteFor(dark bool) Palette {
	if dark {
		return Palette{FG: "#e6e6e6", Muted: "#9aa0a6", Grid: "#3a3f45", Accent: "#6cb6ff", Busy: "#8ab4f8", BG: "#16181b", Mark: "#ff6b6b", MarkB: "#ffd54f"}
	}
	return Palette{FG: "#1b1f24", Muted: "#5f6368", Grid: "#d0d4d9", Accent: "#1a73e8", Busy: "#3b6fb6", BG: "#ffffff", Mark: "#d93025", MarkB: "#b06000"}
}

// ModeColor is a core mode band's colour (the playground's colours).
func ModeColor(m sim.Mode, dark bool) string {
	switch m {
	case sim.ModeST:
		return "#1e9e8f"
	case sim.ModeSMT:
		return "#e8803a"
	case sim.ModePartitioned:
		return "#e6b422"
	case sim.ModeSwitching:
		return "#d43f3a"
	}
	if dark {
		return "#333"
	}
	return "#ddd"
}

// Task colour hues avoid the mode colours' hues (ModeColor: red ≈2°,
// orange ≈24°, yellow ≈45°, teal ≈173°) by at least taskHueGap degrees, so
// a task bar never reads as a core mode: tasks take hues from two arcs,
// yellow-green to green and azure to magenta.
var taskArcs = [...][2]float64{{82, 140}, {206, 330}}

// taskHueGap is the least hue distance between a task colour and a mode
// colour (the palette test checks it).
const taskHueGap = 25

// taskLight are the lightness steps tasks cycle through (light theme;
// the dark theme adds 18), so neighbours in hue differ in lightness too.
var taskLight = [...]float64{42, 32, 52}

// TaskColor is a stable, distinct colour for task id: golden-ratio steps
// along the allowed hue arcs, cycling three lightness steps.
func TaskColor(task int, dark bool) string {
	span := 0.0
	for _, a := range taskArcs {
		span += a[1] - a[0]
	}
	u := math.Mod(float64(max(task, 0))*0.6180339887498949, 1) * span
	h := taskArcs[0][0]
	for _, a := range taskArcs {
		if u <= a[1]-a[0] {
			h = a[0] + u
			break
		}
		u -= a[1] - a[0]
	}
	l := taskLight[max(task, 0)%len(taskLight)]
	if dark {
		return fmt.Sprintf("hsl(%.0f 62%% %.0f%%)", h, l+18)
	}
	return fmt.Sprintf("hsl(%.0f 66%% %.0f%%)", h, l)
}

// ModeName is a core mode's legend text.
func ModeName(m sim.Mode) string {
	switch m {
	case sim.ModeST:
		return "ST"
	case sim.ModeSMT:
		return "partitioned, 2+ busy"
	case sim.ModePartitioned:
		return "partitioned, 1 busy"
	case sim.ModeSwitching:
		return "switching"
	}
	return "idle"
}

package viewkit

import (
	"schedplay/engine/palette"
	"schedplay/engine/sim"
)

// Palette is the drawing colours of one theme (a copy of the playground's
// palette so the views stay independent of the playground's internals).
type Palette struct{ FG, Muted, Grid, Accent, Busy, BG, Mark, MarkB string }

// The two palettes and the mode colours as CSS strings, formatted once:
// a timeline draw asks for a mode colour per mode run.
var (
	lightPalette = Palette{FG: "#1b1f24", Muted: "#5f6368", Grid: "#d0d4d9", Accent: "#1a73e8", Busy: palette.Hex(palette.Busy(false)), BG: "#ffffff", Mark: "#d93025", MarkB: "#b06000"}
	darkPalette  = Palette{FG: "#e6e6e6", Muted: "#9aa0a6", Grid: "#3a3f45", Accent: "#6cb6ff", Busy: palette.Hex(palette.Busy(true)), BG: "#16181b", Mark: "#ff6b6b", MarkB: "#ffd54f"}
	modeHex      = func() (t [2][sim.ModeSwitching + 1]string) {
		for d := range t {
			for m := range t[d] {
				t[d][m] = palette.Hex(palette.Mode(sim.Mode(m), d == 1))
			}
		}
		return t
	}()
)

// PaletteFor returns the light or dark palette.
func PaletteFor(dark bool) Palette {
	if dark {
		return darkPalette
	}
	return lightPalette
}

// ModeColor is a core mode band's colour (engine/palette.Mode, shared
// with the timeline exports).
func ModeColor(m sim.Mode, dark bool) string {
	d := 0
	if dark {
		d = 1
	}
	if int(m) < len(modeHex[d]) {
		return modeHex[d][m]
	}
	return palette.Hex(palette.Mode(m, dark))
}

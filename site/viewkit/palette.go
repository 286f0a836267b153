package viewkit

import "schedplay/engine/sim"

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

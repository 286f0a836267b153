// Package palette is the single source of the timeline's colours: the
// task colours, the core mode colours and the busy (aggregated) colour,
// per theme. The page (site, site/viewkit) formats them as CSS strings;
// the image exports (engine/export, light theme) draw them as color.RGBA,
// so an exported timeline shows the colours seen on screen.
package palette

import (
	"fmt"
	"image/color"
	"math"

	"schedplay/engine/sim"
)

// HSL is a colour in CSS hsl() terms: hue in degrees [0, 360),
// saturation and lightness in percent.
type HSL struct{ H, S, L float64 }

// taskArcs are the hues tasks may take. They avoid the mode colours' hues
// (red ≈2°, orange ≈24°, yellow ≈45°, teal ≈173°) by at least 30 degrees,
// so a task bar never reads as a core mode: yellow-green to green and
// azure to magenta.
var taskArcs = [...][2]float64{{82, 140}, {206, 330}}

// taskLight are the lightness steps tasks cycle through (light theme;
// the dark theme adds darkLift), so neighbours in hue differ in
// lightness too.
var taskLight = [...]float64{42, 32, 52}

// Task saturation per theme and the dark theme's lightness lift.
const (
	lightSat = 66
	darkSat  = 62
	darkLift = 18
)

// Task is the colour of task i (negative i counts as 0): golden-ratio
// steps along the allowed hue arcs, cycling three lightness steps. The
// hue is exact; CSS and RGBA round it to whole degrees alike.
func Task(i int, dark bool) HSL {
	i = max(i, 0)
	span := 0.0
	for _, a := range taskArcs {
		span += a[1] - a[0]
	}
	u := math.Mod(float64(i)*0.6180339887498949, 1) * span
	h := taskArcs[0][0]
	for _, a := range taskArcs {
		if u <= a[1]-a[0] {
			h = a[0] + u
			break
		}
		u -= a[1] - a[0]
	}
	l := taskLight[i%len(taskLight)]
	if dark {
		return HSL{H: h, S: darkSat, L: l + darkLift}
	}
	return HSL{H: h, S: lightSat, L: l}
}

// CSS formats c as the page does: "hsl(H S% L%)", whole numbers.
func (c HSL) CSS() string {
	return fmt.Sprintf("hsl(%.0f %.0f%% %.0f%%)", c.H, c.S, c.L)
}

// RGBA converts c, rounded as CSS prints it, to 8-bit sRGB by the CSS
// Color 4 hsl-to-rgb formula, so it equals what a browser paints for CSS().
func (c HSL) RGBA() color.RGBA {
	h := math.Mod(roundHalfEven(c.H), 360)
	if h < 0 {
		h += 360
	}
	s, l := roundHalfEven(c.S)/100, roundHalfEven(c.L)/100
	f := func(n float64) uint8 {
		k := math.Mod(n+h/30, 12)
		a := s * math.Min(l, 1-l)
		v := l - a*math.Max(-1, math.Min(math.Min(k-3, 9-k), 1))
		return uint8(math.Round(math.Max(0, math.Min(1, v)) * 255))
	}
	return color.RGBA{f(0), f(8), f(4), 0xff}
}

// roundHalfEven rounds as fmt's %.0f does, so RGBA and CSS agree.
func roundHalfEven(v float64) float64 { return math.RoundToEven(v) }

// Mode colours per theme; the idle colour differs by theme.
var (
	modeST          = color.RGBA{0x1e, 0x9e, 0x8f, 0xff}
	modeSMT         = color.RGBA{0xe8, 0x80, 0x3a, 0xff}
	modePartitioned = color.RGBA{0xe6, 0xb4, 0x22, 0xff}
	modeSwitching   = color.RGBA{0xd4, 0x3f, 0x3a, 0xff}
	idleLight       = color.RGBA{0xdd, 0xdd, 0xdd, 0xff}
	idleDark        = color.RGBA{0x33, 0x33, 0x33, 0xff}
)

// Mode is the band colour of core mode m; idle (and any unknown mode)
// takes the theme's idle grey.
func Mode(m sim.Mode, dark bool) color.RGBA {
	switch m {
	case sim.ModeST:
		return modeST
	case sim.ModeSMT:
		return modeSMT
	case sim.ModePartitioned:
		return modePartitioned
	case sim.ModeSwitching:
		return modeSwitching
	}
	if dark {
		return idleDark
	}
	return idleLight
}

// Busy is the colour of CPU time not attributed to one task (slices of
// several tasks merged at the current zoom, aggregated rows).
func Busy(dark bool) color.RGBA {
	if dark {
		return color.RGBA{0x8a, 0xb4, 0xf8, 0xff}
	}
	return color.RGBA{0x3b, 0x6f, 0xb6, 0xff}
}

// Hex formats c as "#rrggbb" (alpha ignored).
func Hex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// Hue is c's HSL hue in degrees, or -1 for a grey (no hue).
func Hue(c color.RGBA) float64 {
	r, g, b := float64(c.R)/255, float64(c.G)/255, float64(c.B)/255
	mx, mn := math.Max(r, math.Max(g, b)), math.Min(r, math.Min(g, b))
	d := mx - mn
	var h float64
	switch {
	case d == 0:
		return -1
	case mx == r:
		h = math.Mod((g-b)/d, 6)
	case mx == g:
		h = (b-r)/d + 2
	default:
		h = (r-g)/d + 4
	}
	return math.Mod(h*60+360, 360)
}

// HueDist is the distance between two hues on the colour wheel (degrees).
func HueDist(a, b float64) float64 {
	d := math.Abs(a - b)
	return math.Min(d, 360-d)
}

package site

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"testing"

	enginepalette "schedplay/engine/palette"
	"schedplay/engine/sim"
	"schedplay/site/viewkit"
)

// hexHue is the HSL hue (degrees) of a "#rrggbb" colour.
func hexHue(t *testing.T, c string) float64 {
	t.Helper()
	v, err := strconv.ParseUint(c[1:], 16, 32)
	if err != nil || len(c) != 7 {
		t.Fatalf("colour %q is not #rrggbb", c)
	}
	return enginepalette.Hue(color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff})
}

// hslParts reads "hsl(H S% L%)".
func hslParts(t *testing.T, c string) (h, s, l float64) {
	t.Helper()
	if _, err := fmt.Sscanf(c, "hsl(%f %f%% %f%%)", &h, &s, &l); err != nil {
		t.Fatalf("task colour %q: %v", c, err)
	}
	return
}

// No task colour may be mistaken for a core mode (or the divergence
// marks): its hue keeps a small distance from every mode colour's hue.
func TestTaskColorsAvoidModeHues(t *testing.T) {
	const minGap = 20.0
	var modeHues []float64
	for _, dark := range []bool{false, true} {
		for _, m := range []sim.Mode{sim.ModeST, sim.ModeSMT, sim.ModePartitioned, sim.ModeSwitching} {
			modeHues = append(modeHues, hexHue(t, viewkit.ModeColor(m, dark)))
		}
		p := viewkit.PaletteFor(dark)
		modeHues = append(modeHues, hexHue(t, p.Mark), hexHue(t, p.MarkB))
	}
	for _, dark := range []bool{false, true} {
		for task := range 500 {
			c := TaskColor(task, dark)
			h, s, l := hslParts(t, c)
			if s < 40 || l < 25 || l > 75 {
				t.Errorf("task %d (dark %v) colour %s is too grey, dark or light", task, dark, c)
			}
			for _, mh := range modeHues {
				if d := enginepalette.HueDist(h, mh); d < minGap {
					t.Errorf("task %d (dark %v) colour %s is %.0f° from a mode hue %.0f°", task, dark, c, d, mh)
				}
			}
		}
	}
}

// The first tasks (a small scenario's whole set) are pairwise distinct in
// hue or lightness.
func TestTaskColorsDistinct(t *testing.T) {
	for _, dark := range []bool{false, true} {
		for i := range 12 {
			hi, _, li := hslParts(t, TaskColor(i, dark))
			for j := range i {
				hj, _, lj := hslParts(t, TaskColor(j, dark))
				if enginepalette.HueDist(hi, hj) < 12 && math.Abs(li-lj) < 8 {
					t.Errorf("tasks %d and %d (dark %v) look alike: %s, %s", i, j, dark, TaskColor(i, dark), TaskColor(j, dark))
				}
			}
		}
	}
}

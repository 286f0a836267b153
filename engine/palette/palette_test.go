package palette

import (
	"image/color"
	"testing"

	"schedplay/engine/sim"
)

// RGBA follows the CSS hsl() conversion; the expectations are worked out
// by hand with the chroma/sector formula (C = (1-|2L-1|)·S, m = L - C/2).
func TestHSLToRGBA(t *testing.T) {
	for _, tc := range []struct {
		c    HSL
		want color.RGBA
	}{
		{HSL{0, 100, 50}, color.RGBA{255, 0, 0, 255}},
		{HSL{120, 100, 50}, color.RGBA{0, 255, 0, 255}},
		{HSL{240, 100, 25}, color.RGBA{0, 0, 128, 255}},
		{HSL{360, 0, 100}, color.RGBA{255, 255, 255, 255}},
		{HSL{210, 66, 42}, color.RGBA{36, 107, 178, 255}},     // C .5544, X .2772, m .1428
		{HSL{100, 62, 70}, color.RGBA{163, 226, 131, 255}},    // C .372, X .124, m .514
		{HSL{209.6, 66, 41.7}, color.RGBA{36, 107, 178, 255}}, // rounded like CSS() prints
	} {
		if got := tc.c.RGBA(); got != tc.want {
			t.Errorf("%+v.RGBA() = %v, want %v", tc.c, got, tc.want)
		}
	}
}

// CSS prints whole degrees and percents, the page's historical format.
func TestTaskCSS(t *testing.T) {
	if got := Task(0, false).CSS(); got != "hsl(82 66% 42%)" {
		t.Errorf("task 0 light = %s", got)
	}
	if got := Task(0, true).CSS(); got != "hsl(82 62% 60%)" {
		t.Errorf("task 0 dark = %s", got)
	}
	if Task(-3, false) != Task(0, false) {
		t.Error("negative task ids must colour as task 0")
	}
}

// The 8-bit task colours (what the exports draw) stay in the task arcs and
// away from every mode colour's hue, in both themes.
func TestTaskRGBAAvoidModeHues(t *testing.T) {
	var modeHues []float64
	for _, m := range []sim.Mode{sim.ModeST, sim.ModeSMT, sim.ModePartitioned, sim.ModeSwitching} {
		modeHues = append(modeHues, Hue(Mode(m, false)))
	}
	for _, dark := range []bool{false, true} {
		for i := range 300 {
			h := Hue(Task(i, dark).RGBA())
			in := false
			for _, a := range taskArcs {
				in = in || (h >= a[0]-1.5 && h <= a[1]+1.5)
			}
			if !in {
				t.Errorf("task %d (dark %v) RGBA hue %.1f outside the task arcs", i, dark, h)
			}
			for _, mh := range modeHues {
				if d := HueDist(h, mh); d < 25 {
					t.Errorf("task %d (dark %v) RGBA hue %.1f is %.1f° from mode hue %.1f", i, dark, h, d, mh)
				}
			}
		}
	}
}

// Every mode has its own colour, distinct from the busy colour, per theme.
func TestModeColorsDistinct(t *testing.T) {
	for _, dark := range []bool{false, true} {
		seen := map[color.RGBA]bool{Busy(dark): true}
		for _, m := range []sim.Mode{sim.ModeIdle, sim.ModeST, sim.ModeSMT, sim.ModePartitioned, sim.ModeSwitching} {
			c := Mode(m, dark)
			if seen[c] {
				t.Errorf("mode %d (dark %v) colour %s is not distinct", m, dark, Hex(c))
			}
			seen[c] = true
		}
	}
	if got := Hex(Mode(sim.ModeST, false)); got != "#1e9e8f" {
		t.Errorf("Hex(ST) = %s", got)
	}
}

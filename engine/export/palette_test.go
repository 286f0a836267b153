package export

import (
	"bytes"
	"strings"
	"testing"

	"schedplay/engine/palette"
	"schedplay/engine/sim"
)

// The exports draw the page's light-theme colours (engine/palette): a
// timeline pasted from an export looks like the one on screen.
func TestExportColoursArePagePalette(t *testing.T) {
	for i := range 64 {
		if got, want := TaskColor(i), palette.Task(i, false).RGBA(); got != want {
			t.Errorf("task %d: export %s, page %s (%s)", i, palette.Hex(got), palette.Hex(want), palette.Task(i, false).CSS())
		}
	}
	for _, m := range []sim.Mode{sim.ModeIdle, sim.ModeST, sim.ModeSMT, sim.ModePartitioned, sim.ModeSwitching} {
		if got, want := ModeColor(m), palette.Mode(m, false); got != want {
			t.Errorf("mode %d: export %s, page %s", m, palette.Hex(got), palette.Hex(want))
		}
	}
	if TaskColor(-1) != palette.Busy(false) {
		t.Errorf("busy: export %s, page %s", palette.Hex(TaskColor(-1)), palette.Hex(palette.Busy(false)))
	}
}

// No task colour of a drawing equals a mode colour or the busy colour, so
// no bar can be read as a mode band or a merged slice.
func TestTaskColoursApartFromModes(t *testing.T) {
	other := map[string]bool{palette.Hex(busyColor): true}
	for m := range len(modeLabels) {
		other[palette.Hex(ModeColor(sim.Mode(m)))] = true
	}
	for i := range 500 {
		if c := palette.Hex(TaskColor(i)); other[c] {
			t.Errorf("task %d colour %s is a mode or busy colour", i, c)
		}
	}
}

// The PNG and SVG are byte-identical for the same input, and the SVG
// carries the page's colours as fills.
func TestTimelineExportsDeterministic(t *testing.T) {
	tl, lanes := smallTimeline()
	opt := TimelineOptions{Width: 800}
	var p1, p2, s1, s2 bytes.Buffer
	for _, b := range []*bytes.Buffer{&p1, &p2} {
		if err := TimelinePNG(b, tl, lanes, opt); err != nil {
			t.Fatal(err)
		}
	}
	for _, b := range []*bytes.Buffer{&s1, &s2} {
		if err := TimelineSVG(b, tl, lanes, opt); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(p1.Bytes(), p2.Bytes()) || !bytes.Equal(s1.Bytes(), s2.Bytes()) {
		t.Error("same input, different export bytes")
	}
	svg := s1.String()
	for _, want := range []string{palette.Hex(palette.Task(0, false).RGBA()), palette.Hex(palette.Task(1, false).RGBA()), palette.Hex(palette.Mode(sim.ModeST, false)), palette.Hex(palette.Mode(sim.ModeSMT, false))} {
		if !strings.Contains(svg, `fill="`+want+`"`) {
			t.Errorf("SVG has no fill %s", want)
		}
	}
}

package canvastl

import "testing"

// Two markers a few pixels apart (the first divergence and this run's
// decision) put their labels on different lines; far apart, both stay on
// the top line.
func TestMarkLineStacksOverlappingLabels(t *testing.T) {
	var placed [][3]float64
	place := func(x0, x1 float64) int {
		l := markLine(placed, x0, x1)
		placed = append(placed, [3]float64{x0, x1, float64(l)})
		return l
	}
	if l := place(160, 260); l != 0 {
		t.Errorf("first label on line %d", l)
	}
	if l := place(250, 370); l != 1 {
		t.Errorf("overlapping label on line %d, want 1", l)
	}
	if l := place(262, 300); l != 2 {
		t.Errorf("label touching both on line %d, want 2", l)
	}
	if l := place(500, 600); l != 0 {
		t.Errorf("distant label on line %d, want 0", l)
	}
}

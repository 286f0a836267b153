package compare

import "testing"

func TestPctText(t *testing.T) {
	for _, c := range []struct {
		d    float64
		want string
	}{
		{6.5512, "+6.55%"}, {-0.004, "-0.0040%"}, {0.00012, "+0.00012%"}, {0, "+0.00%"}, {-0.005, "-0.01%"}, {-12, "-12.00%"},
	} {
		if got := PctText(c.d); got != c.want {
			t.Errorf("PctText(%v) = %q; want %q", c.d, got, c.want)
		}
	}
}

func TestSeedRange(t *testing.T) {
	for _, c := range []struct {
		a, b uint64
		want string
	}{
		{1, 1, "seed 1"}, {1, 5, "seeds 1-5"}, {18446744073709551615, 0, "seeds 18446744073709551615 and 0"},
		{18446744073709551614, 2, "seeds 18446744073709551614-18446744073709551615 and 0-2"},
	} {
		if got := SeedRange(c.a, c.b); got != c.want {
			t.Errorf("SeedRange(%d, %d) = %q; want %q", c.a, c.b, got, c.want)
		}
	}
}

package sim

import (
	"slices"
	"testing"

	"schedplay/engine/topo"
)

// TestForEachCPUWrap: firstWrap/nextWrap visit every CPU of the set once,
// in for_each_cpu_wrap() order, for every start, including the walk of
// _nohz_idle_balance() from the last CPU + 1 (which starts at 0).
func TestForEachCPUWrap(t *testing.T) {
	const n = 130 // three words
	set := topo.NewCPUSet(n)
	var all []int
	for _, c := range []int{0, 3, 63, 64, 65, 127, 128, 129} {
		set.Set(topo.CPU(c))
		all = append(all, c)
	}
	for start := 0; start <= n; start++ {
		var want []int
		from := start % n
		for _, c := range all {
			if c >= from {
				want = append(want, c)
			}
		}
		for _, c := range all {
			if c < from {
				want = append(want, c)
			}
		}
		var got []int
		var wrapped bool
		for c := firstWrap(set, start, &wrapped); c != noCPU; c = nextWrap(set, c, start, &wrapped) {
			got = append(got, c)
			if len(got) > 2*n {
				break
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("from %d: %v, want %v", start, got, want)
		}
	}
}

func TestLowestBits(t *testing.T) {
	for _, c := range []struct {
		x    uint64
		k    int
		want uint64
	}{{0b10110, 0, 0}, {0b10110, 1, 0b10}, {0b10110, 2, 0b110}, {0b10110, 3, 0b10110}, {0b10110, 9, 0b10110}, {1 << 63, 1, 1 << 63}} {
		if got := lowestBits(c.x, c.k); got != c.want {
			t.Errorf("lowestBits(%b, %d) = %b, want %b", c.x, c.k, got, c.want)
		}
	}
}

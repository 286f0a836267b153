package sim_test

import (
	"math"
	"testing"

	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/presets"
)

// seedVariant runs a variant of a seed scenario preset with its own
// overrides, as `schedplay run NAME --variant V` applies them.
func seedVariant(t *testing.T, name, variant string) (*scenario.Resolved, *sim.Result) {
	t.Helper()
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	p, _ := ps.Get(presets.Scenario, name)
	for _, v := range p.Variants {
		if v.Name == variant {
			var sets []string
			for _, o := range v.Set {
				sets = append(sets, o.Path+"="+string(o.Value))
			}
			return seedRun(t, name, "", sets...)
		}
	}
	t.Fatalf("%s has no variant %q", name, variant)
	return nil, nil
}

// TestSeedVeraFutex: the vera-futex variants report perf bench futex's
// own figures, the timed wake loop (not elapsed/ops, which the 1 ms
// pauses between rounds dominate): wake one is 8 sequential futex_wake(1)
// per round and wake all one futex_wake(8), each 8 try_to_wake_up()s of
// latency.wakeup on the waker; wake-parallel's 4 wakers each time one
// futex_wake(2), a quarter of the batch, so the average waker time is
// below wake all's. Per-wake cost and tolerance (half a wake-up) come
// from the machine preset.
func TestSeedVeraFutex(t *testing.T) {
	const waiters, wakers = 8, 4
	for _, c := range []struct {
		variant, section string
		wakes, runs      int // wake-ups per timed execution; executions per repetition
	}{
		{"wake one", "wake loop", waiters, 10},
		{"wake all", "wake loop", waiters, 10},
		{"parallel wake (4 wakers)", "per-waker wake", waiters / wakers, 10 * wakers},
	} {
		r, res := seedVariant(t, "vera-futex", c.variant)
		w := float64(r.WithDefaults().Machine.Latency.Wakeup)
		if len(res.Summary.Timed) != 1 || res.Summary.Timed[0].Name != c.section {
			t.Fatalf("%s: timed sections %+v; want %q", c.variant, res.Summary.Timed, c.section)
		}
		s := res.Summary.Timed[0]
		if s.Count.Min != float64(c.runs) || s.Time.N != len(res.Reps) {
			t.Errorf("%s: %+v; want %d executions in every repetition", c.variant, s, c.runs)
		}
		if want := float64(c.wakes) * w; math.Abs(s.Time.Mean-want) > w/2 {
			t.Errorf("%s: %s %.0f ns; want %d wake-ups × %.0f = %.0f ± %.0f", c.variant, c.section, s.Time.Mean, c.wakes, w, want, w/2)
		}
	}
	_, all := seedVariant(t, "vera-futex", "wake all")
	_, par := seedVariant(t, "vera-futex", "parallel wake (4 wakers)")
	if p, a := par.Summary.Timed[0].Time.Mean, all.Summary.Timed[0].Time.Mean; p >= a {
		t.Errorf("average waker time %.0f ns with 4 parallel wakers; want it below wake all's %.0f ns", p, a)
	}
}

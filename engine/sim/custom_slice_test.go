package sim

import (
	"testing"
)

// TestCustomSliceSetsTheRequest: a group's slice is its tasks'
// se->slice (sched_setattr() sched_runtime, 6.12's se->custom_slice),
// kept at every deadline renewal: two hogs sharing one CPU switch at the
// end of each request, every base slice (0.7 ms on one CPU, seen at the 4
// ms tick) without it and every 100 ms with "slice": "100ms". The CFS of
// 6.1 has no custom slice and ignores it.
func TestCustomSliceSetsTheRequest(t *testing.T) {
	switches := func(gen, slice string) float64 {
		doc := `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":1,"threads_per_core":1},
			"policy":{"generation":"` + gen + `"},
			"workload":{"groups":[{"name":"hog","count":2` + slice + `,"program":[{"compute":"10s"}]}]},
			"run":{"duration":"1s","until":"duration","reps":1,"seed":1}}`
		return float64(mustRun(t, resolveJSON(t, doc), Options{}).Reps[0].ContextSwitches)
	}
	for _, gen := range []string{"6.12", "tip-2026-09"} {
		base, long := switches(gen, ``), switches(gen, `,"slice":"100ms"`)
		if base < 200 || long < 8 || long > 12 {
			t.Errorf("%s: two hogs on one CPU for 1 s: %.0f context switches at the base slice, %.0f with a 100 ms slice; want ≥ 200 (a 4 ms tick each) and about 10",
				gen, base, long)
		}
	}
	if base, long := switches("6.1", ``), switches("6.1", `,"slice":"100ms"`); base != long {
		t.Errorf("6.1 (CFS): %.0f context switches without a slice, %.0f with one; want the slice ignored", base, long)
	}
}

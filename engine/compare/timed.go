package compare

import (
	"slices"

	"schedplay/engine/sim"
)

// timedRows are one row per timed section of either result ("Timed wake
// loop", µs, lower is better), sorted by name. A repetition that did not
// execute the section after the warm-up has no value (the side then says
// how many of its repetitions counted).
func timedRows(a, b *sim.Result) []Row {
	var rows []Row
	for _, name := range timedNames(a, b) {
		get := func(r *sim.RepMetrics) float64 {
			t, _ := r.TimedSection(name)
			return t.MeanNs / 1e3
		}
		counts := func(r *sim.RepMetrics) bool {
			t, _ := r.TimedSection(name)
			return t.Count > 0
		}
		rows = append(rows, partialRow("Timed "+name, "us", true, a.Reps, b.Reps, get, counts))
	}
	return rows
}

// timedNames are the timed-section names of both results, sorted.
func timedNames(results ...*sim.Result) []string {
	var names []string
	for _, res := range results {
		for i := range res.Reps {
			for _, t := range res.Reps[i].Timed {
				names = append(names, t.Name)
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// untimed: the repetition's workload declares no timed section, so its
// elapsed/ops op time is the benchmark's figure (sched pipe's usecs/op);
// a workload that times its own sections (perf bench futex) is measured
// by them, and elapsed/ops would mostly be the pauses between them.
func untimed(r *sim.RepMetrics) bool { return len(r.Timed) == 0 }

// untimedAll reports whether no repetition of res has a timed section.
func untimedAll(res *sim.Result) bool {
	for i := range res.Reps {
		if !untimed(&res.Reps[i]) {
			return false
		}
	}
	return true
}

package compare

import "schedplay/engine/sim"

// timedRows are one row per timed section of either result ("Timed wake
// loop", µs, lower is better), sorted by name. A repetition that did not
// execute the section after the warm-up has no value (the side then says
// how many of its repetitions counted). names are sim.TimedNames of both.
func timedRows(a, b *sim.Result, names []string) []Row {
	var rows []Row
	for _, name := range names {
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

// untimed: the repetition's workload declares no timed section, so its
// elapsed/ops op time is the benchmark's figure (sched pipe's usecs/op);
// a workload that times its own sections (perf bench futex) is measured
// by them, and elapsed/ops would mostly be the pauses between them.
func untimed(r *sim.RepMetrics) bool { return len(r.Timed) == 0 }

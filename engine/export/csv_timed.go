package export

import (
	"math"

	"schedplay/engine/sim"
)

// timedColumns are the results CSV's columns for the result's timed
// sections, after the fixed ones: "timed_mean_ns:NAME" and
// "timed_count:NAME" per section, sorted by name. A repetition that did
// not execute a section has an empty mean (left out of the statistics).
func timedColumns(r *sim.Result) []repColumn {
	names := sim.TimedNames(r.Reps)
	cols := make([]repColumn, 0, 2*len(names))
	for _, name := range names {
		cols = append(cols,
			repColumn{"timed_mean_ns:" + name, func(rep *sim.RepMetrics) float64 {
				if t, _ := rep.TimedSection(name); t.Count > 0 {
					return t.MeanNs
				}
				return math.NaN()
			}},
			repColumn{"timed_count:" + name, func(rep *sim.RepMetrics) float64 {
				t, _ := rep.TimedSection(name)
				return float64(t.Count)
			}})
	}
	return cols
}

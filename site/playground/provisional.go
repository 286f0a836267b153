package playground

import (
	"encoding/json"
	"math"

	"schedplay/site"
)

// Progressive refinement (issue #6): a large scenario with several
// repetitions first runs repetition 0 alone, shown at once as a
// provisional result, then all repetitions replace it.

// RunReps returns the effective run.reps of a scenario (1 when unset).
func RunReps(d site.Doc, cat *site.Catalog) int {
	switch v := d.Get("run.reps", cat).(type) {
	case json.Number:
		if n, err := v.Int64(); err == nil && n > 0 && n <= math.MaxInt32 {
			return int(n)
		}
	case float64:
		if v >= 1 && v <= math.MaxInt32 && v == math.Trunc(v) {
			return int(v)
		}
	case int:
		if v > 0 {
			return v
		}
	}
	return 1
}

// ProvisionalDoc returns the scenario with run.reps = 1 (its repetition 0
// is the full run's repetition 0: same seed) and the full run's
// repetition count; ok is false when the scenario has a single repetition.
func ProvisionalDoc(d site.Doc, cat *site.Catalog) (first site.Doc, reps int, ok bool) {
	reps = RunReps(d, cat)
	if reps <= 1 {
		return d, reps, false
	}
	first, err := d.Edit("run.reps", json.Number("1"), cat)
	if err != nil {
		return d, reps, false
	}
	return first, reps, true
}

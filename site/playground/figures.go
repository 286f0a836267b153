package playground

import (
	"encoding/json"

	"schedplay/engine/sim"
	"schedplay/engine/units"
	"schedplay/site"
)

// WarmupNs is run.warmup (ns) of a canonical scenario document, the one a
// result belongs to (RunState.ResultDoc); 0 when it has none.
func WarmupNs(doc string, cat *site.Catalog) int64 {
	d, err := site.ParseDoc([]byte(doc))
	if err != nil {
		return 0
	}
	v := d.Get("run.warmup", cat)
	if v == nil {
		return 0
	}
	b, err := json.Marshal(v)
	if err != nil {
		return 0
	}
	var w units.Duration
	if json.Unmarshal(b, &w) != nil || w < 0 {
		return 0
	}
	return int64(w)
}

// SeriesBucket is one point of a repetition's throughput series: the rate
// over [T0, T1), T1 clipped to the end of the repetition.
type SeriesBucket struct {
	T0, T1 int64
	V      float64
}

// SeriesBuckets places a repetition's series on the time axis; the last
// bucket ends with the repetition (rep.Elapsed), not a whole step later.
func SeriesBuckets(rep sim.RepMetrics) []SeriesBucket {
	s := rep.Series
	if s.StepNs <= 0 {
		return nil
	}
	out := make([]SeriesBucket, 0, len(s.Values))
	for i, v := range s.Values {
		t0 := int64(i) * s.StepNs
		t1 := t0 + s.StepNs
		if rep.Elapsed > t0 && rep.Elapsed < t1 {
			t1 = rep.Elapsed
		}
		out = append(out, SeriesBucket{T0: t0, T1: t1, V: v})
	}
	return out
}

// HistBarHeight is the height of a latency-histogram bar of count samples
// when the fullest bucket has maxCount and is full pixels tall: linear in
// the count, and at least one pixel for a non-empty bucket so a rare tail
// stays visible.
func HistBarHeight(count, maxCount int64, full float64) float64 {
	if count <= 0 || maxCount <= 0 {
		return 0
	}
	return max(full*float64(count)/float64(maxCount), 1)
}

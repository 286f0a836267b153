package playground

import (
	"math"
	"reflect"
	"testing"

	"schedplay/engine/sim"
	"schedplay/site"
)

// TestWarmupNs reads run.warmup from the document a result belongs to:
// vera-sgemm-nvpl measures after 500 ms; a run without one has none.
func TestWarmupNs(t *testing.T) {
	cat, err := site.EmbeddedCatalog()
	if err != nil {
		t.Fatal(err)
	}
	d, ok := cat.ScenarioDoc("vera-sgemm-nvpl")
	if !ok {
		t.Fatal("no vera-sgemm-nvpl scenario")
	}
	if got := WarmupNs(d.Canonical(), cat); got != 500e6 {
		t.Errorf("vera-sgemm-nvpl warm-up %d ns; want 500 ms", got)
	}
	for doc, want := range map[string]int64{
		`{"run":{"duration":"1s","warmup":"1.5ms"}}`: 1500e3,
		`{"run":{"duration":"1s"}}`:                  0,
		`{}`:                                         0,
		`not json`:                                   0,
		`{"run":{"warmup":"5 parsecs"}}`:             0,
	} {
		if got := WarmupNs(doc, cat); got != want {
			t.Errorf("WarmupNs(%s) = %d; want %d", doc, got, want)
		}
	}
}

// TestSeriesBuckets: the last bucket of a repetition that ended inside it
// stops at the end (111 ms, not 120 ms); whole buckets keep their step.
func TestSeriesBuckets(t *testing.T) {
	rep := sim.RepMetrics{Elapsed: 111e6, Series: sim.Series{StepNs: 20e6, Values: []float64{0.5, 1, 1, 1, 1, 1}}}
	got := SeriesBuckets(rep)
	if len(got) != 6 || got[0] != (SeriesBucket{0, 20e6, 0.5}) || got[5] != (SeriesBucket{100e6, 111e6, 1}) {
		t.Errorf("buckets %v", got)
	}
	full := sim.RepMetrics{Elapsed: 40e6, Series: sim.Series{StepNs: 20e6, Values: []float64{1, 2}}}
	if got, want := SeriesBuckets(full), []SeriesBucket{{0, 20e6, 1}, {20e6, 40e6, 2}}; !reflect.DeepEqual(got, want) {
		t.Errorf("buckets %v; want %v", got, want)
	}
	if got := SeriesBuckets(sim.RepMetrics{}); got != nil {
		t.Errorf("no series: %v", got)
	}
}

// The latency histogram's count axis is linear: a bucket of 28 samples
// next to one of 924 is 3 % as tall, not half (it was log-scaled); an
// empty bucket has no bar, a non-empty one at least a pixel.
func TestHistBarHeightLinear(t *testing.T) {
	const full = 104.0
	for _, c := range []struct {
		n, max int64
		want   float64
	}{
		{924, 924, full}, {462, 924, full / 2}, {28, 924, full * 28 / 924}, {0, 924, 0}, {1, 100000, 1}, {5, 0, 0},
	} {
		if got := HistBarHeight(c.n, c.max, full); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("HistBarHeight(%d, %d) = %g; want %g", c.n, c.max, got, c.want)
		}
	}
}

package hdr

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// exactPct is the ceil(q·n)-th smallest of sorted v (the engine's former
// rule over every sample).
func exactPct(v []int64, q float64) int64 {
	i := int(math.Ceil(q*float64(len(v)))) - 1
	return v[min(max(i, 0), len(v)-1)]
}

func TestBucketsContiguous(t *testing.T) {
	prevHi := int64(-1)
	for i := 0; i < Buckets; i++ {
		lo, hi := bounds(i)
		if lo != prevHi+1 || hi < lo {
			t.Fatalf("bucket %d = [%d, %d], previous ended at %d", i, lo, hi, prevHi)
		}
		if index(lo) != i || index(hi) != i {
			t.Fatalf("bucket %d = [%d, %d]: index(lo)=%d index(hi)=%d", i, lo, hi, index(lo), index(hi))
		}
		if lo > 0 && float64(hi-lo)/float64(lo) > RelativeError+1e-12 {
			t.Fatalf("bucket %d = [%d, %d] wider than %g", i, lo, hi, RelativeError)
		}
		prevHi = hi
	}
	if prevHi != int64(1)<<MaxBits-1 {
		t.Fatalf("last bucket ends at %d, want 2^%d−1", prevHi, MaxBits)
	}
}

func TestPercentilesWithinStatedError(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 7, 100, 24000} {
		var h Histogram
		v := make([]int64, n)
		for i := range v {
			// log-uniform 1 ns … 1 s, the range of wake-up latencies
			v[i] = int64(math.Exp(r.Float64() * math.Log(1e9)))
			h.Record(v[i])
		}
		slices.Sort(v)
		for _, q := range []float64{0.5, 0.99, 0.999, 1} {
			got, want := h.Percentile(q), exactPct(v, q)
			if got < want || float64(got-want) > RelativeError*float64(want) {
				t.Errorf("n=%d q=%g: %d, exact %d (bound %g)", n, q, got, want, RelativeError)
			}
		}
		if h.Max() != v[n-1] || h.Count() != int64(n) {
			t.Errorf("n=%d: max %d count %d, want %d %d", n, h.Max(), h.Count(), v[n-1], n)
		}
		var total int64
		for _, c := range h.Log2() {
			total += c
		}
		if total != int64(n) {
			t.Errorf("n=%d: log2 buckets hold %d samples", n, total)
		}
	}
}

func TestSmallValuesExact(t *testing.T) {
	var h Histogram
	for v := int64(0); v < 256; v++ {
		h.Record(v)
	}
	if p := h.Percentile(0.5); p != 127 {
		t.Errorf("p50 of 0..255 = %d, want 127", p)
	}
	if got := h.Log2(); len(got) != 8 || got[0] != 2 || got[7] != 128 {
		t.Errorf("log2 of 0..255 = %v", got)
	}
}

func TestHugeValuesClamped(t *testing.T) {
	var h Histogram
	h.Record(math.MaxInt64)
	h.Record(-5)
	if h.Max() != math.MaxInt64 || h.Percentile(1) != math.MaxInt64 || h.Percentile(0.5) != 0 {
		t.Errorf("max %d p100 %d p50 %d", h.Max(), h.Percentile(1), h.Percentile(0.5))
	}
}

// A constant sample set reports that constant at every percentile, the
// case the engine's former latencies always hit.
func TestConstantSamples(t *testing.T) {
	var h Histogram
	for i := 0; i < 1000; i++ {
		h.Record(7123)
	}
	for _, q := range []float64{0.5, 0.99, 1} {
		if p := h.Percentile(q); p != 7123 {
			t.Errorf("q=%g: %d", q, p)
		}
	}
}

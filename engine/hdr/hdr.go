// Package hdr is a fixed-size HDR-style histogram of non-negative int64
// values (nanoseconds in schedplay): bounded memory whatever the number of
// samples, percentiles with a stated relative error, deterministic integer
// arithmetic (the same bytes natively and in wasm).
//
// Layout (HdrHistogram's, with 7 significant bits): values below 256 have a
// bucket each (exact); above, every octave [2^k, 2^(k+1)) is split into 128
// equal buckets, so a bucket is at most 1/128 of its lowest value wide: a
// percentile is reported within 0.79 % (RelativeError) of the exact sample.
// Values up to 2^MaxBits−1 ns (about 3.3 days) are kept; larger ones are
// clamped into the last bucket (their exact maximum is kept apart).
package hdr

import "math/bits"

const (
	subBits  = 7            // significant bits below the leading one
	half     = 1 << subBits // 128 buckets per octave
	subCount = 2 * half     // values below 256 are exact
	MaxBits  = 48           // values up to 2^48−1 ns are bucketed
	maxShift = MaxBits - (subBits + 1)
	// Buckets is the fixed number of counters of a Histogram.
	Buckets = (maxShift+1)*half + half
)

// RelativeError bounds |reported − exact| / exact for every percentile
// (a bucket's width over its lowest value, 1/127 at worst).
const RelativeError = 1.0 / (half - 1)

// Histogram counts samples. The zero value is empty and ready to use.
type Histogram struct {
	counts   [Buckets]int64
	n        int64
	min, max int64
	sum      float64
}

// index is the bucket of v ≥ 0.
func index(v int64) int {
	if v < subCount {
		return int(v)
	}
	shift := bits.Len64(uint64(v)) - (subBits + 1)
	if shift > maxShift {
		return Buckets - 1
	}
	return (shift+1)*half + int(v>>uint(shift)) - half
}

// bounds is the lowest and highest value of bucket i.
func bounds(i int) (lo, hi int64) {
	if i < subCount {
		return int64(i), int64(i)
	}
	shift := i/half - 1
	sub := int64(i%half + half)
	lo = sub << uint(shift)
	return lo, lo + (int64(1) << uint(shift)) - 1
}

// Record counts one sample; negative values count as 0.
func (h *Histogram) Record(v int64) {
	v = max(v, 0)
	h.counts[index(v)]++
	if h.n == 0 || v < h.min {
		h.min = v
	}
	if v > h.max {
		h.max = v
	}
	h.n++
	h.sum += float64(v)
}

// Count is the number of samples.
func (h *Histogram) Count() int64 { return h.n }

// Max is the exact largest sample (0 when empty).
func (h *Histogram) Max() int64 { return h.max }

// Mean is the exact mean of the samples (0 when empty).
func (h *Histogram) Mean() float64 {
	if h.n == 0 {
		return 0
	}
	return h.sum / float64(h.n)
}

// Percentile is the ceil(q·n)-th smallest sample (q in (0, 1]) as the
// highest value of its bucket, clamped to the exact extremes: exact below
// 256, else within RelativeError above the sample.
func (h *Histogram) Percentile(q float64) int64 {
	if h.n == 0 {
		return 0
	}
	rank := int64(q * float64(h.n))
	if float64(rank) < q*float64(h.n) {
		rank++
	}
	rank = min(max(rank, 1), h.n)
	var seen int64
	for i := range h.counts {
		seen += h.counts[i]
		if seen >= rank {
			if i == Buckets-1 {
				return h.max // values past 2^MaxBits share it
			}
			_, hi := bounds(i)
			return min(max(hi, h.min), h.max)
		}
	}
	return h.max
}

// Log2 returns the samples counted in octaves: out[k] holds those in
// [2^k, 2^(k+1)) ns, with 0 in out[0]. Every bucket lies within one octave,
// so these counts are exact.
func (h *Histogram) Log2() []int64 {
	if h.n == 0 {
		return nil
	}
	var out []int64
	for i, c := range h.counts {
		if c == 0 {
			continue
		}
		lo, _ := bounds(i)
		k := 0
		if lo > 0 {
			k = bits.Len64(uint64(lo)) - 1
		}
		for len(out) <= k {
			out = append(out, 0)
		}
		out[k] += c
	}
	return out
}

// Reset empties the histogram for reuse.
func (h *Histogram) Reset() { *h = Histogram{} }

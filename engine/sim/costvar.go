package sim

import (
	"math"
	"math/rand/v2"
)

// costVariation makes every kernel-path cost a distribution instead of a
// constant (docs/model.md, "Where the distribution comes from"): the same
// path takes a different time each time it runs (cache misses, branch
// history, the state of the lines it touches, interrupts landing in it).
// Each charge is its nominal cost times a log-normal factor of mean 1 and
// coefficient of variation machine.latency.variation, drawn from a PCG
// stream of the repetition's own (seeded by its seed, apart from the
// stream that draws compute jitter and kernel noise, so those stay where
// they were). A variation of 0 draws nothing and charges nominal costs.
type costVariation struct {
	rng       *rand.Rand
	sigma, mu float64 // of the normal whose exponential is the factor
}

// newCostVariation sets up the factor's distribution for coefficient of
// variation cv: σ² = ln(1 + cv²), μ = −σ²/2, so E[factor] = 1.
func newCostVariation(cv float64, seed uint64) costVariation {
	if cv <= 0 {
		return costVariation{}
	}
	s2 := math.Log1p(cv * cv)
	return costVariation{
		rng:   rand.New(rand.NewPCG(seed^0xd1b54a32d192ed03, seed)),
		sigma: math.Sqrt(s2),
		mu:    -s2 / 2,
	}
}

// vary returns one event's cost for nominal cost ns.
func (v *costVariation) vary(ns int64) int64 {
	if v.rng == nil || ns <= 0 {
		return ns
	}
	f := math.Exp(v.mu + v.sigma*v.rng.NormFloat64())
	return int64(float64(ns)*f + 0.5)
}

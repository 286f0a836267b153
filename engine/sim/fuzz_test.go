package sim

import (
	"math/rand/v2"
	"testing"
)

// FuzzRandomScenario drives the property checker with fuzzer-chosen seeds
// for the random scenario generator.
func FuzzRandomScenario(f *testing.F) {
	for _, s := range []uint64{1, 2, 3, 42, 1 << 40} {
		f.Add(s, s^0xabcdef)
	}
	f.Fuzz(func(t *testing.T, a, b uint64) {
		_, _ = checkInvariants(t, 0, randomScenario(rand.New(rand.NewPCG(a, b))))
	})
}

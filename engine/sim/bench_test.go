package sim

import (
	"context"
	"schedplay/engine/topo"
	"testing"
)

// BenchmarkEventLoop times only the event loop of one simulated second of
// vera + sgemm-nvpl (setup excluded), to show the steady state's allocations.
func BenchmarkEventLoop(b *testing.B) {
	r := resolveJSON(b, `{"schedplay":1,"machine":{"preset":"vera"},"policy":{"preset":"mainline"},"workload":{"preset":"sgemm-nvpl"},"run":{"duration":"1s","until":"duration","seed":1,"reps":1}}`)
	rr := r.WithDefaults()
	tp, err := topo.Build(rr.Machine, rr.Policy.DomainPolicy)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		s, err := newSim(&rr, tp, Options{}, 1, false)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := s.loop(context.Background(), 0, 1); err != nil {
			b.Fatal(err)
		}
	}
}

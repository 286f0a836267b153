package sim

import (
	"context"
	"schedplay/engine/topo"
	"testing"
)

// BenchmarkRun times one simulated second of the reference scenarios.
func BenchmarkRun(b *testing.B) {
	cases := []struct{ name, doc string }{
		{"vera-sgemm-nvpl-1s", `{"schedplay":1,"machine":{"preset":"vera"},"policy":{"preset":"mainline"},"workload":{"preset":"sgemm-nvpl"},"run":{"duration":"1s","until":"duration","seed":1,"reps":1}}`},
		{"vera-full-352", `{"schedplay":1,"machine":{"preset":"vera"},"policy":{"preset":"mainline"},"workload":{"groups":[{"name":"hog","count":352,"program":[{"repeat":100000,"do":[{"compute":"10ms","jitter":0.05},{"sleep":"200us"}]}]}]},"run":{"duration":"1s","until":"duration","seed":1,"reps":1}}`},
		// Repetition 0 of two seed scenarios, the playground's slowest first pictures.
		{"vera-sched-messaging-rep0", `{"schedplay":1,"machine":{"preset":"vera"},"policy":{"preset":"v6-on"},"workload":{"preset":"sched-messaging"},"run":{"duration":"2s","until":"done","seed":1,"reps":1}}`},
		{"vera-thread-scaling-rep0", `{"schedplay":1,"machine":{"preset":"vera"},"policy":{"preset":"v6-on"},"workload":{"preset":"sgemm-nvpl"},"run":{"duration":"2s","until":"duration","seed":1,"reps":1,"warmup":"200ms"}}`},
		{"hikey960-dynamiq-sysbench-8", `{"schedplay":1,"machine":{"preset":"hikey960-dynamiq"},"policy":{"preset":"misfit"},"workload":{"preset":"sysbench-cpu"},"run":{"duration":"1s","until":"duration","seed":1,"reps":1}}`},
	}
	for _, c := range cases {
		r := resolveJSON(b, c.doc)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Run(context.Background(), r, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

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

package explain

import (
	"context"
	"testing"

	"schedplay/engine/scenario/scenariotest"
	"schedplay/engine/sim"
)

// runTimeline simulates a scenario document with the timeline on.
func runTimeline(t *testing.T, doc string) *sim.Timeline {
	t.Helper()
	r := scenariotest.Resolve(t, doc)
	res, err := sim.Run(context.Background(), r, sim.Options{Timeline: true})
	if err != nil {
		t.Fatal(err)
	}
	return res.Timeline
}

// TestFirstDivergenceRealRuns compares two policies on one seed and checks
// the answer against a brute-force scan of every task's paired decisions.
func TestFirstDivergenceRealRuns(t *testing.T) {
	cases := []struct{ name, a, b string }{
		{
			// The seed scenario's two policies: misfit migration vs asym
			// packing move the task off the little CPU at different times.
			"misfit vs asym packing",
			`{"schedplay":1,"preset":"hikey960-short-sysbench","run":{"duration":"50ms","reps":1,"seed":3},"policy":{"preset":"misfit"}}`,
			`{"schedplay":1,"preset":"hikey960-short-sysbench","run":{"duration":"50ms","reps":1,"seed":3},"policy":{"preset":"dynamiq-asym-packing"}}`,
		},
		{
			// Without WAKE_AFFINE the wakee stays near prev: many wake-ups
			// pick other CPUs.
			"WAKE_AFFINE on/off",
			`{"schedplay":1,"machine":{"preset":"x86-smt"},"workload":{"preset":"sched-messaging"},"run":{"duration":"5ms","reps":1,"seed":3}}`,
			`{"schedplay":1,"machine":{"preset":"x86-smt"},"workload":{"preset":"sched-messaging"},"run":{"duration":"5ms","reps":1,"seed":3},"policy":{"features":{"WAKE_AFFINE":false}}}`,
		},
	}
	for _, c := range cases {
		checkRealDivergence(t, c.name, runTimeline(t, c.a), runTimeline(t, c.b))
	}
}

// checkRealDivergence checks FirstDivergence(a, b) by brute force.
func checkRealDivergence(t *testing.T, name string, a, b *sim.Timeline) {
	t.Helper()
	if same, ok := FirstDivergence(a, a); ok {
		t.Fatalf("%s: a run diverges from itself: %+v", name, same)
	}
	d, ok := FirstDivergence(a, b)
	if !ok {
		t.Fatalf("%s: no divergence", name)
	}
	if d.A == nil || d.B == nil {
		t.Fatalf("%s: divergence without both decisions: %+v", name, d)
	}
	if d.A.Task != d.Task || d.B.Task != d.Task || d.A.To == d.B.To && d.A.Kind == d.B.Kind {
		t.Errorf("%s: not a divergence: %+v / %+v", name, *d.A, *d.B)
	}
	count := func(tl *sim.Timeline, task, upto int) int {
		n := 0
		for i := 0; i < upto; i++ {
			if tl.Decisions[i].Task == task {
				n++
			}
		}
		return n
	}
	if count(a, d.Task, d.IndexA) != d.Ordinal || count(b, d.Task, d.IndexB) != d.Ordinal {
		t.Errorf("%s: ordinal %d does not match the indexes", name, d.Ordinal)
	}
	// Every pair whose earlier decision comes before d.At agrees.
	type key struct{ task, ord int }
	inB := map[key]*sim.Decision{}
	nb := map[int]int{}
	for i := range b.Decisions {
		x := &b.Decisions[i]
		inB[key{x.Task, nb[x.Task]}] = x
		nb[x.Task]++
	}
	na := map[int]int{}
	for i := range a.Decisions {
		x := &a.Decisions[i]
		y := inB[key{x.Task, na[x.Task]}]
		na[x.Task]++
		if y != nil && (y.To != x.To || y.Kind != x.Kind) && min(x.At, y.At) < d.At {
			t.Errorf("%s: an earlier divergence at %d (task %d) than the reported %d", name, min(x.At, y.At), x.Task, d.At)
			break
		}
	}
	t.Logf("%s: task %d ordinal %d at %s: A %s→%d, B %s→%d", name, d.Task, d.Ordinal, FormatNs(d.At), d.A.Kind, d.A.To, d.B.Kind, d.B.To)
}

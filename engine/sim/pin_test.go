package sim

import "testing"

// TestPinEach: with "pin": "each", task k of a group runs only on the k-th
// CPU of the group's mask, wrapping (perf bench futex's CPU i mod ncpus);
// without it the same tasks spread over the whole mask.
func TestPinEach(t *testing.T) {
	doc := func(pin string) string {
		return `{"schedplay":1,"machine":{"preset":"hikey960-dynamiq"},"policy":{"preset":"none"},
		"workload":{"groups":[{"name":"w","count":6,"cpus":"2,5-7"` + pin + `,"program":[{"repeat":4,"do":[{"compute":"2ms"},{"sleep":"1ms"}]}]}]},
		"run":{"duration":"200ms","seed":3,"reps":1}}`
	}
	mask := []int{2, 5, 6, 7}
	res := mustRun(t, resolveJSON(t, doc(`,"pin":"each"`)), Options{Timeline: true})
	ran := make([]map[int]bool, 6)
	for cpu, runs := range res.Timeline.Runs {
		for _, iv := range runs {
			if ran[iv.Task] == nil {
				ran[iv.Task] = map[int]bool{}
			}
			ran[iv.Task][cpu] = true
		}
	}
	for k, cpus := range ran {
		want := mask[k%len(mask)]
		if len(cpus) != 1 || !cpus[want] {
			t.Errorf("task %d ran on %v; want only CPU %d", k, cpus, want)
		}
	}
	if res.Reps[0].Migrations.Total != 0 {
		t.Errorf("%d migrations of pinned tasks", res.Reps[0].Migrations.Total)
	}
	// The same group without pin: the six tasks share the four CPUs, so at
	// least one task runs on a CPU other than its pin-each CPU.
	free := mustRun(t, resolveJSON(t, doc("")), Options{Timeline: true})
	moved := false
	for cpu, runs := range free.Timeline.Runs {
		for _, iv := range runs {
			moved = moved || cpu != mask[iv.Task%len(mask)]
		}
	}
	if !moved {
		t.Error("without pin every task stayed on its pin-each CPU; the test cannot tell pinning apart")
	}
}

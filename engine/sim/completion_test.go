package sim

import (
	"math"
	"testing"
)

// TestSummaryCompletionFinishedOnly: a repetition cut off by run.duration
// (Completion 0) is left out of Summary.Completion; Completed counts the
// repetitions that finished.
func TestSummaryCompletionFinishedOnly(t *testing.T) {
	s := summarize([]RepMetrics{{Completion: 100e6}, {Completion: 0}, {Completion: 120e6}, {Completion: 0}})
	if s.Completed != 2 || s.Completion.N != 2 || s.Completion.Mean != 110e6 || s.Completion.Min != 100e6 || s.Throughput.N != 4 {
		t.Errorf("summary %+v completed %d; want 110 ms over the 2 finished of 4", s.Completion, s.Completed)
	}
	if s := summarize([]RepMetrics{{}, {}}); s.Completed != 0 || s.Completion.N != 0 || s.Completion.Mean != 0 {
		t.Errorf("none finished: %+v completed %d", s.Completion, s.Completed)
	}

	// A lone worker on hikey960 under none runs on a big core in some
	// repetitions (200 requests ≈ 200 ms) and on a little one in others
	// (≈ 364 ms), so a 300 ms run cuts the little ones off.
	r := resolveJSON(t, `{"schedplay":1,"machine":{"preset":"hikey960-dynamiq"},"policy":{"preset":"none"},
		"workload":{"groups":[{"name":"sb","count":1,"program":[{"pool":"requests","total":200,"do":[{"compute":"1ms"}]}]}]},
		"run":{"duration":"300ms","until":"done","seed":1,"reps":8}}`)
	res := mustRun(t, r, Options{})
	done := 0
	for _, rep := range res.Reps {
		if rep.Completion > 0 {
			done++
		} else if rep.Elapsed != int64(r.Run.Duration) {
			t.Errorf("seed %d: unfinished but elapsed %d ns", rep.Seed, rep.Elapsed)
		}
	}
	sm := res.Summary
	if done == 0 || done == len(res.Reps) {
		t.Fatalf("%d of %d repetitions finished; the test needs some of each", done, len(res.Reps))
	}
	if sm.Completed != done || sm.Completion.N != done || sm.Completion.Min < 195e6 || sm.Completion.Max > 210e6 || math.Abs(sm.Completion.Mean-200e6) > 5e6 {
		t.Errorf("completion %+v, completed %d (%d finished); want ≈200 ms over the finished ones", sm.Completion, sm.Completed, done)
	}
}

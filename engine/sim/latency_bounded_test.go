package sim

import (
	"fmt"
	"runtime"
	"testing"
)

// pingPongDoc is issue 17's row: one CPU, zero latencies, a ping-pong of
// loops iterations (every hand-off records a wake-up latency).
func pingPongDoc(loops int) string {
	return fmt.Sprintf(`{"schedplay":1,
	 "machine":{"nodes":1,"cores_per_node":1,"latency":{"wakeup":"0s","ipi":"0s","idle_exit":"0s","context_switch":"0s","process_switch":"0s"}},
	 "workload":{"groups":[
	  {"name":"a","count":1,"program":[{"repeat":%[1]d,"do":[{"send":"ab"},{"recv":"ba"}]}]},
	  {"name":"b","count":1,"program":[{"repeat":%[1]d,"do":[{"recv":"ab"},{"send":"ba"}]}]}]},
	 "run":{"duration":"60s","reps":1}}`, loops)
}

// allocatedBy is the bytes the run of doc allocates.
func allocatedBy(t *testing.T, doc string) (uint64, *Result) {
	r := resolveJSON(t, doc)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res := mustRun(t, r, Options{})
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, res
}

// The latency samples live in fixed-size histograms: 8× the samples costs
// no more memory (issue 17: 9.9 M loops × 4 reps kept 580 MB of samples).
func TestLatencyMemoryBoundedBySampleCount(t *testing.T) {
	small, rs := allocatedBy(t, pingPongDoc(20_000))
	large, rl := allocatedBy(t, pingPongDoc(160_000))
	if rl.Reps[0].Latency.Count < 8*rs.Reps[0].Latency.Count-10 {
		t.Fatalf("samples %d vs %d: the larger run should record 8× more", rl.Reps[0].Latency.Count, rs.Reps[0].Latency.Count)
	}
	// 140k extra samples kept as int64 would be > 1.1 MB.
	if large > small+512<<10 {
		t.Errorf("160k loops allocate %d bytes, 20k loops %d: latency storage grows with the samples", large, small)
	}
}

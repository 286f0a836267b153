package sim

import (
	"fmt"
	"runtime"
	"runtime/debug"
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

// At maxActivityDepth nested startActivity() calls, a task with nothing
// left to compute does not run its next step on the spot: a compute end,
// armed for when its context switch is paid, runs it from the event loop.
func TestActivityDepthDefersToTheLoop(t *testing.T) {
	s := exactSim(t, `{"name":"w","count":1,"program":[{"compute":"1ms"},{"compute":"1ms"}]}`)
	c := &s.cpus[0]
	p := place(s, 0, 0)
	s.schedule(c)
	if c.curr != p || len(p.stack) == 0 {
		t.Fatal("set-up: the task does not run its program")
	}
	pc := p.stack[len(p.stack)-1].pc
	p.remaining = 0
	s.activityDepth = maxActivityDepth
	s.startActivity(c, p)
	if got := p.stack[len(p.stack)-1].pc; got != pc || p.remaining != 0 {
		t.Errorf("at the depth bound the task ran on: pc %d → %d, remaining %g", pc, got, p.remaining)
	}
	if at, want := nextEvent(s, evComputeEnd, 0), s.taskClock(c); at != want {
		t.Errorf("compute end at %d; want when the task's CPU is its own again (%d)", at, want)
	}
}

// Hand-offs that cost nothing (issue 17's ping-pong on one CPU, every
// latency zero) chain through ttwu_queue()'s local enqueue and the
// sleeper's schedule() without an event between; the chain goes back to
// the event loop every maxActivityDepth hand-offs, so the stack stays
// shallow (node's wasm stack overflowed at ~20k nested hand-offs).
func TestZeroCostHandOffsStayShallow(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(4 << 20))
	r := resolveJSON(t, pingPongDoc(20_000))
	res := mustRun(t, r, Options{})
	if n := res.Reps[0].Latency.Count; n < 39_000 {
		t.Errorf("%d wake-ups recorded; want the 40,000 hand-offs", n)
	}
}

package sim

import (
	"strconv"
	"testing"
)

// TestIdleStateExitLatency: a CPU idle between a periodic task's 10 ms
// loops enters the deepest state whose target residency its predicted
// idle time reaches (menu_select()), and each wake-up then pays that
// state's exit latency (here 60 µs, on top of WFI's). A PM QoS limit of 0
// (cyclictest's /dev/cpu_dma_latency) keeps the CPU in WFI and the
// wake-ups pay WFI's exit only (each also waits out its timer's 50 µs
// slack); a limit of 100 µs admits the state.
func TestIdleStateExitLatency(t *testing.T) {
	run := func(qos string) Latency {
		doc := `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":2,"threads_per_core":1,
			"latency":{"variation":0,"idle_states":[{"name":"C2","exit_latency":"60us","target_residency":"1ms"}]}},
			"workload":{"metric":"latency"` + qos + `,"groups":[
				{"name":"c","count":1,"cpus":"1","program":[{"periodic":{"every":"10ms","do":[{"compute":"5us"}]}}]}]},
			"run":{"duration":"500ms","until":"duration","reps":1,"seed":1}}`
		return mustRun(t, resolveJSON(t, doc), Options{}).Reps[0].Latency
	}
	deep, wfi, admitted := run(""), run(`,"cpu_dma_latency":"0us"`), run(`,"cpu_dma_latency":"100us"`)
	if deep.Count < 40 || wfi.Count < 40 {
		t.Fatalf("%d and %d wake-ups; want about 50 each", deep.Count, wfi.Count)
	}
	// a timer's wake-up also carries its 50 µs slack; the state adds its exit
	if d := deep.P50 - wfi.P50; d < 55_000 || d > 65_000 {
		t.Errorf("median wake-up latency %d ns without a PM QoS limit, %d ns with cpu_dma_latency 0: %d ns apart; want C2's 60 µs exit", deep.P50, wfi.P50, d)
	}
	if admitted.P50 != deep.P50 {
		t.Errorf("cpu_dma_latency 100 µs: median %d ns; want C2 admitted, as without a limit (%d ns)", admitted.P50, deep.P50)
	}
}

// TestGovernorHistoryIsItsOwn: cpuidle_reflect() → menu_update() records
// every idle period, from the idle task becoming rq->curr to its leaving,
// whatever brings the task and whatever rq->idle_stamp holds (only a
// newidle pass stamps it; a CPU idle from boot has none). So the
// governor's prediction is the same under either avg_idle form.
func TestGovernorHistoryIsItsOwn(t *testing.T) {
	for _, exit := range []bool{false, true} {
		s := taskSimPolicy(t, 2, `{"features":{"AVG_IDLE_AT_IDLE_EXIT":`+strconv.FormatBool(exit)+`}}`)
		c1 := &s.cpus[1]
		if c1.idleStamp != 0 || !c1.inIdle {
			t.Fatalf("set-up: cpu 1 idle %v, idle_stamp %d", c1.inIdle, c1.idleStamp)
		}
		s.now = 5_000_000
		p := place(s, 0, 1)
		s.schedule(c1) // idle since boot: a 5 ms period
		if c1.curr != p {
			t.Fatal("set-up: the task does not run on cpu 1")
		}
		want := int64(5_000_000) / 8
		if c1.idlePredict != want {
			t.Errorf("AVG_IDLE_AT_IDLE_EXIT %v: after 5 ms idle from boot: prediction %d; want %d", exit, c1.idlePredict, want)
		}
		s.now = 6_000_000
		s.blockTask(c1, p) // idle again from 6 ms
		if c1.curr != nil {
			t.Fatal("set-up: cpu 1 not idle after the sleep")
		}
		s.now = 10_000_000
		q := place(s, 1, 1) // a new task this time: any path ends the period
		s.schedule(c1)
		want += (4_000_000 - want) / 8
		if c1.curr != q || c1.idlePredict != want {
			t.Errorf("AVG_IDLE_AT_IDLE_EXIT %v: after 4 ms idle: task running %v, prediction %d; want %d", exit, c1.curr == q, c1.idlePredict, want)
		}
	}
}

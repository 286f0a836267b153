package sim

import (
	"fmt"
	"testing"

	"schedplay/engine/topo"
)

// TestRTPushAtSetNextTask: a pinned RT task that preempts an unpinned
// lower one on CPU 0 pushes it to the idle CPU 1 as it starts
// (set_next_task_rt() → rt_queue_push_tasks() → push_rt_task()), so the
// lower task's 100 ms end at about 100 ms instead of 150.
func TestRTPushAtSetNextTask(t *testing.T) {
	// low's fork from CPU 1 places it on idle CPU 0 (the fair slow path:
	// the thread sets its RT policy once it runs)
	doc := rtDoc(2, `{"name":"low","count":1,"parent_cpu":1,"policy":"fifo","rt_priority":10,"program":[{"compute":"100ms"}]},
		{"name":"high","count":1,"cpus":"0","parent_cpu":0,"policy":"fifo","rt_priority":50,"start":"10ms","program":[{"compute":"50ms"}]}`)
	r := mustRun(t, resolveJSON(t, doc), Options{})
	rep := r.Reps[0]
	if rep.Migrations.RT != 1 || rep.Completion > 101e6 {
		t.Errorf("the preempted RT task: %d RT pushes, all done at %.2f ms; want one push to the idle CPU and no wait behind the higher task (≈100 ms, 150 without)",
			rep.Migrations.RT, float64(rep.Completion)/1e6)
	}
}

// TestRTPullWhenAnRTTaskLeaves: an unpinned RT task queued on CPU 0
// behind a pinned higher one finds no CPU running a lower priority while
// CPU 1 runs an RT task of priority 50. When that task exits, CPU 1's
// balance_rt() asks the overloaded CPU 0 to push (pull_rt_task() →
// tell_cpu_to_push(), the RT_PUSH_IPI loop), and the queued task runs on
// CPU 1 from 30 ms to 130 instead of waiting for CPU 0 until 100 ms.
func TestRTPullWhenAnRTTaskLeaves(t *testing.T) {
	doc := rtDoc(2, `{"name":"high","count":1,"cpus":"0","parent_cpu":0,"policy":"fifo","rt_priority":60,"program":[{"compute":"100ms"}]},
		{"name":"other","count":1,"cpus":"1","parent_cpu":1,"policy":"fifo","rt_priority":50,"program":[{"compute":"30ms"}]},
		{"name":"low","count":1,"parent_cpu":0,"policy":"fifo","rt_priority":10,"start":"1ms","program":[{"compute":"100ms"}]}`)
	r := mustRun(t, resolveJSON(t, doc), Options{})
	rep := r.Reps[0]
	if rep.Migrations.RT != 1 || rep.Completion < 130e6 || rep.Completion > 131e6 {
		t.Errorf("the queued RT task: %d RT pushes, all done at %.2f ms; want one push once CPU 1's task exits at 30 ms (≈130 ms, 200 without)",
			rep.Migrations.RT, float64(rep.Completion)/1e6)
	}
}

// TestRTONextCPU: rto_next_cpu() walks the overloaded CPUs after rto_cpu,
// skipping the CPU it runs on; at the end of the mask it ends the loop
// (rto_cpu = -1), or goes round once more when a push request came in
// since the loop started (rto_loop_next).
func TestRTONextCPU(t *testing.T) {
	s := &sim{rto: rtoState{mask: topo.NewCPUSet(8), cpu: -1}}
	for _, c := range []topo.CPU{0, 2, 5} {
		s.rto.mask.Set(c)
	}
	walk := func(this int, bump bool) []int {
		var got []int
		for i := 0; i < 10; i++ {
			cpu := s.rtoNextCPU(this)
			if cpu < 0 {
				break
			}
			got = append(got, cpu)
			if bump && i == 0 {
				s.rto.loopNext++ // tell_cpu_to_push() during the loop
			}
		}
		return got
	}
	if got := walk(2, false); len(got) != 2 || got[0] != 0 || got[1] != 5 || s.rto.cpu != -1 {
		t.Errorf("from cpu 2: %v, rto_cpu %d after; want [0 5] and -1", got, s.rto.cpu)
	}
	if got := walk(5, true); len(got) != 4 || got[0] != 0 || got[1] != 2 || got[2] != 0 || got[3] != 2 {
		t.Errorf("from cpu 5 with a request during the loop: %v; want [0 2 0 2] (one more round)", got)
	}
}

// TestTaskWokenRTPushes: an RT task activated on a CPU whose curr is an
// RT task it does not preempt (pinned, or of its priority or higher) is
// pushed to a CPU running lower priorities at once (task_woken_rt()),
// unless that curr is about to reschedule (as it is when the wakee
// preempts it) or the wakee is pinned.
func TestTaskWokenRTPushes(t *testing.T) {
	for _, c := range []struct {
		name      string
		currPrio  int
		currCPUs  string
		wakeCPUs  string
		resched   bool
		wantMoved bool
	}{
		{"behind a pinned lower priority", 10, "0", "0-1", false, false}, // it preempts
		{"behind a higher priority", 60, "0-1", "0-1", false, true},
		{"behind its own priority", 30, "0-1", "0-1", false, true},
		{"behind an unpinned lower priority", 10, "0-1", "0-1", false, false},
		{"with need_resched set", 60, "0-1", "0-1", true, false},
		{"pinned itself", 60, "0-1", "0", false, false},
	} {
		s := simOf(t, rtDoc(2, fmt.Sprintf(`{"name":"curr","count":1,"cpus":"%s","policy":"fifo","rt_priority":%d,"program":[{"compute":"1s"}]},
			{"name":"wakee","count":1,"cpus":"%s","policy":"fifo","rt_priority":30,"program":[{"compute":"1s"}]}`, c.currCPUs, c.currPrio, c.wakeCPUs)))
		c0 := &s.cpus[0]
		curr, wakee := s.tasks[0], s.tasks[1]
		curr.remaining, wakee.remaining = 1e12, 1e12
		s.enqueueTaskRT(c0, curr)
		s.schedule(c0)
		c0.needResched = c.resched
		wakee.cpu = 0
		s.ttwuDoActivate(wakee, c0, 1, 1000) // from cpu 1: a preemption is an IPI away
		if moved := wakee.cpu == 1; moved != c.wantMoved || c0.curr != curr {
			t.Errorf("%s: the wakee is on cpu %d, cpu 0 runs %s; want it moved to cpu 1: %v, and cpu 0 still running curr", c.name, wakee.cpu, c0.curr.name, c.wantMoved)
		}
	}
}

// TestPushRTTaskAboveCurrReschedules: a pushable task above its CPU's
// curr (it has just arrived and not run yet, as when the push IPI comes
// first) is not pushed away: push_rt_task() reschedules the CPU instead.
func TestPushRTTaskAboveCurrReschedules(t *testing.T) {
	s := simOf(t, rtDoc(2, `{"name":"curr","count":1,"cpus":"0","policy":"fifo","rt_priority":10,"program":[{"compute":"1s"}]},
		{"name":"high","count":1,"policy":"fifo","rt_priority":60,"program":[{"compute":"1s"}]}`))
	c0 := &s.cpus[0]
	curr, high := s.tasks[0], s.tasks[1]
	curr.remaining, high.remaining = 1e12, 1e12
	s.enqueueTaskRT(c0, curr)
	s.schedule(c0)
	s.enqueueTaskRT(c0, high)
	if s.pushRTTask(c0) || high.cpu != 0 || !c0.needResched {
		t.Errorf("push_rt_task() of a queued task above curr: the task is on cpu %d, need_resched %v; want it kept on cpu 0 and cpu 0 rescheduled", high.cpu, c0.needResched)
	}
}

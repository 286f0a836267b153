package sim

import (
	"context"
	"testing"
)

// Under PREEMPT_LAZY (kernel/sched/core.c, Linux 6.13; the Kconfig default
// on arm64 since 7.0, 7dadeaa6e851) resched_curr_lazy() sets
// TIF_NEED_RESCHED_LAZY on a busy CPU and sends no IPI: the task running
// there in user space keeps the CPU until an interrupt returns to it, its
// tick above all (sched_tick() makes the flag TIF_NEED_RESCHED). Without
// it, resched_curr() reaches the CPU with the IPI.
func TestLazyRemotePreemptionWaitsForTheTick(t *testing.T) {
	for _, lazy := range []bool{false, true} {
		s, c0 := hogsOnCPU0(t, 2, 2)
		s.preemptLazy = lazy
		a := c0.curr
		a.userMode = true                          // computing
		a.vruntime = c0.rq[0].vruntime + 1_000_000 // past V: a schedule() replaces it
		s.reschedCurrLazy(0, 1)                    // a wake-up preemption asked from cpu 1
		if c0.needReschedLazy != lazy || c0.needResched == lazy {
			t.Errorf("lazy %v: flags lazy %v, full %v", lazy, c0.needReschedLazy, c0.needResched)
		}
		// well past the IPI's latency, before cpu 0's next tick (4 ms at HZ 250)
		if err := s.runUntil(context.Background(), s.now+100_000, 0, 1); err != nil {
			t.Fatal(err)
		}
		if (c0.curr == a) != lazy {
			t.Errorf("lazy %v: 100 µs after the request cpu 0 still runs the preempted task: %v", lazy, c0.curr == a)
		}
		if !lazy {
			continue
		}
		if err := s.runUntil(context.Background(), s.now+s.tickNs, 0, 1); err != nil {
			t.Fatal(err)
		}
		if c0.curr == a || c0.needReschedLazy {
			t.Errorf("cpu 0's next tick did not act on the lazy flag (curr is the preempted task: %v, flag %v)", c0.curr == a, c0.needReschedLazy)
		}
	}
}

// An interrupt's return (irqentry_exit_to_user_mode()) schedules on the
// lazy flag only when it returns to user space; a task interrupted in a
// kernel path keeps the flag until its system call returns. The tick
// makes a lazy flag set before it a full one, which preempts in the
// kernel too.
func TestLazyFlagAtAnInterruptsReturn(t *testing.T) {
	for _, user := range []bool{false, true} {
		s, c0 := hogsOnCPU0(t, 2, 2)
		s.preemptLazy = true
		a := c0.curr
		a.userMode = user
		a.vruntime = c0.rq[0].vruntime + 1_000_000
		s.reschedCurrLazy(0, 1)
		s.now += 100
		s.reschedIPI(c0) // an interrupt that lands there (a resched IPI for another reason)
		if (c0.curr != a) != user {
			t.Errorf("user space %v: the interrupt's return switched away from the flagged task: %v", user, c0.curr != a)
		}
		if user {
			continue
		}
		s.tick(c0)
		if c0.curr == a {
			t.Error("the tick left a lazy flag set before it on a task in a kernel path")
		}
	}
}

// A task's return to user space from a system call is where a lazy flag
// set while it ran the call is acted on (exit_to_user_mode_loop()): the
// task is switched out when its call returns, before its next step runs.
// Without PREEMPT_LAZY the IPI preempts it in the middle of the call.
func TestLazyPreemptionAtTheReturnToUser(t *testing.T) {
	for _, lazy := range []bool{false, true} {
		s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1,"latency":{"variation":0}},
			"workload":{"groups":[
				{"name":"k","count":1,"cpus":"0","program":[{"send":"q","ipc":"futex"},{"compute":"1s"}]},
				{"name":"h","count":1,"cpus":"0","program":[{"compute":"1s"}]}]},
			"run":{"duration":"10s","seed":1}}`)
		s.preemptLazy = lazy
		c0 := &s.cpus[0]
		s.now = 1_000_000
		k := place(s, 0, 0)
		k.remaining = 0
		s.schedule(c0) // k runs its program: the futex_wake() path, in the kernel
		if c0.curr != k || k.userMode || k.remaining < 1 {
			t.Fatal("set-up: k is not in its system call on cpu 0")
		}
		h := place(s, 1, 0)
		k.vruntime = h.vruntime + 1_000_000 // past V: a schedule() picks h
		s.reschedCurrLazy(0, 1)
		call := int64(k.remaining) // the call's work, at speed 1 (nothing else runs)
		if err := s.runUntil(context.Background(), s.now+50_000, 0, 1); err != nil {
			t.Fatal(err)
		}
		if c0.curr != h {
			t.Fatalf("lazy %v: cpu 0 did not switch to h", lazy)
		}
		work := k.requested - k.remaining // what k ran of its call, and of its compute step
		atReturn := work > float64(call)-1 && work < float64(call)+1
		if atReturn != lazy {
			t.Errorf("lazy %v: k was switched out after %.0f ns of work, its call takes %d: at the call's return %v", lazy, work, call, atReturn)
		}
	}
}

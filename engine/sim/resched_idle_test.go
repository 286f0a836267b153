package sim

import "testing"

// nextEvent pops s's events until one of kind k for cpu, and returns its
// time (-1 when there is none).
func nextEvent(s *sim, k evKind, cpu int) int64 {
	for {
		e, ok := s.q.pop()
		if !ok {
			return -1
		}
		if e.kind == k && int(e.a) == cpu {
			return e.at
		}
	}
}

// A balance run on another CPU that gives idle cpu 2 a task (the nohz ILB
// pulling for it, the stopper pushing to it) ends in resched_curr() of
// cpu 2 (attach_task() → wakeup_preempt()): the IPI has to reach it and it
// has to leave its idle state (here C1, 20 µs) before it schedules. Run on
// cpu 2 itself, the balance schedules it at once. The ILB kick pays the
// same: the ILB is idle by construction.
func TestRemoteBalancePaysTheIPIAndTheIdleExit(t *testing.T) {
	s := governorSim(t, 1)
	c2 := &s.cpus[2]
	c2.idleState = 1
	want := s.ipiLatency(2) + 20_000
	s.now = 1_000_000
	p := s.tasks[0]
	p.cpu, p.remaining = 2, 1e12
	s.postInitEntityUtilAvg(c2, p)
	s.attachEntityLoadAvg(c2, p)
	s.enqueueTask(c2, p, true, false)
	s.reschedIdle(c2, 1)
	if c2.curr != nil {
		t.Fatal("cpu 2 runs its task at once after a balance on cpu 1")
	}
	if at := nextEvent(s, evResched, 2); at != s.now+want {
		t.Errorf("cpu 2 reschedules at %d; want now + IPI + C1 exit = %d", at, s.now+want)
	}
	s.reschedIdle(c2, 2)
	if c2.curr != p {
		t.Error("a balance on cpu 2 itself: cpu 2 does not run the task at once")
	}
	for i := 1; i < 4; i++ {
		s.cpus[i].idleState = 1
	}
	s.kickILB(0, nohzBalanceKick)
	if !s.ilbPending {
		t.Fatal("no ILB kicked")
	}
	if at := nextEvent(s, evILB, s.ilbCPU); at != s.now+s.ipiLatency(s.ilbCPU)+20_000 {
		t.Errorf("the ILB runs at %d; want now + IPI + C1 exit = %d", at, s.now+s.ipiLatency(s.ilbCPU)+20_000)
	}
}

// nohz_balancer_kick() reads rq->nr_running, every class: a busy CPU
// whose one task shares it with the kernel noise's kworker has 2.
func TestNohzKickCountsTheKworker(t *testing.T) {
	s := taskSim(t, 1)
	c := &s.cpus[0]
	place(s, 0, 0)
	s.schedule(c)
	if r := s.nohzKickReason(c); r == "nr_running >= 2" {
		t.Fatal("one task: nr_running >= 2")
	}
	c.hkBusy = true
	if r := s.nohzKickReason(c); r != "nr_running >= 2" {
		t.Errorf("one task and the kworker: reason %q; want nr_running >= 2", r)
	}
}

// msecs_to_jiffies() rounds ms·HZ/1000 up; at HZ=300 10 ms is 3 jiffies
// (a tick of 3,333,333 ns would make it 4), 80 ms 24.
func TestMsecsToJiffies(t *testing.T) {
	for _, tc := range []struct{ hz, ms, want int }{{300, 10, 3}, {300, 80, 24}, {250, 10, 3}, {250, 8, 2}, {1000, 1, 1}, {100, 15, 2}} {
		s := taskSimPolicy(t, 1, `{"hz":`+itoa(tc.hz)+`}`)
		if got := s.msecsToJiffies(tc.ms); got != int64(tc.want) {
			t.Errorf("HZ=%d: msecs_to_jiffies(%d) = %d; want %d", tc.hz, tc.ms, got, tc.want)
		}
	}
}

// The kernel noise (a kworker woken on the CPU every period, for run) on a
// busy CPU takes the CPU from its task for run: the task makes no progress
// before the burst ends (stallUntil), and an idle CPU's burst leaves it
// unavailable to select_idle_sibling() meanwhile.
func TestHousekeepingStallsTheRunningTask(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":2,"threads_per_core":1,"housekeeping":{"period":"4s","run":"20us"}},
		"workload":{"groups":[{"name":"w","count":1,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
	c0, c1 := &s.cpus[0], &s.cpus[1]
	place(s, 0, 0)
	s.schedule(c0)
	s.now = 1_000_000
	s.housekeeping(c0)
	if c0.stallUntil < s.now+20_000 {
		t.Errorf("cpu 0's task stalls until %d; want the burst's end, %d", c0.stallUntil, s.now+20_000)
	}
	s.housekeeping(c1)
	if s.availableIdle(1) {
		t.Error("idle cpu 1 running the kworker is available_idle_cpu()")
	}
}

package sim

import (
	"fmt"
	"sort"
	"testing"

	"schedplay/engine/topo"
)

// Rules of the core scheduler paths (sched.go) and of the barrier and
// wake batches (workload.go) that no test held before the seventh
// mutation round (docs/model.md, "Verification").

// exactSim is taskSim's 4-CPU machine without cost variation, so that a
// path's cost is its latency.* figures exactly.
func exactSim(t *testing.T, groups string) *sim {
	t.Helper()
	return simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1,"latency":{"variation":0}},
		"workload":{"groups":[`+groups+`]},"run":{"duration":"10s","seed":1}}`)
}

// TestWakeMigrationLeavesTaskCold: a task that migrates at its wake-up
// (WF_MIGRATED → migrate_task_rq_fair(): se->exec_start = 0) is cache cold
// for task_hot() at once, however recently it ran; one woken where it ran
// stays hot for sysctl_sched_migration_cost.
func TestWakeMigrationLeavesTaskCold(t *testing.T) {
	for _, c := range []struct {
		name    string
		wakeCPU int
		hot     bool
	}{
		{"woken where it ran", 0, true},
		{"woken on another CPU", 1, false},
	} {
		s := taskSim(t, 3)
		p := place(s, 0, 0)
		s.schedule(&s.cpus[0])
		s.now += 100_000
		s.blockTask(&s.cpus[0], p)
		// both CPUs run a task, so p queues behind it where it arrives
		place(s, 1, 0)
		s.schedule(&s.cpus[0])
		place(s, 2, 1)
		s.schedule(&s.cpus[1])
		s.now += 100_000
		wakeOnto(s, p, c.wakeCPU)
		if s.cpus[c.wakeCPU].curr == p {
			t.Fatalf("%s: the wakee preempted; the test wants it queued", c.name)
		}
		env := &lbEnv{sd: s.t.Domains[2][0], dst: 2}
		if got := s.taskHot(p, env); got != c.hot {
			t.Errorf("%s: task_hot %v 200 µs after it last ran; want %v", c.name, got, c.hot)
		}
	}
}

// TestMMSwitchOnlyForAnotherMM: switching in a process costs
// latency.process_switch on top of latency.context_switch only when the
// CPU last ran another address space; a process that runs again on its
// CPU (after idle, whose lazy active_mm is still its mm) pays the thread
// switch alone.
func TestMMSwitchOnlyForAnotherMM(t *testing.T) {
	s := exactSim(t, `{"name":"a","count":1,"process":true,"program":[{"compute":"1ms"}]},
		{"name":"b","count":1,"process":true,"program":[{"compute":"1ms"}]}`)
	lat := s.r.Machine.Latency
	cs, mm := int64(lat.ContextSwitch), int64(lat.ProcessSwitch)
	c := &s.cpus[0]
	a, b := s.tasks[0], s.tasks[1]
	for i, st := range []struct {
		p    *task
		want int64
	}{
		{a, cs + mm}, // the CPU's first task
		{a, cs},      // a again, after idle
		{b, cs + mm},
		{b, cs},
		{a, cs + mm},
	} {
		s.now += 1_000_000
		c.stallUntil = 0
		s.setCurr(c, st.p)
		if got := c.stallUntil - s.now; got != st.want {
			t.Errorf("switch %d (to %s): %d ns; want %d", i, st.p.name, got, st.want)
		}
		c.curr = nil
	}
}

// TestMMSwitchBetweenThreadGroups: a thread group is one mm, so the
// switch between two groups' threads pays latency.process_switch, and so
// does a switch from a process to a thread (the old model charged the mm
// switch only when a process came in); the threads that one parent
// creates for every group (shared_parent: perf bench's pthread_create()d
// waker and waiters, sched pipe -T's two threads) share its mm and pay the
// thread switch alone.
func TestMMSwitchBetweenThreadGroups(t *testing.T) {
	for _, c := range []struct {
		name, shared, procB string
		mmAB                bool
	}{
		{"two programs", "false", "false", true},
		{"one parent's threads", "true", "false", false},
		{"a thread after a process", "true", "true", true},
	} {
		s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1,"latency":{"variation":0}},
			"workload":{"shared_parent":`+c.shared+`,"groups":[{"name":"a","count":2,"program":[{"compute":"1ms"}]},
			{"name":"b","count":1,"process":`+c.procB+`,"program":[{"compute":"1ms"}]}]},"run":{"duration":"10s","seed":1}}`)
		lat := s.r.Machine.Latency
		cs, mm := int64(lat.ContextSwitch), int64(lat.ProcessSwitch)
		between := cs
		if c.mmAB {
			between += mm
		}
		cpu := &s.cpus[0]
		a0, a1, b := s.tasks[0], s.tasks[1], s.tasks[2]
		for i, st := range []struct {
			p    *task
			want int64
		}{
			{b, cs + mm}, // the CPU's first task
			{a0, between},
			{a1, cs}, // a thread of the same group
			{b, between},
		} {
			s.now += 1_000_000
			cpu.stallUntil = 0
			s.setCurr(cpu, st.p)
			if got := cpu.stallUntil - s.now; got != st.want {
				t.Errorf("%s: switch %d (to %s): %d ns; want %d", c.name, i, st.p.name, got, st.want)
			}
			cpu.curr = nil
		}
	}
}

// TestForkRecentUsedCPUIsTheParents: wake_up_new_task() sets the child's
// recent_used_cpu to task_cpu(p), the parent's CPU (sched_fork()), before
// the slow path places it; so its first wake-up may return to the
// parent's CPU when that is idle.
func TestForkRecentUsedCPUIsTheParents(t *testing.T) {
	s := taskSim(t, 2)
	place(s, 1, 2) // CPU 2 runs a task: the child goes elsewhere
	s.schedule(&s.cpus[2])
	p := s.tasks[0]
	s.forkTask(p, 2)
	if p.cpu == 2 {
		t.Fatalf("the child was placed on its parent's busy CPU")
	}
	if p.recentUsedCPU != 2 {
		t.Errorf("recent_used_cpu %d after fork; want the parent's CPU 2", p.recentUsedCPU)
	}
}

// TestWakeLatencyIdleExitOnlyOnIdle: a wake-up pays the target's idle
// exit latency only when the target is idle.
func TestWakeLatencyIdleExitOnlyOnIdle(t *testing.T) {
	s := exactSim(t, `{"name":"w","count":1,"program":[{"compute":"1ms"}]}`)
	lat := s.r.Machine.Latency
	remote := int64(lat.Wakeup) + int64(lat.IPI) + wakeRemoteLines*s.cachelineCost(0, 1)
	if got := s.ttwuLatency(0, 1); got != remote+int64(lat.IdleExit) {
		t.Errorf("to an idle CPU: %d ns; want %d (with the %d ns idle exit)", got, remote+int64(lat.IdleExit), int64(lat.IdleExit))
	}
	s.busy(1)
	if got := s.ttwuLatency(0, 1); got != remote {
		t.Errorf("to a busy CPU: %d ns; want %d (no idle exit)", got, remote)
	}
}

// TestReschedCurrIPI: resched_curr() of another CPU reaches it after the
// IPI, and an idle one after its idle exit too; a CPU that asks itself
// reschedules at once.
func TestReschedCurrIPI(t *testing.T) {
	s := exactSim(t, `{"name":"w","count":1,"program":[{"compute":"1ms"}]}`)
	lat := s.r.Machine.Latency
	for _, c := range []struct {
		cpu, from int
		busy      bool
		want      int64
	}{
		{1, 1, false, 0},
		{1, 0, false, int64(lat.IPI + lat.IdleExit)},
		{1, 0, true, int64(lat.IPI)},
	} {
		s.cpus[1].curr, s.cpus[1].needResched = nil, false // the previous case's flag spent
		if c.busy {
			s.busy(1)
		}
		s.q.init(16, 0, 0)
		s.reschedCurr(c.cpu, c.from)
		e, ok := s.q.pop()
		if !ok || e.kind != evResched || int(e.a) != c.cpu {
			t.Fatalf("resched_curr(%d) from %d queued %+v", c.cpu, c.from, e)
		}
		if got := e.at - s.now; got != c.want {
			t.Errorf("resched_curr(%d) from %d after %d ns; want %d", c.cpu, c.from, got, c.want)
		}
	}
}

// TestWakerCost: each try_to_wake_up() of a batch costs the waker
// latency.wakeup; a wakee that last ran elsewhere adds the IPI's sending
// part and the lines ttwu pulls from its CPU. endWakeBatch() stalls the
// waker's task for the whole batch.
func TestWakerCost(t *testing.T) {
	s := exactSim(t, `{"name":"w","count":2,"program":[{"compute":"1ms"}]}`)
	lat := s.r.Machine.Latency
	w := s.tasks[1]
	w.cpu = 0
	if got, want := s.wakerCost(0, w), int64(lat.Wakeup); got != want {
		t.Errorf("a wakee that ran on the waker's CPU: %d ns; want %d", got, want)
	}
	w.cpu = 1
	if got, want := s.wakerCost(0, w), int64(lat.Wakeup+lat.IPISend)+ttwuWakerLines*s.cachelineCost(1, 0); got != want {
		t.Errorf("a wakee that ran on CPU 1: %d ns; want %d", got, want)
	}
	p := place(s, 0, 0)
	s.schedule(&s.cpus[0])
	s.now += 1_000_000 // past the switch's own stall
	s.wakeBatch, s.wakeBatchCost = 3, 4500
	s.endWakeBatch(0)
	if got := s.cpus[0].stallUntil - s.now; got != 4500 {
		t.Errorf("the waker stalls %d ns after a batch of 3 costing 4500 ns; want 4500", got)
	}
	if p.wakeStallUntil != s.cpus[0].stallUntil {
		t.Errorf("the waker's wakeStallUntil %d; want its CPU's stall %d", p.wakeStallUntil, s.cpus[0].stallUntil)
	}
}

// barrierDoc is a group of n tasks, task k pinned to CPU k of a machine
// whose CPU k runs at speed 1 − k/10, looping rounds of 1 ms of work and
// a barrier with the given spin: each round the task on CPU 0 arrives
// first and the one on CPU n−1 last.
func barrierDoc(n, rounds int, spin string) string {
	classes := ""
	for k := range n {
		if k > 0 {
			classes += ","
		}
		classes += fmt.Sprintf(`{"name":"c%d","cores":1,"capacity":1024,"speed":%g}`, k, 1-float64(k)/10)
	}
	return fmt.Sprintf(`{"schedplay":1,"machine":{"nodes":1,"cores_per_node":%d,"threads_per_core":1,"core_classes":[%s],"latency":{"variation":0}},
		"workload":{"groups":[{"name":"omp","count":%d,"cpus":"0-%d","pin":"each",
			"program":[{"repeat":%d,"do":[{"compute":"1ms"},{"barrier":"b","spin":%q}]}]}]},
		"run":{"duration":"1s","until":"done","seed":1,"reps":1}}`, n, classes, n, n-1, rounds, spin)
}

// TestBarrierReleaseInArrivalOrder: the last arrival wakes the waiters in
// the order they arrived (futex_wake() walks the hash bucket's plist,
// FIFO among equal priorities), one try_to_wake_up() after the other.
func TestBarrierReleaseInArrivalOrder(t *testing.T) {
	res := mustRun(t, resolveJSON(t, barrierDoc(4, 1, "0s")), Options{Timeline: true})
	var wakes []Decision
	for _, d := range res.Timeline.Decisions {
		if d.Kind == "wakeup" {
			wakes = append(wakes, d)
		}
	}
	if len(wakes) != 3 {
		t.Fatalf("%d wake-ups; want the 3 waiters' (%+v)", len(wakes), wakes)
	}
	if !sort.SliceIsSorted(wakes, func(i, j int) bool { return wakes[i].At < wakes[j].At }) {
		t.Fatalf("decisions out of time order: %+v", wakes)
	}
	for i, d := range wakes {
		if d.From != i || d.Waker != 3+1 {
			t.Errorf("wake-up %d: the task of CPU %d, issued from CPU %d; want CPU %d's (arrival order), issued from CPU 3", i, d.From, d.Waker-1, i)
		}
		if i > 0 && d.At <= wakes[i-1].At {
			t.Errorf("wake-up %d at %d ns, not after wake-up %d at %d ns", i, d.At, i-1, wakes[i-1].At)
		}
	}
}

// TestBarrierSpinThenContinue: a waiter spins up to its barrier's spin
// before it sleeps (libgomp's do_wait()), and one released while it
// spins continues at once. The task on the 0.9-speed CPU arrives 111 µs
// after the other each round: a 1 ms spin covers it (no sleep, no
// wake-up, rounds of 1.11 ms), a 50 µs spin does not (a sleep and a
// wake-up per round).
func TestBarrierSpinThenContinue(t *testing.T) {
	const rounds = 10
	for _, c := range []struct {
		spin    string
		wakeups int64
	}{
		{"1ms", 0},
		{"50us", rounds},
	} {
		r := mustRun(t, resolveJSON(t, barrierDoc(2, rounds, c.spin)), Options{}).Reps[0]
		if r.Wakeups != c.wakeups {
			t.Errorf("spin %s: %d wake-ups; want %d", c.spin, r.Wakeups, c.wakeups)
		}
		// 10 rounds at the slower CPU's pace, 1.111 ms each, plus the
		// wake-ups' and switches' microseconds
		if r.Completion == 0 || r.Completion > rounds*1_111_111+rounds*20_000 {
			t.Errorf("spin %s: done at %d ns; want about %d (the slower task's pace)", c.spin, r.Completion, rounds*1_111_111)
		}
	}
}

// TestIdleStampOnlyFromNewidle: rq->idle_stamp is set by
// sched_balance_newidle() alone, which returns first when a wake-up is
// pending on the CPU (this_rq->ttwu_pending). A CPU that goes idle with
// its next task already on the way keeps idle_stamp 0, so that task's
// ttwu_do_activate() leaves avg_idle alone; one that goes idle with
// nothing pending measures the idle period into avg_idle.
func TestIdleStampOnlyFromNewidle(t *testing.T) {
	for _, c := range []struct {
		name    string
		pending bool
		moved   bool
	}{
		{"a wake-up pending", true, false},
		{"nothing pending", false, true},
	} {
		s := taskSim(t, 2)
		cpu := &s.cpus[1]
		a := place(s, 0, 1)
		s.schedule(cpu)
		b := s.tasks[1]
		b.cpu, b.state, b.wakeCPU = 1, taskWaking, 1
		if c.pending {
			cpu.pending++
		}
		avg := cpu.avgIdle
		s.now += 50_000
		s.blockTask(cpu, a)
		if got := cpu.idleStamp != 0; got != c.moved {
			t.Errorf("%s: idle_stamp set %v at idle entry; want %v", c.name, got, c.moved)
		}
		s.now += 400_000
		if !c.pending {
			cpu.pending++
		}
		s.wakeArrive(b)
		if got := cpu.avgIdle != avg; got != c.moved {
			t.Errorf("%s: avg_idle %d → %d at the wake-up; want it moved: %v", c.name, avg, cpu.avgIdle, c.moved)
		}
	}
}

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

// TestTTWUQueueCond: try_to_wake_up() → ttwu_queue(). Where
// ttwu_queue_cond() is false (the waker's own CPU, or a busy CPU of its
// LLC) the waker enqueues the task itself, so the next wake-up of a batch
// already counts it in nr_running; a preemption reaches a remote target
// by the resched IPI, after the wake-up's latency. An idle CPU of the LLC
// gets the task through the wake list and holds it as ttwu_pending until
// it activates it.
func TestTTWUQueueCond(t *testing.T) {
	for _, c := range []struct {
		name   string
		target int
		queued bool // enqueued by the waker, at once
	}{
		{"the waker's CPU", 0, true},
		{"a busy CPU of the LLC", 1, true},
		{"an idle CPU of the LLC", 2, false},
	} {
		s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1,"latency":{"variation":0}},
			"workload":{"groups":[{"name":"w","count":3,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
		place(s, 0, 0)
		s.schedule(&s.cpus[0])
		place(s, 1, 1)
		s.schedule(&s.cpus[1])
		p := s.tasks[2]
		p.cpu, p.state = 3, taskBlocked
		p.allowed = topo.NewCPUSet(4)
		p.allowed.Set(topo.CPU(c.target))
		p.nrAllowed = 1
		s.now = 100_000_000 // the running tasks' slices long spent: p preempts
		tc := &s.cpus[c.target]
		n := tc.nrRunning
		s.tryToWakeUp(p, 0, s.cpus[0].curr, true, true)
		if !c.queued {
			if p.state != taskWaking || tc.pending != 1 || tc.nrRunning != n {
				t.Errorf("%s: state %d, ttwu_pending %d, nr_running %d; want the task on the wake list, not yet queued", c.name, p.state, tc.pending, tc.nrRunning)
			}
			continue
		}
		if p.state != taskRunnable || p.cpu != c.target || tc.pending != 0 || tc.nrRunning != n+1 {
			t.Errorf("%s: state %d, cpu %d, ttwu_pending %d, nr_running %d; want it queued there at once", c.name, p.state, p.cpu, tc.pending, tc.nrRunning)
		}
		if tc.curr == p {
			t.Errorf("%s: the task preempted at the wake-up instant", c.name)
		}
		if at, want := nextEvent(s, evResched, c.target), s.now+s.ttwuLatency(0, c.target); at != want {
			t.Errorf("%s: the target reschedules at %d; want now + the wake-up's latency = %d", c.name, at, want)
		}
	}
}

// TestBatchWakeCurrentIsTheWaker: the wake-ups of a batch (futex_wake(),
// a barrier's release) are issued by the waker in its syscall, so
// current, whose wakee_flips record_wakee() counts, is the waker for every
// one of them, even when its CPU has switched to another task since.
func TestBatchWakeCurrentIsTheWaker(t *testing.T) {
	s := exactSim(t, `{"name":"w","count":4,"program":[{"compute":"1s"}]}`)
	w := place(s, 0, 0)
	s.schedule(&s.cpus[0])
	a, b := s.tasks[1], s.tasks[2]
	for i, p := range []*task{a, b} {
		p.cpu, p.state = i+1, taskBlocked
	}
	s.wakeBatch, s.wakeBatchCost = 0, 0
	s.grant(0, a, false)
	s.grant(0, b, false)
	other := place(s, 3, 0)
	s.cpus[0].curr = other // the waker was preempted before b's turn
	for {
		e, ok := s.q.pop()
		if !ok {
			t.Fatal("no deferred wake-up queued for b")
		}
		if e.kind == evWakeIssue && int(e.a) == b.id {
			s.now = e.at
			s.wakeIssue(b, int(e.b), e.gen == 1)
			break
		}
	}
	if w.wakeeFlips != 2 || other.wakeeFlips != 0 {
		t.Errorf("wakee_flips: waker %d, the task running since %d; want 2 and 0", w.wakeeFlips, other.wakeeFlips)
	}
}

// TestKworkerSleepRunsNewidle: the kernel noise's kworker is a
// SCHED_NORMAL task. Woken on an idle CPU it takes that CPU's avg_idle
// sample (ttwu_do_activate()); when it sleeps, __schedule() with the
// kworker as prev runs sched_balance_newidle(), which pulls a task queued
// on an overloaded CPU.
func TestKworkerSleepRunsNewidle(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1,"housekeeping":{"period":"4s","run":"20us"}},
		"workload":{"groups":[{"name":"w","count":2,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
	c0, c1 := &s.cpus[0], &s.cpus[1]
	place(s, 0, 0)
	place(s, 1, 0)
	s.schedule(c0)
	s.now = 50_000_000 // both tasks cold
	c1.idleStamp = s.now - 1_000_000
	c1.avgIdle, c1.maxIdleBalanceCost = 0, s.migCost
	s.rdOverloaded = true
	s.housekeeping(c1)
	if c1.avgIdle == 0 || c1.idleStamp != 0 {
		t.Errorf("the kworker's wake-up on idle cpu 1: avg_idle %d, idle_stamp %d; want a sample taken and the stamp cleared", c1.avgIdle, c1.idleStamp)
	}
	c1.avgIdle = 1e9 // newidle's avg_idle gate open
	s.now = c1.hkEnd
	s.housekeepingEnd(c1)
	if c1.curr == nil {
		t.Errorf("cpu 1 idles after its kworker slept although cpu 0 holds %v", tasksOn(s, 0))
	}
}

// TestWakeListIPIReturnHonoursAPendingResched: a CPU whose TIF_NEED_RESCHED
// another CPU set (its resched IPI still on the way) schedules at the
// return of the first interrupt that reaches it, here a wake-list IPI
// whose own wakee does not preempt (check_preempt_wakeup_fair() returns
// at test_tsk_need_resched(curr)); it does not wait for the resched IPI.
func TestWakeListIPIReturnHonoursAPendingResched(t *testing.T) {
	s := taskSim(t, 3)
	a := place(s, 0, 0)
	s.schedule(&s.cpus[0])
	p := place(s, 2, 1)
	s.schedule(&s.cpus[1])
	s.now += 100_000
	s.blockTask(&s.cpus[1], p)
	place(s, 1, 0) // queued behind a
	c := &s.cpus[0]
	s.needReschedAt(c, s.now+10_000) // a remote resched_curr(), its IPI 10 µs away
	wakeOnto(s, p, 0)
	if c.needResched {
		t.Errorf("after the wake-list IPI's return CPU 0 still has TIF_NEED_RESCHED (running task %d, a is %d); want schedule() to have run there", c.curr.id, a.id)
	}
}

// TestSMIdleSkipsThePick: in 6.12 the idle task rescheduled with nothing
// queued (__schedule(SM_IDLE), 3dcac251b066) keeps running without a pick,
// so no newidle balance stamps idle_stamp, and do_idle()'s exit restarts
// the stopped tick, which a WFI-only CPU keeps through the next pass
// (IDLE_RETAIN_TICK). 6.1's schedule_idle() picks: its newidle pass
// stamps idle_stamp again.
func TestSMIdleSkipsThePick(t *testing.T) {
	for _, c := range []struct {
		policy      string
		smIdle      bool
		restampWant bool
	}{{`{}`, true, false}, {`{"features":{"SM_IDLE":false}}`, false, true}} {
		s := taskSimPolicy(t, 1, c.policy)
		c0 := &s.cpus[0]
		p := place(s, 0, 0)
		s.schedule(c0)
		s.now += 1_000_000
		s.syncCPU(c0)
		s.blockTask(c0, p)
		if c0.curr != nil || !c0.inIdle {
			t.Fatal("setup: CPU 0 not idle after its task slept")
		}
		stamp := c0.idleStamp
		c0.tickOn = false // stopped by a later pass of the idle loop
		s.now += 10_000_000
		s.schedule(c0) // a resched of the idle task with nothing queued
		if restamped := c0.idleStamp != stamp; restamped != c.restampWant {
			t.Errorf("SM_IDLE %v: idle_stamp %d → %d; want a newidle pass %v", c.smIdle, stamp, c0.idleStamp, c.restampWant)
		}
		if c.smIdle && !c0.tickOn {
			t.Errorf("SM_IDLE: the tick stays stopped; want do_idle()'s exit to restart it")
		}
	}
}

// TestIdlePollingSendsNoIPI: on a machine whose idle states poll the
// thread flags (machine.latency.idle_polling: x86's mwait states), a
// remote wake-up (set_nr_if_polling()) or resched (set_nr_and_not_polling())
// of an idle CPU sends no IPI: the waker pays no ipi_send and the CPU acts
// after its idle exit alone. A busy CPU and a non-polling machine still
// take the IPI.
func TestIdlePollingSendsNoIPI(t *testing.T) {
	for _, polling := range []bool{false, true} {
		s := exactSim(t, `{"name":"w","count":2,"program":[{"compute":"1ms"}]}`)
		s.r.Machine.Latency.IdlePolling = polling
		lat := s.r.Machine.Latency
		ipi, send := int64(lat.IPI), int64(lat.IPISend)
		if polling {
			ipi, send = 0, 0
		}
		lines := wakeRemoteLines * s.cachelineCost(0, 1)
		if got, want := s.ttwuLatency(0, 1), int64(lat.Wakeup)+lines+ipi+int64(lat.IdleExit); got != want {
			t.Errorf("polling %v: wake-up of idle CPU 1 takes %d ns; want %d", polling, got, want)
		}
		w := s.tasks[1]
		w.cpu = 1
		if got, want := s.wakerCost(0, w), int64(lat.Wakeup)+send+ttwuWakerLines*s.cachelineCost(1, 0); got != want {
			t.Errorf("polling %v: the waker of a task whose CPU is idle pays %d ns; want %d", polling, got, want)
		}
		s.q.init(16, 0, 0)
		s.reschedCurr(1, 0)
		if e, ok := s.q.pop(); !ok || e.kind != evResched || e.at-s.now != ipi+int64(lat.IdleExit) {
			t.Errorf("polling %v: resched_curr() of idle CPU 1 queued %+v; want it after %d ns", polling, e, ipi+int64(lat.IdleExit))
		}
		s.busy(1)
		s.cpus[1].needResched = false
		if got, want := s.ttwuLatency(0, 1), int64(lat.Wakeup)+lines+int64(lat.IPI); got != want {
			t.Errorf("polling %v: wake-up of busy CPU 1 takes %d ns; want %d (the IPI)", polling, got, want)
		}
		s.q.init(16, 0, 0)
		s.reschedCurr(1, 0)
		if e, ok := s.q.pop(); !ok || e.at-s.now != int64(lat.IPI) {
			t.Errorf("polling %v: resched_curr() of busy CPU 1 queued %+v; want it after the IPI, %d ns", polling, e, int64(lat.IPI))
		}
	}
}

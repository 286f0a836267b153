package sim

import (
	"fmt"
	"testing"
)

// forkDecisions runs one repetition of a scenario on the machine preset
// with the given group and returns its fork decisions.
func forkDecisions(t *testing.T, machine, group string, seed int) []Decision {
	t.Helper()
	doc := fmt.Sprintf(`{"schedplay":1,"machine":{"preset":%q},"policy":{"preset":"none"},
		"workload":{"groups":[%s]},"run":{"duration":"50ms","seed":%d,"reps":1}}`, machine, group, seed)
	res := mustRun(t, resolveJSON(t, doc), Options{Timeline: true})
	var out []Decision
	for _, d := range res.Timeline.Decisions {
		if d.Kind == "fork" {
			out = append(out, d)
		}
	}
	return out
}

// TestForkFromBusyParent: the parent runs on its CPU while it forks, so
// sched_balance_find_dst_group() sees the local group busy (nr_running 1,
// no idle CPU) and sends the child to the first idle group after it — on
// an idle machine with no blocked load, the next CPU. Were the parent's
// CPU idle, the local group would tie and keep the child there.
func TestForkFromBusyParent(t *testing.T) {
	one := forkDecisions(t, "hikey960-dynamiq", `{"name":"w","count":1,"parent_cpu":5,"program":[{"compute":"5ms"}]}`, 1)
	if len(one) != 1 || one[0].From != 5 || one[0].To != 6 {
		t.Fatalf("fork decisions %+v; want one from CPU 5 to CPU 6", one)
	}
	// Eight children on eight CPUs: seven go to the idle CPUs, the last
	// finds every group busy and stays local, on the parent's CPU, which
	// it gets when the parent leaves.
	eight := forkDecisions(t, "hikey960-dynamiq", `{"name":"w","count":8,"parent_cpu":5,"program":[{"compute":"5ms"}]}`, 1)
	seen := map[int]int{}
	for _, d := range eight {
		seen[d.To]++
		if d.From != 5 {
			t.Errorf("fork from CPU %d; want the parent's CPU 5", d.From)
		}
	}
	if len(eight) != 8 || len(seen) != 8 || eight[7].To != 5 {
		t.Errorf("fork targets %+v; want one task per CPU, the last on the parent's CPU 5", eight)
	}
}

// TestForkFromOutsideTheChildsCPUs: on hikey960 (two clusters, a DIE
// level above them) a parent on CPU 0 forks two children allowed only the
// big cluster, CPUs 4-7. sched_balance_find_dst_cpu() keeps the parent's
// CPU as its cpu: at DIE the parent's group (0-3) does not intersect the
// child's mask, so there is no local group and the idlest allowed group is
// taken, then its idlest CPU, and the second child finds the first's CPU
// busy. The engine took the first allowed CPU as its cpu instead, so the
// big cluster was the local group, no group looked better, the descent
// went on into the parent's own MC, and both children stacked on CPU 4.
func TestForkFromOutsideTheChildsCPUs(t *testing.T) {
	two := forkDecisions(t, "hikey960", `{"name":"w","count":2,"cpus":"4-7","parent_cpu":0,"program":[{"compute":"5ms"}]}`, 1)
	if len(two) != 2 || two[0].To == two[1].To || two[0].To < 4 || two[1].To < 4 {
		t.Fatalf("fork decisions %+v; want two different CPUs of 4-7", two)
	}
}

// TestParentCPUDrawnPerRepetition: without parent_cpu the parent's CPU is
// drawn per repetition among the group's allowed CPUs, deterministically
// from the seed.
func TestParentCPUDrawnPerRepetition(t *testing.T) {
	g := `{"name":"w","count":1,"cpus":"1,3-5","program":[{"compute":"1ms"}]}`
	from := map[int]bool{}
	for seed := 1; seed <= 12; seed++ {
		d := forkDecisions(t, "hikey960-dynamiq", g, seed)
		if len(d) != 1 {
			t.Fatalf("seed %d: %d fork decisions", seed, len(d))
		}
		switch d[0].From {
		case 1, 3, 4, 5:
		default:
			t.Errorf("seed %d: parent on CPU %d, outside the group's cpus 1,3-5", seed, d[0].From)
		}
		from[d[0].From] = true
		if again := forkDecisions(t, "hikey960-dynamiq", g, seed); again[0].From != d[0].From || again[0].To != d[0].To {
			t.Errorf("seed %d: fork %+v then %+v; want the same", seed, d[0], again[0])
		}
	}
	if len(from) < 3 {
		t.Errorf("parent CPUs over 12 seeds: %v; want it to vary", from)
	}
}

// TestParentCPUsPool: parent_cpus narrows the draw to its CPUs, which need
// not be the children's: the parent of a group allowed every CPU of
// hikey960-dynamiq, drawn among the A73s (4-7), forks its lone child from
// one of them every time, where the group's own cpus also give A53s.
func TestParentCPUsPool(t *testing.T) {
	pooled := `{"name":"w","count":1,"parent_cpus":"4-7","program":[{"compute":"1ms"}]}`
	open := `{"name":"w","count":1,"program":[{"compute":"1ms"}]}`
	from, little := map[int]bool{}, false
	for seed := 1; seed <= 16; seed++ {
		d := forkDecisions(t, "hikey960-dynamiq", pooled, seed)
		if len(d) != 1 || d[0].From < 4 {
			t.Fatalf("seed %d: fork decisions %+v; want one, from a CPU of 4-7", seed, d)
		}
		from[d[0].From] = true
		if o := forkDecisions(t, "hikey960-dynamiq", open, seed); o[0].From < 4 {
			little = true
		}
	}
	if len(from) < 3 {
		t.Errorf("parent CPUs over 16 seeds: %v; want the draw to vary within 4-7", from)
	}
	if !little {
		t.Errorf("without parent_cpus no seed of 1-16 drew an A53 parent; the test no longer shows the pool's effect")
	}
}

// TestExecMovesParentToPE0: the benchmark's main thread is exec'ed on the
// CPU the shell left it on, and sched_exec()'s slow path goes through the
// v6 exit, so under a v6 policy the parent forks from its core's PE0 even
// when it was drawn on the PE1; under mainline (no exit) it stays where it
// was drawn, and a parent_cpu pins it.
func TestExecMovesParentToPE0(t *testing.T) {
	from := func(policy, group string, seed int) int {
		doc := fmt.Sprintf(`{"schedplay":1,"machine":{"preset":"vera-node"},"policy":{"preset":%q},
			"workload":{"groups":[%s]},"run":{"duration":"20ms","seed":%d,"reps":1}}`, policy, group, seed)
		res := mustRun(t, resolveJSON(t, doc), Options{Timeline: true})
		for _, d := range res.Timeline.Decisions {
			if d.Kind == "fork" {
				return d.From
			}
		}
		t.Fatalf("%s seed %d: no fork decision", policy, seed)
		return -1
	}
	open := `{"name":"w","count":1,"program":[{"compute":"5ms"}]}`
	drewPE1 := false
	for seed := 1; seed <= 16; seed++ {
		if c := from("v6-on", open, seed); c >= 88 {
			t.Errorf("v6-on seed %d: the parent forked from cpu %d, a PE1; want its core's idle PE0", seed, c)
		}
		if from("mainline", open, seed) >= 88 {
			drewPE1 = true
		}
	}
	if !drewPE1 {
		t.Errorf("under mainline no seed of 1-16 left the parent on a PE1; the test no longer shows the exit's effect")
	}
	if c := from("v6-on", `{"name":"w","count":1,"parent_cpu":100,"program":[{"compute":"5ms"}]}`, 1); c != 100 {
		t.Errorf("v6-on, parent_cpu 100: forked from cpu %d; want 100 (a parent_cpu pins the parent)", c)
	}
}

// forkSim is repetition 0 of a 4-CPU machine (no SMT, capacity 1024)
// running the given groups, none forked yet.
func forkSim(t *testing.T, groups string) *sim {
	t.Helper()
	return simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1},
		"workload":{"groups":[`+groups+`]},"run":{"duration":"1s","seed":1}}`)
}

// The parent is a task running on its CPU while it forks: its arrival is
// an enqueue, and add_nr_running() sets rd->overloaded when a runqueue
// gets its second task (prev_nr < 2 && nr_running >= 2,
// set_rd_overloaded()). A parent that comes to a CPU running another
// task overloads the root domain; one that comes to an idle CPU does not.
func TestForkParentArrivalRaisesOverloaded(t *testing.T) {
	for _, tc := range []struct {
		parentCPU  int
		overloaded bool
	}{{0, true}, {2, false}} {
		s := forkSim(t, `{"name":"bg","count":1,"cpus":"0","parent_cpu":0,"program":[{"compute":"1s"}]},
			{"name":"late","count":1,"start":"1ms","cpus":"1","parent_cpu":`+itoa(tc.parentCPU)+`,"program":[{"compute":"1s"}]}`)
		s.forkGroup(0)
		if s.cpus[0].curr == nil || s.cpus[0].nrRunning != 1 {
			t.Fatalf("set-up: cpu 0 should run bg's task alone (nr_running %d)", s.cpus[0].nrRunning)
		}
		s.rdOverloaded = false
		s.now = 1_000_000
		s.forkGroup(1)
		if s.rdOverloaded != tc.overloaded {
			t.Errorf("parent on cpu %d: rd->overloaded %v; want %v", tc.parentCPU, s.rdOverloaded, tc.overloaded)
		}
	}
}

// The parent's averages are in its CPU's cfs_rq while it forks (it has
// just started there: util (1024 − 0)/2 = 512, load 1024), and they stay
// there as blocked load when it leaves to wait in pthread_join()/wait()
// (dequeue_task_fair() without DO_DETACH). A child forked onto the
// parent's CPU gets post_init_entity_util_avg() from that cfs_rq:
// cfs_rq->avg.util_avg · se_weight / (cfs_rq->avg.load_avg + 1) =
// 512·1024/1025 = 511, capped at (capacity − cfs util_avg)/2 = 256. After
// the parent has left, the cfs_rq holds the child's 256 and the parent's
// blocked 512 (until Dec 2026 the engine detached the parent's averages,
// as only an exit would take them, task_dead_fair()).
func TestForkChildUtilSeesItsParent(t *testing.T) {
	s := forkSim(t, `{"name":"w","count":1,"cpus":"0","parent_cpu":0,"program":[{"compute":"1s"}]}`)
	s.forkGroup(0)
	p, c := s.tasks[0], &s.cpus[0]
	if p.cpu != 0 || c.curr != p {
		t.Fatalf("set-up: the child should run on cpu 0 (it is on cpu %d)", p.cpu)
	}
	if p.avg.utilAvg != 256 || p.avg.runnableAvg != 256 || p.avg.loadAvg != 1024 {
		t.Errorf("child util %d, runnable %d, load %d; want 256, 256 (the cap with the parent's 512 in the cfs_rq) and 1024",
			p.avg.utilAvg, p.avg.runnableAvg, p.avg.loadAvg)
	}
	if c.avg.utilAvg != 256+512 || c.avg.loadAvg != 2*1024 {
		t.Errorf("after the parent left, cfs_rq util %d, load %d; want the child's 256 and 1024 plus the waiting parent's blocked 512 and 1024", c.avg.utilAvg, c.avg.loadAvg)
	}
	if c.nrRunning != 1 {
		t.Errorf("after the parent left, nr_running %d; want 1", c.nrRunning)
	}
}

// A CPU the parent leaves with nothing to run schedules
// (pthread_join()/wait() blocks the parent: __schedule() →
// pick_next_task_fair() → sched_balance_newidle(), which sets
// this_rq->idle_stamp = rq_clock(this_rq) before it balances).
func TestForkParentLeavesThroughSchedule(t *testing.T) {
	s := forkSim(t, `{"name":"w","count":1,"start":"1ms","cpus":"0","parent_cpu":2,"program":[{"compute":"1s"}]}`)
	s.now = 1_000_000
	s.forkGroup(0)
	c := &s.cpus[2]
	if c.nrRunning != 0 || c.curr != nil {
		t.Fatalf("set-up: cpu 2 should be empty after the parent left (nr_running %d)", c.nrRunning)
	}
	if c.idleStamp != s.now {
		t.Errorf("cpu 2's idle_stamp = %d; want %d (sched_balance_newidle() when the parent left)", c.idleStamp, s.now)
	}
}

// workload.shared_parent is one process: it is exec'ed once (sched_exec()
// runs in execve(), one "exec" decision) and then forks every group, also
// the groups that start later; without it each group's parent is exec'ed.
func TestSharedParentExecsOnce(t *testing.T) {
	execs := func(shared string) int {
		doc := `{"schedplay":1,"machine":{"preset":"x86-smt"},"policy":{"preset":"mainline"},"workload":{` + shared + `"groups":[` +
			`{"name":"a","count":2,"program":[{"compute":"1ms"}]},{"name":"late","count":2,"start":"2ms","program":[{"compute":"1ms"}]}]},` +
			`"run":{"duration":"10ms","seed":3,"reps":1}}`
		res := mustRun(t, resolveJSON(t, doc), Options{Timeline: true})
		n := 0
		for _, d := range res.Timeline.Decisions {
			if d.Kind == "exec" {
				n++
			}
		}
		return n
	}
	if n := execs(`"shared_parent":true,`); n != 1 {
		t.Errorf("shared parent: %d exec decisions; want 1", n)
	}
	if n := execs(""); n != 2 {
		t.Errorf("a parent per group: %d exec decisions; want 2", n)
	}
}

// wake_up_new_task() runs on the parent's CPU: wakeup_preempt()'s
// resched_curr() of another CPU is an IPI, so a child placed on an idle
// CPU is queued there (nr_running 1, no longer idle) and runs only after
// the IPI and that CPU's idle exit; a child placed on the parent's own CPU
// is picked at once.
func TestForkRemoteChildWaitsForTheIPI(t *testing.T) {
	s := forkSim(t, `{"name":"w","count":1,"cpus":"1","parent_cpu":0,"program":[{"compute":"1s"}]}`)
	lat := s.r.Machine.Latency
	s.forkGroup(0)
	p, c := s.tasks[0], &s.cpus[1]
	if p.cpu != 1 || c.curr != nil || c.nrRunning != 1 || s.idleCPU(1) {
		t.Fatalf("at the fork: child on cpu %d, cpu 1 curr %v, nr_running %d, idle %v; want queued on a non-idle cpu 1",
			p.cpu, c.curr != nil, c.nrRunning, s.idleCPU(1))
	}
	e, ok := s.q.pop()
	for ok && e.kind != evResched {
		e, ok = s.q.pop()
	}
	if !ok || int(e.a) != 1 {
		t.Fatalf("no resched_curr() of cpu 1 queued (%+v)", e)
	}
	if got, want := e.at-s.now, int64(lat.IPI+lat.IdleExit); got != want {
		t.Errorf("cpu 1 reschedules %d ns after the fork; want %d (the IPI and the idle exit)", got, want)
	}
	s.now = e.at
	s.dispatch(e)
	if c.curr != p {
		t.Errorf("after the IPI cpu 1 does not run the child")
	}

	s = forkSim(t, `{"name":"w","count":1,"cpus":"0","parent_cpu":0,"program":[{"compute":"1s"}]}`)
	s.forkGroup(0)
	if s.cpus[0].curr != s.tasks[0] {
		t.Errorf("a child forked onto the parent's own CPU is not picked at once")
	}
}

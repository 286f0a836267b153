package sim

import (
	"reflect"
	"sort"
	"testing"

	"schedplay/engine/topo"
)

// Focused checks of load-balancing details against Linux 6.12 (fair.c,
// core.c): each test states the kernel's rule and fails on the old model.

// lbSim is a 4-CPU SMP machine without SMT for the tests below.
func lbSim(t *testing.T) *sim {
	t.Helper()
	return simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1},
		"workload":{"groups":[{"name":"w","count":1,"program":[{"compute":"1ms"}]}]},"run":{"duration":"10ms","seed":1}}`)
}

// ttwu_do_activate() (core.c): one idle period longer than the cap still
// enters update_avg(&rq->avg_idle, delta), i.e. moves avg_idle by 1/8 of the
// difference; only then is avg_idle capped at 2*max_idle_balance_cost.
func TestAvgIdleAfterOneLongIdle(t *testing.T) {
	s := lbSim(t)
	c := &s.cpus[1]
	maxCost := 2 * s.migCost
	if maxCost == 0 {
		t.Fatal("policy has no migration_cost")
	}
	c.avgIdle = maxCost / 10
	c.idleStamp = 1
	delta := 4 * maxCost // longer than the cap, but delta/8 is not
	s.now = c.idleStamp + delta
	s.updateAvgIdle(c)
	want := maxCost/10 + (delta-maxCost/10)/8
	if want >= maxCost {
		t.Fatalf("test setup: want %d reaches the cap %d", want, maxCost)
	}
	if c.avgIdle != want {
		t.Errorf("avg_idle after one %d ns idle period = %d; want update_avg() → %d (cap %d)", delta, c.avgIdle, want, maxCost)
	}
	if c.idleStamp != 0 {
		t.Errorf("idle_stamp not cleared")
	}
	// A second long idle period reaches the cap.
	c.idleStamp = s.now
	s.now += 100 * maxCost
	s.updateAvgIdle(c)
	if c.avgIdle != maxCost {
		t.Errorf("avg_idle after a very long idle = %d; want the cap %d", c.avgIdle, maxCost)
	}
}

// calculate_imbalance() (fair.c:11338) takes min() of two unsigned long
// terms: when the busiest group's avg_load is below the domain's average
// (a third, heavier group), the first term wraps to a huge value and the
// imbalance is the local group's room below the average.
func TestCalculateImbalanceUnsignedWrap(t *testing.T) {
	s := lbSim(t)
	env := &lbEnv{sd: s.t.Domains[0][0], dst: 0, idle: cpuIdle}
	env.localStat = sgStats{groupType: groupFullyBusy, groupLoad: 1000, groupCapacity: 2048}
	env.busiestStat = sgStats{groupType: groupOverloaded, avgLoad: 1500, groupLoad: 3000, groupCapacity: 2048}
	env.totalLoad, env.totalCap = 12288, 6144 // domain avg_load 2048
	s.calculateImbalance(env)
	// local avg_load = 1000*1024/2048 = 500; min(wrapped, (2048-500)*2048)/1024
	if env.migType != migrateLoad || env.imbalance != 3096 {
		t.Errorf("imbalance = %d (type %d); want migrate_load 3096 from the unsigned min()", env.imbalance, env.migType)
	}
	// Both terms positive: the smaller one.
	env.busiestStat.avgLoad = 2100
	env.imbalance = 0
	s.calculateImbalance(env)
	if env.imbalance != (2100-2048)*2048/1024 {
		t.Errorf("imbalance = %d; want %d", env.imbalance, (2100-2048)*2048/1024)
	}
}

// sched_balance_find_src_rq() with migrate_util (fair.c:11612) ranks CPUs by
// cpu_util_cfs_boost(): max(util_avg, runnable_avg, util_est) capped at the
// capacity, so a contended CPU (runnable above util) is the busiest.
func TestFindSrcRqMigrateUtilUsesBoost(t *testing.T) {
	s := lbSim(t)
	span, err := topo.ParseCPUList("2-3", 4)
	if err != nil {
		t.Fatal(err)
	}
	g := &topo.Group{Span: span}
	env := &lbEnv{sd: s.t.Domains[0][0], dst: 0, idle: cpuIdle, migType: migrateUtil, imbalance: 1024}
	a, b := &s.cpus[2], &s.cpus[3]
	a.nrRunning, b.nrRunning = 2, 2
	a.avg.utilAvg, a.avg.runnableAvg = 600, 600
	b.avg.utilAvg, b.avg.runnableAvg = 500, 900
	if got := s.schedBalanceFindSrcRq(env, g); got != 3 {
		t.Errorf("busiest = cpu %d; want cpu 3 (runnable_avg 900 > util_avg 600)", got)
	}
	b.avg.runnableAvg = 5000 // capped at the capacity: still the busiest
	if got := s.cpuUtilCfsBoost(b); got != b.cap {
		t.Errorf("cpu_util_cfs_boost = %d; want the capacity %d", got, b.cap)
	}
}

// smtSim is one node of 2 cores × 2 threads (domains SMT, MC).
func smtSim(t *testing.T) *sim {
	t.Helper()
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":2,"threads_per_core":2},
		"workload":{"groups":[{"name":"w","count":1,"program":[{"compute":"1ms"}]}]},"run":{"duration":"10ms","seed":1}}`)
	if len(s.t.Domains[1]) != 2 {
		t.Fatalf("want SMT and MC domains, got %d", len(s.t.Domains[1]))
	}
	return s
}

// sched_balance_rq(): a failed should_we_balance() jumps to out_balanced,
// which clears sd->nr_balance_failed and, for a periodic (not newidle)
// balance, falls through out_one_pinned into the balance_interval doubling.
func TestShouldWeBalanceFailureIsOutBalanced(t *testing.T) {
	s := smtSim(t)
	sd := s.t.Domains[1][1] // MC of CPU 1: CPU 0 (idle core) balances for the group
	st := &s.cpus[1].sd[1]
	st.nrBalanceFailed, st.balanceInterval = 3, sd.MinInterval
	moved, cont := s.schedBalanceRq(1, 1, cpuIdle, migPeriodic)
	if moved != 0 || cont {
		t.Fatalf("sched_balance_rq = %d, continue %v; want should_we_balance() to stop the walk", moved, cont)
	}
	if st.nrBalanceFailed != 0 || st.balanceInterval != 2*sd.MinInterval {
		t.Errorf("after should_we_balance() failed: nr_balance_failed %d (want 0), balance_interval %d (want %d)",
			st.nrBalanceFailed, st.balanceInterval, 2*sd.MinInterval)
	}
	// Up to max_interval, not beyond.
	st.balanceInterval = sd.MaxInterval
	s.schedBalanceRq(1, 1, cpuIdle, migPeriodic)
	if st.balanceInterval != sd.MaxInterval {
		t.Errorf("balance_interval %d grew beyond max_interval %d", st.balanceInterval, sd.MaxInterval)
	}
	// Newidle: a queued task fails should_we_balance(); nr_balance_failed is
	// cleared, the interval is left alone.
	s.cpus[1].nrRunning = 1
	st.nrBalanceFailed, st.balanceInterval = 2, sd.MinInterval
	if _, cont := s.schedBalanceRq(1, 1, cpuNewlyIdle, migNewidle); cont {
		t.Errorf("newidle with a queued task continued")
	}
	if st.nrBalanceFailed != 0 || st.balanceInterval != sd.MinInterval {
		t.Errorf("newidle: nr_balance_failed %d (want 0), balance_interval %d (want %d)", st.nrBalanceFailed, st.balanceInterval, sd.MinInterval)
	}
}

// taskSim is lbSim with n not-yet-forked tasks of a long compute.
func taskSim(t *testing.T, n int) *sim {
	t.Helper()
	return taskSimPolicy(t, n, `{}`)
}

// taskSimPolicy is taskSim under a policy document (its features, hz or
// generation).
func taskSimPolicy(t *testing.T, n int, policy string) *sim {
	t.Helper()
	return simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1},"policy":`+policy+`,
		"workload":{"groups":[{"name":"w","count":`+itoa(n)+`,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
}

// governorSim is taskSim's machine with an idle state deeper than WFI, so
// that a cpuidle governor runs and (as modelled) stops an idle CPU's tick
// when it goes idle: nohz_balance_enter_idle() at idle entry.
func governorSim(t *testing.T, n int) *sim {
	t.Helper()
	return simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1,
		"latency":{"idle_states":[{"name":"C1","exit_latency":"20us","target_residency":"100ms"}]}},
		"workload":{"groups":[{"name":"w","count":`+itoa(n)+`,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
}

// place enqueues task k on cpu as wake_up_new_task() would, without the
// placement decision; the caller schedules the CPU.
func place(s *sim, k, cpu int) *task {
	p := s.tasks[k]
	c := &s.cpus[cpu]
	p.cpu = cpu
	p.remaining = 1e12
	s.postInitEntityUtilAvg(c, p)
	s.attachEntityLoadAvg(c, p)
	s.enqueueTask(c, p, true, false)
	return p
}

// active_load_balance_cpu_stop() (fair.c:12113-12185) pushes whatever
// detach_one_task() finds first from the tail of cfs_tasks (the running task
// was preempted by the stopper and is the most recently picked), even when
// the destination got busy meanwhile (only busiest_rq->nr_running > 1 is
// checked, the stopper counted), and a successful push clears
// sd->nr_balance_failed of the destination's domain.
func TestActiveBalancePushesTheTailTask(t *testing.T) {
	for _, tc := range []struct{ dstBusy, tailPinned bool }{{false, false}, {true, false}, {false, true}} {
		dstBusy := tc.dstBusy
		s := taskSim(t, 4)
		s.now = 1_000_000
		a, b, c := place(s, 0, 0), place(s, 1, 0), place(s, 2, 0)
		s.schedule(&s.cpus[0])
		run := s.cpus[0].curr
		if run == nil {
			t.Fatal("cpu 0 runs nothing")
		}
		if dstBusy {
			place(s, 3, 1)
			s.schedule(&s.cpus[1])
		}
		s.now += 4_000_000
		var want *task // the earliest enqueued task that is not running (and may run on cpu 1)
		pin := tc.tailPinned
		for _, q := range []*task{a, b, c} {
			if q == run {
				continue
			}
			if pin {
				q.allowed = topo.NewCPUSet(4)
				q.allowed.Set(0)
				q.nrAllowed, pin = 1, false
				continue
			}
			want = q
			break
		}
		st := &s.cpus[1].sd[0]
		st.nrBalanceFailed = 5
		s.cpus[0].activeBalance = true
		s.activeLoadBalanceCPUStop(0, 1, migActive)
		if want.cpu != 1 {
			t.Errorf("%+v: pushed %v; want the tail task %s (cpu 0 ran %s)", tc, tasksOn(s, 1), want.name, run.name)
		}
		if st.nrBalanceFailed != 0 {
			t.Errorf("dst busy %v: nr_balance_failed %d after a push; want 0", dstBusy, st.nrBalanceFailed)
		}
		if s.cpus[0].activeBalance {
			t.Errorf("active_balance still set")
		}
	}
}

// tasksOn names the tasks on cpu (running first).
func tasksOn(s *sim, cpu int) []string {
	c := &s.cpus[cpu]
	var l []string
	if c.curr != nil {
		l = append(l, c.curr.name)
	}
	for _, q := range c.rq {
		l = append(l, q.name)
	}
	return l
}

// detach_tasks() walks rq->cfs_tasks from the tail. Tasks are list_add()ed
// at the head when enqueued (account_entity_enqueue) and list_move()d to
// the head when picked (__set_next_task_fair), so a task that ran and was
// preempted sits behind a task woken later that never ran: the preempted
// one is pulled first, not the never-run newcomer.
func TestDetachTasksWalksCfsTasksFromTheTail(t *testing.T) {
	s := taskSim(t, 3)
	c0 := &s.cpus[0]
	a := place(s, 0, 0)
	s.schedule(c0)
	if c0.curr != a {
		t.Fatal("a does not run")
	}
	s.now = 1_000_000
	b := place(s, 1, 0)
	s.now = 20_000_000 // a is past its slice: the next pick is b
	s.schedule(c0)
	if c0.curr != b {
		t.Fatalf("cpu 0 runs %v; want b after a's slice", tasksOn(s, 0))
	}
	s.now = 21_000_000
	cc := place(s, 2, 0) // woken after a was picked: nearer the head
	env := &lbEnv{sd: s.t.Domains[1][0], sdIdx: 0, this: 1, dst: 1, idle: cpuIdle, cause: migPeriodic,
		migType: migrateTask, imbalance: 1}
	pinned := true
	if n := s.detachTasks(env, 0, &pinned); n != 1 {
		t.Fatalf("detach_tasks moved %d; want 1", n)
	}
	if a.cpu != 1 || cc.cpu != 0 {
		t.Errorf("pulled %v; want a (the tail of cfs_tasks), c stays", tasksOn(s, 1))
	}
}

// A task detach_tasks() skips is list_move()d to the head, so the next
// balance pass reaches the others first.
func TestDetachTasksSkippedGoToTheHead(t *testing.T) {
	s := taskSim(t, 3)
	c0 := &s.cpus[0]
	a, b, cc := place(s, 0, 0), place(s, 1, 0), place(s, 2, 0)
	s.schedule(c0)
	s.now = 5_000_000
	var queued []*task
	for _, q := range []*task{a, b, cc} {
		if q != c0.curr {
			queued = append(queued, q)
		}
	}
	tail := queued[0] // enqueued first, not running
	tail.allowed = topo.NewCPUSet(4)
	tail.allowed.Set(0)
	tail.nrAllowed = 1
	env := &lbEnv{sd: s.t.Domains[1][0], sdIdx: 0, this: 1, dst: 1, idle: cpuIdle, cause: migPeriodic,
		migType: migrateTask, imbalance: 1}
	pinned := true
	if n := s.detachTasks(env, 0, &pinned); n != 1 || queued[1].cpu != 1 {
		t.Fatalf("moved %d, cpu 1 has %v; want %s", n, tasksOn(s, 1), queued[1].name)
	}
	if got := cfsTasksTail(c0); got != c0.curr {
		t.Errorf("tail of cfs_tasks after the pass is %s; want the running %s (the skipped pinned %s went to the head)", got.name, c0.curr.name, tail.name)
	}
}

// update_misfit_status() (fair.c:5225-5249) only sets rq->misfit_task_load;
// the root domain's overload flag comes from add_nr_running() and from
// update_sd_lb_stats() at the root domain, where a misfit task in a
// non-local group counts as overload (and a balanced pass clears it).
func TestMisfitStatusLeavesTheOverloadFlag(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"preset":"hikey960"},"policy":{"preset":"misfit"},
		"workload":{"groups":[{"name":"w","count":1,"program":[{"compute":"1s"}]}]},"run":{"duration":"2s","seed":1}}`)
	if !s.asymCapActive {
		t.Fatal("hikey960 has no asym capacity")
	}
	little := 0
	p := place(s, 0, little)
	s.schedule(&s.cpus[little])
	p.avg.utilAvg, p.avg.loadAvg = 1000, 1000
	p.utilEst = 1000
	s.rdOverloaded = false
	s.updateMisfitStatus(&s.cpus[little], p)
	if s.cpus[little].misfitLoad == 0 {
		t.Fatal("a 1000-util task on a little CPU is not misfit")
	}
	if s.rdOverloaded {
		t.Errorf("update_misfit_status() set the root domain overload flag")
	}
	// A periodic balance of an idle big CPU at the root domain sees the
	// misfit group and sets the flag.
	big := 4
	root := len(s.t.Domains[big]) - 1
	if s.t.Domains[big][root].Parent != nil {
		t.Fatal("last domain is not the root")
	}
	s.schedBalanceRq(big, root, cpuIdle, migPeriodic)
	if !s.rdOverloaded {
		t.Errorf("the root-domain balance pass did not set the overload flag for a misfit group")
	}
}

// sched_balance_rq(): after an all-pinned pass the busiest CPU is cleared
// from env->cpus and the pass is redone as long as a CPU outside the local
// group is left (fair.c:11950-11965), not just once: with two busiest CPUs
// whose tasks are all pinned, the third pass pulls from the next CPU.
func TestAllPinnedRedoesUntilNoCPULeft(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1},
		"workload":{"groups":[
			{"name":"p3","count":4,"cpus":"3","program":[{"compute":"1s"}]},
			{"name":"p2","count":3,"cpus":"2","program":[{"compute":"1s"}]},
			{"name":"free","count":2,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
	for k := 0; k < 9; k++ {
		cpu := 3
		if k >= 4 {
			cpu = 2
		}
		if k >= 7 {
			cpu = 1
		}
		place(s, k, cpu)
	}
	for cpu := 1; cpu < 4; cpu++ {
		s.schedule(&s.cpus[cpu])
	}
	s.now = 1_000_000
	moved, _ := s.schedBalanceRq(0, 0, cpuIdle, migPeriodic)
	if moved != 1 || s.cpus[0].nrRunning != 1 || s.cpus[1].nrRunning != 1 {
		t.Errorf("moved %d; cpu 0 has %v, cpu 1 %v: want one free task pulled after two all-pinned passes", moved, tasksOn(s, 0), tasksOn(s, 1))
	}
}

// A CPU that leaves idle stays in nohz.idle_cpus_mask, uncounted in its
// LLC's nr_busy_cpus, until its first busy tick: nohz_balancer_kick()
// calls nohz_balance_exit_idle() (fair.c), the pick does not.
func TestNohzExitAtTheFirstBusyTick(t *testing.T) {
	s := taskSim(t, 1)
	c := &s.cpus[1]
	llc := &s.llcs[s.t.SDLLCID[1]]
	if !c.nohzIdle {
		t.Fatal("an idle CPU at start is not nohz idle")
	}
	busy0, count0 := llc.nrBusyCPUs, s.nohzIdleCount
	s.now = 100_000
	place(s, 0, 1)
	s.schedule(c)
	if c.curr == nil {
		t.Fatal("cpu 1 runs nothing")
	}
	if !c.nohzIdle || llc.nrBusyCPUs != busy0 || s.nohzIdleCount != count0 {
		t.Errorf("after the pick: nohz idle %v, nr_busy_cpus %d (was %d), nohz.nr_cpus %d (was %d); want unchanged until the tick",
			c.nohzIdle, llc.nrBusyCPUs, busy0, s.nohzIdleCount, count0)
	}
	s.now = s.tickNs
	s.tick(c)
	if c.nohzIdle || llc.nrBusyCPUs != busy0+1 || s.nohzIdleCount != count0-1 {
		t.Errorf("after the first busy tick: nohz idle %v, nr_busy_cpus %d, nohz.nr_cpus %d; want false, %d, %d",
			c.nohzIdle, llc.nrBusyCPUs, s.nohzIdleCount, busy0+1, count0-1)
	}
}

// nohz_balancer_kick() kicks an ILB for NOHZ_STATS_KICK alone while
// nohz.has_blocked is set and nohz.next_blocked has passed, even when no
// balance is due (fair.c:12453): the ILB decays the idle CPUs' blocked
// load and sets nohz.next_blocked LOAD_AVG_PERIOD later. A CPU going idle
// when the refresh is due does the pass itself (nohz_newidle_balance()).
func TestNohzStatsKick(t *testing.T) {
	s, c1 := blockedSim(t) // cpu 1 idles with blocked load
	c0 := &s.cpus[0]
	if !s.nohzHasBlocked {
		t.Fatal("cpu 1 idle with blocked load: nohz.has_blocked not set")
	}
	util0 := c1.avg.utilAvg
	s.now = 40 * s.tickNs
	j := s.jiffies()
	s.nohzNextBalance = j + 1000 // no balance due
	s.nohzNextBlocked = j - 1
	s.nohzBalancerKick(c0)
	if !s.ilbPending || s.ilbFlags != nohzStatsKick {
		t.Fatalf("no stats-only ILB kick: pending %v flags %d", s.ilbPending, s.ilbFlags)
	}
	s.nohzIdleBalance(s.ilbCPU)
	if c1.avg.utilAvg >= util0 {
		t.Errorf("cpu 1 util_avg %d after the stats pass; want it decayed below %d", c1.avg.utilAvg, util0)
	}
	if want := j + s.msecsToJiffies(32); s.nohzNextBlocked != want {
		t.Errorf("nohz.next_blocked = %d; want %d", s.nohzNextBlocked, want)
	}
	if !s.nohzHasBlocked {
		t.Errorf("nohz.has_blocked cleared while cpu 1 still has blocked load")
	}
	// A second kick before next_blocked: none.
	s.nohzBalancerKick(c0)
	if s.ilbPending {
		t.Errorf("stats kick again before nohz.next_blocked")
	}
	// cpu 2 goes newly idle once the refresh is due: it runs the pass itself.
	q := place(s, 2, 2)
	s.schedule(&s.cpus[2])
	s.now = (s.nohzNextBlocked + 1) * s.tickNs
	util1 := c1.avg.utilAvg
	s.cpus[2].avgIdle = 2 * s.migCost
	s.blockTask(&s.cpus[2], q)
	if c1.avg.utilAvg >= util1 {
		t.Errorf("cpu 1 util_avg %d after cpu 2 went idle with the refresh due; want the NEWILB pass to decay it below %d", c1.avg.utilAvg, util1)
	}
}

// A CPU whose tick stops joins nohz.idle_cpus_mask and only sets
// nohz.needs_update (nohz_balance_enter_idle(), fair.c 6.12): it does not
// lower nohz.next_balance. The next busy tick adds NOHZ_NEXT_KICK to its
// kick even when no balance is due, and the ILB's pass lowers
// nohz.next_balance to the idle CPUs' earliest next_balance and clears
// needs_update (_nohz_idle_balance()); then busy ticks stop kicking.
func TestNohzNeedsUpdate(t *testing.T) {
	s := governorSim(t, 2)
	c0, c1 := &s.cpus[0], &s.cpus[1]
	place(s, 0, 0)
	s.schedule(c0)
	p := place(s, 1, 1)
	s.schedule(c1)
	s.now = 10 * s.tickNs
	s.tick(c0)
	s.tick(c1) // both leave nohz.idle_cpus_mask at their first busy tick
	if c1.nohzIdle {
		t.Fatal("cpu 1 still nohz idle after a busy tick")
	}
	j := s.jiffies()
	s.nohzNextBalance = j + 1000
	s.nohzNextBlocked = j + 1000 // no stats kick either
	s.ilbPending, s.nohzNeedsUpdate = false, false
	s.blockTask(c1, p)
	if !c1.nohzIdle || !s.nohzNeedsUpdate {
		t.Fatalf("cpu 1 idle: nohz idle %v, nohz.needs_update %v; want both", c1.nohzIdle, s.nohzNeedsUpdate)
	}
	if s.nohzNextBalance != j+1000 {
		t.Errorf("nohz.next_balance = %d after cpu 1 went idle; want it left at %d (only an ILB pass lowers it)", s.nohzNextBalance, j+1000)
	}
	s.nohzBalancerKick(c0)
	if !s.ilbPending || s.ilbFlags != nohzNextKick {
		t.Fatalf("busy tick with needs_update: ILB pending %v, flags %d; want a NOHZ_NEXT_KICK alone (%d)", s.ilbPending, s.ilbFlags, nohzNextKick)
	}
	s.nohzIdleBalance(s.ilbCPU)
	if s.nohzNeedsUpdate || s.nohzNextBalance > c1.nextBalance {
		t.Errorf("after the ILB pass: needs_update %v, nohz.next_balance %d; want false and ≤ cpu 1's next_balance %d",
			s.nohzNeedsUpdate, s.nohzNextBalance, c1.nextBalance)
	}
	s.nohzNextBalance = j + 1000
	s.nohzBalancerKick(c0)
	if s.ilbPending {
		t.Errorf("a busy tick kicked an ILB (flags %d) with nothing due and needs_update clear", s.ilbFlags)
	}
}

// _nohz_idle_balance() leaves nohz.next_balance alone when it visits no
// idle CPU ("next_balance will be updated only when there is a need",
// fair.c update_next_balance): an empty pass must not push it 60 s out.
func TestNohzIdleBalanceKeepsNextBalanceWhenNoCPUVisited(t *testing.T) {
	s := taskSim(t, 4) // every CPU of the 4-CPU machine busy
	for i := range s.cpus {
		place(s, i, i)
		s.schedule(&s.cpus[i])
		s.cpus[i].nohzIdle = false
	}
	s.now = 10 * s.tickNs
	want := s.jiffies() + 3
	s.nohzNextBalance = want
	s.nohzIdleBalanceFlags(0, nohzBalanceKick)
	if s.nohzNextBalance != want {
		t.Errorf("nohz.next_balance = %d after a pass over no idle CPU; want it left at %d", s.nohzNextBalance, want)
	}
}

// With a single-state cpuidle driver (WFI only, no
// machine.latency.idle_states; Grace's LPI table) do_idle() stops the tick
// only after the tick woke the idle CPU
// (kernel/sched/idle.c, f4c31b07b136): a CPU that goes idle keeps its tick,
// stays out of nohz.idle_cpus_mask and counted in nr_busy_cpus; its first
// idle tick runs its own periodic balance (CPU_IDLE) when due, then the
// tick stops and nohz_balance_enter_idle() runs. With deeper states a
// governor decides, modelled as stopping the tick at idle entry.
func TestIdleTickRetainedWithOneIdleState(t *testing.T) {
	for _, c := range []struct {
		states string // machine.latency.idle_states
		gen    string // policy.generation
		retain bool
	}{{`[{"name":"C1","exit_latency":"10us","target_residency":"20us"}]`, "tip-2026-09", false}, {`[]`, "tip-2026-09", true}, {`[]`, "6.12", true},
		{`[]`, "6.1", false}} { // before f4c31b07b136 (IDLE_RETAIN_TICK) the no-driver path stops the tick at idle entry
		s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1,"latency":{"idle_states":`+c.states+`}},"policy":{"generation":"`+c.gen+`"},
			"workload":{"groups":[{"name":"w","count":2,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
		c1 := &s.cpus[1]
		llc := &s.llcs[s.t.SDLLCID[1]]
		place(s, 0, 0)
		s.schedule(&s.cpus[0])
		p := place(s, 1, 1)
		s.schedule(c1)
		s.now = 10 * s.tickNs
		s.tick(c1) // the first busy tick: cpu 1 leaves nohz.idle_cpus_mask
		busy0 := llc.nrBusyCPUs
		s.now += s.tickNs / 2
		s.nohzNeedsUpdate = false
		s.blockTask(c1, p)
		if got := !c1.nohzIdle && c1.tickOn; got != c.retain {
			t.Errorf("idle states %s, %s: after the sleep, nohz idle %v, tick on %v; want the tick kept = %v", c.states, c.gen, c1.nohzIdle, c1.tickOn, c.retain)
		}
		if !c.retain {
			if llc.nrBusyCPUs != busy0-1 || !s.nohzNeedsUpdate {
				t.Errorf("idle states %s: nr_busy_cpus %d (was %d), needs_update %v; want one fewer busy CPU and needs_update", c.states, llc.nrBusyCPUs, busy0, s.nohzNeedsUpdate)
			}
			continue
		}
		if llc.nrBusyCPUs != busy0 || s.nohzNeedsUpdate {
			t.Errorf("ticking idle CPU: nr_busy_cpus %d (was %d), needs_update %v; want unchanged", llc.nrBusyCPUs, busy0, s.nohzNeedsUpdate)
		}
		s.now = 11 * s.tickNs
		c1.nextBalance = s.jiffies() // the CPU's own balance is due
		last := c1.sd[0].lastBalance
		s.tick(c1)
		if c1.sd[0].lastBalance == last {
			t.Errorf("the idle tick did not run cpu 1's periodic balance (last_balance %d)", last)
		}
		if !c1.nohzIdle || c1.tickOn || llc.nrBusyCPUs != busy0-1 || !s.nohzNeedsUpdate {
			t.Errorf("after the idle tick: nohz idle %v, tick on %v, nr_busy_cpus %d, needs_update %v; want the tick stopped and nohz_balance_enter_idle() done",
				c1.nohzIdle, c1.tickOn, llc.nrBusyCPUs, s.nohzNeedsUpdate)
		}
	}
}

// find_new_ilb() with ILB_IDLE_CORE (293f9611ae73): the first CPU of
// nohz.idle_cpus_mask that is idle, not this CPU, on a fully idle core
// first; without it (6.12), the first idle one. The word walk
// (findNewILBMask) and the CPU walk agree.
func TestFindNewILBPrefersIdleCore(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":80,"threads_per_core":2},
		"workload":{"groups":[{"name":"w","count":1,"program":[{"compute":"1ms"}]}]},"run":{"duration":"10ms","seed":1}}`)
	for i := range s.cpus {
		s.cpus[i].nohzIdle = true
		s.nohzIdleMask.Set(topo.CPU(i))
	}
	// Every core but the last has a busy thread: its other thread (the
	// lowest idle CPU of the core) is idle, its core is not.
	last := s.cores[len(s.cores)-1].cpus
	for _, core := range s.cores[:len(s.cores)-1] {
		c := &s.cpus[core.cpus[1]]
		c.nrRunning = 1
		s.cpuChanged(c)
	}
	firstIdle := noCPU
	for i := range s.cpus {
		if s.availableIdle(i) {
			firstIdle = i
			break
		}
	}
	if s.isCoreIdle(firstIdle) || !s.smtActive {
		t.Fatalf("setup: cpu %d's core is idle (smt active %v)", firstIdle, s.smtActive)
	}
	on, off := true, false
	for _, tc := range []struct {
		idleCore *bool
		self     int
		want     int
	}{
		{&on, firstIdle, min(last[0], last[1])},
		{&on, min(last[0], last[1]), max(last[0], last[1])},
		{&off, firstIdle + 1, firstIdle},
		{&off, firstIdle, noCPU}, // the next idle CPU, found below
	} {
		s.feat.ILBIdleCore = tc.idleCore
		want := tc.want
		if want == noCPU {
			for i := firstIdle + 1; i < len(s.cpus); i++ {
				if s.availableIdle(i) {
					want = i
					break
				}
			}
		}
		got, walk := s.findNewILBMask(tc.self), s.findNewILBWalk(tc.self)
		if got != want || walk != want {
			t.Errorf("ILB_IDLE_CORE %v, from cpu %d: find_new_ilb = %d (walk %d); want %d", *tc.idleCore, tc.self, got, walk, want)
		}
	}
}

// TestLbEnvResetEveryField fills every field of an lbEnv, resets it and
// checks it equals a fresh one: reset writes the fields one by one, so a
// field added to lbEnv and forgotten there fails here.
func TestLbEnvResetEveryField(t *testing.T) {
	var env lbEnv
	v := reflect.ValueOf(&env).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		f = reflect.NewAt(f.Type(), f.Addr().UnsafePointer()).Elem()
		switch f.Kind() {
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int, reflect.Int64:
			f.SetInt(7)
		case reflect.Uint8:
			f.SetUint(3)
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		case reflect.Struct:
			if f.Type() == reflect.TypeOf(sgStats{}) {
				f.Set(reflect.ValueOf(sgStats{groupLoad: 1, minCap: 2, asymPacking: true}))
			} else {
				f.Set(reflect.ValueOf(topo.NewCPUSet(8)))
			}
		default:
			t.Fatalf("lbEnv.%s: kind %s not filled by the test", v.Type().Field(i).Name, f.Kind())
		}
	}
	sd := &topo.Domain{Groups: []topo.Group{{}}}
	x := topo.NewCPUSet(4)
	env.reset(sd, 1, 2, cpuIdle, 3, x, migrateTask)
	want := lbEnv{sd: sd, sdIdx: 1, this: 2, on: 2, dst: 2, newDst: noCPU, idle: cpuIdle, cause: 3, local: &sd.Groups[0], excluded: x, migType: migrateTask}
	if !reflect.DeepEqual(env, want) {
		t.Fatalf("reset left %+v, want %+v", env, want)
	}
}

// smtBalanceTie answers false for update_sd_pick_busiest() without calling
// it; over every group type, idle count, avg_load, nr_running and the
// busiest group's SD_SHARE_CPUCAPACITY, whenever it answers,
// update_sd_pick_busiest() must return false, and it must answer for
// two smt_balance groups without idle CPUs and the same avg_load.
func TestSMTBalanceTieAgreesWithPickBusiest(t *testing.T) {
	s := smtSim(t)
	sd := s.t.Domains[0][1] // MC: groups are cores (SD_SHARE_CPUCAPACITY)
	share, plain := &sd.Groups[1], &topo.Group{Span: sd.Groups[1].Span, Weight: 2, AsymPreferCPU: topo.NoCPU}
	answered := 0
	for _, bg := range []*topo.Group{share, plain} {
		for gt := groupHasSpare; gt <= groupOverloaded; gt++ {
			for bt := groupHasSpare; bt <= groupOverloaded; bt++ {
				for _, idle := range [][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}} {
					for _, load := range [][2]int64{{0, 0}, {0, 5}, {5, 0}, {5, 5}} {
						for nr := 1; nr <= 3; nr++ {
							env := &lbEnv{sd: sd, dst: 0, idle: cpuIdle, local: &sd.Groups[0], busiest: bg}
							env.busiestStat = sgStats{groupType: bt, idleCPUs: idle[1], avgLoad: load[1], sumNrRunning: 2, sumHNrRunning: 2, groupWeight: 2}
							sgs := sgStats{groupType: gt, idleCPUs: idle[0], avgLoad: load[0], sumNrRunning: nr, sumHNrRunning: nr, groupWeight: 2}
							tie := smtBalanceTie(env, &sgs)
							if tie {
								answered++
								if s.updateSdPickBusiest(env, &sd.Groups[1], &sgs) {
									t.Errorf("smtBalanceTie answered for %v over %v (idle %v, avg_load %v, nr %d, share %v), update_sd_pick_busiest() picks it",
										groupTypeNames[gt], groupTypeNames[bt], idle, load, nr, bg == share)
								}
							}
							want := gt == groupSMTBalance && bt == groupSMTBalance && idle == [2]int{} && load[0] == load[1] && bg == share
							if tie != want {
								t.Errorf("smtBalanceTie %v for %v over %v (idle %v, avg_load %v, share %v), want %v", tie, groupTypeNames[gt], groupTypeNames[bt], idle, load, bg == share, want)
							}
						}
					}
				}
			}
		}
	}
	if answered == 0 {
		t.Fatal("smtBalanceTie never answered")
	}
}

// task_hot() (fair.c:9405) measures from se->exec_start, which
// enqueue_entity() zeroes when a task is enqueued with ENQUEUE_MIGRATED
// (fair.c:5452: a wake-up to another CPU, a balancer move; 6.1 zeroed it in
// migrate_task_rq_fair()): a task queued on a CPU it has not run on is
// cold, however recently it ran elsewhere. CACHE_HOT_BUDDY keeps CFS's
// buddies hot while dst is busy.
func TestMigratedTaskIsCacheCold(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1},
		"workload":{"groups":[{"name":"w","count":3,"program":[{"compute":"1ms"}]}]},"run":{"duration":"10ms","seed":1}}`)
	p, q, r := s.tasks[0], s.tasks[1], s.tasks[2]
	s.now = 100 * s.migCost
	for _, x := range []struct {
		t   *task
		cpu int
	}{{q, 0}, {r, 1}} { // q runs on CPU 0, r on CPU 1
		s.enqueueTask(&s.cpus[x.cpu], x.t, true, false)
		s.schedule(&s.cpus[x.cpu])
	}
	s.enqueueTask(&s.cpus[0], p, false, false) // p queued behind q
	p.execStart = s.now - s.migCost/2          // it ran there migration_cost/2 ago
	env := &lbEnv{sd: s.t.Domains[3][0], dst: 3, idle: cpuNewlyIdle}
	if s.cpus[0].curr != q || !s.taskHot(p, env) {
		t.Fatalf("setup: curr %v, p hot %v; want q running and p hot", s.cpus[0].curr == q, s.taskHot(p, env))
	}
	s.moveQueuedTask(p, 0, 1, 1, migNewidle, nil)
	if s.cpus[1].curr == p {
		t.Fatal("setup: p preempted r on CPU 1")
	}
	if s.taskHot(p, env) {
		t.Errorf("a task the balancer moved to CPU 1 is still cache hot there (exec_start %d, now %d)", p.execStart, s.now)
	}
	s.cpus[1].nextBuddy = p
	if !s.taskHot(p, &lbEnv{sd: s.t.Domains[0][0], dst: 0, idle: cpuIdle}) {
		t.Errorf("the next buddy of its runqueue is not hot for a busy dst (CACHE_HOT_BUDDY)")
	}
	if s.taskHot(p, env) {
		t.Errorf("the next buddy is hot for an idle dst")
	}
}

// sched_tick() decides nohz_balancer_kick() in its hard irq, before the
// SCHED_SOFTIRQ it raised balances at the irq's exit: a busy CPU whose own
// periodic balance pulls a second task (nr_running 1 → 2) does not kick
// the ILB for "nr_running >= 2" at that tick.
func TestTickKicksBeforeItsBalance(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":3,"cores_per_node":1,"threads_per_core":1},
		"workload":{"groups":[{"name":"w","count":7,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
	c0, c1, c2 := &s.cpus[0], &s.cpus[1], &s.cpus[2]
	place(s, 0, 0)
	s.schedule(c0)
	for k := 1; k < 7; k++ {
		place(s, k, 1)
	}
	s.schedule(c1)
	s.nohzBalanceEnterIdle(c2) // cpu 2 idles with its tick stopped
	s.now = 100 * s.tickNs
	c0.nextBalance = s.jiffies() // cpu 0's periodic balance is due
	s.nohzNextBalance = s.jiffies()
	s.ilbPending, s.ilbFlags = false, 0
	s.tick(c0)
	if c0.nrRunning != 2 {
		t.Fatalf("setup: cpu 0's periodic balance left it %d tasks; want one pulled from cpu 1's six (overloaded: migrate_util)", c0.nrRunning)
	}
	if s.ilbPending && s.ilbFlags&nohzBalanceKick != 0 {
		t.Errorf("cpu 0's tick kicked the ILB for a balance (flags %#x): nohz_balancer_kick() saw nr_running after the tick's own balance", s.ilbFlags)
	}
}

// update_sg_lb_stats() counts a CPU idle with idle_cpu(), which is false
// while rq->curr is not the idle task. A newidle pass runs inside
// __schedule() before context_switch(), with rq->curr still prev, so the
// balancing CPU is not one of its local group's idle CPUs, unless prev is
// the idle task itself. hikey960 (two 4-CPU clusters, no SD_PREFER_SIBLING
// at PKG): CPU 4's task blocks, CPUs 5–7 are idle, CPU 0 runs a light task
// with another queued and CPU 1 one. With CPU 4 counted, local idle_cpus
// 4 > busiest's 2 + 1 and (4 − 2) >> 1 = 1 task is pulled; as 6.12 counts,
// 3 ≤ 3 is out_balanced.
func TestNewidleDstIsNotIdle(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"preset":"hikey960"},"policy":{"preset":"misfit"},
	  "workload":{"groups":[{"name":"w","count":4,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
	s.now = 1_000_000
	p := place(s, 0, 4)
	s.schedule(&s.cpus[4])
	place(s, 1, 0)
	s.schedule(&s.cpus[0])
	place(s, 2, 1)
	s.schedule(&s.cpus[1])
	place(s, 3, 0).execStart = execStartCold // queued behind CPU 0's task, not cache hot
	for _, c := range []int{0, 1} {
		s.cpus[c].avg.utilAvg, s.cpus[c].avg.runnableAvg, s.cpus[c].misfitLoad = 100, 100, 0
		s.cpuChanged(&s.cpus[c])
	}
	c4 := &s.cpus[4]
	s.dequeueCurr(c4, p, false)
	sd := s.t.Domains[4][1]
	if sd.Groups[0].Flags&topo.SDPreferSibling != 0 || sd.Groups[1].Flags&topo.SDPreferSibling != 0 || sd.Groups[1].Weight != 4 {
		t.Fatalf("%s: want two 4-CPU groups without SD_PREFER_SIBLING", sd.Span)
	}
	for _, c := range []struct {
		name      string
		schedPrev bool
		idle      int
		busiest   bool
	}{
		{"inside __schedule() after prev blocked", true, 3, false},
		{"inside __schedule() from the idle task", false, 4, true},
	} {
		c4.schedPrev = c.schedPrev
		var env lbEnv
		env.reset(sd, 1, 4, cpuNewlyIdle, 0, topo.CPUSet{}, migrateLoad)
		g := s.schedBalanceFindSrcGroup(&env)
		if env.localStat.idleCPUs != c.idle || (g != nil) != c.busiest {
			t.Errorf("%s: local idle_cpus %d, busiest %v; want %d, %v", c.name, env.localStat.idleCPUs, g != nil, c.idle, c.busiest)
		}
	}
	// The same through __schedule() after the task blocked: the newidle
	// pass (rd->overloaded set, avg_idle above every domain's cost) pulls
	// nothing, and the mark is gone once the CPU has gone idle.
	c4.schedPrev = false
	c4.inIdle = false
	s.rdOverloaded = true
	c4.avgIdle = 1e9
	s.schedule(c4)
	if c4.curr != nil || c4.nrRunning != 0 {
		t.Errorf("CPU 4's newidle pass after its task blocked pulled %v", c4.curr)
	}
	if c4.schedPrev {
		t.Error("schedPrev still set after __schedule()")
	}
	// A stopper that finds its source idle: balance_fair()'s pass runs with
	// rq->curr the stopper, so CPU 4 is not idle to it either.
	if !c4.inIdle {
		t.Fatal("set-up: CPU 4 did not go idle")
	}
	c4.activeBalance = true
	c4.avgIdle = 1e9
	s.activeLoadBalanceCPUStop(4, 5, migActive)
	if c4.curr != nil || c4.nrRunning != 0 {
		t.Errorf("the pass after a stopper on idle CPU 4 pulled %v", c4.curr)
	}
	// The kernel noise's kworker sleeping on idle CPU 4: its newidle pass
	// runs with rq->curr the kworker.
	c4.hkBusy = true
	c4.avgIdle = 1e9
	s.housekeepingEnd(c4)
	if c4.curr != nil || c4.nrRunning != 0 {
		t.Errorf("the pass after the kworker slept on idle CPU 4 pulled %v", c4.curr)
	}
}

// update_sg_lb_stats() and update_sg_wakeup_stats() read rq->nr_running,
// which counts every class: a CPU running one fair task while the kernel
// noise's kworker runs holds 2, so its group sums 2 and the root's
// sg_overloaded is set (set_rd_overloaded()), as add_nr_running() does.
func TestGroupStatsCountTheKworker(t *testing.T) {
	s := lbSim(t)
	s.now = 1_000_000
	place(s, 0, 1)
	s.schedule(&s.cpus[1])
	c1 := &s.cpus[1]
	c1.hkBusy = true
	s.cpuChanged(c1)
	sd := s.t.Domains[0][0]
	var env lbEnv
	env.reset(sd, 0, 0, cpuIdle, 0, topo.CPUSet{}, migrateLoad)
	s.updateSdLbStats(&env)
	if !env.overloaded {
		t.Error("a CPU running a task and the kworker does not set sg_overloaded")
	}
	var g *topo.Group
	for i := range sd.Groups {
		if sd.Groups[i].Span.Has(1) {
			g = &sd.Groups[i]
		}
	}
	var sgs sgStats
	s.updateSgLbStats(&env, g, false, &sgs)
	if sgs.sumNrRunning != 2 || sgs.sumHNrRunning != 1 {
		t.Errorf("load-balance stats of CPU 1: sum_nr_running %d, sum_h_nr_running %d; want 2, 1", sgs.sumNrRunning, sgs.sumHNrRunning)
	}
	p := &task{id: 9, weight: 1024, allowed: sd.Span, nrAllowed: sd.Span.Weight(), maxAllowedCap: 1024}
	s.updateSgWakeupStats(sd, g, p, &sgs)
	if sgs.sumNrRunning != 2 {
		t.Errorf("wake-up stats of CPU 1: sum_nr_running %d; want 2", sgs.sumNrRunning)
	}
	s.sgWakeupStatsWalk(sd, g, p, &sgs) // the walk a task not allowed on every CPU takes
	if sgs.sumNrRunning != 2 {
		t.Errorf("wake-up stats of CPU 1 by a walk: sum_nr_running %d; want 2", sgs.sumNrRunning)
	}
}

// The stopper runs on the source CPU: when the task it pushes should
// preempt the busy destination's (attach_one_task() → wakeup_preempt() →
// resched_curr(dst_rq)), the destination learns it from the IPI and
// schedules after it. A balance pass attaches on its own CPU and schedules
// at once.
func TestStopperPushPreemptsByIPI(t *testing.T) {
	for _, stopper := range []bool{true, false} {
		s := exactSim(t, `{"name":"w","count":3,"program":[{"compute":"1s"}]}`)
		place(s, 0, 0)
		place(s, 1, 0)
		s.schedule(&s.cpus[0])
		c := place(s, 2, 1)
		s.schedule(&s.cpus[1])
		s.now += 10_000_000 // c's slice long spent: any fair arrival preempts it
		s.cpus[1].sd[0].nrBalanceFailed = 5
		if stopper {
			s.cpus[0].activeBalance = true
			s.activeLoadBalanceCPUStop(0, 1, migActive)
		} else {
			var p *task
			if p = s.cpus[0].rq[0]; p == nil {
				t.Fatal("set-up: nothing queued on cpu 0")
			}
			s.moveQueuedTask(p, 0, 1, 1, migPeriodic, nil)
		}
		if n := len(tasksOn(s, 1)); n != 2 {
			t.Fatalf("stopper %v: cpu 1 holds %v; want c and the pushed task", stopper, tasksOn(s, 1))
		}
		if !stopper {
			if s.cpus[1].curr == c {
				t.Error("a pass on cpu 1 itself: the pulled task did not preempt c at once")
			}
			continue
		}
		if s.cpus[1].curr != c {
			t.Error("the stopper on cpu 0 preempted cpu 1's task at once")
		}
		if at := nextEvent(s, evResched, 1); at != s.now+int64(s.r.Machine.Latency.IPI) {
			t.Errorf("cpu 1 reschedules at %d; want now + IPI = %d", at, s.now+int64(s.r.Machine.Latency.IPI))
		}
	}
}

// detach_tasks() puts each task it detaches at the head of env->tasks
// (list_add()); attach_tasks() then attaches from the head, the last
// detached first, and wakeup_preempt() of a task attached after dst's
// curr was told to reschedule returns at once (test_tsk_need_resched()):
// under 6.1's CFS only that first task becomes dst's next buddy, and dst
// schedules once, after the pass, to it.
func TestAttachTasksLastDetachedFirst(t *testing.T) {
	s := taskSimPolicy(t, 8, `{"generation":"6.1"}`)
	c0, c1 := &s.cpus[0], &s.cpus[1]
	for k := range 6 {
		place(s, k, 0)
	}
	s.schedule(c0)
	place(s, 6, 1)
	place(s, 7, 1)
	s.schedule(c1)
	busy := c1.curr
	s.now += 100_000_000 // every task cold; cpu 1's curr has run far ahead of its min_vruntime
	s.updateCurr(c1)
	// pull runs a pass pulling two tasks from cpu 0 to dst and returns
	// them in detach order: the tail of cpu 0's cfs_tasks, its curr skipped.
	pull := func(dst int, idle cpuIdleType) (first, second *task) {
		var want []*task
		want = append(want, c0.rq...)
		sort.Slice(want, func(i, j int) bool { return want[i].cfsPos < want[j].cfsPos })
		var env lbEnv
		env.reset(s.t.Domains[dst][0], 0, dst, idle, migPeriodic, topo.CPUSet{}, migrateTask)
		env.imbalance = 2
		pinned := true
		if n := s.detachTasks(&env, 0, &pinned); n != 2 {
			t.Fatalf("moved %d to cpu %d; want 2", n, dst)
		}
		if want[0].cpu != dst || want[1].cpu != dst {
			t.Fatalf("cpu %d holds %v; want %s and %s", dst, tasksOn(s, dst), want[0].name, want[1].name)
		}
		return want[0], want[1]
	}
	first, second := pull(2, cpuIdle)
	if first.cfsPos < second.cfsPos {
		t.Errorf("%s (detached first) is behind %s in idle cpu 2's cfs_tasks; attach_tasks() attaches it last, at the head", first.name, second.name)
	}
	_, second = pull(1, cpuNotIdle)
	if c1.curr != second {
		t.Errorf("busy cpu 1 runs %s after the pass (it ran %s); want %s, attached first and its only next buddy", c1.curr.name, busy.name, second.name)
	}
}

// The stopper thread is woken on its CPU like any task
// (ttwu_do_activate()): a source that went idle since the pass asked for
// it takes its avg_idle sample then, and the balance_fair() pass after
// the stopper stamps idle_stamp anew.
func TestStopperWakeSamplesAvgIdle(t *testing.T) {
	s := lbSim(t)
	c := &s.cpus[1]
	maxCost := 2 * s.migCost
	c.maxIdleBalanceCost = s.migCost
	c.avgIdle = maxCost / 10
	c.idleStamp = 1_000_000
	s.now = c.idleStamp + maxCost/2
	c.activeBalance = true
	s.activeLoadBalanceCPUStop(1, 2, migActive)
	if want := maxCost/10 + (maxCost/2-maxCost/10)/8; c.avgIdle != want {
		t.Errorf("avg_idle after the stopper woke on idle cpu 1 = %d; want %d", c.avgIdle, want)
	}
}

// A retained idle tick balances as an idle CPU's only while idle_cpu()
// holds (sched_tick(): rq->idle_balance = idle_cpu()). With a wake-up
// pending (ttwu_pending) or a task queued for the CPU, sched_balance_domains()
// runs as CPU_NOT_IDLE, at the busy intervals (its next_balance lands
// later). With a task queued, need_resched() ends do_idle()'s loop, so the
// tick runs on and the CPU never enters nohz idle; with only a wake-up
// pending the loop stops the tick, as for an idle CPU.
func TestIdleTickOnANonIdleCPU(t *testing.T) {
	next := map[string]int64{}
	for _, kind := range []string{"idle", "pending", "queued", "queued, balance not due"} {
		s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1},
			"workload":{"groups":[{"name":"w","count":3,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
		c1 := &s.cpus[1]
		place(s, 0, 0)
		s.schedule(&s.cpus[0])
		p := place(s, 1, 1)
		s.schedule(c1)
		s.now = 10 * s.tickNs
		s.tick(c1)
		s.now += s.tickNs / 2
		s.blockTask(c1, p)
		if c1.nohzIdle || !c1.tickOn {
			t.Fatalf("%s: after the sleep, nohz idle %v, tick on %v; want the tick kept", kind, c1.nohzIdle, c1.tickOn)
		}
		switch kind {
		case "pending":
			c1.pending++ // a wake-up in flight to cpu 1 (ttwu_pending)
		case "queued", "queued, balance not due":
			place(s, 2, 1) // a task given to cpu 1, its resched IPI in flight
		}
		s.now = 11 * s.tickNs
		c1.nextBalance = 0 // cpu 1's own balance is due
		if kind == "queued, balance not due" {
			c1.nextBalance = 1000
		}
		s.idleTick(c1)
		next[kind] = c1.nextBalance
		wantTick := kind != "idle" && kind != "pending"
		if c1.tickOn != wantTick || c1.nohzIdle == wantTick {
			t.Errorf("%s: after the tick, tick on %v, nohz idle %v; want the tick kept %v", kind, c1.tickOn, c1.nohzIdle, wantTick)
		}
	}
	if next["pending"] <= next["idle"] || next["queued"] <= next["idle"] {
		t.Errorf("next_balance after the tick: idle %d, pending %d, queued %d jiffies; want the non-idle ticks at the busy intervals, later than the idle one",
			next["idle"], next["pending"], next["queued"])
	}
}

// detach_task() → dequeue_entity() → update_load_avg(cfs_rq, se, UPDATE_TG
// | DO_DETACH): the source cfs_rq is aged while the task still counts in
// its weight and runnable count, then the task's averages leave. Two
// tasks enqueued together and runnable since have equal averages, whose
// sum the cfs_rq holds; after one is pulled 3 ms past the last update the
// cfs_rq holds the other's alone. Aged without the pulled task, it would
// miss that task's 3 ms of load and runnable time (≈ 1024 · 3/47.7).
func TestDetachAgesTheSourceWithTheTask(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":2,"threads_per_core":1},
		"workload":{"groups":[{"name":"w","count":2,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
	c0 := &s.cpus[0]
	a := place(s, 0, 0)
	b := place(s, 1, 0)
	s.schedule(c0)
	updateCPUAt(s, c0, 40_000_000)
	s.now += 3_000_000
	s.detachTask(b, 0, 1)
	s.updateTaskLoadAvg(a)
	if d := int64(c0.avg.runnableAvg) - int64(a.avg.runnableAvg); d < -2 || d > 2 {
		t.Errorf("after the pull, cpu 0's runnable_avg %d, the task left there %d: want them equal (±2)", c0.avg.runnableAvg, a.avg.runnableAvg)
	}
}

// The kernel noise's kworker sleeping on an idle CPU switches to the idle
// task: set_next_task_idle() → update_idle_core() sets has_idle_cores
// again when the core's other CPUs are idle, as any task's sleep does.
func TestKworkerSleepSetsIdleCores(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":2,"threads_per_core":2,"housekeeping":{"period":"4s","run":"20us"}},
		"workload":{"groups":[{"name":"w","count":1,"program":[{"compute":"1s"}]}]},"run":{"duration":"1s","reps":1,"seed":1}}`)
	s.now = 1_000_000
	c := &s.cpus[0]
	s.housekeeping(c)
	s.shared[0].hasIdleCores = false // a failed idle-core scan during the burst
	s.now = c.hkEnd
	s.housekeepingEnd(c)
	if !s.availableIdle(0) || !s.shared[0].hasIdleCores {
		t.Errorf("after the kworker sleeps: cpu 0 idle %v, has_idle_cores %v; want the hint set again", s.availableIdle(0), s.shared[0].hasIdleCores)
	}
}

// wake_affine_idle()'s sync rule reads rq->nr_running − cfs_h_nr_delayed():
// every class counts, so a waker beside the running kworker is not alone
// and the wakee is not pulled to its CPU by that rule.
func TestWakeAffineIdleSyncCountsEveryClass(t *testing.T) {
	for _, hk := range []bool{false, true} {
		s := taskSim(t, 4)
		place(s, 0, 0)
		s.schedule(&s.cpus[0])
		place(s, 1, 2)
		s.schedule(&s.cpus[2])
		s.cpus[0].hkBusy = hk
		got := s.wakeAffineIdle(0, 2, true)
		if want := map[bool]int{false: 0, true: noCPU}[hk]; got != want {
			t.Errorf("kworker on the waker's CPU %v: wake_affine_idle(sync) → %d; want %d", hk, got, want)
		}
	}
}

// nohz_csd_func(): the kick's IPI releases the ILB's flags and raises
// SCHED_SOFTIRQ only when the ILB is still idle_cpu(). An ILB that the
// kernel noise's kworker reached meanwhile drops the kick: no pass runs,
// and nohz.has_blocked stays set for a later kick.
func TestILBKickDroppedWhenTheILBIsBusy(t *testing.T) {
	for _, busy := range []bool{false, true} {
		s := taskSim(t, 4)
		s.nohzHasBlocked = true
		s.ilbPending, s.ilbFlags = true, nohzStatsKick
		if busy {
			s.cpus[3].hkBusy = true // the kworker runs on the ILB
		}
		s.nohzIdleBalance(3)
		if s.ilbPending || s.nohzHasBlocked != busy {
			t.Errorf("ILB busy %v: kick pending %v, nohz.has_blocked %v; want the kick released and the stats pass run only on an idle ILB", busy, s.ilbPending, s.nohzHasBlocked)
		}
	}
}

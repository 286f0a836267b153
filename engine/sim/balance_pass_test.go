package sim

import (
	"testing"

	"schedplay/engine/topo"
)

// Rules of one sched_balance_rq() pass (balance_rq.go) that no test held
// before the ninth mutation round (docs/model.md, "Verification"): the
// pass's should_we_balance(), sched_balance_find_src_rq(),
// can_migrate_task(), detach_tasks(), its failure counting and interval,
// and the active-balance stopper. The figures are 6.12 fair.c's.

// TestShouldWeBalanceWalk: a periodic or idle pass over a domain whose
// local group has several CPUs runs on the first idle CPU of an idle core,
// else on the first idle CPU of a busy core, else on the group's first
// CPU (group_balance_cpu()). veraTestMachine: at NUMA the local group is
// node 0 (CPUs 0-87 and their PE1 siblings 176-263, walked in number
// order); at MC it is the core, {10, 186}.
func TestShouldWeBalanceWalk(t *testing.T) {
	for _, c := range []struct {
		name  string
		level int // 1: MC, 2: NUMA
		busy  []int
		dst   int
		want  bool
	}{
		{"NUMA: 1 idle on a busy core, 2 on an idle core: 2", 2, []int{0, 177}, 2, true},
		{"NUMA: … and not 1", 2, []int{0, 177}, 1, false},
		{"NUMA: no idle core: the first idle CPU of a busy core", 2, append(allPE0sBut(5), 176+6), 5, true},
		{"MC: core busy: its first CPU", 1, []int{10, 186}, 10, true},
		{"MC: core busy: not its second", 1, []int{10, 186}, 186, false},
	} {
		s := wakeSim(t, `{"asym_cpucapacity":false}`)
		s.busy(c.busy...)
		sd := s.t.Domains[c.dst][c.level]
		if got := s.shouldWeBalance(sd, c.dst, cpuIdle); got != c.want {
			t.Errorf("%s: should_we_balance(%s, dst %d) = %v; want %v", c.name, sd.Level, c.dst, got, c.want)
		}
	}
}

// srcRq sets CPU i of taskSim's machine to run nr tasks with load and
// util (nothing queued for real: sched_balance_find_src_rq() reads the
// counts and averages only).
func srcRq(s *sim, i, nr int, load uint64, capacity int) {
	c := &s.cpus[i]
	c.nrRunning = nr
	c.avg.loadAvg, c.avg.utilAvg, c.avg.runnableAvg = load, load, load
	c.cap = capacity
	syncBuildCapacities(s)
}

// TestFindSrcRq: sched_balance_find_src_rq()'s rules per migration type,
// over a group of CPUs 1 and 2.
func TestFindSrcRq(t *testing.T) {
	type rq struct {
		nr   int
		load uint64
		cap  int
	}
	for _, c := range []struct {
		name      string
		policy    string
		dst       int
		mt        migrationType
		imbalance int64
		one, two  rq
		want      int
	}{
		{"load: a lone task heavier than the imbalance stays", `{}`, 0, migrateLoad, 500, rq{1, 1000, 1024}, rq{2, 600, 1024}, 2},
		{"load: a lone task within the imbalance can go", `{}`, 0, migrateLoad, 2000, rq{1, 1000, 1024}, rq{2, 600, 1024}, 1},
		{"load: scaled by capacity, 600/512 > 1000/1024", `{}`, 0, migrateLoad, 5000, rq{2, 600, 512}, rq{2, 1000, 1024}, 1},
		{"util: never a CPU with one task", `{}`, 0, migrateUtil, 500, rq{1, 900, 1024}, rq{2, 400, 1024}, 2},
		{"task: the most tasks, the first on a tie", `{}`, 0, migrateTask, 1, rq{3, 100, 1024}, rq{3, 900, 1024}, 1},
		// default priorities (−cpu): 1 is preferred to dst 3, so its lone
		// task is not pulled down to 3; 2 is not.
		{"asym packing: no lone task from a preferred CPU", `{"asym_packing":["MC"]}`, 3, migrateLoad, 5000, rq{1, 1000, 1024}, rq{2, 600, 1024}, 2},
	} {
		s := taskSimPolicy(t, 1, c.policy)
		srcRq(s, 1, c.one.nr, c.one.load, c.one.cap)
		srcRq(s, 2, c.two.nr, c.two.load, c.two.cap)
		g := &topo.Group{Span: topo.NewCPUSet(4), Weight: 2}
		g.Span.Set(1)
		g.Span.Set(2)
		env := &lbEnv{sd: s.t.Domains[c.dst][0], dst: c.dst, idle: cpuIdle, migType: c.mt, imbalance: c.imbalance}
		if got := s.schedBalanceFindSrcRq(env, g); got != c.want {
			t.Errorf("%s: busiest CPU %d; want %d", c.name, got, c.want)
		}
	}
}

// hotQueue puts n tasks on CPU 0 of taskSim's machine, the first running,
// and makes the queued ones cache hot: each ran 100 µs ago.
func hotQueue(t *testing.T, n int) *sim {
	t.Helper()
	s := taskSim(t, n)
	for k := range n {
		place(s, k, 0)
	}
	s.schedule(&s.cpus[0])
	s.now = 10_000_000
	for _, q := range s.cpus[0].rq {
		q.execStart = s.now - 100_000
	}
	return s
}

// TestCanMigrateTaskHot: can_migrate_task() refuses the running task,
// and a cache-hot one until nr_balance_failed exceeds cache_nice_tries (1
// at MC); task_hot() is false at the SMT level, whose siblings share the
// caches.
func TestCanMigrateTaskHot(t *testing.T) {
	s := hotQueue(t, 2)
	c0 := &s.cpus[0]
	env := &lbEnv{sd: s.t.Domains[1][0], this: 1, dst: 1, idle: cpuIdle, migType: migrateTask}
	if env.sd.CacheNiceTries != 1 {
		t.Fatalf("MC cache_nice_tries %d; want 1", env.sd.CacheNiceTries)
	}
	pinned := true
	if s.canMigrateTask(c0.curr, env, &pinned) {
		t.Error("the running task may migrate")
	}
	q := c0.rq[0]
	for failed, want := range []bool{false, false, true} {
		s.cpus[1].sd[0].nrBalanceFailed = failed
		if got := s.canMigrateTask(q, env, &pinned); got != want {
			t.Errorf("a task that ran 100 µs ago, nr_balance_failed %d: may migrate %v; want %v", failed, got, want)
		}
	}
	v := wakeSim(t, `{"asym_cpucapacity":false}`)
	p := &task{execStart: 1, state: taskRunnable, cpu: 10}
	v.now = 100_000
	for lvl, want := range []bool{false, true} {
		if got := v.taskHot(p, &lbEnv{sd: v.t.Domains[186][lvl], dst: 186}); got != want {
			t.Errorf("%s: task_hot %v for a task that ran 100 µs ago; want %v", v.t.Domains[186][lvl].Level, got, want)
		}
	}
}

// TestDetachTasksRules: detach_tasks() takes one task per newidle pass
// (CONFIG_PREEMPTION); relaxes the load and util it may move by
// nr_balance_failed (shr_bound()); and under migrate_misfit leaves a task
// that fits its CPU.
func TestDetachTasksRules(t *testing.T) {
	run := func(idle cpuIdleType, mt migrationType, imbalance int64, failed int, prep func(q *task)) int {
		s := taskSim(t, 4)
		for k := range 4 {
			place(s, k, 0)
		}
		s.schedule(&s.cpus[0])
		for _, q := range s.cpus[0].rq {
			q.avg.loadAvg, q.avg.utilAvg, q.utilEst = 800, 800, 800
			if prep != nil {
				prep(q)
			}
		}
		s.cpus[1].sd[0].nrBalanceFailed = failed
		env := &lbEnv{sd: s.t.Domains[1][0], this: 1, dst: 1, idle: idle, migType: mt, imbalance: imbalance}
		pinned := true
		return s.detachTasks(env, 0, &pinned)
	}
	for _, c := range []struct {
		name      string
		idle      cpuIdleType
		mt        migrationType
		imbalance int64
		failed    int
		prep      func(q *task)
		want      int
	}{
		{"newidle: one task", cpuNewlyIdle, migrateTask, 3, 0, nil, 1},
		{"idle: up to the imbalance", cpuIdle, migrateTask, 2, 0, nil, 2},
		{"load 800 > imbalance 500", cpuIdle, migrateLoad, 500, 0, nil, 0},
		{"load 800 >> 1 failure ≤ 500", cpuIdle, migrateLoad, 500, 1, nil, 1},
		{"util 800 > imbalance 500", cpuIdle, migrateUtil, 500, 0, nil, 0},
		{"util 800 >> 1 failure ≤ 500", cpuIdle, migrateUtil, 500, 1, nil, 1},
		{"misfit: util 800 fits CPU 0", cpuIdle, migrateMisfit, 1, 0, nil, 0},
		{"misfit: util 1000 does not", cpuIdle, migrateMisfit, 1, 0, func(q *task) { q.avg.utilAvg, q.utilEst = 1000, 1000 }, 1},
	} {
		if got := run(c.idle, c.mt, c.imbalance, c.failed, c.prep); got != c.want {
			t.Errorf("%s: moved %d; want %d", c.name, got, c.want)
		}
	}
}

// TestBalanceFailureCounting: a pass that moves nothing counts a failure
// in nr_balance_failed when periodic or idle, not when newly idle; a pass
// that moves resets it and the balance interval.
func TestBalanceFailureCounting(t *testing.T) {
	for _, c := range []struct {
		idle cpuIdleType
		want int
	}{
		{cpuIdle, 1},
		{cpuNewlyIdle, 0},
	} {
		s := hotQueue(t, 3)
		if moved, _ := s.schedBalanceRq(1, 0, c.idle, migPeriodic); moved != 0 {
			t.Fatalf("%s: moved %d hot tasks at nr_balance_failed 0", idleName(c.idle), moved)
		}
		if got := s.cpus[1].sd[0].nrBalanceFailed; got != c.want {
			t.Errorf("%s: nr_balance_failed %d after a failed pass; want %d", idleName(c.idle), got, c.want)
		}
	}
	s := hotQueue(t, 3)
	st := &s.cpus[1].sd[0]
	st.nrBalanceFailed, st.balanceInterval = 2, 64
	if moved, _ := s.schedBalanceRq(1, 0, cpuIdle, migPeriodic); moved == 0 {
		t.Fatal("nothing moved past cache_nice_tries")
	}
	if st.nrBalanceFailed != 0 || st.balanceInterval != s.t.Domains[1][0].MinInterval {
		t.Errorf("after a move: nr_balance_failed %d, balance_interval %d; want 0 and min_interval %d",
			st.nrBalanceFailed, st.balanceInterval, s.t.Domains[1][0].MinInterval)
	}
}

// TestBalanceIntervalBackoff: the out_balanced exits double
// balance_interval up to max_interval, or up to MAX_PINNED_INTERVAL (512)
// when every task was pinned; never after a newidle or misfit pass.
func TestBalanceIntervalBackoff(t *testing.T) {
	sd := &topo.Domain{MinInterval: 4, MaxInterval: 8}
	for _, c := range []struct {
		name      string
		interval  int
		idle      cpuIdleType
		mt        migrationType
		allPinned bool
		want      int
	}{
		{"below max_interval", 4, cpuIdle, migrateLoad, false, 8},
		{"at max_interval", 8, cpuIdle, migrateLoad, false, 8},
		{"all pinned, past max_interval", 8, cpuIdle, migrateLoad, true, 16},
		{"all pinned, at MAX_PINNED_INTERVAL", 512, cpuIdle, migrateLoad, true, 512},
		{"newidle", 4, cpuNewlyIdle, migrateLoad, false, 4},
		{"misfit", 4, cpuIdle, migrateMisfit, false, 4},
	} {
		st := &sdState{balanceInterval: c.interval, nrBalanceFailed: 3}
		lbOutBalanced(sd, st, c.idle, c.mt == migrateMisfit, c.allPinned, true)
		if st.balanceInterval != c.want || st.nrBalanceFailed != 0 {
			t.Errorf("%s: balance_interval %d → %d, nr_balance_failed %d; want %d and 0", c.name, c.interval, st.balanceInterval, st.nrBalanceFailed, c.want)
		}
	}
}

// TestActiveBalanceStopper: an asym-packing pass from an idle preferred
// CPU starts the stopper on a CPU whose lone task may run on dst, and not
// on one whose task may not (out_one_pinned). The stopper's push resets
// the domain's nr_balance_failed.
func TestActiveBalanceStopper(t *testing.T) {
	for _, c := range []struct {
		allowed string
		want    bool
	}{
		{"0-3", true},
		{"2-3", false},
	} {
		s := taskSimPolicy(t, 1, `{"asym_packing":["MC"]}`)
		p := place(s, 0, 3)
		p.allowed, _ = topo.ParseCPUList(c.allowed, 4)
		p.nrAllowed = p.allowed.Weight()
		s.schedule(&s.cpus[3])
		s.schedBalanceRq(0, 0, cpuIdle, migPeriodic)
		if got := s.cpus[3].activeBalance; got != c.want {
			t.Errorf("task allowed %s: stopper started %v; want %v", c.allowed, got, c.want)
		}
	}
	s := hotQueue(t, 3)
	s.cpus[0].activeBalance = true
	s.cpus[1].sd[0].nrBalanceFailed = 5
	s.activeLoadBalanceCPUStop(0, 1, migActive)
	if len(tasksOn(s, 1)) != 1 {
		t.Fatalf("the stopper pushed nothing: CPU 1 has %v", tasksOn(s, 1))
	}
	if got := s.cpus[1].sd[0].nrBalanceFailed; got != 0 {
		t.Errorf("nr_balance_failed %d after the stopper's push; want 0", got)
	}
}

// should_we_balance() walks group_balance_mask(sd->groups), not the local
// group's span. On kunpeng920 the local group 0-95 of node 1's top domain
// (0-127) has balance mask 32-63 (topo's TestKunpeng920BalanceMasks), so
// with every CPU idle CPU 32 balances that domain, where the span's first
// idle CPU would be CPU 0; with 32-63 busy, group_balance_cpu() is still
// CPU 32, the mask's first.
func TestShouldWeBalanceUsesTheBalanceMask(t *testing.T) {
	s := kunpengIdleSim(t)
	top := s.t.Domains[32][len(s.t.Domains[32])-1]
	if top.Span.String() != "0-127" || top.Groups[0].Span.String() != "0-95" || top.Groups[0].BalanceMask.String() != "32-63" {
		t.Fatalf("set-up: CPU 32's top domain %s, local group %s, balance mask %s", top.Span, top.Groups[0].Span, top.Groups[0].BalanceMask)
	}
	if !s.shouldWeBalance(top, 32, cpuIdle) || s.shouldWeBalance(top, 0, cpuIdle) {
		t.Error("every CPU idle: should_we_balance(0-127) is not CPU 32's (the balance mask's first idle CPU)")
	}
	busy := make([]int, 0, 32)
	for c := 32; c < 64; c++ {
		busy = append(busy, c)
	}
	s.busy(busy...)
	if !s.shouldWeBalance(top, 32, cpuIdle) {
		t.Error("CPUs 32-63 busy: should_we_balance(0-127) is not group_balance_cpu() = 32")
	}
	// Node 0's top domain (distance 22): its local group 0-95 has mask
	// 0-31, as CPUs 32-95's domains at that level have other children. With
	// 0-31 busy no CPU of the mask is idle, so CPU 0 balances, where the
	// span's first idle CPU would be 32.
	s = kunpengIdleSim(t)
	top0 := s.t.Domains[0][len(s.t.Domains[0])-1]
	for c := 0; c < 32; c++ {
		s.busy(c)
	}
	if got := top0.Groups[0].BalanceMask.String(); got != "0-31" || !s.shouldWeBalance(top0, 0, cpuNotIdle) {
		t.Errorf("CPUs 0-31 busy: CPU 0's top local group has balance mask %s and should_we_balance(CPU 0) %v; want 0-31 and true",
			got, s.shouldWeBalance(top0, 0, cpuNotIdle))
	}
}

// The all-pinned redo of sched_balance_rq() goes on while env->cpus is not
// a subset of env->dst_grpmask, group_balance_mask(sd->groups): on
// kunpeng920's CPU 32 at the top domain, with 64-127 excluded, CPUs 0-31
// are still outside the mask 32-63 (though inside the local group's span).
func TestAllPinnedRedoUsesTheBalanceMask(t *testing.T) {
	s := kunpengIdleSim(t)
	top := s.t.Domains[32][len(s.t.Domains[32])-1]
	excluded := topo.NewCPUSet(128)
	for c := topo.CPU(64); c < 128; c++ {
		excluded.Set(c)
	}
	if !s.lbCPUsLeft(top, excluded) {
		t.Error("64-127 excluded: no CPU left outside dst_grpmask; want 0-31")
	}
	for c := topo.CPU(0); c < 32; c++ {
		excluded.Set(c)
	}
	if s.lbCPUsLeft(top, excluded) {
		t.Error("0-31 and 64-127 excluded: a CPU left outside dst_grpmask 32-63")
	}
}

// kunpengIdleSim is the kunpeng920 preset with nothing to run.
func kunpengIdleSim(t *testing.T) *sim {
	t.Helper()
	return simOf(t, `{"schedplay":1,"machine":{"preset":"kunpeng920"},"workload":{"preset":"idle"},"run":{"duration":"10ms","seed":1}}`)
}

// A migrate_misfit pass that ends at out_one_pinned (the misfit task may
// not run on the pulling CPU) doubles sd->balance_interval in 6.1.192
// (out_one_pinned skips the doubling for CPU_NEWLY_IDLE only) and keeps it
// in 6.12.118, which skips it for migrate_misfit too.
func TestMisfitPassIntervalByGeneration(t *testing.T) {
	for _, gen := range []string{"6.1", "6.12"} {
		s := misfitOnA53(t, gen, "0-3,5")
		lvl := len(s.t.Domains[4]) - 1
		st := &s.cpus[4].sd[lvl]
		before := st.balanceInterval
		s.schedBalanceRq(4, lvl, cpuIdle, migPeriodic)
		want := before
		if gen == "6.1" {
			want = 2 * before
		}
		if st.balanceInterval != want {
			t.Errorf("%s: balance_interval %d → %d after a misfit pass that ends at out_one_pinned; want %d", gen, before, st.balanceInterval, want)
		}
	}
}

// 6.1's pick_next_task_fair() reaches done: when it picks prev again and
// refreshes the misfit status there (update_misfit_status(p, rq)); 6.12's
// put_prev_set_next_task() returns for next == prev, so a re-pick leaves
// it to the tick.
func TestRepickRefreshesMisfitIn61(t *testing.T) {
	for _, gen := range []string{"6.1", "6.12"} {
		s, p := lightTaskOnA53(t, gen, "0-7")
		if s.cpus[0].curr != p || s.cpus[0].misfitLoad != 0 {
			t.Fatal("set-up: a light task running on CPU 0 is misfit or not running")
		}
		p.avg.utilAvg, p.utilEst = 900, 900
		s.cpus[0].needResched = true
		s.schedule(&s.cpus[0])
		if s.cpus[0].curr != p {
			t.Fatal("set-up: the re-pick chose another task")
		}
		if misfit := s.cpus[0].misfitLoad > 0; misfit != (gen == "6.1") {
			t.Errorf("%s: after re-picking a util-900 task on an A53 the CPU's misfit load is %d", gen, s.cpus[0].misfitLoad)
		}
	}
}

// lightTaskOnA53 is hikey960 under the misfit policy and generation gen,
// with task 0 (allowed cpus) placed on A53 CPU 0 and running there.
func lightTaskOnA53(t *testing.T, gen, cpus string) (*sim, *task) {
	t.Helper()
	s := simOf(t, `{"schedplay":1,"machine":{"preset":"hikey960"},"policy":{"preset":"misfit","generation":"`+gen+`"},
		"workload":{"groups":[{"name":"w","count":1,"cpus":"`+cpus+`","program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
	p := place(s, 0, 0)
	s.schedule(&s.cpus[0])
	return s, p
}

// misfitOnA53 is lightTaskOnA53 with the task's util raised to 900 and
// CPU 0's misfit status updated: a misfit task on an A53.
func misfitOnA53(t *testing.T, gen, cpus string) *sim {
	t.Helper()
	s, p := lightTaskOnA53(t, gen, cpus)
	p.avg.utilAvg, p.utilEst = 900, 900
	s.updateMisfitStatus(&s.cpus[0], p)
	if s.cpus[0].misfitLoad == 0 {
		t.Fatal("set-up: a util-900 task on an A53 is not misfit")
	}
	return s
}

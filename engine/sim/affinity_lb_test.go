package sim

import (
	"slices"
	"strings"
	"testing"

	"schedplay/engine/topo"
)

// affinitySim is a machine of the given shape with n tasks of a long
// compute that may run only on cpus, placed on CPU on, one of them
// running.
func affinitySim(t *testing.T, machine, cpus string, n, on int) *sim {
	t.Helper()
	s := simOf(t, `{"schedplay":1,"machine":`+machine+`,
		"workload":{"groups":[{"name":"w","count":`+itoa(n)+`,"cpus":"`+cpus+`","program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
	for k := range n {
		place(s, k, on)
	}
	s.schedule(&s.cpus[on])
	return s
}

// levelOf is the index of cpu's domain at level l.
func levelOf(t *testing.T, s *sim, cpu int, l topo.Level) int {
	t.Helper()
	for i, sd := range s.t.Domains[cpu] {
		if sd.Level == l {
			return i
		}
	}
	t.Fatalf("cpu %d has no %s domain", cpu, l)
	return -1
}

// can_migrate_task() (fair.c, 6.12): a task that may not run on dst_cpu
// sets LBF_SOME_PINNED and, outside newidle, names as new_dst_cpu the
// first CPU of env->dst_grpmask (the local group) it may run on
// (LBF_DST_PINNED); sched_balance_rq() then goes back to more_balance with
// that CPU as dst_cpu and pulls from the same busiest runqueue. Here idle
// CPU a0 balances MC for its core: the three tasks on b0 may run on a0's
// sibling a1 and on core b, not on a0, so one moves to a1. A newidle pass
// computes no new_dst_cpu and moves nothing.
func TestDstPinnedPullsToAnotherCPUOfTheGroup(t *testing.T) {
	const machine = `{"nodes":1,"cores_per_node":2,"threads_per_core":2}`
	probe := smtSim(t)
	a, b := probe.t.CoreCPUs[0], probe.t.CoreCPUs[1]
	a0, a1, b0, b1 := int(a[0]), int(a[1]), int(b[0]), int(b[1])
	if a1 < a0 {
		t.Fatalf("core 0 is %v; want its first thread first", a)
	}
	cpus := itoa(a1) + "," + itoa(b0) + "," + itoa(b1)
	for _, idle := range []cpuIdleType{cpuIdle, cpuNewlyIdle} {
		s := affinitySim(t, machine, cpus, 3, b0)
		mc := levelOf(t, s, a0, topo.LevelMC)
		moved, _ := s.schedBalanceRq(a0, mc, idle, migPeriodic)
		on := tasksOn(s, a1)
		if idle == cpuNewlyIdle {
			if moved != 0 || len(on) != 0 {
				t.Errorf("newidle: moved %d, cpu %d (a1) holds %v; want nothing moved (no new_dst_cpu)", moved, a1, on)
			}
			continue
		}
		if moved != 1 || len(on) != 1 || len(tasksOn(s, a0)) != 0 {
			t.Errorf("CPU_IDLE: moved %d; a0 (cpu %d) holds %v, a1 (cpu %d) %v; want one task on a1 (LBF_DST_PINNED)",
				moved, a0, tasksOn(s, a0), a1, on)
		}
		if s.cpus[a1].curr == nil && !s.cpus[a1].needResched {
			t.Errorf("a1 (cpu %d) was given a task and not rescheduled", a1)
		}
	}
	// Cache-hot tasks (nr_balance_failed 0) go nowhere in either round,
	// and the idle a1 is left alone: nothing was attached.
	s := affinitySim(t, machine, cpus, 3, b0)
	s.now = 10_000_000
	for _, q := range s.cpus[b0].rq {
		q.execStart = s.now - 100_000
	}
	if moved, _ := s.schedBalanceRq(a0, levelOf(t, s, a0, topo.LevelMC), cpuIdle, migPeriodic); moved != 0 || s.cpus[a1].needResched {
		t.Errorf("hot tasks: moved %d, a1 (cpu %d) resched %v; want nothing moved and a1 left idle", moved, a1, s.cpus[a1].needResched)
	}
	// Traced, the migration's path names the round for new_dst_cpu.
	s = affinitySim(t, machine, cpus, 3, b0)
	s.tr, s.tracing = newTracer(len(s.cpus), s.t.TotalCores, Options{Timeline: true}), true
	s.schedBalanceRq(a0, levelOf(t, s, a0, topo.LevelMC), cpuIdle, migPeriodic)
	want := "can_migrate_task: cpu " + itoa(a0) + " not allowed, LBF_DST_PINNED → more_balance for new_dst_cpu " + itoa(a1)
	if d := s.tr.tl.Decisions; len(d) != 1 || !slices.Contains(d[0].Path, want) {
		t.Errorf("decisions %+v; want one whose path holds %q", d, want)
	} else if i := slices.Index(d[0].Path, want); i == 0 || !strings.HasPrefix(d[0].Path[i-1], "find_src_rq") || !strings.HasPrefix(d[0].Path[i+1], "detach_tasks") {
		t.Errorf("path %q; want the round between find_src_rq and detach_tasks", d[0].Path)
	}
	if len(s.lbDstNotes) != 0 {
		t.Errorf("the pass left %q for the next one's path", s.lbDstNotes)
	}
}

// sched_balance_rq() (fair.c, 6.12): when affinity kept a pass from
// balancing (LBF_SOME_PINNED with imbalance left), it sets
// sd_parent->groups->sgc->imbalance; group_classify() then reads the
// group as group_imbalanced, and a CPU of another group balancing the
// parent forces one task over (calculate_imbalance(): migrate_task, 1).
// A pass that reaches balance without every task pinned clears it again
// (out_balanced). Two nodes of two CPUs: the two tasks on CPU 1 may run
// on CPUs 1 and 2; CPU 0's MC pass cannot pull the queued one and marks
// node 0, so CPU 2's NUMA pass pulls it.
func TestAffinityMarksTheParentGroupImbalanced(t *testing.T) {
	const machine = `{"nodes":2,"cores_per_node":2,"threads_per_core":1,"llc":"node","distances":[[10,20],[20,10]]}`
	s := affinitySim(t, machine, "1,2", 2, 1)
	mc, numa := levelOf(t, s, 0, topo.LevelMC), levelOf(t, s, 2, topo.LevelNUMA)
	node0 := &s.t.Domains[0][mc].Parent.Groups[0]
	if s.sgImbalanced(node0) {
		t.Fatal("node 0 starts imbalanced")
	}
	// Without the mark CPU 2's NUMA pass leaves node 0 alone: node 0
	// has spare capacity and one idle CPU fewer than node 1. (The pass
	// also leaves node 0's statistics kept for the next one, which must
	// not read them once the mark is set.)
	if moved, _ := s.schedBalanceRq(2, numa, cpuIdle, migPeriodic); moved != 0 {
		t.Fatalf("CPU 2's NUMA pass moved %d before any mark; the test needs 0", moved)
	}
	if moved, _ := s.schedBalanceRq(0, mc, cpuIdle, migPeriodic); moved != 0 {
		t.Fatalf("CPU 0's MC pass moved %d tasks it may not run", moved)
	}
	if !s.sgImbalanced(node0) {
		t.Fatal("CPU 0's pinned MC pass left node 0's sgc->imbalance clear")
	}
	var sgs sgStats
	s.updateSgWakeupStats(s.t.Domains[2][numa], node0, s.tasks[0], &sgs)
	if sgs.groupType != groupImbalanced {
		t.Errorf("node 0 classified %s in the slow path; want group_imbalanced", groupTypeNames[sgs.groupType])
	}
	if moved, _ := s.schedBalanceRq(2, numa, cpuIdle, migPeriodic); moved != 1 || len(tasksOn(s, 2)) != 1 {
		t.Errorf("CPU 2's NUMA pass moved %d, cpu 2 holds %v; want one task pulled from the imbalanced node 0", moved, tasksOn(s, 2))
	}
	// CPU 1 runs its task alone now; its MC pass finds nothing busier
	// (out_balanced, no task pinned) and clears the mark.
	s.schedBalanceRq(1, levelOf(t, s, 1, topo.LevelMC), cpuNotIdle, migPeriodic)
	if s.sgImbalanced(node0) {
		t.Error("a balanced MC pass of node 0 left sgc->imbalance set")
	}
}

// After LBF_DST_PINNED, sched_balance_rq() pulls for new_dst_cpu with
// this_cpu's domain (env->sd): can_migrate_task() compares its
// nr_balance_failed with cache_nice_tries, and detach_tasks() shifts a
// task's load by it. Here this_cpu (1) has failed twice, new_dst_cpu (2)
// never: a cache-hot task may go, and one of load 800 fits an imbalance
// of 300 (800 >> 2).
func TestDstPinnedRoundReadsThisCPUsDomain(t *testing.T) {
	s := hotQueue(t, 3)
	s.cpus[1].sd[0].nrBalanceFailed = 2
	for _, q := range s.cpus[0].rq {
		q.avg.loadAvg, q.avg.utilAvg, q.utilEst = 800, 800, 800
	}
	env := &lbEnv{sd: s.t.Domains[1][0], this: 1, dst: 2, idle: cpuIdle, migType: migrateLoad, imbalance: 300}
	pinned := true
	if !s.canMigrateTask(s.cpus[0].rq[0], env, &pinned) {
		t.Error("a cache-hot task may not go to new_dst_cpu although this_cpu's domain failed twice")
	}
	if n := s.detachTasks(env, 0, &pinned); n != 1 || len(tasksOn(s, 2)) != 1 {
		t.Errorf("detach_tasks moved %d, cpu 2 holds %v; want one task of load 800 (>> 2 = 200 ≤ 300)", n, tasksOn(s, 2))
	}
}

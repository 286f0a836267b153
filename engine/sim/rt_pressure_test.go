package sim

import (
	"slices"
	"testing"

	"schedplay/engine/topo"
)

// rtPressureDoc is two CPUs under generation gen: an RT task pinned to
// CPU 0 computing 6 ms of every 10 ms, and a fair task of 1 s of compute
// forked at 8 ms, while the RT task sleeps, from a parent busy on CPU 1,
// so that the fair slow path puts it on CPU 0.
func rtPressureDoc(gen string) string {
	return `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":2,"threads_per_core":1},"policy":{"generation":"` + gen + `"},
		"workload":{"groups":[{"name":"rt","count":1,"cpus":"0","parent_cpu":0,"policy":"fifo","rt_priority":50,
			"program":[{"periodic":{"every":"10ms","count":300,"do":[{"compute":"6ms"}]}}]},
			{"name":"fair","count":1,"parent_cpu":1,"start":"8ms","program":[{"timed":"fair","do":[{"compute":"1s"}]}]}]},
		"run":{"duration":"4s","until":"duration","reps":1,"seed":1}}`
}

// TestRTPressureMovesTheFairTask: a fair task that shares CPU 0 with an
// RT task running 60 % of the time gets 40 % of it, while CPU 1 idles.
// The RT class's running time raises CPU 0's rq->avg_rt; CPU 0's own
// balance at its lowest domain turns it into rq->cpu_capacity
// (update_cpu_capacity() → scale_rt_capacity()), which check_cpu_capacity()
// then finds reduced: nohz_balancer_kick() kicks the ILB, whose pass for
// CPU 1 sees the lone fair task on a CPU of reduced capacity as a misfit
// (sched_reduced_capacity(), migrate_load), and the fair task goes to
// CPU 1: detached while the RT task runs, or by the stopper
// (need_active_balance()) while it runs itself. Its second of compute then
// ends within about 1.1 s, where it took 2.5 s on CPU 0.
func TestRTPressureMovesTheFairTask(t *testing.T) {
	for _, gen := range []string{"6.12", "6.1"} {
		res := mustRun(t, resolveJSON(t, rtPressureDoc(gen)), Options{Timeline: true})
		rep := res.Reps[0]
		if len(rep.Timed) != 1 || rep.Timed[0].Count != 1 {
			t.Fatalf("%s: timed %+v; want the fair task's one section", gen, rep.Timed)
		}
		took := int64(rep.Timed[0].MeanNs)
		var on0, on1 int64
		for cpu, runs := range res.Timeline.Runs {
			for _, r := range runs {
				if r.Task == 1 && cpu == 0 {
					on0 += r.End - r.Start
				} else if r.Task == 1 && cpu == 1 {
					on1 += r.End - r.Start
				}
			}
		}
		if took > 1_200_000_000 || on1 < 800_000_000 || rep.Migrations.Total == 0 {
			t.Errorf("%s: the fair task's 1 s took %.3f s, %.0f ms of it on CPU 0 and %.0f ms on CPU 1 (%d migrations); want it moved to idle CPU 1 (about 1.1 s)",
				gen, float64(took)/1e9, float64(on0)/1e6, float64(on1)/1e6, rep.Migrations.Total)
		}
	}
}

// pressureSim is two single-CPU cores with a fair task running on CPU 0
// whose rq->avg_rt is rtUtil; CPU 1 is idle.
func pressureSim(t *testing.T, rtUtil uint64) (*sim, int) {
	t.Helper()
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":2,"threads_per_core":1},
		"workload":{"groups":[{"name":"w","count":1,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
	place(s, 0, 0)
	s.schedule(&s.cpus[0])
	s.cpus[0].avgRT.utilAvg = rtUtil
	return s, levelOf(t, s, 0, topo.LevelMC)
}

// TestCapacityOfFollowsTheCPUsOwnPass: rq->cpu_capacity changes only when
// the CPU balances its lowest domain (update_sd_lb_stats() →
// update_group_capacity() → update_cpu_capacity()), to capacity_orig less
// cpu_util_rt(); the group {0} that CPU 1's domain sees shares that
// sched_group_capacity. A newidle pass waits for the group's next_update.
func TestCapacityOfFollowsTheCPUsOwnPass(t *testing.T) {
	s, mc := pressureSim(t, 600)
	if got := s.capacityOf(0); got != 1024 {
		t.Fatalf("capacity_of(0) = %d before any pass; want 1024", got)
	}
	s.schedBalanceRq(1, mc, cpuIdle, migPeriodic)
	if got := s.capacityOf(0); got != 1024 {
		t.Errorf("CPU 1's pass changed capacity_of(0) to %d; only CPU 0's own pass may", got)
	}
	s.schedBalanceRq(0, mc, cpuNotIdle, migPeriodic)
	if got := s.capacityOf(0); got != 424 {
		t.Errorf("capacity_of(0) = %d after its own pass; want 1024 - 600", got)
	}
	other := s.t.Domains[1][mc].Groups[1]
	if c, lo, hi := s.groupCap(&other); c != 424 || lo != 424 || hi != 424 {
		t.Errorf("CPU 1's group {0}: capacity %d, min %d, max %d; want 424 (CPU 0's sgc)", c, lo, hi)
	}
	if !s.capPressure() {
		t.Error("capPressure() is false with a reduced capacity")
	}
	// newidle: not before next_update (update_sd_lb_stats()'s test, asked
	// directly: a busy CPU's newidle pass stops at should_we_balance())
	s.cpus[0].avgRT.utilAvg = 100
	sd := s.t.Domains[0][mc]
	s.updateLocalGroupCapacity(sd, 0, 0, mc, cpuNewlyIdle)
	if got := s.capacityOf(0); got != 424 {
		t.Errorf("a newidle pass before next_update set capacity_of(0) to %d; want 424 kept", got)
	}
	s.now += 1_000_000_000
	s.updateLocalGroupCapacity(sd, 0, 0, mc, cpuNewlyIdle)
	if got := s.capacityOf(0); got != 924 {
		t.Errorf("a newidle pass after next_update: capacity_of(0) = %d; want 924", got)
	}
	s.cpus[0].avgRT.utilAvg = 0
	s.schedBalanceRq(0, mc, cpuNotIdle, migPeriodic)
	if s.capPressure() || s.capacityOf(0) != 1024 {
		t.Errorf("with no RT util left: capacity_of(0) = %d, capPressure %v; want 1024, false", s.capacityOf(0), s.capPressure())
	}
}

// TestReducedCapacityActiveBalance: idle CPU 1 balances while CPU 0 runs
// its one fair task at a capacity the RT class reduced past imbalance_pct.
// update_sg_lb_stats() marks group {0} misfit (sched_reduced_capacity()),
// so the pass migrates load; the running task cannot be detached, and
// need_active_balance()'s reduced-capacity rule starts the stopper at
// once. At a capacity within imbalance_pct nothing happens.
func TestReducedCapacityActiveBalance(t *testing.T) {
	for _, c := range []struct {
		rtUtil uint64
		want   bool
	}{{500, true}, {100, false}} {
		s, mc := pressureSim(t, c.rtUtil)
		s.schedBalanceRq(0, mc, cpuNotIdle, migPeriodic) // CPU 0's own pass sets its capacity
		reduced := checkCPUCapacity(&s.cpus[0], s.t.Domains[0][mc])
		why := s.nohzKickReason(&s.cpus[0])
		s.tracing = true
		s.schedBalanceRq(1, mc, cpuIdle, migPeriodic)
		if got := s.cpus[0].activeBalance; got != c.want || reduced != c.want || (why == "reduced capacity") != c.want {
			t.Errorf("avg_rt %d: check_cpu_capacity %v, nohz kick %q, stopper on CPU 0 %v; want %v", c.rtUtil, reduced, why, got, c.want)
		}
		if path := s.cpus[0].stopPath; c.want && (len(path) == 0 || path[len(path)-1] != "need_active_balance: reduced capacity" ||
			!slices.Contains(path, "busiest group misfit_task")) {
			t.Errorf("avg_rt %d: the stopper's path %q; want a misfit_task busiest group and the reduced-capacity rule", c.rtUtil, path)
		}
	}
}

// TestRTRunningTimeRaisesAvgRT: rq->avg_rt follows the RT class's running
// time (put_prev_task_rt(), task_tick_rt(), set_next_task_rt() after
// another class, the blocked averages): over 0.2–1 s, sampled every
// 1.37 ms, an RT task running 6 ms or 1 ms of every 10 ms leaves its CPU's
// cpu_util_rt() at 60 % or 10 % of 1024 on average, and the idle CPU's at
// none. Counting the idle time before a wake-up as RT time (no update at
// set_next_task_rt()) gives 716 and 811.
func TestRTRunningTimeRaisesAvgRT(t *testing.T) {
	for _, c := range []struct {
		run  string
		want int
	}{{"6ms", 614}, {"1ms", 102}} {
		s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":2,"threads_per_core":1},
			"workload":{"groups":[{"name":"rt","count":1,"cpus":"0","parent_cpu":0,"policy":"fifo","rt_priority":50,
				"program":[{"periodic":{"every":"10ms","count":300,"do":[{"compute":"`+c.run+`"}]}}]}]},
			"run":{"duration":"4s","until":"duration","reps":1,"seed":1}}`)
		var sum, n, idle int
		for at := int64(200_000_000); at <= 1_000_000_000; at += 1_370_000 {
			if err := s.runUntil(t.Context(), at, 0, 1); err != nil {
				t.Fatal(err)
			}
			cp := s.cpus[0] // a copy: the sample leaves the run alone
			s.updateRtRqLoadAvg(&cp, cp.curr.isRT())
			sum += cpuUtilRT(&cp)
			idle += cpuUtilRT(&s.cpus[1])
			n++
		}
		if mean := sum / n; mean < c.want*9/10 || mean > c.want*11/10 || idle != 0 {
			t.Errorf("RT task running %s of every 10 ms: mean cpu_util_rt(0) %d, CPU 1's sum %d; want about %d and 0", c.run, mean, idle, c.want)
		}
	}
}

// capPressure reports whether any CPU's capacity_of() or any group's
// capacity differs from its build-time value.
func (s *sim) capPressure() bool { return s.nrCapReduced > 0 || s.sgcCapDiffer > 0 }

// syncBuildCapacities makes the capacities a test wrote into cpuState.cap
// the machine's build-time ones: capacity_of() and every
// sched_group_capacity follow, as init_sched_groups_capacity() would
// have set them.
func syncBuildCapacities(s *sim) { s.initGroupCapacities() }

// TestCapacityRecoversAfterTheRTTask: an RT task pinned to CPU 0 runs its
// 300 ms and exits while fair hogs keep both CPUs busy. CPU 0's periodic
// balance runs in sched_balance_softirq() after
// sched_balance_update_blocked_averages(), whose update_other_load_avgs()
// decays rq->avg_rt although no RT task runs there any more: by 1.5 s
// cpu_util_rt() is gone and capacity_of(0) is back to 1024.
func TestCapacityRecoversAfterTheRTTask(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":2,"threads_per_core":1},
		"workload":{"groups":[{"name":"rt","count":1,"cpus":"0","parent_cpu":0,"policy":"fifo","rt_priority":50,"program":[{"compute":"300ms"}]},
			{"name":"hog","count":2,"pin":"each","program":[{"compute":"10s"}]}]},
		"run":{"duration":"3s","seed":1}}`)
	if err := s.runUntil(t.Context(), 280_000_000, 0, 1); err != nil {
		t.Fatal(err)
	}
	if got := s.capacityOf(0); got > 200 {
		t.Errorf("capacity_of(0) = %d while the RT task runs; want it near 1024 - cpu_util_rt()", got)
	}
	if err := s.runUntil(t.Context(), 1_500_000_000, 0, 1); err != nil {
		t.Fatal(err)
	}
	if got, u := s.capacityOf(0), cpuUtilRT(&s.cpus[0]); got != 1024 || u != 0 {
		t.Errorf("1.2 s after the RT task exited: capacity_of(0) = %d, cpu_util_rt() = %d; want 1024 and 0", got, u)
	}
}

// TestRTPressureFastPathsMatchTheWalks: under RT pressure the group sums,
// the kept statistics and select_idle_capacity()'s mask walk still serve
// every group and CPU whose capacity is the build-time one, and a CPU of
// reduced capacity its own. On vera-node (SD_ASYM_CPUCAPACITY: every
// wake-up goes through select_idle_capacity()) with an RT task pinned to
// CPU 0 beside 120 fair tasks that compute and sleep, the untraced run
// (sums, kept statistics, mask walk; verifySums checks each read of the
// sums) gives the traced run's metrics (a walk of every span and the
// per-CPU scan), and the pressure was there.
func TestRTPressureFastPathsMatchTheWalks(t *testing.T) {
	r := resolveJSON(t, `{"schedplay":1,"machine":{"preset":"vera-node"},"policy":{"preset":"mainline"},
		"workload":{"groups":[{"name":"rt","count":1,"cpus":"0","parent_cpu":0,"policy":"fifo","rt_priority":50,
			"program":[{"periodic":{"every":"10ms","do":[{"compute":"3ms"}]}}]},
			{"name":"w","count":120,"start":"5ms","program":[{"repeat":1000000,"do":[{"compute":"2ms"},{"sleep":"500us"}]}]}]},
		"run":{"duration":"400ms","until":"duration","reps":1,"seed":1}}`)
	traced := mustRun(t, r, Options{Timeline: true, verifySums: true})
	plain := mustRun(t, r, Options{verifySums: true})
	if a, b := toJSON(t, plain.Reps), toJSON(t, traced.Reps); a != b {
		t.Errorf("the repetition's metrics differ with a timeline:\n%.600s\n%.600s", a, b)
	}
	s := simOf(t, `{"schedplay":1,"machine":{"preset":"vera-node"},"policy":{"preset":"mainline"},
		"workload":{"groups":[{"name":"rt","count":1,"cpus":"0","parent_cpu":0,"policy":"fifo","rt_priority":50,
			"program":[{"periodic":{"every":"10ms","do":[{"compute":"3ms"}]}}]}]},
		"run":{"duration":"400ms","until":"duration","reps":1,"seed":1}}`)
	if err := s.runUntil(t.Context(), 300_000_000, 0, 1); err != nil {
		t.Fatal(err)
	}
	if !s.capReduced.Has(0) || s.sgcCapDiffer == 0 {
		t.Errorf("no pressure at 300 ms: CPU 0 reduced %v, %d groups changed; want CPU 0 and its groups", s.capReduced.Has(0), s.sgcCapDiffer)
	}
}

// reduceCapacity gives CPU cpu an rq->avg_rt of rtUtil and runs its
// update_cpu_capacity() at its lowest domain, as its own pass would.
func reduceCapacity(s *sim, cpu int, rtUtil uint64) {
	s.cpus[cpu].avgRT.utilAvg = rtUtil
	s.updateCPUCapacity(s.t.Domains[cpu][0], cpu)
}

// TestNewCapacityDropsKeptStatistics: the statistics a pass keeps for a
// non-local group read its CPUs' capacities (a lone fair task at a
// reduced capacity is its misfit load) and its sgc. Four cores in two
// clusters, a fair task on CPUs 2 and 3: idle CPU 0's MC passes keep
// cluster {2,3}'s statistics; CPU 2's capacity falls with nothing else
// of it changed, then CPU 2's MC pass updates the cluster's sgc. Each
// must drop what was kept, or the verify mode's recomputation finds a
// kept misfit load or capacity that is no longer the group's.
func TestNewCapacityDropsKeptStatistics(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"clusters_per_node":2,"threads_per_core":1},
		"workload":{"groups":[{"name":"w","count":2,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
	place(s, 0, 2)
	place(s, 1, 3)
	s.schedule(&s.cpus[2])
	s.schedule(&s.cpus[3])
	s.gs.verify = true
	mc := levelOf(t, s, 0, topo.LevelMC)
	pass := func(what string) {
		t.Helper()
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("%s: %v", what, r)
			}
		}()
		s.schedBalanceRq(0, mc, cpuIdle, migPeriodic)
		s.cpus[2].activeBalance = false
	}
	pass("first pass")
	reduceCapacity(s, 2, 600)
	pass("after CPU 2's capacity fell")
	s.updateGroupCapacity(s.t.Domains[2][mc], s.cpus[2].sd[mc].balanceInterval, 2)
	if c, _, _ := s.groupCap(&s.t.Domains[0][mc].Groups[1]); c != 424+1024 {
		t.Fatalf("cluster {2,3}'s capacity after CPU 2's MC pass: %d; want 424 + 1024", c)
	}
	pass("after the cluster's sgc changed")
}

// TestPairShortcutDeclinesAReducedCPU: noSrcGroup()'s answer for a domain
// of two single CPUs (the other CPU runs at most one task, so nothing is
// balanced) does not hold when that task runs at a reduced capacity:
// update_sg_lb_stats() makes it a misfit and find_busiest_group() forces
// the balance. Two nodes of two cores: newly idle CPU 0's MC pass finds
// CPU 1's lone fair task at 524 of 1024 and starts the stopper.
func TestPairShortcutDeclinesAReducedCPU(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":2,"cores_per_node":2,"threads_per_core":1},
		"workload":{"groups":[{"name":"w","count":1,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
	place(s, 0, 1)
	s.schedule(&s.cpus[1])
	mc := levelOf(t, s, 0, topo.LevelMC)
	if st := s.cpus[0].sd[mc]; !st.cpuPair {
		t.Fatal("CPU 0's MC domain is not a CPU pair")
	}
	reduceCapacity(s, 1, 500)
	s.schedBalanceRq(0, mc, cpuNewlyIdle, migNewidle)
	if !s.cpus[1].activeBalance {
		t.Error("newly idle CPU 0 left CPU 1's lone task at a reduced capacity; want the stopper (need_active_balance(), reduced capacity)")
	}
}

// TestWakeupSumsDeclineAReducedSpan: the fork slow path's group sums say a
// task fits the group when it fits the group's largest capacity_orig.
// With hikey960's four A73s reduced to 224 by RT tasks, a task of util
// 500 fits none of them (task_fits_cpu() reads capacity_of()): the group
// is a misfit one, as the walk of its span finds.
func TestWakeupSumsDeclineAReducedSpan(t *testing.T) {
	s, p := slowSim(t, `{"preset":"hikey960"}`)
	for cpu := 4; cpu < 8; cpu++ {
		reduceCapacity(s, cpu, 800)
	}
	s.gs.verify = true
	p.avg.utilAvg, p.utilEst = 500, 500
	sd := domainOf(t, s, 0, "PKG")
	var big *topo.Group
	for gi := range sd.Groups {
		if sd.Groups[gi].Span.Has(4) {
			big = &sd.Groups[gi]
		}
	}
	var sgs sgStats
	s.updateSgWakeupStats(sd, big, p, &sgs)
	if sgs.misfitTaskLoad == 0 {
		t.Errorf("the A73s at capacity %d: a task of util 500 fits them by the wake-up statistics; want a misfit group", s.capacityOf(4))
	}
}

package sim

import (
	"fmt"
	"testing"

	"schedplay/engine/topo"
)

// TestSchedIdleWeight: a SCHED_IDLE task weighs WEIGHT_IDLEPRIO (3)
// beside a SCHED_OTHER one on one CPU. Its virtual slice is then 1024/3
// of its 750 µs, and it gets one tick (4 ms at HZ 250) each time the
// other's vruntime passes its deadline: once in 500 ms. At nice 19
// (weight 15) it would get a tick every ≈51 ms, ≈40 ms in all.
func TestSchedIdleWeight(t *testing.T) {
	for _, gen := range []string{"6.1", "6.12", "tip-2026-09"} {
		doc := rtDoc(1, `{"name":"normal","count":1,"program":[{"timed":"normal","do":[{"compute":"500ms"}]}]},
			{"name":"idle","count":1,"policy":"idle","program":[{"compute":"500ms"}]}`)
		doc = `{"policy":{"generation":"` + gen + `"},` + doc[1:]
		r := mustRun(t, resolveJSON(t, doc), Options{})
		if got := r.Summary.Timed[0].Time.Mean; got <= 500e6 || got > 510e6 {
			t.Errorf("%s: the SCHED_OTHER task's 500 ms beside a SCHED_IDLE one took %.2f ms; want a tick or two more than 500 (weight 1024 against 3)", gen, got/1e6)
		}
	}
}

// TestPolicyWakeupPreemption: check_preempt_wakeup_fair()'s policies. A
// periodic sleeper beside a hog on one CPU: a SCHED_OTHER wakee preempts a
// SCHED_IDLE hog at once and a SCHED_OTHER one by EEVDF (or CFS); a
// SCHED_BATCH or SCHED_IDLE wakee never preempts a SCHED_OTHER hog and
// waits for the tick; a SCHED_BATCH wakee preempts a SCHED_IDLE hog.
func TestPolicyWakeupPreemption(t *testing.T) {
	for _, gen := range []string{"6.1", "6.12"} { // without PREEMPT_LAZY: a preemption is immediate
		for _, c := range []struct {
			hog, sleeper string
			preempts     bool
		}{
			{"", "", true},
			{"idle", "", true},
			{"idle", "batch", true},
			{"", "batch", false},
			{"", "idle", false},
			{"idle", "idle", false},
			{"batch", "batch", false},
		} {
			pol := func(p string) string {
				if p == "" {
					return ""
				}
				return `,"policy":"` + p + `"`
			}
			doc := rtDoc(1, fmt.Sprintf(`{"name":"hog","count":1%s,"program":[{"compute":"10s"}]},
				{"name":"sleeper","count":1%s,"timer_slack":"0ns","program":[{"periodic":{"every":"1ms","count":300,"do":[{"compute":"2us"}]}}]}`, pol(c.hog), pol(c.sleeper)))
			doc = `{"policy":{"generation":"` + gen + `"},` + doc[1:]
			lat := mustRun(t, resolveJSON(t, doc), Options{}).Reps[0].Latency
			if got := lat.P50 < 100_000; got != c.preempts {
				t.Errorf("%s: a %q wakee beside a %q hog: wake-up latency p50 %d ns; want it to preempt at once: %v (else it waits for the tick)",
					gen, c.sleeper, c.hog, lat.P50, c.preempts)
			}
		}
	}
}

// TestSchedIdleCPUIsIdleForPlacement: select_idle_sibling() takes a
// target running only SCHED_IDLE tasks, and its scan takes such a CPU as
// it takes an idle one (sched_idle_cpu()); one running a SCHED_OTHER task
// is busy. The fork path's sched_balance_find_dst_group_cpu() returns
// such a CPU at once, before an idle one.
func TestSchedIdleCPUIsIdleForPlacement(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":3,"threads_per_core":1},
		"policy":{"features":{"SIS_UTIL":false}},
		"workload":{"groups":[{"name":"idle","count":1,"policy":"idle","program":[{"compute":"1s"}]},
			{"name":"busy","count":2,"program":[{"compute":"1s"}]},
			{"name":"wakee","count":1,"program":[{"compute":"1s"}]}]},"run":{"duration":"1s","reps":1,"seed":1}}`)
	run := func(k, cpu int) {
		place(s, k, cpu)
		s.schedule(&s.cpus[cpu])
	}
	run(0, 1) // cpu 0 idle, cpu 1 a SCHED_IDLE task, cpu 2 a SCHED_OTHER one
	run(1, 2)
	wakee := s.tasks[3]
	wakee.cpu = 1
	if !s.schedIdleCPU(1) || s.schedIdleCPU(2) || s.schedIdleCPU(0) || s.availableIdle(1) {
		t.Fatalf("sched_idle_cpu() of cpus 0, 1, 2: %v %v %v; want false, true, false", s.schedIdleCPU(0), s.schedIdleCPU(1), s.schedIdleCPU(2))
	}
	if got := s.selectIdleSibling(wakee, 1, 1); got != 1 {
		t.Errorf("select_idle_sibling() with target cpu 1 running only a SCHED_IDLE task: cpu %d; want 1", got)
	}
	all := s.t.Domains[0][0].Span
	g := topo.Group{Span: all, Weight: all.Weight()}
	if got := s.schedBalanceFindDstGroupCPU(&g, wakee, 2); got != 1 {
		t.Errorf("sched_balance_find_dst_group_cpu(): cpu %d; want cpu 1, which runs only a SCHED_IDLE task, before the idle cpu 0", got)
	}
	run(2, 0) // now cpu 0 is busy too
	wakee.cpu = 2
	if got := s.selectIdleSibling(wakee, 2, 2); got != 1 {
		t.Errorf("select_idle_sibling() with a busy target: cpu %d; want the scan to take cpu 1, which runs only a SCHED_IDLE task", got)
	}
}

// TestSchedIdleTaskIsNeverHot: task_hot() is false for a SCHED_IDLE task
// that has just run, true for a SCHED_OTHER one.
func TestSchedIdleTaskIsNeverHot(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":2,"cores_per_node":1,"threads_per_core":1},
		"workload":{"groups":[{"name":"idle","count":1,"policy":"idle","program":[{"compute":"1s"}]},
			{"name":"normal","count":1,"program":[{"compute":"1s"}]}]},"run":{"duration":"1s","reps":1,"seed":1}}`)
	s.now = 10_000_000
	env := &lbEnv{sd: s.t.Domains[0][len(s.t.Domains[0])-1], dst: 1}
	for i, want := range []bool{false, true} {
		p := s.tasks[i]
		p.cpu, p.execStart = 0, s.now-1000
		if got := s.taskHot(p, env); got != want {
			t.Errorf("task_hot() of the %s task that ran 1 µs ago: %v; want %v", p.name, got, want)
		}
	}
}

// TestSchedIdleRqBalancesEarly: a dequeue that leaves a CPU running only
// SCHED_IDLE tasks makes its next balance due now (dequeue_entities()),
// and its periodic balance then runs at the idle interval
// (sched_balance_domains(): busy is false on a sched_idle_cpu()).
func TestSchedIdleRqBalancesEarly(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":2,"threads_per_core":1},
		"workload":{"groups":[{"name":"idle","count":1,"policy":"idle","program":[{"compute":"1s"}]},
			{"name":"normal","count":1,"program":[{"compute":"1s"}]}]},"run":{"duration":"1s","reps":1,"seed":1}}`)
	c := &s.cpus[0]
	place(s, 0, 0)
	normal := place(s, 1, 0)
	s.schedule(c)
	if c.curr != normal {
		t.Fatalf("cpu 0 runs %s; want the SCHED_OTHER task", c.curr.name)
	}
	s.now = 100 * s.tickNs
	c.nextBalance = s.jiffies() + 50
	s.dequeueCurr(c, normal, false)
	if c.nextBalance != s.jiffies() || !c.schedIdleRq() {
		t.Errorf("after the SCHED_OTHER task leaves: next_balance %d at jiffy %d, sched_idle_rq %v; want next_balance now", c.nextBalance, s.jiffies(), c.schedIdleRq())
	}
	// an interval past the idle one but short of the busy one (× busy_factor)
	st := &c.sd[0]
	j := s.jiffies()
	st.lastBalance = j - s.getSdBalanceInterval(s.t.Domains[0][0], st, false)
	s.schedBalanceDomains(c, 0, j, cpuNotIdle, migPeriodic)
	if st.lastBalance != j {
		t.Errorf("the periodic balance of a CPU running only a SCHED_IDLE task did not run at the idle interval (last balance %d, jiffy %d)", st.lastBalance, j)
	}
}

// TestIdleHNrRunningFollowsTheTasks: idle_h_nr_running counts the
// SCHED_IDLE tasks that are on the CPU: once the one there sleeps, a
// SCHED_OTHER task's CPU is no sched_idle_cpu().
func TestIdleHNrRunningFollowsTheTasks(t *testing.T) {
	s := simOf(t, rtDoc(1, `{"name":"idle","count":1,"policy":"idle","program":[{"compute":"1s"}]},
		{"name":"normal","count":1,"program":[{"compute":"1s"}]}`))
	c := &s.cpus[0]
	idle := place(s, 0, 0)
	s.schedule(c)
	if !s.schedIdleCPU(0) {
		t.Fatal("a CPU running one SCHED_IDLE task is no sched_idle_cpu()")
	}
	s.blockTask(c, idle)
	place(s, 1, 0)
	s.schedule(c)
	if s.schedIdleCPU(0) || c.idleNr != 0 {
		t.Errorf("after the SCHED_IDLE task sleeps, cpu 0 runs a SCHED_OTHER task: sched_idle_cpu() %v, idle_h_nr_running %d; want false, 0", s.schedIdleCPU(0), c.idleNr)
	}
}

// select_idle_capacity() takes a CPU running only SCHED_IDLE tasks as idle
// (fair.c: available_idle_cpu() || sched_idle_cpu()), with or without a
// trace: on a big.LITTLE machine whose CPUs are all busy but CPU 5, which
// runs a SCHED_IDLE task, a wakee targeting busy CPU 6 goes to CPU 5.
// Until Dec 2026 the untraced walk read the idle mask alone and returned
// the busy target, so a run with a timeline placed differently.
func TestSelectIdleCapacityTakesSchedIdleCPU(t *testing.T) {
	doc := `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":8,"clusters_per_node":2,"llc":"cluster","threads_per_core":1,"numbering":"core-major",
	"core_classes":[{"name":"a53","cores":4,"capacity":462,"speed":0.55},{"name":"a73","cores":4,"capacity":1024,"speed":1.0}]},
	"policy":{"asym_cpucapacity":true,"features":{"SIS_UTIL":false}},
	"workload":{"groups":[{"name":"idle","count":1,"policy":"idle","program":[{"compute":"1s"}]},
		{"name":"busy","count":7,"program":[{"compute":"1s"}]},
		{"name":"wakee","count":1,"program":[{"compute":"1s"}]}]},"run":{"duration":"1s","reps":1,"seed":1}}`
	for _, tracing := range []bool{false, true} {
		s := simOf(t, doc)
		place(s, 0, 5)
		s.schedule(&s.cpus[5])
		k := 1
		for cpu := 0; cpu < 8; cpu++ {
			if cpu != 5 {
				place(s, k, cpu)
				s.schedule(&s.cpus[cpu])
				k++
			}
		}
		w := s.tasks[8]
		w.cpu, w.recentUsedCPU = 6, -1
		s.tracing = tracing
		if got := s.selectIdleSibling(w, 6, 6); got != 5 {
			t.Errorf("tracing %v: select_idle_sibling() → CPU %d; want 5, the CPU running only a SCHED_IDLE task", tracing, got)
		}
	}
}

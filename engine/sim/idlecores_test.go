package sim

import "testing"

// has_idle_cores (sd_llc_shared->has_idle_cores) is a hint: a CPU that
// goes idle on a core whose siblings are idle sets it (__update_idle_core());
// a select_idle_cpu() scan under the hint that finds no idle core clears it
// (set_idle_cores(target, false)), whether or not it found an idle CPU.
func TestHasIdleCoresHint(t *testing.T) {
	noCap := `{"asym_cpucapacity":false}`
	pe0s := make([]int, 88)
	for i := range pe0s {
		pe0s[i] = i
	}
	// every PE0 of node 0 busy: no idle core, every PE1 idle
	s := wakeSim(t, noCap)
	s.busy(pe0s...)
	llc := &s.llcs[s.t.SDLLCID[10]]
	llc.hasIdleCores, llc.nrIdleScan = true, 176
	p := s.wakee(100)
	p.cpu = 10
	got := s.selectIdleSibling(p, 10, 10)
	if got < 176 || llc.hasIdleCores {
		t.Errorf("no idle core under the hint: select_idle_sibling = %d, has_idle_cores %v; want an idle PE1 and the hint cleared", got, llc.hasIdleCores)
	}
	// a PE1 going idle on a core whose PE0 is busy leaves the hint clear;
	// the last CPU of a core going idle sets it
	s.updateIdleCore(&s.cpus[186])
	if llc.hasIdleCores {
		t.Error("PE1 186 idle beside a busy PE0 set has_idle_cores")
	}
	c10 := &s.cpus[10]
	c10.curr, c10.nrRunning, c10.inIdle = nil, 0, true
	s.cpuChanged(c10)
	s.updateIdleCore(c10)
	if !llc.hasIdleCores {
		t.Error("core 10 wholly idle (PE0 10 and PE1 186) did not set has_idle_cores")
	}
}

// add_nr_running() sets rd->overloaded as a runqueue gets its second task
// (set_rd_overloaded()), which lets newly idle CPUs balance at all: only as
// rq->nr_running goes from below 2 to 2 or more (sched.h); rq->nr_running counts every class, so the kernel
// noise's kworker counts while it runs. A third task on a CPU with two does
// not set a flag a balance has cleared meanwhile (it stays clear until the
// next balance of the root domain sees the CPU); one task woken onto a CPU
// running the kworker sets it.
func TestEnqueueRaisesOverloaded(t *testing.T) {
	s := taskSim(t, 4)
	place(s, 0, 0)
	if s.rdOverloaded {
		t.Fatal("one task on cpu 0: rd->overloaded set")
	}
	place(s, 1, 0)
	if !s.rdOverloaded {
		t.Error("two tasks on cpu 0: rd->overloaded not set")
	}
	s.rdOverloaded = false // as a root-domain balance may leave it (env->cpus)
	place(s, 2, 0)
	if s.rdOverloaded {
		t.Error("a third task on cpu 0 set rd->overloaded; add_nr_running() sets it only from below 2")
	}
	c1 := &s.cpus[1]
	s.addNrRunningNonFair(c1) // housekeeping(): the kworker's wake-up
	c1.hkBusy = true
	if s.rdOverloaded {
		t.Error("the kworker alone on idle cpu 1 set rd->overloaded")
	}
	place(s, 3, 1)
	if !s.rdOverloaded {
		t.Error("a task woken onto cpu 1 while the kworker runs: nr_running 2, rd->overloaded not set")
	}
}

// update_idle_cpu_scan() runs at the end of update_sd_lb_stats() for the
// LLC, except in a newly idle balance (env->idle == CPU_NEWLY_IDLE).
func TestIdleCPUScanNotAtNewidle(t *testing.T) {
	for _, tc := range []struct {
		idle  cpuIdleType
		write bool
	}{{cpuNewlyIdle, false}, {cpuIdle, true}} {
		s := taskSim(t, 2)
		place(s, 0, 0)
		place(s, 1, 0)
		s.schedule(&s.cpus[0])
		s.now = 10_000_000
		const sentinel = 999
		s.shared[1].nrIdleScan = sentinel
		s.schedBalanceRq(1, 0, tc.idle, migPeriodic)
		if wrote := s.shared[1].nrIdleScan != sentinel; wrote != tc.write {
			t.Errorf("idle type %d: nr_idle_scan written %v (now %d); want %v", tc.idle, wrote, s.shared[1].nrIdleScan, tc.write)
		}
	}
}

// util_fits_cpu() is fits_capacity(util, capacity) = util·1280 <
// capacity·1024 (fair.c), strict: on Vera's capacity-1000 cores a util of
// 800 sits on the 20% margin and does not fit, 799 does. A scan from
// capacity-1000 CPU 0 with every CPU idle takes CPU 0 for 799, and for
// 800 goes on to the first CPU that fits, 40 (capacity 1024). Both the
// word-at-a-time scan and the traced per-CPU walk, in the K612 and TIP7
// forms.
func TestSelectIdleCapacityFitsMargin(t *testing.T) {
	for _, policy := range []string{`{}`, `{"features":{"SMT_AWARE_ASYM_CAPACITY":false}}`} {
		for _, tracing := range []bool{false, true} {
			for _, tc := range []struct{ util, want int }{{799, 0}, {800, 40}} {
				s := wakeSim(t, policy)
				s.tracing = tracing
				p := s.wakee(uint64(tc.util))
				p.cpu = 0
				if got := s.selectIdleCapacity(p, s.t.SDAsymCPUCapacity[0], 0, tc.util); got != tc.want {
					t.Errorf("policy %s, tracing %v: select_idle_capacity(util %d) from cpu 0 = %d; want %d", policy, tracing, tc.util, got, tc.want)
				}
			}
		}
	}
}

// The SIS_UTIL budget of the SMT-aware select_idle_capacity() (TIP7) counts
// every CPU of the walk, busy or idle (--nr <= 0 ends it), across the
// cpumask's 64-CPU words: with node 0 of Vera busy but CPU 70 (walk
// position 70 from target 0, in the second word), a budget of
// nr_idle_scan + 1 = 72 reaches it and 71 does not.
func TestSelectIdleCapacityBudgetSpansWords(t *testing.T) {
	for _, tracing := range []bool{false, true} {
		for _, tc := range []struct{ scan, want int }{{70, noCPU}, {71, 70}} {
			s := wakeSim(t, `{}`)
			s.tracing = tracing
			var busy []int
			for c := 0; c < 88; c++ {
				if c != 70 {
					busy = append(busy, c)
				}
				busy = append(busy, c+176)
			}
			s.busy(busy...)
			sds := s.shared[0]
			sds.hasIdleCores, sds.nrIdleScan = false, tc.scan
			p := s.wakee(100)
			p.cpu = 0
			sd := s.t.SDAsymCPUCapacity[0]
			if s.sharedDom[0] != sd {
				t.Fatal("set-up: the asym domain does not hold the shared data (no budget)")
			}
			if got := s.selectIdleCapacity(p, sd, 0, 100); got != tc.want {
				t.Errorf("tracing %v, nr_idle_scan %d: select_idle_capacity from cpu 0 = %d; want %d", tracing, tc.scan, got, tc.want)
			}
		}
	}
}

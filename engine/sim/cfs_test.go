package sim

import (
	"fmt"
	"testing"
)

// cfsDoc is a kunpeng920 scenario (128 CPUs: the tunables scale by 4, so
// sched_latency is 24 ms, min_granularity 3 ms, wake-up granularity 4 ms;
// HZ 250) under mainline with the fair class of generation gen.
func cfsDoc(gen, groups string) string {
	return fmt.Sprintf(`{"schedplay":1,"machine":{"preset":"kunpeng920"},
		"policy":{"preset":"mainline","generation":%q},
		"workload":{"metric":"latency","groups":[%s]},
		"run":{"duration":"1s","until":"duration","seed":1,"reps":1}}`, gen, groups)
}

// TestCFSTickPreemptsAfterSchedSlice: two CPU hogs on one CPU share it in
// sched_slice()s under CFS (24 ms ÷ 2 = 12 ms, preempted at the first tick
// past it, every 16 ms: check_preempt_tick()), where EEVDF switches at
// every tick once the 2.8 ms base slice is used up.
func TestCFSTickPreemptsAfterSchedSlice(t *testing.T) {
	hogs := `{"name":"hog","count":2,"cpus":"5","program":[{"compute":"2s"}]}`
	cfs := mustRun(t, resolveJSON(t, cfsDoc("6.1", hogs)), Options{}).Summary.ContextSwitches.Mean
	eevdf := mustRun(t, resolveJSON(t, cfsDoc("tip-2026-09", hogs)), Options{}).Summary.ContextSwitches.Mean
	if cfs < 60 || cfs > 66 {
		t.Errorf("CFS: %.0f context switches in 1 s; want 62 or 63 (a switch every 16 ms)", cfs)
	}
	if eevdf < 3*cfs {
		t.Errorf("EEVDF: %.0f context switches against CFS's %.0f; want its 4 ms switches", eevdf, cfs)
	}
}

// TestCFSWakeupPreemptsAHog: a periodic task that sleeps 10 ms is placed
// half a sched_latency behind min_vruntime (GENTLE_FAIR_SLEEPERS), more
// than the wake-up granularity ahead of the hog on its CPU, so under CFS
// check_preempt_wakeup() switches to it at once; under EEVDF the hog's
// slice is protected (RUN_TO_PARITY) and some wake-ups wait for it.
func TestCFSWakeupPreemptsAHog(t *testing.T) {
	groups := `{"name":"hog","count":1,"cpus":"5","program":[{"compute":"2s"}]},
		{"name":"tick","count":1,"cpus":"5","timer_slack":"0s","program":[{"periodic":{"every":"10ms","do":[{"compute":"100us"}]}}]}`
	cfs := mustRun(t, resolveJSON(t, cfsDoc("6.1", groups)), Options{}).Summary.LatencyMax.Mean
	eevdf := mustRun(t, resolveJSON(t, cfsDoc("tip-2026-09", groups)), Options{}).Summary.LatencyMax.Mean
	if cfs > 20e3 {
		t.Errorf("CFS: the sleeper waited up to %.1f µs; want it to preempt the hog at once", cfs/1e3)
	}
	if eevdf < 500e3 {
		t.Errorf("EEVDF: the sleeper waited at most %.1f µs; want RUN_TO_PARITY to hold some wake-ups back", eevdf/1e3)
	}
}

// TestCFSVruntimeFollowsMinVruntimeAcrossCPUs: a task's vruntime counts
// from its runqueue's min_vruntime; placed on another CPU it moves to that
// one's (migrate_task_rq_fair() + enqueue_entity()), then gets at most
// sched_latency/2 of sleeper credit.
func TestCFSVruntimeFollowsMinVruntimeAcrossCPUs(t *testing.T) {
	s := simOf(t, cfsDoc("6.1", `{"name":"t","count":1,"program":[{"compute":"1ms"}]}`))
	a, b := &s.cpus[1], &s.cpus[2]
	a.minVruntime, b.minVruntime = 50e6, 900e6
	// 20 ms past a's min_vruntime, left relative by detach_task()
	p := &task{weight: niceWeight(0), vruntime: 70e6 - a.minVruntime, vrRq: vrNormalised}
	s.placeEntityCFS(b, p, false, true) // moved by the load balancer: renormalised only
	if want := int64(920e6); p.vruntime != want {
		t.Errorf("moved task: vruntime %d, want %d (20 ms past the new min_vruntime)", p.vruntime, want)
	}
	// slept long on a, 40 ms behind its min_vruntime, left relative by
	// migrate_task_rq_fair() at the wake-up
	p.vruntime, p.vrRq = 10e6-a.minVruntime, vrNormalised
	s.placeEntityCFS(b, p, false, false)
	if want := b.minVruntime - s.cfsLatency/2; p.vruntime != want {
		t.Errorf("woken task: vruntime %d, want %d (half a sched_latency of credit)", p.vruntime, want)
	}
}

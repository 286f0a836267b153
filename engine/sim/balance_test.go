package sim

import "testing"

// Tasks forked while the other CPUs are busy pile up; when those CPUs go
// idle, newidle/idle balancing spreads the pile so the run ends as if the
// tasks had been placed one per CPU from the start.
func TestLoadBalanceSpreadsAPile(t *testing.T) {
	for _, policy := range []string{"none", "mainline"} {
		doc := `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1},"policy":{"preset":"` + policy + `"},
			"workload":{"groups":[
				{"name":"short","count":3,"cpus":"1-3","program":[{"compute":"10ms"}]},
				{"name":"long","count":4,"start":"1ms","program":[{"compute":"200ms"}]}]},
			"run":{"duration":"1s","seed":1}}`
		res := mustRun(t, resolveJSON(t, doc), Options{Timeline: true})
		rm := res.Reps[0]
		if rm.Completion == 0 || rm.Completion > 240_000_000 {
			t.Errorf("%s: completion %d ns; want ≈ 210 ms with the pile spread", policy, rm.Completion)
		}
		lb := rm.Migrations.Newidle + rm.Migrations.Periodic + rm.Migrations.Nohz + rm.Migrations.Active
		if lb == 0 {
			t.Errorf("%s: no load-balance migration: %+v", policy, rm.Migrations)
		}
	}
}

// An overloaded CPU next to a busy one is not "fixed" by pulling its only
// task: two hogs on two CPUs stay put (no ping-pong migrations).
func TestLoadBalanceNoPingPong(t *testing.T) {
	doc := `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":2,"threads_per_core":1},
		"workload":{"groups":[{"name":"hog","count":2,"program":[{"compute":"500ms"}]}]},
		"run":{"duration":"1s","seed":1}}`
	rm := mustRun(t, resolveJSON(t, doc), Options{}).Reps[0]
	if rm.Migrations.Total != 0 {
		t.Errorf("two hogs on two CPUs migrated: %+v", rm.Migrations)
	}
	if rm.Completion > 505_000_000 {
		t.Errorf("completion %d; want ≈500 ms", rm.Completion)
	}
}

package sim

import "testing"

// Two nice-0 hogs on one CPU alternate at tick granularity: the 2.8 ms
// slice (0.7 ms × 4 on ≥ 8 CPUs) rounds up to 4 ms at HZ=250, 3 ms at HZ=1000.
func TestEEVDFTwoHogsAlternate(t *testing.T) {
	for _, c := range []struct {
		hz     string
		wantMs int64
	}{{"250", 4}, {"1000", 3}} {
		doc := `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":8,"threads_per_core":1},
			"policy":{"hz":` + c.hz + `},
			"workload":{"groups":[{"name":"hog","count":2,"cpus":"3","program":[{"compute":"200ms"}]}]},
			"run":{"duration":"300ms","seed":1,"reps":1}}`
		res := mustRun(t, resolveJSON(t, doc), Options{Timeline: true})
		runs := res.Timeline.Runs[3]
		if len(runs) < 20 {
			t.Fatalf("HZ=%s: only %d run intervals on cpu 3", c.hz, len(runs))
		}
		for i, iv := range runs[1 : len(runs)-2] {
			d := (iv.End - iv.Start) / 1_000_000
			if d != c.wantMs && d != c.wantMs-1 {
				t.Fatalf("HZ=%s: interval %d lasts %d ns; want ≈%d ms", c.hz, i+1, iv.End-iv.Start, c.wantMs)
			}
			if runs[i+1].Task == runs[i+2].Task {
				t.Fatalf("HZ=%s: task %d ran twice in a row at %d", c.hz, iv.Task, iv.Start)
			}
		}
	}
}

// A nice -5 hog gets about 3121/(3121+1024) of the CPU against a nice-0 hog.
func TestEEVDFNiceShare(t *testing.T) {
	doc := `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":8,"threads_per_core":1},
		"workload":{"groups":[
			{"name":"heavy","count":1,"nice":-5,"cpus":"2","program":[{"compute":"1s"}]},
			{"name":"light","count":1,"cpus":"2","program":[{"compute":"1s"}]}]},
		"run":{"duration":"800ms","until":"duration","seed":1,"reps":1}}`
	res := mustRun(t, resolveJSON(t, doc), Options{Timeline: true})
	var heavy, light int64
	for _, iv := range res.Timeline.Runs[2] {
		if iv.Task == 0 {
			heavy += iv.End - iv.Start
		} else {
			light += iv.End - iv.Start
		}
	}
	share := float64(heavy) / float64(heavy+light)
	want := 3121.0 / (3121 + 1024)
	if share < want-0.04 || share > want+0.04 {
		t.Errorf("nice -5 share = %.3f; want ≈%.3f", share, want)
	}
}

// enqueue_entity() starts with update_curr() (fair.c:5421), which
// reschedules curr when its slice has run out and another task is queued
// (update_deadline() → resched_curr(), fair.c:1268): a wake-up that lands
// on a CPU whose curr overran its slice since the last tick switches to
// the task pick_eevdf() prefers, even when that is not the wakee.
func TestEnqueueReschedulesAnOverrunCurr(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1},
		"workload":{"groups":[{"name":"w","count":3,"program":[{"compute":"100ms"}]}]},"run":{"duration":"1s","seed":1}}`)
	q, r, p := s.tasks[0], s.tasks[1], s.tasks[2]
	c := &s.cpus[0]
	s.now = 1_000_000
	s.enqueueTask(c, q, true, false)
	s.schedule(c)
	s.enqueueTask(c, r, true, false)
	if c.curr != q {
		t.Fatal("setup: q is not running")
	}
	s.now += 4 * s.baseSlice                                             // q overruns its slice: no tick in between
	p.cpu, p.state, p.wakeCPU, p.vlag = 1, taskWaking, 0, -4*s.baseSlice // p comes back owed nothing: a late deadline
	c.pending++
	s.wakeArrive(p)
	if c.curr == q {
		t.Errorf("curr overran its slice by %d ns and kept the CPU through an enqueue (r's deadline %d, q's %d)", 3*s.baseSlice, r.deadline, q.deadline)
	}
}

// pick_eevdf() among equal deadlines: __enqueue_entity() puts an entity to
// the right of those with an equal deadline (entity_before() is strict),
// so the heap search returns the one queued first, whatever the task ids.
func TestPickEEVDFTieGoesToTheFirstQueued(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1},
		"workload":{"groups":[{"name":"w","count":3,"program":[{"compute":"100ms"}]}]},"run":{"duration":"1s","seed":1}}`)
	c := &s.cpus[0]
	for _, i := range []int{2, 1, 0} { // queued in the order 2, 1, 0
		s.enqueueTask(c, s.tasks[i], true, false)
	}
	for _, p := range c.rq {
		p.vruntime, p.deadline = 0, 1000
	}
	if got := s.pickEEVDF(c, true); got != s.tasks[2] {
		t.Errorf("pick_eevdf among equal deadlines took task %d; want task 2, queued first", got.id)
	}
}

package sim

import "testing"

// The wake-affine half of select_task_rq_fair() (6.12 fair.c):
// record_wakee(), wake_wide(), wake_affine_idle(), wake_affine_weight()
// and the SD_WAKE_AFFINE walk. Each table is the kernel function's own
// arithmetic on chosen inputs.

// TestRecordWakee: record_wakee() counts a flip only when the waker wakes
// a different task than last time, and halves the count once when jiffies
// has passed more than HZ beyond the jiffy of the last decay
// (time_after(jiffies, wakee_flip_decay_ts + HZ)): within the jiffy after
// that second, nothing decays yet.
func TestRecordWakee(t *testing.T) {
	s := taskSim(t, 3)
	cur, a, b := s.tasks[0], s.tasks[1], s.tasks[2]
	tick, hz := s.tickNs, int64(s.r.Policy.HZ)
	steps := []struct {
		now   int64
		wakee *task
		want  int
	}{
		{0, a, 1},
		{0, a, 1}, // the same wakee again: no flip
		{0, b, 2},
		{0, a, 3},
		{hz * tick, b, 4},               // exactly HZ jiffies later: time_after() is false, no decay
		{(hz+1)*tick - 1, b, 4},         // a second and most of a jiffy later: still jiffy HZ
		{(hz + 1) * tick, b, 2},         // jiffy HZ+1: decay 4 → 2, same wakee: no flip
		{(hz + 1) * tick * 3 / 2, a, 3}, // within HZ jiffies of the decay
		{(2*hz + 2) * tick, b, 2},       // decay 3 → 1, new wakee → 2
	}
	for i, st := range steps {
		s.now = st.now
		s.recordWakee(cur, st.wakee)
		if cur.wakeeFlips != st.want {
			t.Fatalf("step %d (t=%d ns, wakee %d): wakee_flips %d; want %d", i, st.now, st.wakee.id, cur.wakeeFlips, st.want)
		}
	}
}

// TestWakeWide: wake_wide() goes wide only when the smaller flip count
// reaches sd_llc_size (4 here) and the larger is at least that factor
// times it; the two counts are ordered first.
func TestWakeWide(t *testing.T) {
	s := taskSim(t, 2)
	cur, p := s.tasks[0], s.tasks[1]
	if f := s.t.SDLLCSize[0]; f != 4 {
		t.Fatalf("sd_llc_size %d; want 4", f)
	}
	for _, c := range []struct {
		waker, wakee int
		want         bool
	}{
		{0, 0, false},
		{16, 4, true},
		{15, 4, false},  // master < slave*factor
		{100, 3, false}, // slave < factor
		{4, 16, true},   // swapped
		{3, 100, false},
	} {
		cur.wakeeFlips, p.wakeeFlips = c.waker, c.wakee
		if got := s.wakeWide(p, cur, 0); got != c.want {
			t.Errorf("wake_wide(waker flips %d, wakee flips %d) = %v; want %v", c.waker, c.wakee, got, c.want)
		}
	}
	if s.wakeWide(p, nil, 0) {
		t.Error("wake_wide with no current task: true; want false")
	}
}

// numaSim is a 2-node, 4-core-per-node machine with one LLC per node at
// SLIT distance d: above node_reclaim_distance (30) the NUMA level loses
// SD_WAKE_AFFINE (sd_init()).
func numaSim(t *testing.T, d string) *sim {
	t.Helper()
	return simOf(t, `{"schedplay":1,"machine":{"nodes":2,"cores_per_node":4,"threads_per_core":1,"llc":"node","distances":[[10,`+d+`],[`+d+`,10]]},
		"workload":{"groups":[{"name":"w","count":1,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
}

// TestWakeAffineIdle: wake_affine_idle() prefers an idle prev to an idle
// this_cpu of the same LLC, takes this_cpu for a sync wake-up whose waker
// is alone, else an idle prev, else no choice.
func TestWakeAffineIdle(t *testing.T) {
	for _, c := range []struct {
		name       string
		busy       []int
		this, prev int
		sync       bool
		want       int
	}{
		{"this and prev idle, one LLC: prev", nil, 0, 1, false, 1},
		{"this idle, prev busy, one LLC: this", []int{1}, 0, 1, false, 0},
		{"this busy, prev idle: prev", []int{0}, 0, 1, false, 1},
		{"both busy: no choice", []int{0, 1}, 0, 1, false, noCPU},
		{"this idle in another LLC, prev busy: no choice", []int{5}, 0, 5, false, noCPU},
		{"this idle in another LLC, prev idle: prev", nil, 0, 5, false, 5},
		{"sync, the waker alone: this, before an idle prev", []int{0}, 0, 5, true, 0},
	} {
		s := numaSim(t, "20")
		s.busy(c.busy...)
		if got := s.wakeAffineIdle(c.this, c.prev, c.sync); got != c.want {
			t.Errorf("%s: wake_affine_idle(this %d, prev %d) = %d; want %d", c.name, c.this, c.prev, got, c.want)
		}
	}
}

// TestWakeAffineWeight: wake_affine_weight()'s comparison, with the numbers
// worked by hand from 6.12's formula: this_eff = (cpu_load(this) [−
// current's load when sync] + task_load) × 100 × capacity(prev) against
// prev_eff = (cpu_load(prev) − task_load) × (100 + (imbalance_pct − 100)/2)
// × capacity(this) [+ 1 when sync]; the MC domain's imbalance_pct is 117,
// so prev's factor is 108. Without WA_BIAS neither factor applies. The
// loads of current and the wakee are task_h_load()s, their load_avg times
// their runqueue's h_load (here fresh: its load_avg) over its load_avg + 1,
// one less than the load_avg.
func TestWakeAffineWeight(t *testing.T) {
	const this, prev = 0, 1
	for _, c := range []struct {
		name               string
		policy             string
		thisLoad, prevLoad uint64
		taskLoad, curLoad  uint64
		thisCap, prevCap   int
		sync               bool
		want               int
	}{
		{"WA_BIAS: 107×100 < 100×108", `{}`, 107, 100, 0, 0, 1024, 1024, false, this},
		{"WA_BIAS: 108×100 = 100×108, no sync", `{}`, 108, 100, 0, 0, 1024, 1024, false, noCPU},
		{"WA_BIAS: 110×100 > 100×108 (half the imbalance_pct)", `{}`, 110, 100, 0, 0, 1024, 1024, false, noCPU},
		{"sync breaks the tie: 108×100 < 100×108 + 1", `{}`, 108, 100, 0, 0, 1024, 1024, true, this},
		{"sync: current's load leaves this (207 − 99)", `{}`, 207, 100, 0, 100, 1024, 1024, true, this},
		{"sync: current's load leaves this (208 − 99)", `{}`, 208, 100, 0, 100, 1024, 1024, true, noCPU},
		{"sync: current heavier than its CPU → this", `{}`, 150, 1000, 0, 200, 1024, 1024, true, this},
		{"task load moves: (0 + 49)×100 < (150 − 49)×108", `{}`, 0, 150, 50, 0, 1024, 1024, false, this},
		{"task load moves: (0 + 99)×100 > (150 − 99)×108", `{}`, 0, 150, 100, 0, 1024, 1024, false, noCPU},
		{"task_h_load, not load_avg: (9 + 99)×100 < (200 − 99)×108", `{}`, 9, 200, 100, 0, 1024, 1024, false, this},
		{"capacities cross: 100×100×512 < 100×108×1024", `{}`, 100, 100, 0, 0, 1024, 512, false, this},
		{"capacities cross: 100×100×1024 > 100×108×512", `{}`, 100, 100, 0, 0, 512, 1024, false, noCPU},
		{"no WA_BIAS: 105 > 100", `{"features":{"WA_BIAS":false}}`, 105, 100, 0, 0, 1024, 1024, false, noCPU},
		{"no WA_BIAS: 99 < 100", `{"features":{"WA_BIAS":false}}`, 99, 100, 0, 0, 1024, 1024, false, this},
	} {
		s := taskSimPolicy(t, 2, c.policy)
		sd := s.t.Domains[this][0]
		if sd.ImbalancePct != 117 {
			t.Fatalf("MC imbalance_pct %d; want 117", sd.ImbalancePct)
		}
		s.busy(this)
		s.cpus[this].curr.avg.loadAvg = c.curLoad
		s.cpus[this].avg.loadAvg, s.cpus[prev].avg.loadAvg = c.thisLoad, c.prevLoad
		s.cpus[this].cap, s.cpus[prev].cap = c.thisCap, c.prevCap
		syncBuildCapacities(s)
		p := s.tasks[1]
		p.avg.loadAvg = c.taskLoad
		p.cpu = prev // task_cfs_rq(p): the wakee's load is taken on prev's runqueue
		if got := s.wakeAffineWeight(sd, p, s.cpus[this].curr, this, prev, c.sync); got != c.want {
			t.Errorf("%s: wake_affine_weight = %d; want %d", c.name, got, c.want)
		}
	}
}

// TestWakeAffineNeedsSDWakeAffine: select_task_rq_fair() looks for
// want_affine's domain only among those with SD_WAKE_AFFINE that span
// prev. A sync wake-up from a CPU whose waker runs alone is pulled to the
// waker's node across a distance-20 NUMA level, and left on its idle prev
// across a distance-40 one, which has no SD_WAKE_AFFINE.
func TestWakeAffineNeedsSDWakeAffine(t *testing.T) {
	for _, c := range []struct {
		distance string
		want     func(int) bool
		what     string
	}{
		{"20", func(cpu int) bool { return cpu >= 1 && cpu <= 3 }, "an idle CPU of the waker's node (1-3)"},
		{"40", func(cpu int) bool { return cpu == 5 }, "its idle prev, 5"},
	} {
		s := numaSim(t, c.distance)
		s.busy(0)
		s.llcs[s.t.SDLLCID[0]].nrIdleScan = 4
		p := s.tasks[0]
		p.cpu, p.recentUsedCPU = 5, -1
		if got := s.selectTaskRq(p, 5, 0, s.cpus[0].curr, true, false); !c.want(got) {
			t.Errorf("distance %s: sync wake-up from CPU 0 of a task whose prev is 5 → cpu %d; want %s", c.distance, got, c.what)
		}
	}
}

// task_h_load() (fair.c, CONFIG_FAIR_GROUP_SCHED, the root task group):
// load_avg × h_load / (cfs_rq load_avg + 1), where update_cfs_rq_h_load()
// sets h_load to the cfs_rq's load_avg at its first call in a jiffy and
// keeps it for the rest of that jiffy.
func TestTaskHLoadIsCachedPerJiffy(t *testing.T) {
	s := taskSim(t, 1)
	p := place(s, 0, 0)
	c := &s.cpus[0]
	s.now = 10 * s.tickNs
	p.avg.loadAvg, c.avg.loadAvg = 500, 1000
	if got := s.taskHLoad(p); got != 499 {
		t.Errorf("fresh h_load: task_h_load = %d; want 500×1000/1001 = 499", got)
	}
	c.avg.loadAvg = 2000
	s.now += s.tickNs - 1
	if got := s.taskHLoad(p); got != 249 {
		t.Errorf("the runqueue's load doubled within the jiffy: task_h_load = %d; want 500×1000/2001 = 249", got)
	}
	s.now++
	if got := s.taskHLoad(p); got != 499 {
		t.Errorf("next jiffy: task_h_load = %d; want 500×2000/2001 = 499", got)
	}
}

// detach_tasks() weighs a task by task_h_load() under migrate_load, and
// update_misfit_status() records it as rq->misfit_task_load: a task of
// load_avg 100 on a runqueue of load_avg 1000 counts 99 (the h_load
// rounding), so it fits an imbalance of 99, which consumes it.
func TestBalancerReadsTaskHLoad(t *testing.T) {
	s := taskSim(t, 1)
	p := place(s, 0, 0)
	c := &s.cpus[0]
	p.avg.loadAvg, c.avg.loadAvg = 100, 1000
	env := &lbEnv{migType: migrateLoad, imbalance: 99}
	if fits := s.detachTaskFits(env, p, 0, 0); !fits || env.imbalance != 0 {
		t.Errorf("migrate_load, imbalance 99: fits %v, imbalance left %d; want task_h_load 99 to fit and leave 0", fits, env.imbalance)
	}
	h := simOf(t, `{"schedplay":1,"machine":{"preset":"hikey960"},"policy":{"preset":"misfit"},
		"workload":{"groups":[{"name":"free","count":1,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
	q, a53 := h.tasks[0], &h.cpus[0]
	q.cpu = 0
	q.avg.utilAvg, q.utilEst, q.avg.loadAvg, a53.avg.loadAvg = 900, 0, 1000, 1000
	h.updateMisfitStatus(a53, q)
	if a53.misfitLoad != 999 {
		t.Errorf("misfit_task_load %d; want task_h_load 1000×1000/1001 = 999", a53.misfitLoad)
	}
}

// TestWakeAffineWeightTakesTheWakersLoad: a sync wake-up takes off
// task_h_load(current), the waker, also when an earlier wakee of its wake
// batch has preempted it and is this CPU's curr (grant(): the batch's
// wake-ups go on from the waker). With this CPU at 220, the waker at 150
// and the preempting wakee at 100: (220 − 149) × 100 < 100 × 108 + 1 takes
// this CPU; taking the wakee's load instead, (220 − 99) × 100, would not.
func TestWakeAffineWeightTakesTheWakersLoad(t *testing.T) {
	const this, prev = 0, 1
	s := taskSimPolicy(t, 2, `{}`)
	sd := s.t.Domains[this][0]
	s.busy(this)
	s.cpus[this].curr.avg.loadAvg = 100 // the wakee that preempted the waker
	waker := &task{id: 7, weight: 1024, cpu: this, state: taskRunnable}
	waker.avg.loadAvg = 150
	s.cpus[this].avg.loadAvg, s.cpus[prev].avg.loadAvg = 220, 100
	p := s.tasks[1]
	p.avg.loadAvg = 0
	p.cpu = prev
	if got := s.wakeAffineWeight(sd, p, waker, this, prev, true); got != this {
		t.Errorf("wake_affine_weight with the waker as current = %d; want this (%d)", got, this)
	}
	if got := s.wakeAffineWeight(sd, p, s.cpus[this].curr, this, prev, true); got != noCPU {
		t.Errorf("wake_affine_weight with the preempting wakee as current = %d; want noCPU (the numbers no longer test the waker)", got)
	}
	// The same through select_task_rq_fair(), every CPU busy (the waker
	// queued behind the wakee on this CPU), so that select_idle_sibling()
	// returns wake_affine()'s target.
	s.busy(0, 1, 2, 3)
	s.cpus[this].curr.avg.loadAvg = 100
	s.cpus[this].nrRunning = 2
	for _, c := range []struct {
		cur  *task
		want int
	}{{waker, this}, {s.cpus[this].curr, prev}} {
		if got := s.selectTaskRq(p, prev, this, c.cur, true, false); got != c.want {
			t.Errorf("select_task_rq_fair with current %d = %d; want %d", c.cur.id, got, c.want)
		}
	}
}

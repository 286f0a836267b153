package sim

import "testing"

// attach_entity_load_avg() (fair.c) rebuilds the entity's load_sum per
// unit of weight, ⌊load_avg · divider / se_weight⌋, and
// enqueue_load_avg() adds se_weight times that to the cfs_rq: less than
// load_avg · divider when the weight does not divide it, and se_weight
// when the entity's load_avg is 0.
func TestAttachEntityLoadAvgAddsTheWeightedLoadSum(t *testing.T) {
	const d = loadAvgMax - 1024 // period_contrib 0
	for _, tc := range []struct {
		weight, load, want uint64
	}{
		{1024, 600, 1024 * (600 * d / 1024)}, // 28,029,952, not 600·d = 28,030,800
		{15, 7, 15 * (7 * d / 15)},           // nice 19
		{1024, 0, 1024},                      // load_sum 1, not 0
	} {
		for _, mode := range []string{"modern", "legacy2018"} {
			s := hikeySim(t, mode)
			c := &s.cpus[4]
			p := &task{weight: int64(tc.weight), cpu: 4}
			p.avg = peltAvg{loadAvg: tc.load}
			s.attachEntityLoadAvg(c, p)
			if c.avg.loadAvg != tc.load || c.avg.loadSum != tc.want {
				t.Errorf("%s, weight %d, load_avg %d: the cfs_rq's load_avg %d, load_sum %d; want %d, %d",
					mode, tc.weight, tc.load, c.avg.loadAvg, c.avg.loadSum, tc.load, tc.want)
			}
		}
	}
}

// detach_entity_load_avg() (fair.c) takes the entity's own sums off the
// cfs_rq's: util_sum and runnable_sum as they are, load_sum times
// se_weight (dequeue_load_avg()), not the averages times the divider.
func TestDetachEntityLoadAvgTakesTheEntitysOwnSums(t *testing.T) {
	s := hikeySim(t, "modern")
	c := &s.cpus[4]
	c.avg = peltAvg{utilAvg: 900, utilSum: 900 * 47_000, runnableAvg: 1000, runnableSum: 1000 * 47_000,
		loadAvg: 3000, loadSum: 3000 * 47_000}
	before := c.avg
	p := &task{weight: 1024, cpu: 4}
	// Sums a little above the averages times the divider (46,718), as
	// accumulation leaves them between two updates of the averages.
	p.avg = peltAvg{utilAvg: 300, utilSum: 300*46_718 + 5_000, runnableAvg: 400, runnableSum: 400*46_718 + 7_000,
		loadAvg: 1000, loadSum: 1000*46_718/1024 + 9}
	s.detachEntityLoadAvg(c, p)
	a := c.avg
	if a.utilAvg != 600 || a.runnableAvg != 600 || a.loadAvg != 2000 {
		t.Errorf("averages after the detach: util %d, runnable %d, load %d; want 600, 600, 2000", a.utilAvg, a.runnableAvg, a.loadAvg)
	}
	if want := before.utilSum - p.avg.utilSum; a.utilSum != want {
		t.Errorf("util_sum %d after the detach; want %d (the entity's own %d off)", a.utilSum, want, p.avg.utilSum)
	}
	if want := before.runnableSum - p.avg.runnableSum; a.runnableSum != want {
		t.Errorf("runnable_sum %d after the detach; want %d (the entity's own %d off)", a.runnableSum, want, p.avg.runnableSum)
	}
	if want := before.loadSum - 1024*p.avg.loadSum; a.loadSum != want {
		t.Errorf("load_sum %d after the detach; want %d (se_weight · the entity's %d off)", a.loadSum, want, p.avg.loadSum)
	}
}

package sim

import (
	"math/rand/v2"
	"testing"

	"schedplay/engine/topo"
)

// TestWakeupStatsFromSumsMatchWalk checks update_sg_wakeup_stats() from
// the group sums against the walk of the span on hikey960 (asymmetric
// capacities): a task whose utilization fits no CPU of the little cluster
// has its misfit load there and none on the big one, one that fits has
// none; the sums give what the walk gives either way. The seeds' forks
// fit everywhere, so TestGroupSumsMatchWalk alone does not see the
// misfit rule.
func TestWakeupStatsFromSumsMatchWalk(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"preset":"hikey960"},
		"workload":{"groups":[{"name":"w","count":3,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
	s.now = 1_000_000
	place(s, 0, 0)
	place(s, 1, 4)
	s.schedule(&s.cpus[0])
	p := s.tasks[2]
	misfit := map[bool]int{}
	for _, u := range []int{0, 100, 369, 370, 600, 1000} {
		p.avg.utilAvg, p.utilEst = uint64(u), u
		for _, sd := range s.t.Domains[0] {
			for gi := range sd.Groups {
				g := &sd.Groups[gi]
				var sums, walk sgStats
				s.sgWakeupStatsFromSums(sd, g, p, &sums)
				s.sgWakeupStatsWalk(sd, g, p, &walk)
				if sums != walk {
					t.Errorf("util %d, %s group %s: from the sums %+v, the walk %+v", u, sd.Level, g.Span, sums, walk)
				}
				if sd.Flags&topo.SDAsymCPUCapacity != 0 {
					misfit[walk.misfitTaskLoad != 0]++
				}
			}
		}
	}
	if misfit[true] == 0 || misfit[false] == 0 {
		t.Errorf("misfit load in %d groups, none in %d: the cases do not reach both sides of task_fits_cpu()", misfit[true], misfit[false])
	}
}

// TestCountAndIntersects checks cpumask_weight_and() and
// cpumask_intersects(), taken a word at a time, against a CPU walk, on
// sets of one to six words (and two sets of different sizes).
func TestCountAndIntersects(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 5, 63, 64, 65, 130, 352} {
		for k := 0; k < 50; k++ {
			a, b := topo.NewCPUSet(n), topo.NewCPUSet(n+k%3*64)
			for c := 0; c < n; c++ {
				if rng.IntN(8) < k%8 {
					a.Set(topo.CPU(c))
				}
				if rng.IntN(8) < (k/8)%8 {
					b.Set(topo.CPU(c))
				}
			}
			want := 0
			for c := a.First(); c.Valid(); c = a.Next(c) {
				if b.Has(c) {
					want++
				}
			}
			if got := countAnd(a, b); got != want {
				t.Errorf("n=%d: countAnd(%s, %s) = %d, want %d", n, a, b, got, want)
			}
			if got := intersects(a, b); got != (want > 0) {
				t.Errorf("n=%d: intersects(%s, %s) = %v, want %v", n, a, b, got, want > 0)
			}
		}
	}
}

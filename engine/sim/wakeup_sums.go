package sim

import (
	"fmt"
	"math/bits"

	"schedplay/engine/topo"
)

// update_sg_wakeup_stats() from the group sums. The kernel's fork path
// (sched_balance_find_dst_group()) walks every CPU of every group it
// reads, so each of a run's first forks on a large machine reads the
// whole machine. For a task that may run on the whole group, the walk
// adds up the same per-CPU figures as update_sg_lb_stats() (p is on no
// rq, so cpu_load_without() and the rest are the plain figures), which
// the group sums hold. The kernel's walk only reads (cpu_load_without()
// and the rest); the engine also brings each CPU's cfs_rq averages up to
// now first (update_cfs_rq_load_avg(), a documented simplification; only
// where it would change anything, peltSynced: a second update at the same
// instant is a no-op).

// peltSynced records that c's update_cfs_rq_load_avg() has just run: until
// the clock moves or c changes (cpuChanged), another one at this instant
// changes nothing (the PELT clocks do not move, rq->curr is the same, so
// the rq clock stays on the same side of the idle entry, and less than a
// PELT period has passed).
func (s *sim) peltSynced(c *cpuState) {
	s.syncedNow()[c.id>>6] |= 1 << (uint(c.id) & 63)
}

// syncedNow returns the synced set for this instant: empty once the clock
// has moved.
func (s *sim) syncedNow() []uint64 {
	g := &s.gs
	if g.syncedAt != s.now {
		clear(g.synced)
		g.syncedAt = s.now
	}
	return g.synced
}

// syncPeltSpan is the walk's update_cfs_rq_load_avg() of every CPU of
// span, for the CPUs on which it is not a no-op. The verify mode runs it
// on the others too and panics if it changes their averages.
func (s *sim) syncPeltSpan(span topo.CPUSet) {
	synced := s.syncedNow()
	for w := range synced {
		m := span.Word(w)
		if s.gs.verify {
			s.verifyPeltSynced(w, m&synced[w])
		}
		for m &^= synced[w]; m != 0; m &= m - 1 {
			s.updateCfsRqLoadAvg(&s.cpus[w<<6|bits.TrailingZeros64(m)])
		}
	}
}

// verifyPeltSynced panics when update_cfs_rq_load_avg() changes the PELT
// state of a CPU of word w's bits m, which peltSynced says it does not.
func (s *sim) verifyPeltSynced(w int, m uint64) {
	for ; m != 0; m &= m - 1 {
		c := &s.cpus[w<<6|bits.TrailingZeros64(m)]
		avg, clk := c.avg, c.pelt
		s.updateCfsRqLoadAvg(c)
		if c.avg != avg || c.pelt != clk {
			panic(fmt.Sprintf("sim: update_cfs_rq_load_avg() of cpu %d at t=%d changed %+v %+v to %+v %+v", c.id, s.now, avg, clk, c.avg, c.pelt))
		}
	}
}

// sgWakeupStatsFromSums is update_sg_wakeup_stats()'s loop over the
// group's span from the group's sums, for a task that may run on every
// CPU of it: the loop's update_cfs_rq_load_avg() calls that are not no-ops
// (syncPeltSpan), then the sums. The verify mode walks the span too and
// panics when the statistics differ.
func (s *sim) sgWakeupStatsFromSums(sd *topo.Domain, g *topo.Group, p *task, sgs *sgStats) {
	s.syncPeltSpan(g.Span)
	s.flushGroupSums()
	gs := &s.gs.sums[g.ID]
	*sgs = sgStats{minCap: 1 << 30}
	sgs.groupCapacity, _, sgs.maxCap = s.groupCap(g) // the group's sgc
	sgs.groupWeight = g.Weight
	sgs.groupLoad, sgs.groupUtil, sgs.groupRunnable = gs.load, gs.util, gs.runnable
	sgs.sumNrRunning, sgs.sumHNrRunning, sgs.idleCPUs = gs.nr, gs.hnr, gs.idle
	// The task fits a CPU of the span (task_fits_cpu()) when it fits the
	// largest one, the span's largest capacity_orig: its CPUs' capacity_of()
	// when none is reduced (updateSgWakeupStats).
	if sd.Flags&topo.SDAsymCPUCapacity != 0 && s.taskUtilEst(p)*1280 >= gs.maxCap*1024 {
		sgs.misfitTaskLoad = 1
	}
	if s.gs.verify {
		var walk sgStats
		s.sgWakeupStatsWalk(sd, g, p, &walk)
		if walk != *sgs {
			panic(fmt.Sprintf("sim: wake-up statistics of %s from the sums at t=%d: %+v, a walk gives %+v", g.Span, s.now, *sgs, walk))
		}
	}
}

package sim

import (
	"math/bits"

	"schedplay/engine/topo"
)

// The RT pressure on a CPU's fair capacity (kernel/sched/pelt.c,
// fair.c): the RT class's running time is a PELT signal of its own,
// rq->avg_rt, and each load-balancing pass of a CPU at its lowest domain
// turns what the RT tasks leave into rq->cpu_capacity (capacity_of()),
// which the group capacities (sched_group_capacity) sum upwards. The fair
// class then reads a CPU that runs RT tasks as a smaller one: its group
// looks busier, a lone fair task there is a misfit for an idle CPU
// (sched_reduced_capacity()), the ILB is kicked for it and the stopper
// moves it (need_active_balance()). Neither the IRQ time
// (cpu_util_irq(): CONFIG_IRQ_TIME_ACCOUNTING, off in Debian's 6.12
// configs) nor SCHED_DEADLINE tasks (avg_dl; the fair deadline server
// runs fair tasks, whose class does the accounting) nor thermal pressure
// take capacity away here.

// sgcCapacity is the capacity part of struct sched_group_capacity.
type sgcCapacity struct {
	capacity   int64
	minCap     int
	maxCap     int
	nextUpdate int64 // jiffies
	differs    bool  // capacity, min or max differ from the group's at build time
	spanID     int   // the span (topo.Group.ID) of the groups that share it
}

// initGroupCapacities sets every CPU's capacity_of() and every
// sched_group_capacity to their build-time values
// (init_sched_groups_capacity(): each CPU's capacity_orig, nothing of RT
// running yet): a group's capacity is the sum of its CPUs' and its
// extremes theirs, which it keeps as sgcStatic.
func (s *sim) initGroupCapacities() {
	s.sgcCap = make([]sgcCapacity, s.t.NumSGC)
	s.sgcStatic = make([]sgcCapacity, s.t.NumSGC)
	s.nrCapReduced, s.sgcCapDiffer = 0, 0
	s.capReduced = topo.NewCPUSet(len(s.cpus))
	seen := make([]bool, s.t.NumSGC) // groups that share an sgc share their span
	for i := range s.cpus {
		s.cpus[i].capacity = s.cpus[i].cap
	}
	for _, doms := range s.t.Domains {
		for _, sd := range doms {
			for gi := range sd.Groups {
				g := &sd.Groups[gi]
				if seen[g.SGC] {
					continue
				}
				seen[g.SGC] = true
				v := sgcCapacity{minCap: 1 << 30, spanID: g.ID}
				for ci := g.Span.First(); ci.Valid(); ci = g.Span.Next(ci) {
					capv := s.cpus[ci].cap
					v.capacity += int64(capv)
					v.minCap, v.maxCap = min(v.minCap, capv), max(v.maxCap, capv)
				}
				s.sgcCap[g.SGC], s.sgcStatic[g.SGC] = v, v
			}
		}
	}
}

// updateRtRqLoadAvg is update_rt_rq_load_avg(): rq->avg_rt on c's PELT
// clock, a binary signal of whether an RT task ran since the last update.
func (s *sim) updateRtRqLoadAvg(c *cpuState, running bool) {
	var r uint64
	if running {
		r = 1
	}
	if s.peltModern() {
		c.avgRT.updateAt(s.rqClockPelt(c), r, r, running, 1)
		return
	}
	c.avgRT.advance(s.now, r, r, running, uint64(c.cap), 1) // legacy2018: wall-rate clock
}

// cpuUtilRT is cpu_util_rt(): rq->avg_rt.util_avg.
func cpuUtilRT(c *cpuState) int { return int(c.avgRT.utilAvg) }

// scaleRtCapacity is scale_rt_capacity(): what the RT class leaves of
// capacity_orig (no IRQ time, DL tasks or thermal pressure).
func scaleRtCapacity(c *cpuState) int {
	used := cpuUtilRT(c)
	if used >= c.cap {
		return 1
	}
	return c.cap - used
}

// capacityOf is capacity_of(): rq->cpu_capacity as c's last pass at its
// lowest domain left it.
func (s *sim) capacityOf(cpu int) int { return s.cpus[cpu].capacity }

// checkCPUCapacity is check_cpu_capacity(): the side activity took more
// than the domain's imbalance_pct of c's capacity.
func checkCPUCapacity(c *cpuState, sd *topo.Domain) bool {
	return c.capacity*sd.ImbalancePct < c.cap*100
}

// schedReducedCapacity is sched_reduced_capacity(): one fair task on a CPU
// of reduced capacity (with more, group_overloaded already covers it),
// counted as h_nr_queued (6.12) or, under H_NR_RUNNABLE, h_nr_runnable
// (6.14, 1a49104496d3), which leaves delayed tasks out.
func (s *sim) schedReducedCapacity(c *cpuState, sd *topo.Domain) bool {
	return s.lbNrRunning(c) == 1 && checkCPUCapacity(c, sd)
}

// reducedCapacityMisfit is update_sg_lb_stats()'s misfit load of
// non-local group g outside SD_ASYM_CPUCAPACITY, for the group sums:
// the largest cpu_load() of a CPU of the span that runs one fair task
// at a reduced capacity (sched_reduced_capacity()). Only CPUs of reduced
// capacity (capReduced) can, so only they are read.
func (s *sim) reducedCapacityMisfit(env *lbEnv, g *topo.Group) int64 {
	var load int64
	for w := range (g.Span.Size() + 63) / 64 {
		for x := g.Span.Word(w) & s.capReduced.Word(w); x != 0; x &= x - 1 {
			if c := &s.cpus[w<<6+bits.TrailingZeros64(x)]; s.schedReducedCapacity(c, env.sd) {
				load = max(load, cpuLoad(c))
			}
		}
	}
	return load
}

// groupCap is a group's sgc->capacity, min_capacity and max_capacity.
func (s *sim) groupCap(g *topo.Group) (capacity int64, minCap, maxCap int) {
	v := &s.sgcCap[g.SGC]
	return v.capacity, v.minCap, v.maxCap
}

// setSgcCapacity writes one sched_group_capacity and keeps the count of
// those that differ from their build-time values; statistics kept for
// the span are no longer the group's.
func (s *sim) setSgcCapacity(id int, capacity int64, minCap, maxCap int) {
	v, st := &s.sgcCap[id], &s.sgcStatic[id]
	if v.capacity == capacity && v.minCap == minCap && v.maxCap == maxCap {
		return
	}
	v.capacity, v.minCap, v.maxCap = capacity, minCap, maxCap
	s.gs.kept[v.spanID].key = 0
	differs := capacity != st.capacity || minCap != st.minCap || maxCap != st.maxCap
	if differs != v.differs {
		v.differs = differs
		if differs {
			s.sgcCapDiffer++
		} else {
			s.sgcCapDiffer--
		}
	}
}

// updateCPUCapacity is update_cpu_capacity(): rq->cpu_capacity from
// scale_rt_capacity(), and the CPU's group at its lowest domain (sd).
func (s *sim) updateCPUCapacity(sd *topo.Domain, cpu int) {
	c := &s.cpus[cpu]
	capv := scaleRtCapacity(c) // at least 1
	if capv != c.capacity {
		if (c.capacity != c.cap) != (capv != c.cap) {
			if capv != c.cap {
				s.nrCapReduced++
				s.capReduced.Set(topo.CPU(cpu))
			} else {
				s.nrCapReduced--
				s.capReduced.Clear(topo.CPU(cpu))
			}
		}
		c.capacity = capv
		s.cpuChanged(c) // the statistics kept for its spans read it
	}
	s.setSgcCapacity(sd.Groups[0].SGC, int64(capv), capv, capv)
}

// updateGroupCapacity is update_group_capacity(sd, cpu) for a domain whose
// balance_interval is intervalMs: the local group's capacity, from cpu
// itself at the lowest domain, else from the child domain's groups (their
// sgc, each as last updated) or, under an overlapping child, from
// capacity_of() of each CPU of the span.
func (s *sim) updateGroupCapacity(sd *topo.Domain, intervalMs, cpu int) {
	sdg := &sd.Groups[0]
	interval := min(max(s.msecsToJiffies(intervalMs), 1), s.maxLBInterval)
	s.sgcCap[sdg.SGC].nextUpdate = s.jiffies() + interval
	child := sd.Child
	if child == nil {
		s.updateCPUCapacity(sd, cpu)
		return
	}
	var capacity int64
	minCap, maxCap := 1<<30, 0
	if child.Flags&topo.SDOverlap != 0 {
		for ci := sdg.Span.First(); ci.Valid(); ci = sdg.Span.Next(ci) {
			capv := s.capacityOf(int(ci))
			capacity += int64(capv)
			minCap, maxCap = min(minCap, capv), max(maxCap, capv)
		}
	} else {
		for gi := range child.Groups {
			cc, cmin, cmax := s.groupCap(&child.Groups[gi])
			capacity += cc
			minCap, maxCap = min(minCap, cmin), max(maxCap, cmax)
		}
	}
	s.setSgcCapacity(sdg.SGC, capacity, minCap, maxCap)
}

// updateLocalGroupCapacity is update_sd_lb_stats()'s refresh of the local
// group's capacity, for this CPU's domain sdIdx (sd) balanced for dst: at
// every pass but a newidle one, which waits for the group's next_update.
// sched_balance_rq() runs it before each sched_balance_find_src_group():
// the first pass's before any answer of the sums (noSrcGroup), and a
// redo's, for dst_cpu (which a LBF_DST_PINNED round may have made
// new_dst_cpu).
func (s *sim) updateLocalGroupCapacity(sd *topo.Domain, this, dst, sdIdx int, idle cpuIdleType) {
	if idle != cpuNewlyIdle || s.jiffies() >= s.sgcCap[sd.Groups[0].SGC].nextUpdate {
		s.updateGroupCapacity(sd, s.cpus[this].sd[sdIdx].balanceInterval, dst)
	}
}

package sim

import (
	"math/bits"

	"schedplay/engine/topo"
)

// The fork/exec slow path: sched_balance_find_dst_cpu() (kernel-model.md §3.4).

// updateSgWakeupStats is update_sg_wakeup_stats() (p is not on any rq yet):
// the span's sums from the group sums when p may run on the whole span
// and no CPU of it has a reduced capacity (wakeup_sums.go), else a walk of
// the span; then group_classify().
func (s *sim) updateSgWakeupStats(sd *topo.Domain, g *topo.Group, p *task, sgs *sgStats) {
	if g.Span.SubsetOf(p.allowed) && !(s.nrCapReduced > 0 && g.Span.Intersects(s.capReduced)) {
		s.sgWakeupStatsFromSums(sd, g, p, sgs)
	} else {
		s.sgWakeupStatsWalk(sd, g, p, sgs)
	}
	sgs.groupType = groupClassify(sd.ImbalancePct, sgs, s.sgImbalanced(g))
	if sgs.groupType == groupFullyBusy || sgs.groupType == groupOverloaded {
		sgs.avgLoad = sgs.groupLoad * capScale / max(sgs.groupCapacity, 1)
	}
}

// sgWakeupStatsWalk is update_sg_wakeup_stats()'s loop over the group's
// span, with update_cfs_rq_load_avg() of each CPU p may run on.
func (s *sim) sgWakeupStatsWalk(sd *topo.Domain, g *topo.Group, p *task, sgs *sgStats) {
	*sgs = sgStats{minCap: 1 << 30} // min_capacity: not read here
	asymCap := sd.Flags&topo.SDAsymCPUCapacity != 0
	if asymCap {
		sgs.misfitTaskLoad = 1
	}
	// group_capacity and max_capacity are the group's (sgc)
	sgs.groupCapacity, _, sgs.maxCap = s.groupCap(g)
	util := s.taskUtilEst(p)
	for ci := g.Span.First(); ci.Valid(); ci = g.Span.Next(ci) {
		i := int(ci)
		c := &s.cpus[i]
		sgs.groupWeight++
		if !p.allowed.Has(ci) {
			continue
		}
		s.updateCfsRqLoadAvg(c)
		sgs.groupLoad += cpuLoad(c)
		sgs.groupUtil += int64(s.cpuUtilCfs(c))
		sgs.groupRunnable += int64(c.avg.runnableAvg)
		sgs.sumHNrRunning += s.lbNrRunning(c)
		sgs.sumNrRunning += c.nrRunningAll() // rq->nr_running: the kworker counts
		if c.nrRunningAll() == 0 && s.idleCPU(i) {
			sgs.idleCPUs++
		}
		if asymCap && sgs.misfitTaskLoad != 0 && s.utilFitsCPU(util, i) > 0 {
			sgs.misfitTaskLoad = 0
		}
	}
}

// updatePickIdlest is update_pick_idlest().
func updatePickIdlest(idlest *sgStats, sgs *sgStats) bool {
	if sgs.groupType < idlest.groupType {
		return true
	}
	if sgs.groupType > idlest.groupType {
		return false
	}
	switch sgs.groupType {
	case groupOverloaded, groupFullyBusy:
		return idlest.avgLoad > sgs.avgLoad
	case groupImbalanced, groupAsymPacking, groupSMTBalance:
		return false
	case groupMisfitTask:
		return idlest.maxCap < sgs.maxCap
	case groupHasSpare:
		if idlest.idleCPUs > sgs.idleCPUs {
			return false
		}
		if idlest.idleCPUs == sgs.idleCPUs && idlest.groupUtil <= sgs.groupUtil {
			return false
		}
	}
	return true
}

// schedBalanceFindDstGroup is sched_balance_find_dst_group(): the idlest
// group, or nil to stay in the local one.
func (s *sim) schedBalanceFindDstGroup(sd *topo.Domain, p *task, this int) *topo.Group {
	var idlest, local *topo.Group
	idlestS := sgStats{avgLoad: 1 << 62, groupType: groupOverloaded}
	var localS, tmp sgStats
	for gi := range sd.Groups {
		g := &sd.Groups[gi]
		if !intersects(g.Span, p.allowed) {
			continue
		}
		if g.Span.Has(topo.CPU(this)) {
			local = g
			s.updateSgWakeupStats(sd, g, p, &localS)
			continue
		}
		s.updateSgWakeupStats(sd, g, p, &tmp)
		if updatePickIdlest(&idlestS, &tmp) {
			idlest, idlestS = g, tmp
		}
	}
	if idlest == nil {
		return nil
	}
	if local == nil {
		return idlest
	}
	if localS.groupType < idlestS.groupType {
		return nil
	}
	if localS.groupType > idlestS.groupType {
		return idlest
	}
	switch localS.groupType {
	case groupOverloaded, groupFullyBusy:
		imb := int64(capScale) * int64(sd.ImbalancePct-100) / 100
		if sd.Flags&topo.SDNUMA != 0 && idlestS.avgLoad+imb >= localS.avgLoad {
			return nil
		}
		if idlestS.avgLoad >= localS.avgLoad+imb {
			return nil
		}
		if 100*localS.avgLoad <= int64(sd.ImbalancePct)*idlestS.avgLoad {
			return nil
		}
	case groupImbalanced, groupAsymPacking, groupSMTBalance:
		return nil
	case groupMisfitTask:
		if localS.maxCap >= idlestS.maxCap {
			return nil
		}
	case groupHasSpare:
		if sd.Flags&topo.SDNUMA != 0 {
			imbNr := sd.ImbNUMANr
			if w := countAnd(local.Span, p.allowed); w < imbNr {
				imbNr = w
			}
			imb := int64(localS.idleCPUs - idlestS.idleCPUs)
			if imb < 0 {
				imb = -imb
			}
			if adjustNumaImbalance(imb, localS.sumNrRunning+1, imbNr) == 0 {
				return nil
			}
		}
		if localS.idleCPUs >= idlestS.idleCPUs {
			return nil
		}
	}
	return idlest
}

// intersects is cpumask_intersects().
func intersects(a, b topo.CPUSet) bool { return a.Intersects(b) }

// countAnd is cpumask_weight_and(), a word at a time.
func countAnd(a, b topo.CPUSet) int {
	n := 0
	for w := 0; w<<6 < a.Size(); w++ {
		n += bits.OnesCount64(a.Word(w) & b.Word(w))
	}
	return n
}

// schedBalanceFindDstGroupCPU is sched_balance_find_dst_group_cpu(): the
// first CPU that runs only SCHED_IDLE tasks (sched_idle_cpu()), else the
// most recently idled idle CPU (equal exit latencies), else the least loaded.
func (s *sim) schedBalanceFindDstGroupCPU(g *topo.Group, p *task, this int) int {
	if g.Weight == 1 {
		return int(g.Span.First())
	}
	least, minLoad := this, int64(1<<62)
	shallow := noCPU
	var latest int64 = -1
	for ci := g.Span.First(); ci.Valid(); ci = g.Span.Next(ci) {
		if !p.allowed.Has(ci) {
			continue
		}
		i := int(ci)
		if s.schedIdleCPU(i) {
			return i
		}
		if s.availableIdle(i) {
			if st := s.cpus[i].idleStamp; st > latest {
				latest, shallow = st, i
			}
		} else if shallow == noCPU {
			if l := cpuLoad(&s.cpus[i]); l < minLoad {
				minLoad, least = l, i
			}
		}
	}
	if shallow != noCPU {
		return shallow
	}
	return least
}

// schedBalanceFindDstCPU is sched_balance_find_dst_cpu(): descend from sd.
// A CPU outside p's mask is select_task_rq()'s to replace (selectTaskRq).
func (s *sim) schedBalanceFindDstCPU(sd *topo.Domain, p *task, cpu int) int {
	if !intersects(sd.Span, p.allowed) {
		return cpu
	}
	newCPU := cpu
	for sd != nil {
		if sd.Flags&topo.SDBalanceFork == 0 {
			sd = sd.Child
			continue
		}
		g := s.schedBalanceFindDstGroup(sd, p, cpu)
		if g == nil {
			sd = sd.Child
			continue
		}
		newCPU = s.schedBalanceFindDstGroupCPU(g, p, cpu)
		if newCPU == cpu {
			sd = sd.Child
			continue
		}
		if s.tracing {
			s.note("sched_balance_find_dst_group(%s) → cpu %d", sd.Level, newCPU)
		}
		cpu = newCPU
		weight := sd.Span.Weight()
		sd = nil
		for _, tmp := range s.t.Domains[cpu] {
			if weight <= tmp.Span.Weight() {
				break
			}
			if tmp.Flags&topo.SDBalanceFork != 0 {
				sd = tmp
			}
		}
	}
	return newCPU
}

package sim

import (
	"fmt"

	"schedplay/engine/topo"
)

// The wake-up placement path of kernel/sched/fair.c (kernel-model.md §3).

const noCPU = -1

// note appends one step to the decision path being recorded (tracing only).
func (s *sim) note(format string, args ...any) {
	s.path = append(s.path, fmt.Sprintf(format, args...))
}

// selectTaskRq is select_task_rq_fair() (fork: the slow path; wake-up:
// wake_affine then select_idle_sibling), with the v6 exit applied. cur is
// current on cpu (the waker, or the task a timer interrupted; nil: idle).
func (s *sim) selectTaskRq(p *task, prev, cpu int, cur *task, sync, fork bool) int {
	if s.tracing {
		s.path = s.path[:0]
		s.note("select_task_rq_fair")
	}
	if p.nrAllowed == 1 {
		only := int(p.allowed.First())
		if s.tracing {
			s.note("nr_cpus_allowed == 1 → cpu %d", only)
		}
		s.recordDecision(p, decisionKind(fork), prev, only)
		return only
	}
	if fork {
		if s.tracing {
			s.note("WF_FORK from cpu %d (the parent runs there)", cpu)
		}
		newCPU := s.selectTaskRqSlow(p, cpu)
		s.recordDecision(p, "fork", prev, newCPU)
		return newCPU
	}
	doms := s.t.Domains[cpu]
	if cur != nil {
		s.recordWakee(cur, p)
	}
	wantAffine := s.feat.WakeAffineOn() && !s.wakeWide(p, cur, cpu) && p.allowed.Has(topo.CPU(cpu))
	newCPU := prev
	for _, d := range doms {
		if wantAffine && d.Flags&topo.SDWakeAffine != 0 && d.Span.Has(topo.CPU(prev)) {
			if cpu != prev {
				newCPU = s.wakeAffine(d, p, cur, cpu, prev, sync)
			}
			break
		}
	}
	if !p.allowed.Has(topo.CPU(newCPU)) {
		newCPU = prev
	}
	t := s.selectIdleSibling(p, prev, newCPU)
	if !p.allowed.Has(topo.CPU(t)) { // select_fallback_rq()
		t = int(p.allowed.First())
	}
	s.recordDecision(p, "wakeup", prev, t)
	return t
}

// selectTaskRqSlow is select_task_rq_fair()'s slow path for WF_FORK and
// WF_EXEC from cpu: the highest SD_BALANCE_FORK/EXEC domain reached
// without a gap (want_affine is false for both), then
// sched_balance_find_dst_cpu() and the v6 exit. Every level carries both
// flags (sd_init()), so the two walks are the same.
func (s *sim) selectTaskRqSlow(p *task, cpu int) int {
	var sd *topo.Domain
	for _, d := range s.t.Domains[cpu] {
		if d.Flags&topo.SDBalanceFork == 0 {
			break
		}
		sd = d
	}
	// The parent's CPU stays sched_balance_find_dst_cpu()'s cpu even
	// when the child may not run there: its group is then skipped as
	// the local group and the idlest allowed group taken.
	newCPU := cpu
	if sd != nil {
		newCPU = s.schedBalanceFindDstCPU(sd, p, cpu)
	}
	if !p.allowed.Has(topo.CPU(newCPU)) { // select_fallback_rq()
		newCPU = int(p.allowed.First())
	}
	return s.selectIdleSMTCPUExit(p, newCPU)
}

// decisionKind names a placement for Decision.Kind.
func decisionKind(fork bool) string {
	if fork {
		return "fork"
	}
	return "wakeup"
}

// recordWakee is record_wakee(): count the waker's wakee flips, halved
// once more than HZ jiffies have passed since the last halving.
func (s *sim) recordWakee(cur, p *task) {
	if j := s.jiffies(); j > cur.wakeeFlipDecay+int64(s.r.Policy.HZ) { // time_after(jiffies, wakee_flip_decay_ts + HZ)
		cur.wakeeFlips >>= 1
		cur.wakeeFlipDecay = j
	}
	if cur.lastWakee != p.id {
		cur.lastWakee = p.id
		cur.wakeeFlips++
	}
}

// wakeWide is wake_wide(): many-to-many wake-ups go wide (no affine).
func (s *sim) wakeWide(p, cur *task, cpu int) bool {
	if cur == nil {
		return false
	}
	master, slave := cur.wakeeFlips, p.wakeeFlips
	factor := s.t.SDLLCSize[cpu]
	if master < slave {
		master, slave = slave, master
	}
	if slave < factor || master < slave*factor {
		return false
	}
	return true
}

// wakeAffine is wake_affine(): WA_IDLE then WA_WEIGHT; this_cpu or prev.
// cur is current, the waker (selectTaskRq).
func (s *sim) wakeAffine(sd *topo.Domain, p, cur *task, this, prev int, sync bool) int {
	target := noCPU
	if s.feat.WAIdleOn() {
		target = s.wakeAffineIdle(this, prev, sync)
	}
	if s.feat.WAWeightOn() && target == noCPU {
		target = s.wakeAffineWeight(sd, p, cur, this, prev, sync)
	}
	if target != this {
		if s.tracing {
			s.note("wake_affine → prev %d", prev)
		}
		return prev
	}
	if s.tracing {
		s.note("wake_affine → this %d", this)
	}
	return target
}

// wakeAffineIdle is wake_affine_idle().
func (s *sim) wakeAffineIdle(this, prev int, sync bool) int {
	if s.availableIdle(this) && s.t.SDLLCID[this] == s.t.SDLLCID[prev] {
		if s.availableIdle(prev) {
			if s.tracing {
				s.note("wake_affine_idle: prev idle")
			}
			return prev
		}
		if s.tracing {
			s.note("wake_affine_idle: this idle")
		}
		return this
	}
	if tc := &s.cpus[this]; sync && tc.nrRunningAll()-tc.nrDelayed == 1 { // nr_running - cfs_h_nr_delayed(): every class, the kworker too
		if s.tracing {
			s.note("wake_affine_idle: sync, waker alone")
		}
		return this
	}
	if s.availableIdle(prev) {
		if s.tracing {
			s.note("wake_affine_idle: prev idle")
		}
		return prev
	}
	return noCPU
}

// wakeAffineWeight is wake_affine_weight(). A sync wake-up takes off
// task_h_load(current): cur, the waker, which stays current for the whole
// of its wake batch even when an earlier wakee has preempted it on this
// CPU (grant()); nil when an interrupt on an idle CPU wakes.
func (s *sim) wakeAffineWeight(sd *topo.Domain, p, cur *task, this, prev int, sync bool) int {
	thisEff := cpuLoad(&s.cpus[this])
	if sync {
		if cur != nil {
			cl := s.taskHLoad(cur)
			if cl > thisEff {
				return this
			}
			thisEff -= cl
		}
	}
	taskLoad := s.taskHLoad(p)
	thisEff += taskLoad
	if s.feat.WABiasOn() {
		thisEff *= 100
	}
	thisEff *= int64(s.capacityOf(prev))
	prevEff := cpuLoad(&s.cpus[prev]) - taskLoad
	if s.feat.WABiasOn() {
		prevEff *= int64(100 + (sd.ImbalancePct-100)/2)
	}
	prevEff *= int64(s.capacityOf(this))
	if sync {
		prevEff++
	}
	if thisEff < prevEff {
		if s.tracing {
			s.note("wake_affine_weight: this lighter")
		}
		return this
	}
	return noCPU
}

// selectIdleSibling is select_idle_sibling(); every successful exit goes
// through select_idle_smt_cpu() when policy.idle_select_asym is set.
func (s *sim) selectIdleSibling(p *task, prev, target int) int {
	util := 0
	if s.asymCapActive {
		s.syncEntityLoadAvg(&s.cpus[p.cpu], p) // sync_entity_load_avg()
		util = s.taskUtilEst(p)
	}
	if s.idleOrSchedIdle(target) && s.asymFitsCPU(util, target) {
		if s.tracing {
			s.note("select_idle_sibling: target %d %s", target, s.idleWord(target))
		}
		return s.selectIdleSMTCPUExit(p, target)
	}
	prevAff := noCPU
	if prev != target && s.t.SDLLCID[prev] == s.t.SDLLCID[target] && s.idleOrSchedIdle(prev) && s.asymFitsCPU(util, prev) {
		if !s.sisCluster || s.t.SDShareID[prev] == s.t.SDShareID[target] {
			if s.tracing {
				s.note("select_idle_sibling: prev %d %s", prev, s.idleWord(prev))
			}
			return s.selectIdleSMTCPUExit(p, prev)
		}
		prevAff = prev
	}
	recent := p.recentUsedCPU
	p.recentUsedCPU = prev
	if recent >= 0 && recent != prev && recent != target && s.t.SDLLCID[recent] == s.t.SDLLCID[target] &&
		s.idleOrSchedIdle(recent) && p.allowed.Has(topo.CPU(recent)) && s.asymFitsCPU(util, recent) {
		if !s.sisCluster || s.t.SDShareID[recent] == s.t.SDShareID[target] {
			if s.tracing {
				s.note("select_idle_sibling: recent_used_cpu %d %s", recent, s.idleWord(recent))
			}
			return s.selectIdleSMTCPUExit(p, recent)
		}
	} else {
		recent = noCPU
	}
	if s.asymCapActive {
		if sd := s.t.SDAsymCPUCapacity[target]; sd != nil {
			i := s.selectIdleCapacity(p, sd, target, util)
			if i >= 0 {
				if s.tracing {
					s.note("select_idle_capacity → cpu %d", i)
				}
				return s.selectIdleSMTCPUExit(p, i)
			}
			if s.tracing {
				s.note("select_idle_capacity: none → target %d", target)
			}
			return target
		}
	}
	sd := s.t.SDLLC[target]
	if sd == nil {
		return target
	}
	hasIdleCore := false
	if s.smtActive {
		hasIdleCore = s.shared[target].hasIdleCores // test_idle_cores()
		if !hasIdleCore && s.t.SDLLCID[prev] == s.t.SDLLCID[target] {
			if i := s.selectIdleSMT(p, sd, prev); i >= 0 {
				if s.tracing {
					s.note("select_idle_smt → cpu %d", i)
				}
				return s.selectIdleSMTCPUExit(p, i)
			}
		}
	}
	if i := s.selectIdleCPU(p, sd, hasIdleCore, target); i >= 0 {
		return s.selectIdleSMTCPUExit(p, i)
	}
	if prevAff >= 0 {
		return s.selectIdleSMTCPUExit(p, prevAff)
	}
	if recent >= 0 {
		return s.selectIdleSMTCPUExit(p, recent)
	}
	if s.tracing {
		s.note("select_idle_sibling: nothing idle → target %d", target)
	}
	return target
}

// selectIdleSMT is select_idle_smt(): an idle sibling of target inside sd.
func (s *sim) selectIdleSMT(p *task, sd *topo.Domain, target int) int {
	for _, cpu := range s.cores[s.cpus[target].core].cpus {
		if cpu == target || !p.allowed.Has(topo.CPU(cpu)) || !sd.Span.Has(topo.CPU(cpu)) {
			continue
		}
		if s.idleOrSchedIdle(cpu) {
			return cpu
		}
	}
	return noCPU
}

// The select_rq_mask of select_idle_cpu()/select_idle_capacity() is
// span(sd) ∩ p->cpus_ptr minus the cores select_idle_core() dropped; it is
// walked in place: inScan tests membership, cores are dropped by marking
// them with the current scan generation.

// beginScan starts a new scan (forgets dropped cores).
func (s *sim) beginScan() { s.scanGen++ }

// inScan reports whether cpu is in the scan mask of sd for p.
func (s *sim) inScan(sd *topo.Domain, p *task, cpu int) bool {
	return sd.Span.Has(topo.CPU(cpu)) && p.allowed.Has(topo.CPU(cpu)) && s.coreMark[s.cpus[cpu].core] != s.scanGen
}

// dropCore removes a whole core from the scan mask.
func (s *sim) dropCore(cpu int) { s.coreMark[s.cpus[cpu].core] = s.scanGen }

// nextWrap is for_each_cpu_wrap() over span(sd): the next member after c
// in wrap order from start, or noCPU when the walk is complete. Callers
// filter with inScan.
func nextWrap(span topo.CPUSet, c, start int, wrapped *bool) int {
	if start >= span.Size() {
		start = 0 // as firstWrap starts: a walk from past the last CPU starts at 0
	}
	n := span.Next(topo.CPU(c))
	if !*wrapped {
		if n.Valid() {
			return int(n)
		}
		*wrapped = true
		n = span.First()
	}
	if !n.Valid() || int(n) >= start {
		return noCPU
	}
	return int(n)
}

// firstWrap starts for_each_cpu_wrap() at start.
func firstWrap(span topo.CPUSet, start int, wrapped *bool) int {
	*wrapped = false
	if start >= span.Size() {
		start = 0
	}
	return nextWrap(span, start-1, start, wrapped)
}

// selectIdleCore is select_idle_core(): the core's CPU when all its
// siblings are idle; else remember an idle sibling (or one that runs only
// SCHED_IDLE tasks) and drop the core.
func (s *sim) selectIdleCore(sd *topo.Domain, p *task, cpu int, idleCPU *int) int {
	idle := true
	for _, sib := range s.cores[s.cpus[cpu].core].cpus {
		if !s.availableIdle(sib) {
			idle = false
			if *idleCPU == noCPU {
				if s.schedIdleCPU(sib) && s.inScan(sd, p, sib) {
					*idleCPU = sib
					break
				}
				continue
			}
			break
		}
		if *idleCPU == noCPU && s.inScan(sd, p, sib) {
			*idleCPU = sib
		}
	}
	if idle {
		return cpu
	}
	s.dropCore(cpu)
	return noCPU
}

// selectIdleCPU is select_idle_cpu() with the SIS_UTIL scan budget.
func (s *sim) selectIdleCPU(p *task, sd *topo.Domain, hasIdleCore bool, target int) int {
	nr := 1 << 30
	sds := s.shared[target]
	// sd_llc->shared: none when the tip moved it to the asym domain
	if s.feat.SISUtilOn() && s.sharedDom[target] == sd {
		nr = sds.nrIdleScan + 1
		if nr == 1 {
			if s.tracing {
				s.note("select_idle_cpu: SIS_UTIL nr_idle_scan=0, LLC overloaded")
			}
			return noCPU
		}
	}
	s.beginScan()
	idleCPU := noCPU
	start := target + 1
	if start >= sd.Span.Size() {
		start = 0
	}
	// With sched_cluster_active, the target's cluster (the LLC domain's
	// local group when it carries SD_CLUSTER) is scanned first and then
	// left out of the LLC scan.
	var cluster topo.CPUSet
	clustered := s.sisCluster && len(sd.Groups) > 0 && sd.Groups[0].Flags&topo.SDCluster != 0
	if clustered {
		cluster = sd.Groups[0].Span
		if s.tracing {
			s.note("select_idle_cpu: sched_cluster_active, target's cluster %s first", cluster)
		}
	}
	if s.tracing {
		s.selectIdleCPUScanBegin(hasIdleCore, start, nr)
	}
	var wrapped bool
	if clustered {
		for cpu := firstWrap(cluster, start, &wrapped); cpu != noCPU; cpu = nextWrap(cluster, cpu, start, &wrapped) {
			if !s.inScan(sd, p, cpu) {
				continue
			}
			if i, done := s.selectIdleCPUStep(p, sd, hasIdleCore, cpu, &nr, &idleCPU); done {
				return i
			}
		}
	}
	for cpu := firstWrap(sd.Span, start, &wrapped); cpu != noCPU; cpu = nextWrap(sd.Span, cpu, start, &wrapped) {
		if !s.inScan(sd, p, cpu) || clustered && cluster.Has(topo.CPU(cpu)) {
			continue
		}
		if i, done := s.selectIdleCPUStep(p, sd, hasIdleCore, cpu, &nr, &idleCPU); done {
			return i
		}
	}
	if s.tracing {
		s.scanEnd("")
	}
	if hasIdleCore {
		sds.hasIdleCores = false // set_idle_cores(target, 0)
		if s.tracing {
			if idleCPU >= 0 {
				s.note("select_idle_core: no idle core, clear has_idle_cores → idle cpu %d", idleCPU)
			} else {
				s.note("select_idle_core: no idle core, clear has_idle_cores")
			}
		}
	}
	return idleCPU
}

// selectIdleCPUStep is one CPU of select_idle_cpu()'s scan loops: with
// has_idle_core, select_idle_core(); else the nr_idle_scan budget and
// __select_idle_cpu(). done reports that the scan ends with cpu (noCPU
// when the budget ran out).
func (s *sim) selectIdleCPUStep(p *task, sd *topo.Domain, hasIdleCore bool, cpu int, nr, idleCPU *int) (int, bool) {
	if hasIdleCore {
		had := *idleCPU
		if i := s.selectIdleCore(sd, p, cpu, idleCPU); i >= 0 {
			if s.tracing {
				s.scanCPU(cpu, "core idle (chosen)")
				s.scanEnd("")
				s.note("select_idle_core → cpu %d", i)
			}
			return i, true
		}
		if s.tracing {
			s.selectIdleCoreScanCPU(cpu, had, *idleCPU)
		}
		return noCPU, false
	}
	*nr--
	if *nr <= 0 {
		if s.tracing {
			s.scanEnd("nr_idle_scan budget exhausted")
			s.note("select_idle_cpu: scan budget exhausted")
		}
		return noCPU, true
	}
	if s.idleOrSchedIdle(cpu) { // __select_idle_cpu()
		if s.tracing {
			s.scanCPU(cpu, "%s (chosen)", s.idleWord(cpu))
			s.scanEnd("")
			s.note("select_idle_cpu → cpu %d", cpu)
		}
		return cpu, true
	}
	if s.tracing {
		s.scanCPU(cpu, "busy")
	}
	return noCPU, false
}

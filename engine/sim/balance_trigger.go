package sim

import (
	"fmt"
	"math/bits"

	"schedplay/engine/topo"
)

// When balancing runs: periodic (sched_balance_trigger/sched_balance_domains),
// newidle (sched_balance_newidle) and nohz idle balance (kernel-model.md §4.1–4.3).

// jiffies is the tick count at the current time.
func (s *sim) jiffies() int64 { return s.now / s.tickNs }

// msecsToJiffies is msecs_to_jiffies() at the policy's HZ: ms·HZ/1000
// rounded up (exact where the tick's length in ns is not, e.g. HZ=300).
func (s *sim) msecsToJiffies(ms int) int64 {
	return (int64(ms)*int64(s.r.Policy.HZ) + 999) / 1000
}

// msJiffies is one msecs_to_jiffies() result kept with its argument (the
// zero value holds for 0 ms).
type msJiffies struct {
	ms int
	j  int64
}

// getSdBalanceInterval is get_sd_balance_interval(). The domain keeps its
// last conversion of each kind (idle, busy), since the interval changes
// only when a pass doubles or resets it: a division per domain of every
// CPU the nohz idle balance visits was 2% of wasm's samples on Vera +
// sgemm-nvpl (a 64-bit division is a runtime call there).
func (s *sim) getSdBalanceInterval(sd *topo.Domain, st *sdState, busy bool) int64 {
	ms := st.balanceInterval
	m := &st.intervalJiffies[0]
	if busy {
		ms *= sd.BusyFactor
		m = &st.intervalJiffies[1]
	}
	if m.ms != ms {
		m.ms, m.j = ms, s.msecsToJiffies(ms)
	}
	j := m.j
	if busy {
		j--
	}
	return min(max(j, 1), s.maxLBInterval)
}

// schedBalanceTrigger is sched_balance_trigger(): periodic balance when due,
// in sched_balance_softirq() after sched_balance_update_blocked_averages()
// (which decays the rq's avg_rt on a CPU that runs fair tasks).
func (s *sim) schedBalanceTrigger(c *cpuState) {
	if j := s.jiffies(); j >= c.nextBalance {
		idle := cpuNotIdle
		if s.idleCPU(c.id) {
			idle = cpuIdle
		}
		if s.tracing {
			s.lbPrefix = append(s.lbPrefix[:0], fmt.Sprintf("sched_balance_trigger(cpu %d)", c.id))
		}
		s.schedBalanceUpdateBlockedAverages(c)
		s.schedBalanceDomains(c, c.id, j, idle, migPeriodic)
		s.lbPrefix = s.lbPrefix[:0]
	}
}

// schedBalanceDomains is sched_balance_domains() at jiffy j (now's), run
// on CPU from: c itself, or the nohz ILB balancing idle c.
func (s *sim) schedBalanceDomains(c *cpuState, from int, j int64, idle cpuIdleType, cause int) {
	busy := idle != cpuIdle && !c.schedIdleRq() // a CPU running only SCHED_IDLE tasks balances at the idle interval
	next := j + 60*int64(s.r.Policy.HZ)
	updateNext := false
	cont := true // continue_balancing
	needDecay := false
	var maxCost int64
	for i, sd := range s.t.Domains[c.id] {
		st := &c.sd[i]
		// The newidle max costs decay here, on this regular visit of
		// every domain, even above one that stopped the balancing.
		needDecay = s.updateNewidleCost(st, j, 0, 0)
		maxCost += st.maxNewidleLBCost
		if !cont {
			if needDecay {
				continue
			}
			break
		}
		interval := s.getSdBalanceInterval(sd, st, busy)
		if j >= st.lastBalance+interval {
			var moved int
			moved, cont = s.schedBalanceRqOn(c.id, from, i, idle, cause)
			if moved > 0 {
				if s.idleCPU(c.id) {
					idle = cpuIdle
				} else {
					idle = cpuNotIdle
				}
				busy = idle != cpuIdle && !c.schedIdleRq()
			}
			st.lastBalance = j
			interval = s.getSdBalanceInterval(sd, st, busy)
		}
		if st.lastBalance+interval < next {
			next = st.lastBalance + interval
			updateNext = true
		}
	}
	if needDecay {
		// the rq-wide value decays too, floored for avg_idle's sake
		c.maxIdleBalanceCost = max(s.migCost, maxCost)
	}
	if updateNext {
		c.nextBalance = next // nohz.next_balance is the ILB's to lower (_nohz_idle_balance)
	}
	if c.curr == nil && c.nrTasks() > 0 {
		s.reschedIdle(c, from)
	}
}

// reschedIdle is resched_curr() of idle CPU c, given a task by a balance
// running on CPU from (attach_task() → wakeup_preempt()): c schedules at
// once when it is from, else once the IPI has reached it and it has left
// its idle state.
func (s *sim) reschedIdle(c *cpuState, from int) {
	if c.id == from {
		s.schedule(c)
		return
	}
	s.reschedCurr(c.id, from)
}

// updateNewidleCost is update_newidle_cost() at jiffy now: a newidle pass
// (cost > 0) counts in the NI_RANDOM statistics; a cost above the
// domain's max becomes it, else the max decays by 1 % once a second. It
// reports the decay.
func (s *sim) updateNewidleCost(st *sdState, now, cost int64, success int) bool {
	if cost != 0 {
		s.updateNewidleStats(st, success)
	}
	if cost > st.maxNewidleLBCost {
		st.maxNewidleLBCost = cost
		st.lastDecayMaxLB = now
	} else if now > st.lastDecayMaxLB+int64(s.r.Policy.HZ) {
		st.maxNewidleLBCost = st.maxNewidleLBCost * 253 / 256
		st.lastDecayMaxLB = now
		return true
	}
	return false
}

// newidleCost is the simulated cost of one newidle pass over a domain
// (kernel-model.md Q10: 2 µs + 0.05 µs per CPU of the span).
func newidleCost(sd *topo.Domain) int64 { return 2000 + 50*int64(sd.Span.Weight()) }

// schedBalanceNewidle is sched_balance_newidle(); returns tasks pulled.
func (s *sim) schedBalanceNewidle(c *cpuState) int {
	c.misfitLoad = 0
	s.cpuChanged(c)
	if c.pending > 0 { // this_rq->ttwu_pending: no idle_stamp either
		return 0
	}
	c.idleStamp = s.now // before the domains are looked at
	if len(c.sd) == 0 {
		return 0
	}
	next := s.jiffies() + int64(s.r.Policy.HZ)
	defer func() {
		if next < c.nextBalance {
			c.nextBalance = next
		}
	}()
	if !s.rdOverloaded || c.avgIdle < c.sd[0].maxNewidleLBCost {
		s.updateNextBalance(c, 0, &next)
		s.nohzNewidleBalance(c)
		return 0
	}
	s.schedBalanceUpdateBlockedAverages(c)
	var currCost int64
	pulled := 0
	for i, sd := range s.t.Domains[c.id] {
		st := &c.sd[i]
		s.updateNextBalance(c, i, &next)
		if c.avgIdle < currCost+st.maxNewidleLBCost {
			break
		}
		if sd.Flags&topo.SDBalanceNewidle != 0 {
			weight := 1
			// 9fe89f022c05 (NI_RATE) also skips the dice at ratio 1024
			if s.feat.NIRandomOn() && (!s.feat.NIRateOn() || st.newidleRatio < 1024) {
				d1k := s.rng.IntN(1024)
				weight = 1 + st.newidleRatio
				if d1k > weight {
					s.updateNewidleStats(st, 0)
					continue
				}
				weight = (1024 + weight/2) / weight
			}
			n, cont := s.schedBalanceRq(c.id, i, cpuNewlyIdle, migNewidle)
			pulled += n
			cost := newidleCost(sd)
			currCost += cost
			success := 0
			if pulled > 0 {
				success = weight
			}
			s.updateNewidleCost(st, s.jiffies(), cost, success)
			if !cont {
				break
			}
		}
		if pulled > 0 || c.nrTasks() > 0 || c.pending > 0 {
			break
		}
	}
	c.maxIdleBalanceCost = max(c.maxIdleBalanceCost, currCost)
	if c.nrTasks() > 0 {
		c.idleStamp = 0
	} else {
		s.nohzNewidleBalance(c)
	}
	return pulled
}

// updateNextBalance is update_next_balance(): an idle CPU's next balance
// at the domain's (not busy) interval.
func (s *sim) updateNextBalance(c *cpuState, i int, next *int64) {
	st := &c.sd[i]
	nb := st.lastBalance + s.getSdBalanceInterval(s.t.Domains[c.id][i], st, false)
	if nb < *next {
		*next = nb
	}
}

// updateNewidleStats is update_newidle_stats() (NI_RANDOM bookkeeping):
// every 512 calls the ratio becomes the (weighted) successes, plus under
// NI_RATE the time those calls took in units of 2^22 ns (4.19 ms), capped
// at 1024, so 512 calls in 4.3 s or more (a rate under 128 Hz) give 1024.
// Without NI_RATE it is 6.12's: the successes, uncapped.
func (s *sim) updateNewidleStats(st *sdState, success int) {
	st.newidleCall++
	st.newidleSuccess += success
	if st.newidleCall >= 1024 {
		if s.feat.NIRateOn() {
			delta := max(s.now-st.newidleStamp, 0)
			st.newidleStamp = s.now
			st.newidleRatio = min(1024, int(min(delta>>22, 1024))+st.newidleSuccess)
		} else {
			st.newidleRatio = st.newidleSuccess // 6.12: uncapped
		}
		st.newidleCall /= 2
		st.newidleSuccess /= 2
	}
}

// niRateIdleStamp is the newidle_stamp of a machine that was idle before
// the run: its last 512 newidle calls took 1024 << 22 ns (4.29 s) or
// longer, the least for which NI_RATE gives the full ratio.
const niRateIdleStamp = -(int64(1024) << 22)

// initialSdState is a domain's state when the run starts. The balance
// interval and the newidle counters are sd_init()'s (newidle_call 512,
// newidle_success 256, newidle_ratio 512). Under NI_RATE the run starts,
// like the SIS_UTIL budget (run.go), on a machine that has been up and
// idle: an idle machine's newidle passes stop at the rd->overloaded gate
// before update_newidle_stats() counts them, so its last 512 counted
// calls took longer than 4.29 s, and update_newidle_stats() left
// newidle_ratio at 1024 with the stamp at least that far back.
func (s *sim) initialSdState(d *topo.Domain) sdState {
	st := sdState{balanceInterval: d.MinInterval, newidleCall: 512, newidleSuccess: 256, newidleRatio: 512}
	if s.feat.NIRateOn() {
		st.newidleRatio, st.newidleStamp = 1024, niRateIdleStamp
	}
	return st
}

// nohzBalancerKick is nohz_balancer_kick(), run on a busy CPU's tick.
func (s *sim) nohzBalancerKick(c *cpuState) {
	s.nohzBalanceExitIdle(c)
	if !s.feat.NohzIdleOn() || s.nohzIdleCount == 0 {
		return
	}
	j := s.jiffies()
	var flags uint8
	if s.nohzHasBlocked && j > s.nohzNextBlocked {
		flags = nohzStatsKick // refresh the idle CPUs' blocked load
	}
	kick := ""
	if j >= s.nohzNextBalance { // time_before(now, nohz.next_balance): goto out
		kick = s.nohzKickReason(c)
	}
	switch {
	case kick != "":
		flags = nohzStatsKick | nohzBalanceKick
	case flags != 0:
		kick = "nohz.has_blocked (stats only)"
	default:
		kick = "nohz.needs_update"
	}
	if s.nohzNeedsUpdate { // out: a CPU entered nohz idle since the last ILB pass
		flags |= nohzNextKick
	}
	if flags != 0 {
		s.kickILBTraced(c.id, flags, kick)
	}
}

// nohzKickReason is why nohz_balancer_kick() asks the ILB for a balance
// pass, in its order of checks; "" when it does not.
func (s *sim) nohzKickReason(c *cpuState) string {
	if c.nrRunningAll() >= 2 { // rq->nr_running: the kworker counts
		return "nr_running >= 2"
	}
	// a fair task (h_nr_queued, h_nr_runnable under H_NR_RUNNABLE) on a
	// CPU whose capacity other classes took (rq->sd)
	if ds := s.t.Domains[c.id]; len(ds) > 0 && s.lbNrRunning(c) >= 1 && checkCPUCapacity(c, ds[0]) {
		return "reduced capacity"
	}
	if sd := s.sdAsymPacking[c.id]; sd != nil {
		for ci := sd.Span.First(); ci.Valid(); ci = sd.Span.Next(ci) {
			if i := int(ci); s.cpus[i].nohzIdle && s.schedAsymSrc(sd, i, c.id) {
				return "asym packing: idle preferred cpu"
			}
		}
	}
	if sd := s.t.SDAsymCPUCapacity[c.id]; sd != nil {
		// check_misfit_status(): 6.1 also asks for a CPU below the root
		// domain's largest capacity or of reduced capacity
		if c.misfitLoad != 0 && (s.misfitMaxAllowedCap || c.cap < s.rdMaxCap || checkCPUCapacity(c, sd)) {
			return "misfit"
		}
		return ""
	}
	if s.llcs[s.t.SDLLCID[c.id]].nrBusyCPUs > 1 {
		return "nr_busy_cpus > 1"
	}
	return ""
}

// kickILBTraced is kickILB() noting why nohz_balancer_kick() fired.
func (s *sim) kickILBTraced(from int, flags uint8, why string) {
	if s.tracing && !s.ilbPending {
		s.ilbWhy = fmt.Sprintf("nohz_balancer_kick(cpu %d): %s", from, why)
	}
	s.kickILB(from, flags)
}

// findNewILB is find_new_ilb(): the first idle CPU in nohz.idle_cpus_mask;
// with ILB_IDLE_CORE (293f9611ae73) one on a fully idle core first. The
// walk goes a word at a time: nohz.idle_cpus_mask ∧ the idle mask (the
// CPUs idle_cpu() holds for) without this CPU, and with ILB_IDLE_CORE ∧
// the CPUs whose core is idle (is_core_idle() of an idle CPU).
func (s *sim) findNewILB(self int) int {
	ilb := s.findNewILBMask(self)
	if s.gs.verify {
		if walk := s.findNewILBWalk(self); walk != ilb {
			panic(fmt.Sprintf("find_new_ilb at t=%d: the mask gives cpu %d, the walk cpu %d", s.now, ilb, walk))
		}
	}
	return ilb
}

// findNewILBMask is findNewILB's word-at-a-time walk.
func (s *sim) findNewILBMask(self int) int {
	idle := s.idleCPUs()
	idleCore := s.feat.ILBIdleCoreOn() && s.smtActive
	first := noCPU
	for w := range (s.nohzIdleMask.Size() + 63) >> 6 {
		m := s.nohzIdleMask.Word(w) & idle.Word(w)
		if self>>6 == w {
			m &^= 1 << (uint(self) & 63)
		}
		if m == 0 {
			continue
		}
		if !idleCore {
			return w<<6 + bits.TrailingZeros64(m)
		}
		if first == noCPU {
			first = w<<6 + bits.TrailingZeros64(m)
		}
		if c := m & s.im.coreIdle.Word(w); c != 0 {
			return w<<6 + bits.TrailingZeros64(c)
		}
	}
	return first
}

// findNewILBWalk is find_new_ilb()'s walk of nohz.idle_cpus_mask a CPU at
// a time (the verify mode of TestGroupSumsMatchWalk checks the mask walk
// against it).
func (s *sim) findNewILBWalk(self int) int {
	first := noCPU
	for ci := s.nohzIdleMask.First(); ci.Valid(); ci = s.nohzIdleMask.Next(ci) {
		i := int(ci)
		if i == self || !s.idleCPU(i) {
			continue
		}
		if !s.feat.ILBIdleCoreOn() || !s.smtActive {
			return i
		}
		if first == noCPU {
			first = i
		}
		if s.isCoreIdle(i) {
			return i
		}
	}
	return first
}

// kickILB is kick_ilb(): IPI the ILB CPU, which then balances for (or
// only refreshes the blocked load of) all idle CPUs. A kick while one is
// pending adds its flags to the pending one (the kernel ORs them into the
// chosen CPU's nohz_flags; here one ILB is pending at a time).
func (s *sim) kickILB(from int, flags uint8) {
	if flags&nohzBalanceKick != 0 {
		s.nohzNextBalance = s.jiffies() + 1
	}
	ilb := s.findNewILB(from)
	if ilb == noCPU {
		return
	}
	if s.ilbPending {
		s.ilbFlags |= flags
		return
	}
	s.ilbPending, s.ilbCPU, s.ilbFlags = true, ilb, flags
	// the IPI (none to a polling idle CPU: smp_call_function_single_async()
	// queues nohz_csd as a wake list does), and the ILB (idle by
	// construction) leaving its idle state
	s.q.push(event{at: s.now + s.ipiLatency(ilb) + s.idleExitCost(&s.cpus[ilb]), kind: evILB, a: int32(ilb)})
}

// nohzIdleBalance is the kick's IPI on the ILB, nohz_csd_func(): the
// flags are released, and the softirq runs _nohz_idle_balance() with them
// only when the ILB is still idle_cpu() (rq->idle_balance); an ILB that a
// wake-up, a pull or the kernel noise's kworker reached since the kick
// drops it, and a later tick kicks again.
func (s *sim) nohzIdleBalance(ilb int) {
	flags := s.ilbFlags
	s.ilbPending, s.ilbFlags = false, 0
	if !s.idleCPU(ilb) {
		return
	}
	s.nohzIdleBalanceFlags(ilb, flags)
}

// nohzIdleBalanceFlags is _nohz_idle_balance(): refresh the blocked load
// (NOHZ_STATS_KICK) and balance every due idle CPU (NOHZ_BALANCE_KICK), in
// wrap order from ilb+1, the ILB itself last; every pass that is not
// aborted sets nohz.next_balance to the earliest next_balance of the idle
// CPUs it visited, and NOHZ_NEXT_KICK clears nohz.needs_update. The ILB's
// PE is busy while it balances (ILB noise on a sibling of a busy core).
func (s *sim) nohzIdleBalanceFlags(ilb int, flags uint8) {
	ic := &s.cpus[ilb]
	stats := flags&nohzStatsKick != 0
	if stats {
		s.nohzHasBlocked = false
	}
	if flags&nohzNextKick != 0 {
		s.nohzNeedsUpdate = false
	}
	hasBlocked, aborted, updateNext := false, false, false
	j := s.jiffies()
	next := j + 60*int64(s.r.Policy.HZ)
	work := int64(0)
	// for_each_cpu_wrap(balance_cpu, nohz.idle_cpus_mask, this_cpu+1), the
	// mask read at each step (a balance on the way may change it).
	var wrapped bool
	for i := firstWrap(s.nohzIdleMask, ilb+1, &wrapped); i != noCPU; i = nextWrap(s.nohzIdleMask, i, ilb+1, &wrapped) {
		c := &s.cpus[i]
		if !s.idleCPU(i) {
			continue
		}
		if ic.nrTasks() > 0 || ic.pending > 0 {
			hasBlocked = hasBlocked || stats
			if flags&nohzNextKick != 0 {
				s.nohzNeedsUpdate = true
			}
			aborted = true
			break // need_resched on the ILB: stop
		}
		if stats && s.updateNohzStats(c) {
			hasBlocked = true
		}
		if j >= c.nextBalance && flags&nohzBalanceKick != 0 {
			cause := migNohz
			if i == ilb {
				cause = migPeriodic
			}
			if s.tracing {
				s.lbPrefix = append(s.lbPrefix[:0], s.ilbWhy, fmt.Sprintf("find_new_ilb → cpu %d", ilb), fmt.Sprintf("_nohz_idle_balance: for cpu %d", i))
			}
			s.schedBalanceDomains(c, ilb, j, cpuIdle, cause)
			s.lbPrefix = s.lbPrefix[:0]
			work += 2000
		}
		if c.nohzIdle && c.nextBalance < next {
			next, updateNext = c.nextBalance, true
		}
	}
	if !aborted {
		if updateNext { // "next_balance will be updated only when there is a need"
			s.nohzNextBalance = next
		}
		if stats {
			s.nohzNextBlocked = j + s.msecsToJiffies(loadAvgPeriodMs)
		}
	}
	if hasBlocked {
		s.nohzHasBlocked = true // still blocked load: keep the periodic update
	}
	if work > 0 && !ic.irqBusy && ic.curr == nil {
		s.idleIRQWork(ic, work) // the softirq keeps the ILB's PE busy (idle_cpu() stays true)
	}
}

// sdAsymPacking61 is 6.1's per_cpu(sd_asym_packing): highest_flag_domain()
// of SD_ASYM_PACKING, an SDF_SHARED_CHILD flag in 6.1's sd_flags.h (not in
// 6.12's), so the search stops at the first of a CPU's domains without it.
func sdAsymPacking61(t *topo.Topology) []*topo.Domain {
	out := make([]*topo.Domain, len(t.Domains))
	for cpu, chain := range t.Domains {
		for _, sd := range chain {
			if sd.Flags&topo.SDAsymPacking == 0 {
				break
			}
			out[cpu] = sd
		}
	}
	return out
}

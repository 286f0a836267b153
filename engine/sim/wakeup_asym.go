package sim

import (
	"fmt"
	"math/bits"

	"schedplay/engine/topo"
)

// Capacity-aware and SMT-priority idle selection: util_fits_cpu(),
// asym_fits_cpu(), select_idle_capacity() (K612 and the TIP7 SMT-aware
// form) and the Olympus v6 select_idle_smt_cpu() (kernel-model.md §2.3, §3.3).

// utilFitsCPU is util_fits_cpu() without uclamp: fits_capacity(util, capacity_of).
func (s *sim) utilFitsCPU(util, cpu int) int {
	if util*1280 < s.capacityOf(cpu)*1024 {
		return 1
	}
	return 0
}

// isCoreIdle is is_core_idle(): every other sibling idle.
func (s *sim) isCoreIdle(cpu int) bool {
	for _, sib := range s.cores[s.cpus[cpu].core].cpus {
		if sib != cpu && !s.availableIdle(sib) {
			return false
		}
	}
	return true
}

// asymFitsCPU is asym_fits_cpu(); the TIP7 form also wants an idle core.
func (s *sim) asymFitsCPU(util, cpu int) bool {
	if !s.asymCapActive {
		return true
	}
	if s.utilFitsCPU(util, cpu) <= 0 {
		return false
	}
	if s.feat.SMTAwareAsymCapacityOn() && s.smtActive {
		return s.isCoreIdle(cpu)
	}
	return true
}

// Ranks of the SMT-aware select_idle_capacity() (TIP7 asym_fits_state).
const (
	rankFits       = 1
	rankThreadFits = -2
)

// selectIdleCapacity is select_idle_capacity(): K612, or the TIP7
// SMT-aware variant preferring fully idle cores (SMT_AWARE_ASYM_CAPACITY).
func (s *sim) selectIdleCapacity(p *task, sd *topo.Domain, target, util int) int {
	smtAware := s.feat.SMTAwareAsymCapacityOn()
	hasIdleCore := false
	nr := 1 << 30
	sds := s.shared[target] // sd_balance_shared
	if smtAware {
		hasIdleCore = s.smtActive && sds.hasIdleCores
		// sd->shared: when the asym domain holds the shared data
		if s.feat.SISUtilOn() && s.sharedDom[target] == sd {
			nr = sds.nrIdleScan + 1
			if nr == 1 {
				return noCPU
			}
		}
	}
	if !s.tracing && !s.schedIdleTasks { // the mask walk reads available_idle_cpu() alone
		return s.selectIdleCapacityMask(p, sd, target, util, smtAware, hasIdleCore, nr, sds)
	}
	s.scanBegin("select_idle_capacity", target, fmt.Sprintf(" (task util %d)", util))
	best, bestRank, bestCap := noCPU, 1, 0
	var wrapped bool
	for cpu := firstWrap(sd.Span, target, &wrapped); cpu != noCPU; cpu = nextWrap(sd.Span, cpu, target, &wrapped) {
		if !p.allowed.Has(topo.CPU(cpu)) {
			continue
		}
		if smtAware && !hasIdleCore {
			nr--
			if nr <= 0 {
				if s.tracing {
					s.scanEnd("nr_idle_scan budget exhausted")
				}
				break
			}
		}
		if !s.idleOrSchedIdle(cpu) {
			if s.tracing {
				s.scanCPU(cpu, "busy")
			}
			continue
		}
		rank, preferred, fits, capv := s.idleCapacityRank(util, cpu, smtAware, hasIdleCore)
		if rank == rankChosen {
			if s.tracing {
				if smtAware {
					s.scanCPU(cpu, "idle fits cap %d%s (chosen)", capv, coreIdleText(hasIdleCore))
				} else {
					s.scanCPU(cpu, "idle fits cap %d (chosen)", capv)
				}
				s.scanEnd("")
			}
			return cpu
		}
		better := best == noCPU || rank < bestRank || (rank == bestRank && capv > bestCap)
		if s.tracing {
			s.scanCPU(cpu, "idle %s%s rank %d cap %d%s", fitsText(fits), siblingText(preferred), rank, capv, bestText(better))
		}
		if better {
			best, bestRank, bestCap = cpu, rank, capv
		}
	}
	if s.tracing && nr > 0 { // the budget exit already closed the step
		s.scanEnd("")
	}
	// best_fits starts at ASYM_IDLE_THREAD_MISFIT: a scan that found no idle
	// CPU clears the hint as well (rank 1 > -3).
	if smtAware && hasIdleCore && bestRank > -3 {
		sds.hasIdleCores = false
	}
	return best
}

// rankChosen is idleCapacityRank's verdict for an idle CPU the scan takes
// at once.
const rankChosen = -100

// idleCapacityRank is select_idle_capacity()'s verdict on idle CPU cpu:
// rankChosen when the scan returns it (it fits, and on the SMT-aware form
// its core is idle or no core is), else its rank (lower is better) and,
// for the trace, whether its core was preferred, util_fits_cpu() and its
// capacity.
func (s *sim) idleCapacityRank(util, cpu int, smtAware, hasIdleCore bool) (rank int, preferred bool, fits, capv int) {
	fits = s.utilFitsCPU(util, cpu)
	capv = s.capacityOf(cpu)
	preferred = true
	if !smtAware {
		if fits > 0 {
			return rankChosen, true, fits, capv
		}
		return 0, true, fits, capv
	}
	preferred = !hasIdleCore || s.isCoreIdle(cpu)
	if fits > 0 && preferred {
		return rankChosen, true, fits, capv
	}
	if fits > 0 {
		rank = rankThreadFits
	}
	if preferred {
		rank -= 3
	}
	return rank, preferred, fits, capv
}

// rankedCPUs are the CPUs of one word that idleCapacityRank would give
// one rank.
type rankedCPUs struct {
	rank int
	cpus uint64
}

// selectIdleCapacityMask is selectIdleCapacity's scan when no trace is
// kept: the span ∧ p->cpus_ptr in for_each_cpu_wrap() order from target,
// a word at a time, over the available idle CPUs (idleCPUs). The SIS_UTIL
// budget (nr) counts every CPU of the walk, busy or idle, as the kernel's
// loop does: the CPU at walk position k is looked at only when nr - k > 0.
// A word's verdicts come from masks: the CPUs util fits (by capacity
// class) and, on the SMT-aware form, those whose core is idle; the scan
// returns the first idle CPU that fits (on an idle core when there are
// idle cores), else the best rank, then the largest capacity, then the
// first in walk order, exactly as the per-CPU loop picks them. A CPU whose
// capacity_of() the RT class reduced (capReduced) is not of its class:
// its fit and its capacity are its own.
func (s *sim) selectIdleCapacityMask(p *task, sd *topo.Domain, target, util int, smtAware, hasIdleCore bool, nr int, sds *llcState) int {
	counting := smtAware && !hasIdleCore
	idle := s.idleCPUs()
	m := &s.im
	fitClasses := m.fitClasses(util)
	best, bestRank, bestCap := noCPU, 1, 0
	chosen := noCPU
	wrapWords(sd.Span, p.allowed, target, func(w int, walk uint64, before int) bool {
		cand := walk & idle.Word(w)
		last := false
		if counting {
			// the CPUs of this word the budget still reaches
			lim := nr - before - 1
			if lim <= 0 {
				return false
			}
			if lim < bits.OnesCount64(walk) {
				cand &= lowestBits(walk, lim)
				last = true
			}
		}
		if cand == 0 {
			return !last
		}
		fit := m.fitWord(w, fitClasses)
		var red uint64 // CPUs of reduced capacity
		if s.nrCapReduced > 0 {
			red = s.capReduced.Word(w)
			fit &^= red
			for x := cand & red; x != 0; x &= x - 1 {
				if cpu := w<<6 + bits.TrailingZeros64(x); s.utilFitsCPU(util, cpu) > 0 {
					fit |= 1 << uint(cpu&63)
				}
			}
		}
		pref := ^uint64(0) // preferred: the core is idle, or no core is
		if smtAware && hasIdleCore {
			pref = m.coreIdle.Word(w)
		}
		if x := cand & fit & pref; x != 0 {
			chosen = w<<6 + bits.TrailingZeros64(x)
			return false
		}
		ranks := [3]rankedCPUs{{0, cand}}
		nranks := 1
		if smtAware {
			ranks = [3]rankedCPUs{{-3, cand & pref}, {rankThreadFits, cand & fit &^ pref}, {0, cand &^ fit &^ pref}}
			nranks = 3
		}
		for _, r := range ranks[:nranks] {
			if r.cpus == 0 || (best != noCPU && r.rank > bestRank) {
				continue
			}
			// the word's largest capacity of the rank, the first in walk
			// order among equals
			pick, pickCap := noCPU, 0
			if plain := r.cpus &^ red; plain != 0 {
				for _, c := range m.caps {
					if x := plain & c.cpus.Word(w); x != 0 {
						pick, pickCap = w<<6+bits.TrailingZeros64(x), c.cap
						break
					}
				}
			}
			for x := r.cpus & red; x != 0; x &= x - 1 {
				cpu := w<<6 + bits.TrailingZeros64(x)
				if capv := s.capacityOf(cpu); pick == noCPU || capv > pickCap || capv == pickCap && cpu < pick {
					pick, pickCap = cpu, capv
				}
			}
			if pick != noCPU && (best == noCPU || r.rank < bestRank || (r.rank == bestRank && pickCap > bestCap)) {
				best, bestRank, bestCap = pick, r.rank, pickCap
			}
		}
		return !last
	})
	if chosen != noCPU {
		return chosen
	}
	if smtAware && hasIdleCore && bestRank > -3 {
		sds.hasIdleCores = false
	}
	return best
}

// fitsText names util_fits_cpu()'s verdict in a scan step.
func fitsText(fits int) string {
	if fits > 0 {
		return "fits"
	}
	return "no fit"
}

// bestText marks a scan candidate that became the best so far ("(best)").
func bestText(better bool) string {
	if better {
		return " (best)"
	}
	return ""
}

// siblingText notes a CPU passed over for a busy SMT sibling (has_idle_cores).
func siblingText(preferred bool) string {
	if preferred {
		return ""
	}
	return " sibling busy"
}

// coreIdleText notes that a chosen CPU's core is fully idle.
func coreIdleText(hasIdleCore bool) string {
	if hasIdleCore {
		return " core idle"
	}
	return ""
}

// selectIdleSMTCPUExit applies the v6 exit when policy.idle_select_asym is set.
func (s *sim) selectIdleSMTCPUExit(p *task, cpu int) int {
	if !s.r.Policy.IdleSelectAsym {
		return cpu
	}
	b := s.selectIdleSMTCPU(p, cpu)
	if s.tracing && b != cpu {
		s.note("select_idle_smt_cpu → cpu %d", b)
	}
	return b
}

// selectIdleSMTCPU is select_idle_smt_cpu() (v6): within the lowest domain,
// when it is an SMT level with SD_ASYM_PACKING, the highest-priority sibling
// that choose_idle_cpu() takes (idle, or running only SCHED_IDLE work).
func (s *sim) selectIdleSMTCPU(p *task, cpu int) int {
	if !s.smtActive || len(s.t.Domains[cpu]) == 0 {
		return cpu
	}
	sd := s.t.Domains[cpu][0]
	if sd.Flags&topo.SDShareCPUCapacity == 0 || sd.Flags&topo.SDAsymPacking == 0 {
		return cpu
	}
	best := cpu
	for c := sd.Span.First(); c.Valid(); c = sd.Span.Next(c) {
		sib := int(c)
		if sib == best || !p.allowed.Has(c) || !s.idleOrSchedIdle(sib) {
			continue
		}
		if s.asymPrefer(sib, best) {
			best = sib
		}
	}
	return best
}

// asymPrefer is sched_asym_prefer(a, b): priority strictly greater.
func (s *sim) asymPrefer(a, b int) bool { return s.cpus[a].prio > s.cpus[b].prio }

package sim

import (
	"fmt"
	"math/bits"
	"slices"

	"schedplay/engine/topo"
)

// idleMask is the set of CPUs available_idle_cpu() holds for, as a
// cpumask, so that select_idle_capacity()'s scan of an LLC looks only at
// idle CPUs a word at a time (the kernel tests each CPU's rq; the CPUs it
// finds, and their order, are the same). cpuChanged marks a CPU whose
// curr, nr_running, pending wake-ups or housekeeping may have changed; a
// read first derives the marked CPUs' bits again, so a change marked
// before the last write of an event is still seen.
type idleMask struct {
	set topo.CPUSet
	// coreIdle holds the CPUs whose every sibling is idle too
	// (is_core_idle() of an idle CPU), derived with set.
	coreIdle topo.CPUSet
	marked   []bool
	pending  []int32
	// caps are the CPUs by capacity_orig, largest first: which CPUs a
	// utilisation fits (util_fits_cpu()) is a prefix of them.
	caps []capClass
}

// capClass is the CPUs of one capacity.
type capClass struct {
	cap  int
	cpus topo.CPUSet
}

// initIdleMask sizes the mask; every CPU is marked (initGroupSums marks
// them all), so the first read derives every bit.
func (s *sim) initIdleMask() {
	n := len(s.cpus)
	s.im = idleMask{set: topo.NewCPUSet(n), coreIdle: topo.NewCPUSet(n), marked: make([]bool, n), pending: make([]int32, 0, n)}
	for i := range s.cpus {
		capv := s.cpus[i].cap
		k := slices.IndexFunc(s.im.caps, func(c capClass) bool { return c.cap == capv })
		if k < 0 {
			s.im.caps = append(s.im.caps, capClass{cap: capv, cpus: topo.NewCPUSet(n)})
			k = len(s.im.caps) - 1
		}
		s.im.caps[k].cpus.Set(topo.CPU(i))
	}
	slices.SortFunc(s.im.caps, func(a, b capClass) int { return b.cap - a.cap })
}

// markIdle notes that c's available_idle_cpu() may have changed.
func (s *sim) markIdle(c *cpuState) {
	m := &s.im
	if !m.marked[c.id] {
		m.marked[c.id] = true
		m.pending = append(m.pending, int32(c.id))
	}
}

// idleCPUs is the set of available idle CPUs now.
func (s *sim) idleCPUs() topo.CPUSet {
	m := &s.im
	if len(m.pending) > 0 {
		for _, cpu := range m.pending {
			m.marked[cpu] = false
			if s.availableIdle(int(cpu)) {
				m.set.Set(topo.CPU(cpu))
			} else {
				m.set.Clear(topo.CPU(cpu))
			}
		}
		for _, cpu := range m.pending {
			sibs := s.cores[s.cpus[cpu].core].cpus
			all := true
			for _, sib := range sibs {
				all = all && m.set.Has(topo.CPU(sib))
			}
			for _, sib := range sibs {
				if all {
					m.coreIdle.Set(topo.CPU(sib))
				} else {
					m.coreIdle.Clear(topo.CPU(sib))
				}
			}
		}
		m.pending = m.pending[:0]
	}
	if s.gs.verify {
		for cpu := range s.cpus {
			if m.set.Has(topo.CPU(cpu)) != s.availableIdle(cpu) {
				panic(fmt.Sprintf("idle mask: CPU %d changed without cpuChanged", cpu))
			}
			if m.set.Has(topo.CPU(cpu)) && m.coreIdle.Has(topo.CPU(cpu)) != s.isCoreIdle(cpu) {
				panic(fmt.Sprintf("idle mask: the core of CPU %d: core idle %v", cpu, m.coreIdle.Has(topo.CPU(cpu))))
			}
		}
	}
	return m.set
}

// fitWord is word w of the CPUs util fits (util_fits_cpu() > 0), given
// the number of capacity classes it fits (fitClasses).
func (m *idleMask) fitWord(w, classes int) uint64 {
	var x uint64
	for _, c := range m.caps[:classes] {
		x |= c.cpus.Word(w)
	}
	return x
}

// fitClasses is how many capacity classes, largest first, util fits.
func (m *idleMask) fitClasses(util int) int {
	k := 0
	for k < len(m.caps) && util*1280 < m.caps[k].cap*1024 {
		k++
	}
	return k
}

// lowestBits is the lowest k set bits of x (all of them when k ≥ their
// number).
func lowestBits(x uint64, k int) uint64 {
	y := x
	for ; k > 0 && y != 0; k-- {
		y &= y - 1
	}
	return x &^ y
}

// wrapWords walks the CPUs of span ∧ allowed in for_each_cpu_wrap() order
// from start, a 64-CPU word at a time: for each word, m holds the CPUs of
// the walk in it (within the current half of the wrap) and before the
// number of walk CPUs in the words before it. f returns false to stop.
func wrapWords(span, allowed topo.CPUSet, start int, f func(w int, m uint64, before int) bool) {
	n := span.Size()
	if start >= n || start < 0 {
		start = 0
	}
	before := 0
	for _, r := range [2][2]int{{start, n}, {0, start}} {
		lo, hi := r[0], r[1]
		for w := lo >> 6; w<<6 < hi; w++ {
			m := span.Word(w) & allowed.Word(w) & rangeBits(w, lo, hi)
			if m == 0 {
				continue
			}
			if !f(w, m, before) {
				return
			}
			before += bits.OnesCount64(m)
		}
	}
}

// rangeBits is the bits of word w for CPUs lo … hi-1 (w overlaps them).
func rangeBits(w, lo, hi int) uint64 {
	base := w << 6
	m := ^uint64(0)
	if lo > base {
		m <<= uint(lo - base)
	}
	if hi < base+64 {
		m &= 1<<uint(hi-base) - 1
	}
	return m
}

package sim

import (
	"fmt"
	"math/bits"

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
	set     topo.CPUSet
	marked  []bool
	pending []int32
}

// initIdleMask sizes the mask; every CPU is marked (initGroupSums marks
// them all), so the first read derives every bit.
func (s *sim) initIdleMask() {
	n := len(s.cpus)
	s.im = idleMask{set: topo.NewCPUSet(n), marked: make([]bool, n), pending: make([]int32, 0, n)}
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
	for _, cpu := range m.pending {
		m.marked[cpu] = false
		if s.availableIdle(int(cpu)) {
			m.set.Set(topo.CPU(cpu))
		} else {
			m.set.Clear(topo.CPU(cpu))
		}
	}
	m.pending = m.pending[:0]
	if s.gs.verify {
		for cpu := range s.cpus {
			if m.set.Has(topo.CPU(cpu)) != s.availableIdle(cpu) {
				panic(fmt.Sprintf("idle mask: CPU %d changed without cpuChanged", cpu))
			}
		}
	}
	return m.set
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

package topo

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"schedplay/engine/quote"
)

// CPU is a logical CPU number. NoCPU (-1) is "no CPU", as fair.c returns -1.
type CPU int

// NoCPU is the "no CPU found" value.
const NoCPU CPU = -1

// Valid reports whether c names a CPU (c ≥ 0).
func (c CPU) Valid() bool { return c >= 0 }

// MaxCPUs is the largest machine schedplay accepts.
const MaxCPUs = 4096

// CPUSet is a fixed-size bitmap of CPUs (a cpumask). The zero value is an
// empty set of size 0; use NewCPUSet(n) for a set that can hold CPUs 0..n-1.
// Sets are values: Clone before mutating a shared one.
type CPUSet struct {
	words []uint64
	n     int
}

// NewCPUSet returns an empty set able to hold CPUs 0..n-1.
func NewCPUSet(n int) CPUSet { return CPUSet{words: make([]uint64, (n+63)/64), n: n} }

// Size is the number of CPUs the set can hold (nr_cpu_ids).
func (s CPUSet) Size() int { return s.n }

// Set adds c.
func (s CPUSet) Set(c CPU) { s.words[c>>6] |= 1 << (uint(c) & 63) }

// Clear removes c.
func (s CPUSet) Clear(c CPU) { s.words[c>>6] &^= 1 << (uint(c) & 63) }

// Has reports whether c is in the set.
func (s CPUSet) Has(c CPU) bool {
	if c < 0 || int(c) >= s.n {
		return false
	}
	return s.words[c>>6]&(1<<(uint(c)&63)) != 0
}

// Weight is the number of CPUs in the set (cpumask_weight).
func (s CPUSet) Weight() int {
	w := 0
	for _, x := range s.words {
		w += bits.OnesCount64(x)
	}
	return w
}

// First returns the lowest CPU in the set, or NoCPU.
func (s CPUSet) First() CPU { return s.Next(-1) }

// Next returns the lowest CPU > c in the set, or NoCPU.
func (s CPUSet) Next(c CPU) CPU {
	i := int(c) + 1
	if i >= s.n {
		return NoCPU
	}
	w := i >> 6
	x := s.words[w] >> (uint(i) & 63)
	if x != 0 {
		return CPU(i + bits.TrailingZeros64(x))
	}
	for w++; w < len(s.words); w++ {
		if s.words[w] != 0 {
			return CPU(w*64 + bits.TrailingZeros64(s.words[w]))
		}
	}
	return NoCPU
}

// Word is CPUs 64i … 64i+63 of s as bits (bit b is CPU 64i+b), 0 past the
// end: the cpumask's word, for scans done a word at a time.
func (s CPUSet) Word(i int) uint64 {
	if i < 0 || i >= len(s.words) {
		return 0
	}
	return s.words[i]
}

// nextAndNot returns the lowest CPU > c in s and not in o, or NoCPU:
// cpumask_next_andnot(), a word at a time.
func (s CPUSet) nextAndNot(c CPU, o CPUSet) CPU {
	i := int(c) + 1
	if i >= s.n {
		return NoCPU
	}
	word := func(w int) uint64 {
		x := s.words[w]
		if w < len(o.words) {
			x &^= o.words[w]
		}
		return x
	}
	w := i >> 6
	if x := word(w) >> (uint(i) & 63); x != 0 {
		return CPU(i + bits.TrailingZeros64(x))
	}
	for w++; w < len(s.words); w++ {
		if x := word(w); x != 0 {
			return CPU(w*64 + bits.TrailingZeros64(x))
		}
	}
	return NoCPU
}

// Clone returns an independent copy.
func (s CPUSet) Clone() CPUSet {
	return CPUSet{words: append([]uint64(nil), s.words...), n: s.n}
}

// Equal reports whether both sets hold the same CPUs.
func (s CPUSet) Equal(o CPUSet) bool {
	if len(s.words) != len(o.words) {
		return s.Weight() == 0 && o.Weight() == 0
	}
	for i := range s.words {
		if s.words[i] != o.words[i] {
			return false
		}
	}
	return true
}

// And returns s ∩ o as a new set.
func (s CPUSet) And(o CPUSet) CPUSet {
	r := s.Clone()
	for i := range r.words {
		if i < len(o.words) {
			r.words[i] &= o.words[i]
		} else {
			r.words[i] = 0
		}
	}
	return r
}

// Or returns s ∪ o as a new set (sized like s).
func (s CPUSet) Or(o CPUSet) CPUSet {
	r := s.Clone()
	for i := range r.words {
		if i < len(o.words) {
			r.words[i] |= o.words[i]
		}
	}
	return r
}

// AndNot returns s \ o as a new set.
func (s CPUSet) AndNot(o CPUSet) CPUSet {
	r := s.Clone()
	for i := range r.words {
		if i < len(o.words) {
			r.words[i] &^= o.words[i]
		}
	}
	return r
}

// Intersects reports whether s ∩ o is non-empty.
func (s CPUSet) Intersects(o CPUSet) bool {
	for i := range s.words {
		if i < len(o.words) && s.words[i]&o.words[i] != 0 {
			return true
		}
	}
	return false
}

// SubsetOf reports whether every CPU of s is in o.
func (s CPUSet) SubsetOf(o CPUSet) bool {
	for i := range s.words {
		var ow uint64
		if i < len(o.words) {
			ow = o.words[i]
		}
		if s.words[i]&^ow != 0 {
			return false
		}
	}
	return true
}

// CPUs returns the members in increasing order.
func (s CPUSet) CPUs() []CPU {
	out := make([]CPU, 0, s.Weight())
	for c := s.First(); c.Valid(); c = s.Next(c) {
		out = append(out, c)
	}
	return out
}

// ForEachWrap calls f for every CPU of s in for_each_cpu_wrap(start) order:
// start, start+1, …, wrapping to 0, …, start-1. f returns false to stop.
func (s CPUSet) ForEachWrap(start CPU, f func(CPU) bool) {
	if s.n == 0 {
		return
	}
	if start < 0 || int(start) >= s.n {
		start = 0
	}
	for c := s.Next(start - 1); c.Valid(); c = s.Next(c) {
		if !f(c) {
			return
		}
	}
	for c := s.First(); c.Valid() && c < start; c = s.Next(c) {
		if !f(c) {
			return
		}
	}
}

// String prints the set in the kernel's cpulist syntax ("0-87,176-263").
func (s CPUSet) String() string {
	var b strings.Builder
	for c := s.First(); c.Valid(); {
		end := c
		for n := s.Next(end); n == end+1; n = s.Next(end) {
			end = n
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(int(c)))
		if end > c {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(int(end)))
		}
		c = s.Next(end)
	}
	return b.String()
}

// ParseCPUList parses the kernel's cpulist syntax for a machine of n CPUs:
// comma-separated CPUs and ranges, with an optional ":used/group" stride
// ("0-87:1/2"), as bitmap_parselist() accepts. "" is an error; use "all"
// for every CPU. Errors name the offending piece.
func ParseCPUList(list string, n int) (CPUSet, error) {
	s := NewCPUSet(n)
	list = strings.TrimSpace(list)
	if list == "" {
		return s, fmt.Errorf("empty cpulist")
	}
	if list == "all" {
		for c := 0; c < n; c++ {
			s.Set(CPU(c))
		}
		return s, nil
	}
	if len(list) > 64*1024 {
		return s, fmt.Errorf("cpulist is %d characters long; the limit is 65536", len(list))
	}
	for _, part := range strings.Split(list, ",") {
		if err := parseCPURange(s, strings.TrimSpace(part), n); err != nil {
			return s, err
		}
	}
	return s, nil
}

func parseCPURange(s CPUSet, part string, n int) error {
	rng, stride, hasStride := strings.Cut(part, ":")
	lo, hi, isRange := strings.Cut(rng, "-")
	a, err := parseCPUNum(lo, n)
	if err != nil {
		return fmt.Errorf("cpulist piece %s: %v", quote.Short(part), err)
	}
	b := a
	if isRange {
		if b, err = parseCPUNum(hi, n); err != nil {
			return fmt.Errorf("cpulist piece %s: %v", quote.Short(part), err)
		}
		if b < a {
			return fmt.Errorf("cpulist piece %s: range end %d is below its start %d", quote.Short(part), b, a)
		}
	}
	used, group := 1, 1
	if hasStride {
		u, g, ok := strings.Cut(stride, "/")
		uv, e1 := strconv.Atoi(u)
		gv, e2 := strconv.Atoi(g)
		if !ok || e1 != nil || e2 != nil || uv < 1 || gv < 1 || uv > gv {
			return fmt.Errorf("cpulist piece %s: stride must be used/group with 1 ≤ used ≤ group", quote.Short(part))
		}
		used, group = uv, gv
	}
	for c := a; c <= b; c++ {
		if (c-a)%group < used {
			s.Set(CPU(c))
		}
	}
	return nil
}

func parseCPUNum(t string, n int) (int, error) {
	v, err := strconv.Atoi(t)
	if err != nil || strings.HasPrefix(t, "+") {
		return 0, fmt.Errorf("%s is not a CPU number", quote.Short(t))
	}
	if v < 0 || v >= n {
		return 0, fmt.Errorf("CPU %d does not exist (this machine has CPUs 0-%d)", v, n-1)
	}
	return v, nil
}

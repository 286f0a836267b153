package hw

import (
	"math"
	"strings"
)

// hybridSpeed is the speed given to the slower core kinds of an x86
// hybrid part when the description gives neither frequencies nor
// capacities: the intel-hybrid preset's E-core/P-core ratio.
const hybridSpeed = 0.6

// itmtTop and itmtOther are the ITMT priorities given an x86 hybrid
// part's fastest kind and its other kinds when the description has no
// highest_perf: the intel-hybrid preset's P-core and E-core values.
const (
	itmtTop   = 70
	itmtOther = 41
)

// perf is what the mapping decides per online CPU: cpu_scale, the work
// rate of one thread, and arch_asym_cpu_priority() when ITMT applies.
type perf struct {
	capacity []int
	speed    []float64
	priority []int // nil: no ITMT priorities
	asymCap  bool  // x86 hybrid without SMT: capacities instead of ITMT
}

// capacities picks cpu_scale the way the kernel gets it: cpu_capacity
// when the description has it (arch_topology); otherwise, off x86, the
// CPPC highest_perf (topology_init_cpu_capacity_cppc()) or the maximum
// frequency (capacity-dmips-mhz × frequency with equal dmips), normalised
// to 1024 (topology_normalize_cpu_scale()). x86 keeps 1024 everywhere
// and orders CPUs by ITMT priority (highest_perf) instead, except a
// hybrid part without SMT, where intel_pstate scales capacities (6.12,
// hybrid_init_cpu_capacity_scaling()).
func capacities(t *Topology, o *online, smt bool, notes *[]string) perf {
	n := len(o.cpus)
	p := perf{capacity: make([]int, n), speed: make([]float64, n)}
	field := func(f func(CPU) int) []int {
		v := make([]int, n)
		for i, c := range o.cpus {
			v[i] = f(c)
		}
		return v
	}
	caps := field(func(c CPU) int { return c.Capacity })
	hp := field(func(c CPU) int { return c.HighestPerf })
	khz := field(func(c CPU) int { return c.MaxKHz })
	rank := field(func(c CPU) int { return c.KindRank })
	x86 := t.Arch == ArchX86
	switch {
	case known(caps):
		copy(p.capacity, caps)
		*notes = append(*notes, "capacities from cpu_capacity")
	case x86 && t.Hybrid && !smt && known(hp) && varies(hp):
		p.capacity = normalize(hp)
		p.asymCap = true
		*notes = append(*notes, "x86 hybrid without SMT: capacities from CPPC highest_perf, as intel_pstate scales them (no ITMT)")
	case x86:
		fill(p.capacity, 1024)
	case known(hp) && varies(hp):
		p.capacity = normalize(hp)
		*notes = append(*notes, "capacities from CPPC highest_perf")
	case known(khz) && varies(khz):
		p.capacity = normalize(khz)
		*notes = append(*notes, "no cpu_capacity: capacities from the maximum frequencies (equal work per cycle assumed)")
	case known(rank) && varies(rank):
		p.capacity = rankCapacity(rank)
		*notes = append(*notes, "no capacities or frequencies: the faster core kind gets 1024, each slower kind half the one above")
	default:
		fill(p.capacity, 1024)
		if !known(caps) && !x86 {
			*notes = append(*notes, "no cpu_capacity: every CPU has capacity 1024")
		}
	}
	for i := range p.capacity {
		p.capacity[i] = max(1, min(1024, p.capacity[i]))
	}
	speeds(t, &p, khz, rank, notes)
	switch {
	case x86 && !p.asymCap && known(hp) && varies(hp):
		p.priority = hp
		*notes = append(*notes, "x86 CPUs with different CPPC highest_perf: ITMT asym packing (CLS, MC, PKG) with priority = highest_perf")
	case x86 && !p.asymCap && t.Hybrid && varies(rank):
		top := maxOf(rank)
		p.priority = make([]int, n)
		for i, r := range rank {
			p.priority[i] = itmtOther
			if r == top {
				p.priority[i] = itmtTop
			}
		}
		*notes = append(*notes, sprintf("x86 hybrid without CPPC highest_perf: ITMT priority %d on the fastest kind, %d on the others (the intel-hybrid preset's values)", itmtTop, itmtOther))
	}
	return p
}

// speeds sets the work rate of one thread: capacity/1024 when capacities
// differ; on x86 with equal capacities the maximum-frequency ratio, else
// hybridSpeed for the slower kinds of a hybrid part; else 1.
func speeds(t *Topology, p *perf, khz, rank []int, notes *[]string) {
	switch {
	case varies(p.capacity):
		for i, c := range p.capacity {
			p.speed[i] = round4(float64(c) / 1024)
		}
		*notes = append(*notes, "speed = capacity/1024 (work rate proportional to cpu_scale)")
	case known(khz) && varies(khz):
		top := maxOf(khz)
		for i, f := range khz {
			p.speed[i] = round4(float64(f) / float64(top))
		}
		*notes = append(*notes, "equal capacities: speed = maximum frequency / the highest maximum frequency")
	case t.Hybrid || known(rank) && varies(rank):
		top := maxOf(rank)
		for i, r := range rank {
			p.speed[i] = 1
			if r >= 0 && r < top {
				p.speed[i] = hybridSpeed
			}
		}
		*notes = append(*notes, sprintf("hybrid cores with no frequencies: the slower kinds get speed %g (the intel-hybrid preset's ratio)", hybridSpeed))
	default:
		fill(p.speed, 1)
	}
}

// rankCapacity gives the top kind 1024 and halves per rank below.
func rankCapacity(rank []int) []int {
	top := maxOf(rank)
	out := make([]int, len(rank))
	for i, r := range rank {
		out[i] = 1024 >> min(max(top-r, 0), 10)
	}
	return out
}

// normalize is topology_normalize_cpu_scale(): v × 1024 / max(v).
func normalize(v []int) []int {
	top := maxOf(v)
	out := make([]int, len(v))
	for i, x := range v {
		out[i] = int(int64(x) * 1024 / int64(top))
	}
	return out
}

func known(v []int) bool {
	for _, x := range v {
		if x <= 0 {
			return false
		}
	}
	return len(v) > 0
}

func varies[T comparable](v []T) bool {
	for _, x := range v {
		if x != v[0] {
			return true
		}
	}
	return false
}

func maxOf(v []int) int {
	m := math.MinInt
	for _, x := range v {
		m = max(m, x)
	}
	return m
}

func fill[T any](v []T, x T) {
	for i := range v {
		v[i] = x
	}
}

func round4(f float64) float64 { return math.Round(f*1e4) / 1e4 }

// className names a core class: its kind, else its capacity when
// capacities differ, else its maximum frequency when those differ, else
// "core". Names are cut to 32 bytes.
func className(c CPU, capacity int, capsVary, freqsVary bool) string {
	name := strings.TrimSpace(c.Kind)
	switch {
	case name != "":
	case capsVary:
		name = sprintf("cap-%d", capacity)
	case freqsVary && c.MaxKHz > 0:
		name = sprintf("%dMHz", c.MaxKHz/1000)
	default:
		name = "core"
	}
	if len(name) > 32 {
		name = name[:32]
	}
	return name
}

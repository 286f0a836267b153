package input

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"schedplay/engine/topo"
)

// MaxCPUID is the largest CPU number a description may use (Linux numbers
// may have gaps: offline or absent CPUs).
const MaxCPUID = 2*MaxCPUs - 1

// CPUList parses a kernel cpulist ("0-3,8,10-11"; "" and whitespace are
// the empty list) into ascending CPU numbers.
func CPUList(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return []int{}, nil
	}
	set, err := topo.ParseCPUList(s, MaxCPUID+1)
	if err != nil {
		return nil, err
	}
	out := make([]int, 0, set.Weight())
	for _, c := range set.CPUs() {
		out = append(out, int(c))
	}
	return out, nil
}

// CPUMask parses a hex cpumask as sysfs ("00000000,0000ffff") or hwloc
// ("0x0000ffff,0x00000001", "0x0f") writes it: 32-bit words, most
// significant first, each optionally 0x-prefixed.
func CPUMask(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return []int{}, nil
	}
	words := strings.Split(s, ",")
	if len(words) > (MaxCPUID+1)/32+1 {
		return nil, fmt.Errorf("cpumask %q is longer than %d CPUs", cut(s), MaxCPUID+1)
	}
	var out []int
	for i := len(words) - 1; i >= 0; i-- {
		w := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(words[i]), "0x"), "0X")
		if w == "" && len(words) > 1 {
			continue // hwloc writes an all-zero word as nothing: "0x1,,0x10000"
		}
		if w == "" || len(w) > 16 {
			return nil, fmt.Errorf("cpumask %q: bad word %q", cut(s), words[i])
		}
		v, err := strconv.ParseUint(w, 16, 64)
		if err != nil {
			return nil, fmt.Errorf("cpumask %q: bad word %q", cut(s), words[i])
		}
		base := 32 * (len(words) - 1 - i)
		if len(words) == 1 {
			base = 0
		}
		for v != 0 {
			b := bits.TrailingZeros64(v)
			v &^= 1 << b
			if c := base + b; c <= MaxCPUID {
				out = append(out, c)
			} else {
				return nil, fmt.Errorf("cpumask %q names CPU %d, above %d", cut(s), c, MaxCPUID)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// cut shortens s for an error message.
func cut(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// ListString prints CPU numbers in cpulist syntax, sorted, with ranges
// ("0-3,8").
func ListString(ids []int) string {
	s := slices.Clone(ids)
	slices.Sort(s)
	cpus := make([]topo.CPU, len(s))
	for i, v := range s {
		cpus[i] = topo.CPU(v)
	}
	return topo.FormatCPUSequence(cpus)
}

package topo

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseCPUSequence reads an ordered CPU list for a machine of n CPUs: the
// cpulist syntax of ParseCPUList (pieces "a", "a-b", "a-b:used/group"), but
// the order the pieces are written in is kept ("8-15,0-7" lists 8 first),
// and a CPU may appear more than once (callers check what they need).
// "all" is not accepted: a sequence is always spelled out.
func ParseCPUSequence(list string, n int) ([]CPU, error) {
	list = strings.TrimSpace(list)
	if list == "" {
		return nil, fmt.Errorf("empty CPU list")
	}
	if len(list) > 64*1024 {
		return nil, fmt.Errorf("CPU list is %d characters long; the limit is 65536", len(list))
	}
	var out []CPU
	for _, part := range strings.Split(list, ",") {
		s := NewCPUSet(n)
		if err := parseCPURange(s, strings.TrimSpace(part), n); err != nil {
			return nil, err
		}
		out = append(out, s.CPUs()...)
		if len(out) > MaxCPUs {
			return nil, fmt.Errorf("CPU list names more than %d CPUs", MaxCPUs)
		}
	}
	return out, nil
}

// FormatCPUSequence writes cpus in the syntax ParseCPUSequence reads,
// keeping their order: ascending runs become ranges ("0-7,16-23,8-15").
func FormatCPUSequence(cpus []CPU) string {
	var b strings.Builder
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(int(cpus[i])))
		if j > i {
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(int(cpus[j])))
		}
		i = j + 1
	}
	return b.String()
}

// cpuIDs reads machine.cpu_ids for a machine of n CPUs: nil when it is
// absent, else the Linux CPU number of each CPU the numbering scheme
// produces, which must name every CPU 0..n-1 exactly once.
func cpuIDs(list string, n int) ([]CPU, error) {
	if list == "" {
		return nil, nil
	}
	ids, err := ParseCPUSequence(list, n)
	if err != nil {
		return nil, err
	}
	if len(ids) != n {
		return nil, fmt.Errorf("%d CPU numbers; the machine has %d CPUs", len(ids), n)
	}
	seen := NewCPUSet(n)
	for _, c := range ids {
		if seen.Has(c) {
			return nil, fmt.Errorf("CPU %d appears twice; each CPU 0-%d must appear once", c, n-1)
		}
		seen.Set(c)
	}
	return ids, nil
}

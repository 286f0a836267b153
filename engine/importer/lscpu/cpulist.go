package lscpu

import (
	"fmt"
	"strconv"
	"strings"

	"schedplay/engine/importer/input"
	"schedplay/engine/topo"
)

// cpuList parses a CPU list as lscpu prints it: util-linux's
// cpulist_create() (lib/cpuset.c) writes a run of CPUs at a fixed stride
// as "a-b:s" ("0-62:2" for every even CPU of 0-62), where the kernel's
// cpulist syntax reads "a-b:u/g" as u used CPUs per group of g. A piece
// with a single number after its colon is util-linux's stride; any other
// piece is read as the kernel reads it. The CPUs go into one set, so a
// list costs at most one bit per CPU number whatever its pieces repeat.
func cpuList(s string) ([]int, error) {
	set := topo.NewCPUSet(input.MaxCPUID + 1)
	for _, piece := range strings.Split(strings.TrimSpace(s), ",") {
		piece = strings.TrimSpace(piece)
		rng, stride, ok := strings.Cut(piece, ":")
		if !ok || strings.Contains(stride, "/") {
			ids, err := input.CPUList(piece)
			if err != nil {
				return nil, err
			}
			for _, c := range ids {
				set.Set(topo.CPU(c))
			}
			continue
		}
		st, err := strconv.Atoi(stride)
		lo, hi, isRange := strings.Cut(rng, "-")
		a, e1 := strconv.Atoi(lo)
		b, e2 := strconv.Atoi(hi)
		if err != nil || e1 != nil || e2 != nil || !isRange || st < 1 || a < 0 || b < a || b > input.MaxCPUID {
			return nil, fmt.Errorf("cpulist piece %q: want a-b:stride (lscpu's form) with 0 ≤ a ≤ b ≤ %d and stride ≥ 1", piece, input.MaxCPUID)
		}
		for c := a; c <= b; c += st {
			set.Set(topo.CPU(c))
		}
	}
	out := []int{}
	for _, c := range set.CPUs() {
		out = append(out, int(c))
	}
	return out, nil
}

package lscpu

import (
	"strconv"
	"strings"

	"schedplay/engine/importer/input"
)

// cpuList parses a CPU list as lscpu prints it. util-linux's
// cpulist_create() (lib/cpuset.c) writes a run of CPUs at a fixed stride
// as "a-b:s" ("0-62:2" for every even CPU of 0-62); the kernel's syntax,
// which input.CPUList reads, spells that "a-b:1/s" (1 CPU used per group
// of s). Each piece with a single number after its colon is rewritten so,
// and the list is read by the kernel's rules (and bounds) as a whole.
func cpuList(s string) ([]int, error) {
	pieces := strings.Split(s, ",")
	for i, p := range pieces {
		rng, stride, ok := strings.Cut(strings.TrimSpace(p), ":")
		if _, err := strconv.Atoi(stride); ok && err == nil {
			pieces[i] = rng + ":1/" + stride
		}
	}
	return input.CPUList(strings.Join(pieces, ","))
}

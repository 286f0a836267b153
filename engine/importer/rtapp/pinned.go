package rtapp

import (
	"encoding/json"
	"strconv"
	"strings"

	"schedplay/engine/importer/input"
	"schedplay/engine/scenario"
)

// mergePinned folds thread objects NAME_0 … NAME_n-1 (n ≥ 2), each one
// instance on one CPU with the same program, back into one group NAME of
// n tasks pinned each to its CPU: the form engine/export/rtapp gives a
// "pin": "each" group.
func mergePinned(groups []scenario.Group) []scenario.Group {
	var out []scenario.Group
	for i := 0; i < len(groups); {
		base, ok := pinnedBase(groups[i], 0)
		j := i + 1
		if ok {
			for j < len(groups) {
				if b, ok := pinnedBase(groups[j], j-i); !ok || b != base || !sameProgram(groups[i], groups[j]) {
					break
				}
				j++
			}
		}
		if !ok || j-i < 2 {
			out = append(out, groups[i])
			i++
			continue
		}
		var cpus []int
		for _, m := range groups[i:j] {
			n, _ := strconv.Atoi(m.CPUs)
			cpus = append(cpus, n)
		}
		mask, ok := pinMask(cpus)
		if !ok {
			out = append(out, groups[i:j]...)
			i = j
			continue
		}
		g := groups[i]
		g.Name, g.Count, g.Pin, g.CPUs = base, j-i, scenario.PinEach, mask
		out = append(out, g)
		i = j
	}
	return out
}

// pinnedBase returns NAME when g is "NAME_k", one task on one CPU.
func pinnedBase(g scenario.Group, k int) (string, bool) {
	suffix := "_" + strconv.Itoa(k)
	if g.Count != 1 || !strings.HasSuffix(g.Name, suffix) || g.CPUs == "" || strings.ContainsAny(g.CPUs, ",-") {
		return "", false
	}
	return strings.TrimSuffix(g.Name, suffix), true
}

// sameProgram compares everything but the name and the CPUs.
func sameProgram(a, b scenario.Group) bool {
	a.Name, b.Name, a.CPUs, b.CPUs = "", "", "", ""
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// pinMask is the mask whose CPUs pin each deals out in order, wrapping,
// to give cpus: its shortest repeating prefix, which must ascend.
func pinMask(cpus []int) (string, bool) {
	for p := 1; p <= len(cpus); p++ {
		ok := true
		for i := range cpus {
			ok = ok && cpus[i] == cpus[i%p] && (i == 0 || i >= p || cpus[i] > cpus[i-1])
		}
		if ok {
			return input.ListString(cpus[:p]), true
		}
	}
	return "", false
}

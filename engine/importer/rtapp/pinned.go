package rtapp

import (
	"encoding/json"
	"strconv"
	"strings"

	"schedplay/engine/importer/input"
	"schedplay/engine/scenario"
)

// mergePinned folds thread objects NAME_0 … NAME_n-1 (n ≥ 2), each one
// instance with the same program but for the channel names task k spells
// with k ({i}), back into one group NAME of n tasks: the forms
// engine/export/rtapp gives a "pin": "each" group (one CPU each, dealt
// out in order) and a group whose tasks read their own channels (the same
// CPUs each, and a program that uses {i}).
func mergePinned(groups []scenario.Group) []scenario.Group {
	var out []scenario.Group
	for i := 0; i < len(groups); {
		base, ok := seriesBase(groups[i], 0)
		var prog []scenario.Step
		if ok && i+1 < len(groups) {
			prog, ok = templateSteps(groups[i].Program, groups[i+1].Program)
		}
		pinned := ok && singleCPU(groups[i].CPUs)
		j := i + 1
		if ok {
			for j < len(groups) {
				g := groups[j]
				if b, ok := seriesBase(g, j-i); !ok || b != base || !sameBut(groups[i], g) ||
					!sameSteps(scenario.InstanceSteps(prog, j-i), g.Program) ||
					pinned != singleCPU(g.CPUs) || !pinned && g.CPUs != groups[i].CPUs {
					break
				}
				j++
			}
		}
		if !ok || j-i < 2 || !pinned && !scenario.UsesInstance(prog) {
			out = append(out, groups[i])
			i++
			continue
		}
		g := groups[i]
		g.Name, g.Count, g.Program = base, j-i, prog
		if pinned {
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
			g.Pin, g.CPUs = scenario.PinEach, mask
		}
		out = append(out, g)
		i = j
	}
	return out
}

// seriesBase returns NAME when g is "NAME_k", one task.
func seriesBase(g scenario.Group, k int) (string, bool) {
	suffix := "_" + strconv.Itoa(k)
	if g.Count != 1 || !strings.HasSuffix(g.Name, suffix) {
		return "", false
	}
	return strings.TrimSuffix(g.Name, suffix), true
}

// singleCPU reports an affinity of one CPU.
func singleCPU(cpus string) bool { return cpus != "" && !strings.ContainsAny(cpus, ",-") }

// sameBut compares everything but the name, the CPUs and the program.
func sameBut(a, b scenario.Group) bool {
	a.Name, b.Name, a.CPUs, b.CPUs, a.Program, b.Program = "", "", "", "", nil, nil
	return jsonEqual(a, b)
}

// sameSteps compares two programs.
func sameSteps(a, b []scenario.Step) bool { return jsonEqual(a, b) }

func jsonEqual(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// templateSteps is the program whose {i} gives p0 for task 0 and p1 for
// task 1: step by step the same, each channel name the template of the
// two (templateName). The caller checks every task against it.
func templateSteps(p0, p1 []scenario.Step) ([]scenario.Step, bool) {
	if len(p0) != len(p1) {
		return nil, false
	}
	out := make([]scenario.Step, len(p0))
	for i := range p0 {
		s, t := p0[i], p1[i]
		var ok1, ok2, ok3 bool
		s.Send, ok1 = templateName(s.Send, t.Send)
		s.Recv, ok2 = templateName(s.Recv, t.Recv)
		s.Do, ok3 = templateSteps(s.Do, t.Do)
		if !ok1 || !ok2 || !ok3 || (s.Periodic == nil) != (t.Periodic == nil) {
			return nil, false
		}
		if s.Periodic != nil {
			per := *s.Periodic
			var ok bool
			if per.Do, ok = templateSteps(s.Periodic.Do, t.Periodic.Do); !ok {
				return nil, false
			}
			s.Periodic = &per
		}
		out[i] = s
	}
	return out, true
}

// templateName is the channel name with {i} whose task 0 spells n0 and
// task 1 n1: n0 itself when they agree, else n0 with its one differing
// character, a 0 where n1 has a 1, replaced by {i}.
func templateName(n0, n1 string) (string, bool) {
	if n0 == n1 {
		return n0, !strings.ContainsAny(n0, "{}")
	}
	if len(n0) != len(n1) || strings.ContainsAny(n0, "{}") {
		return "", false
	}
	d := 0
	for n0[d] == n1[d] {
		d++
	}
	if n0[d] != '0' || n1[d] != '1' || n0[d+1:] != n1[d+1:] {
		return "", false
	}
	return n0[:d] + scenario.InstanceToken + n0[d+1:], true
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

package viewkit

import (
	"strconv"
	"strings"

	"schedplay/engine/sim"
	"schedplay/engine/topo"
)

// ModeWords names a machine's core modes the way its SMT model reports
// them (engine/sim coreEvaluate): the spatial (Olympus) model's ST and
// partitioned modes, the folding (POWER7) model's SMT1/SMT2/SMT4 levels,
// the competitive (x86) model's ST/SMT, and nothing on a machine without
// SMT. The zero value (machine unknown) words modes as the spatial model.
type ModeWords struct {
	Model topo.SMTKind
	// Threads is the most hardware threads any core has (0 = unknown).
	Threads int
}

// WordsFor is the mode wording of a machine (threads_per_core 0 counts as 1).
func WordsFor(m topo.Machine) ModeWords {
	w := ModeWords{Model: m.SMT.Model, Threads: 1}
	for _, n := range m.CoreThreads() {
		w.Threads = max(w.Threads, n)
	}
	if w.Model == "" {
		w.Model = topo.SMTCompetitive // scenario.MachineWithDefaults's default
	}
	return w
}

// SMT reports whether any core has more than one thread (or the machine
// is unknown): only then are core modes worth showing.
func (w ModeWords) SMT() bool { return w.Threads != 1 }

// Legend lists the modes the model can show, in legend order (none
// without SMT: a one-thread core is always "ST" when busy).
func (w ModeWords) Legend() []sim.Mode {
	switch {
	case !w.SMT():
		return nil
	case w.Model == topo.SMTFolding || w.Model == topo.SMTCompetitive:
		// only the spatial model holds a partitioned core with one PE busy
		return []sim.Mode{sim.ModeST, sim.ModeSMT, sim.ModeSwitching}
	}
	return []sim.Mode{sim.ModeST, sim.ModeSMT, sim.ModePartitioned, sim.ModeSwitching}
}

// FoldLevels are the folding model's multi-thread levels, "SMT2/SMT4" for
// four threads: the smallest power of two above the highest busy thread,
// capped at the core's threads (coreEvaluate's SMTFolding case).
func (w ModeWords) FoldLevels() string {
	n := max(w.Threads, 2)
	var lv []string
	for m := 2; m < n; m *= 2 {
		lv = append(lv, "SMT"+strconv.Itoa(m))
	}
	lv = append(lv, "SMT"+strconv.Itoa(n))
	return strings.Join(lv, "/")
}

// Name is a mode's legend text.
func (w ModeWords) Name(m sim.Mode) string {
	switch w.Model {
	case topo.SMTFolding:
		switch m {
		case sim.ModeST:
			return "SMT1"
		case sim.ModeSMT:
			return w.FoldLevels()
		}
	case topo.SMTCompetitive:
		switch m {
		case sim.ModeST:
			return "ST, 1 busy"
		case sim.ModeSMT:
			return "SMT, 2+ busy"
		}
	default:
		switch m {
		case sim.ModeST:
			return "ST (full resources)"
		case sim.ModeSMT:
			return "partitioned, 2+ busy"
		case sim.ModePartitioned:
			return "partitioned, 1 busy (held)"
		}
	}
	switch m {
	case sim.ModeSwitching:
		return "switching"
	case sim.ModeIdle:
		return "idle"
	}
	return "mode " + strconv.Itoa(int(m))
}

// Long is a mode's tooltip text; level is the folding model's SMT level
// when the caller knows it (0 otherwise).
func (w ModeWords) Long(m sim.Mode, level int) string {
	switch {
	case w.Model == topo.SMTFolding && m == sim.ModeST:
		return "SMT1 (one thread, whole core)"
	case w.Model == topo.SMTFolding && m == sim.ModeSMT && level >= 2:
		return "SMT" + strconv.Itoa(level) + " (threads 0–" + strconv.Itoa(level-1) + " share the core)"
	case w.Model == topo.SMTFolding && m == sim.ModeSMT:
		return w.FoldLevels() + " (threads share the core)"
	case w.Model == topo.SMTCompetitive && m == sim.ModeST:
		return "ST (one thread busy)"
	case w.Model == topo.SMTCompetitive && m == sim.ModeSMT:
		return "SMT (2+ threads share the core)"
	}
	return w.Name(m)
}

// FoldLevel is the folding model's SMT level for the highest busy thread
// (0-based): the smallest power of two above it, capped at threads.
func FoldLevel(highest, threads int) int {
	m := 1
	for m <= highest {
		m *= 2
	}
	return min(m, max(threads, 1))
}

// STShort is the one-thread mode's short name ("ST", "SMT1" on POWER7).
func (w ModeWords) STShort() string {
	if w.Model == topo.SMTFolding {
		return "SMT1"
	}
	return "ST"
}

// NeverST is the residency legend's label for cores never in the
// one-thread mode.
func (w ModeWords) NeverST() string {
	switch w.Model {
	case topo.SMTFolding:
		return "never SMT1 (" + w.FoldLevels() + " / switching)"
	case topo.SMTCompetitive:
		return "never ST (SMT / switching)"
	}
	return "never ST (partitioned / switching)"
}

// TransitionsTitle explains the mode transitions figure.
func (w ModeWords) TransitionsTitle() string {
	switch w.Model {
	case topo.SMTFolding:
		return "changes of SMT level (SMT1, " + w.FoldLevels() + "), all cores"
	case topo.SMTCompetitive:
		return "ST ↔ SMT switches, all cores"
	}
	return "ST ↔ partitioned switches, all cores"
}

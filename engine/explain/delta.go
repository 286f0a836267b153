package explain

import (
	"fmt"

	"schedplay/engine/sim"
	"schedplay/engine/topo"
)

// CoreFigures are one core's figures in one run: means over the
// repetitions for the residency and busy time, repetition 0's timeline for
// the transitions.
type CoreFigures struct {
	// STNs is the mean time (ns) the core spent in ST mode; STShare is that
	// as a fraction of the core's non-idle time (0 when never busy).
	STNs    float64 `json:"st_ns"`
	STShare float64 `json:"st_share"`
	// BusyNs is the mean busy time (ns) summed over the core's CPUs.
	BusyNs float64 `json:"busy_ns"`
	// Transitions counts ST↔SMT changes in repetition 0's timeline (see
	// TimelineTransitions); -1 when the run has no timeline.
	Transitions int64 `json:"transitions"`
}

// CoreDelta is one core in a comparison: A, B and B−A.
type CoreDelta struct {
	Core int         `json:"core"`
	CPUs []int       `json:"cpus"`
	A    CoreFigures `json:"a"`
	B    CoreFigures `json:"b"`
	Diff CoreFigures `json:"diff"` // B − A field by field (Transitions −1 when either is unknown)
}

// CoreDeltas computes per-core figures of runs a and b of the same machine
// and their difference. coreCPUs lists each core's CPUs (topo.Topology's
// CoreCPUs). It fails when the results do not describe the same machine
// (different CPU or core counts) or have no repetitions.
func CoreDeltas(a, b *sim.Result, coreCPUs [][]topo.CPU) ([]CoreDelta, error) {
	fa, err := CoreFiguresOf(a, coreCPUs)
	if err != nil {
		return nil, fmt.Errorf("run A: %w", err)
	}
	fb, err := CoreFiguresOf(b, coreCPUs)
	if err != nil {
		return nil, fmt.Errorf("run B: %w", err)
	}
	out := make([]CoreDelta, len(coreCPUs))
	for core, cpus := range coreCPUs {
		d := CoreDelta{Core: core, A: fa[core], B: fb[core]}
		for _, c := range cpus {
			d.CPUs = append(d.CPUs, int(c))
		}
		d.Diff = CoreFigures{
			STNs:        d.B.STNs - d.A.STNs,
			STShare:     d.B.STShare - d.A.STShare,
			BusyNs:      d.B.BusyNs - d.A.BusyNs,
			Transitions: -1,
		}
		if d.A.Transitions >= 0 && d.B.Transitions >= 0 {
			d.Diff.Transitions = d.B.Transitions - d.A.Transitions
		}
		out[core] = d
	}
	return out, nil
}

// CoreFiguresOf computes every core's figures of one result.
func CoreFiguresOf(r *sim.Result, coreCPUs [][]topo.CPU) ([]CoreFigures, error) {
	if r == nil || len(r.Reps) == 0 {
		return nil, fmt.Errorf("no repetitions")
	}
	ncpu := 0
	for _, cpus := range coreCPUs {
		ncpu += len(cpus)
	}
	out := make([]CoreFigures, len(coreCPUs))
	for i := range r.Reps {
		rep := &r.Reps[i]
		if len(rep.BusyNs) != ncpu || len(rep.ModeResidency) != len(coreCPUs) {
			return nil, fmt.Errorf("repetition %d has %d CPUs and %d cores; the machine has %d and %d",
				i, len(rep.BusyNs), len(rep.ModeResidency), ncpu, len(coreCPUs))
		}
		for core, cpus := range coreCPUs {
			f := &out[core]
			m := rep.ModeResidency[core]
			f.STNs += float64(m.ST)
			if on := m.ST + m.SMT + m.Partitioned + m.Switching; on > 0 {
				f.STShare += float64(m.ST) / float64(on)
			}
			for _, c := range cpus {
				f.BusyNs += float64(rep.BusyNs[c])
			}
		}
	}
	n := float64(len(r.Reps))
	trans := TimelineTransitions(r.Timeline)
	for core := range out {
		f := &out[core]
		f.STNs /= n
		f.STShare /= n
		f.BusyNs /= n
		f.Transitions = -1
		if trans != nil && core < len(trans) {
			f.Transitions = trans[core]
		}
	}
	return out, nil
}

// TimelineTransitions counts each core's ST↔SMT changes in a timeline's
// mode record, the per-core counterpart of RepMetrics.ModeTransitions
// (which counts all cores): ST is the one-thread family, SMT and
// Partitioned the two-thread family (partitioned keeps the core split with
// one PE busy). Idle stretches and switching stalls do not end a family,
// so ST → switching → SMT is one transition, as is ST → idle → SMT.
// It returns nil for a nil timeline. The record covers the whole run
// including the warm-up, and a truncated timeline counts only what it kept.
func TimelineTransitions(tl *sim.Timeline) []int64 {
	if tl == nil {
		return nil
	}
	out := make([]int64, len(tl.Modes))
	for core, ivs := range tl.Modes {
		last := -1
		for _, iv := range ivs {
			fam := modeFamily(iv.Mode)
			if fam < 0 {
				continue
			}
			if last >= 0 && fam != last {
				out[core]++
			}
			last = fam
		}
	}
	return out
}

// modeFamily maps a mode to 0 (one thread), 1 (two threads) or -1 (neither).
func modeFamily(m sim.Mode) int {
	switch m {
	case sim.ModeST:
		return 0
	case sim.ModeSMT, sim.ModePartitioned:
		return 1
	}
	return -1
}

package playground

import (
	"fmt"
	"sort"

	"schedplay/engine/sim"
	"schedplay/site"
	"schedplay/site/viewkit"
)

// tooltipLines explains what is under the pointer: the task, CPU and
// interval, and the placement decision (wake-up path or migration cause)
// that put the task there when the engine recorded one. Core modes are
// named in the machine's SMT model's words (none on a one-thread core).
func tooltipLines(h site.Hit, l site.Layout, tl *sim.Timeline, cpus []site.LaneCPU, w viewkit.ModeWords) []string {
	if h.Row < 0 || tl == nil {
		return nil
	}
	r := l.Rows[h.Row]
	if h.CPU < 0 {
		return []string{r.Label, fmt.Sprintf("%d of %d CPUs busy at %s", h.Busy, len(r.CPUs), site.FormatNs(float64(h.T)))}
	}
	where := fmt.Sprintf("CPU %d", h.CPU)
	if h.CPU < len(cpus) {
		c := cpus[h.CPU]
		where += fmt.Sprintf(" · core %d", c.Core)
		if threads := coreThreads(cpus, c.Core); threads > 1 && w.SMT() {
			where += fmt.Sprintf(" · PE%d", c.Thread)
			if mode, ok := modeAt(tl, c.Core, h.T); ok {
				where += " · core " + w.Long(mode, foldLevelAt(tl, cpus, c.Core, threads, h.T))
			}
		}
	}
	if h.Interval < 0 || h.CPU >= len(tl.Runs) {
		return []string{where, "idle at " + site.FormatNs(float64(h.T))}
	}
	iv := tl.Runs[h.CPU][h.Interval]
	task := fmt.Sprintf("task %d", iv.Task)
	if iv.Task >= 0 && iv.Task < len(tl.Tasks) {
		ti := tl.Tasks[iv.Task]
		task = fmt.Sprintf("%s (pid %d)%s", ti.Name, ti.PID, schedText(ti))
	}
	out := []string{task, where,
		fmt.Sprintf("%s → %s (%s)", site.FormatNs(float64(iv.Start)), site.FormatNs(float64(iv.End)), site.FormatNs(float64(iv.End-iv.Start)))}
	if iv.Decision >= 0 && iv.Decision < len(tl.Decisions) {
		d := tl.Decisions[iv.Decision]
		out = append(out, fmt.Sprintf("placed by %s at %s: CPU %d → %d", d.Kind, site.FormatNs(float64(d.At)), d.From, d.To))
		for _, p := range d.Path {
			out = append(out, "  "+p)
		}
	} else if tl.NoDecisions {
		out = append(out, "why it is here: recorded by the full run (refining…)")
	} else {
		out = append(out, "continues on the same CPU (no placement decision)")
	}
	return out
}

// schedText is a task's policy and priority for its tooltip, as chrt and
// nice would set them: " · SCHED_FIFO 99", " · SCHED_IDLE", " · nice 5";
// nothing for SCHED_OTHER at nice 0.
func schedText(ti sim.TaskInfo) string {
	switch ti.Policy {
	case "SCHED_FIFO", "SCHED_RR":
		return fmt.Sprintf(" · %s %d", ti.Policy, 99-ti.Prio) // prio = 99 - rt_priority
	case "SCHED_IDLE":
		return " · SCHED_IDLE"
	}
	out := ""
	if ti.Policy != "" {
		out = " · " + ti.Policy
	}
	if ti.Prio >= 100 && ti.Prio != 120 { // 120 + nice
		out += fmt.Sprintf(" · nice %d", ti.Prio-120)
	}
	return out
}

// modeAt is the core's mode at time t.
func modeAt(tl *sim.Timeline, core int, t int64) (sim.Mode, bool) {
	if core >= len(tl.Modes) {
		return 0, false
	}
	ms := tl.Modes[core]
	i := sort.Search(len(ms), func(i int) bool { return ms[i].End > t })
	if i < len(ms) && ms[i].Start <= t {
		return ms[i].Mode, true
	}
	return sim.ModeIdle, true
}

// coreThreads is the number of CPUs (hardware threads) of core.
func coreThreads(cpus []site.LaneCPU, core int) int {
	n := 0
	for _, c := range cpus {
		if c.Core == core {
			n++
		}
	}
	return n
}

// foldLevelAt is the folding model's SMT level implied by the core's
// threads running tasks at t (coreEvaluate's SMTFolding case), 0 when
// no thread past the first runs one (kernel noise alone can raise the
// level, and the timeline does not record it).
func foldLevelAt(tl *sim.Timeline, cpus []site.LaneCPU, core, threads int, t int64) int {
	hi := -1
	for _, c := range cpus {
		if c.Core != core || c.CPU >= len(tl.Runs) {
			continue
		}
		rs := tl.Runs[c.CPU]
		i := sort.Search(len(rs), func(i int) bool { return rs[i].End > t })
		if i < len(rs) && rs[i].Start <= t {
			hi = max(hi, c.Thread)
		}
	}
	if hi < 1 {
		return 0
	}
	return viewkit.FoldLevel(hi, threads)
}

// modeColor is a core mode band's colour, shared with the other views.
func modeColor(m sim.Mode, dark bool) string { return viewkit.ModeColor(m, dark) }

package playground

import (
	"fmt"
	"sort"

	"schedplay/engine/explain"
	"schedplay/engine/sim"
	"schedplay/site"
)

// The explain panel's content (explain_js.go draws it): why a run interval
// (a slice of the timeline) is where it is, in kernel vocabulary.

// Placement is one run interval of a task: Runs[CPU][Interval].
type Placement struct {
	CPU, Interval int
	Start, End    int64
	// Decision indexes Timeline.Decisions (-1: the task went on running
	// or was picked again on the same runqueue).
	Decision int
}

// SliceExplanation is what the explain panel shows for one slice.
type SliceExplanation struct {
	Slice Placement
	Task  string // "name (pid N)"
	// Decision is the decision that put the task on this CPU: the slice's
	// own, or the task's latest earlier one when the slice has none
	// (Inherited true); -1 when none was recorded.
	Decision  int
	Inherited bool
	Kind      string
	Lines     []explain.Line
	// Notes say what the record does not hold, plainly.
	Notes []string
	// Prev and Next are the task's placements (slices with a decision)
	// before and after this slice, on any CPU (nil: none).
	Prev, Next *Placement
	// Exec is, for a fork, the parent's sched_exec() placement that the
	// same fork event recorded before it (-1: none, e.g. a parent pinned
	// by parent_cpu), and ExecLines its description: the parent is no
	// task of the timeline, so no slice leads to it.
	Exec      int
	ExecLines []explain.Line
}

// ExplainSlice explains Runs[cpu][idx]; ok is false when there is no such
// slice.
func ExplainSlice(tl *sim.Timeline, cpu, idx int) (SliceExplanation, bool) {
	if tl == nil || cpu < 0 || cpu >= len(tl.Runs) || idx < 0 || idx >= len(tl.Runs[cpu]) {
		return SliceExplanation{}, false
	}
	iv := tl.Runs[cpu][idx]
	e := SliceExplanation{
		Slice:    Placement{CPU: cpu, Interval: idx, Start: iv.Start, End: iv.End, Decision: iv.Decision},
		Task:     fmt.Sprintf("task %d", iv.Task),
		Decision: -1,
		Exec:     -1,
	}
	if iv.Task >= 0 && iv.Task < len(tl.Tasks) {
		e.Task = fmt.Sprintf("%s (pid %d)", tl.Tasks[iv.Task].Name, tl.Tasks[iv.Task].PID)
	}
	all := taskPlacements(tl, iv.Task)
	at := sort.Search(len(all), func(i int) bool {
		return all[i].Start > iv.Start || all[i].Start == iv.Start && all[i].CPU >= cpu
	})
	for i := at - 1; i >= 0; i-- {
		if all[i].Decision >= 0 {
			p := all[i]
			e.Prev = &p
			break
		}
	}
	for i := at + 1; i < len(all); i++ {
		if all[i].Decision >= 0 {
			p := all[i]
			e.Next = &p
			break
		}
	}
	switch d := iv.Decision; {
	case d >= 0 && d < len(tl.Decisions):
		e.Decision = d
	case d < 0:
		// picked again where it was: the decision that last placed it
		for i := len(tl.Decisions) - 1; i >= 0; i-- {
			if dd := tl.Decisions[i]; dd.Task == iv.Task && dd.At <= iv.Start {
				e.Decision, e.Inherited = i, true
				break
			}
		}
	}
	if e.Decision < 0 && tl.NoDecisions {
		e.Notes = append(e.Notes, "This first picture is repetition 0 without its decision records; the full result, still running, brings them. Ask again when it arrives.")
		return e, true
	}
	if e.Decision < 0 {
		e.Notes = append(e.Notes, "No placement decision was recorded for this task before this slice.")
		if tl.Truncated {
			e.Notes = append(e.Notes, "The timeline hit its size cap, so later decisions were not recorded.")
		}
		return e, true
	}
	d := tl.Decisions[e.Decision]
	e.Kind = d.Kind
	e.Lines = explain.Describe(d, tl.Tasks)
	if e.Inherited {
		e.Notes = append(e.Notes, fmt.Sprintf("This slice has no placement of its own: the task stayed on cpu %d's runqueue (it was preempted or blocked and picked again there). The decision below is the one that last placed it.", cpu))
	}
	e.Notes = append(e.Notes, kindNote(d.Kind))
	if d.Kind == "fork" {
		if x := forkExec(tl, e.Decision); x >= 0 {
			e.Exec, e.ExecLines = x, explain.Describe(tl.Decisions[x], tl.Tasks)
		}
	}
	return e, true
}

// forkExec finds the parent's exec decision that the fork event of
// Decisions[fork] recorded before its forks: the nearest earlier "exec"
// of the same instant whose CPU is the one the fork was made from; -1
// when there is none.
func forkExec(tl *sim.Timeline, fork int) int {
	f := tl.Decisions[fork]
	for i := fork - 1; i >= 0 && tl.Decisions[i].At == f.At; i-- {
		if d := tl.Decisions[i]; d.Kind == "exec" {
			if d.To == f.From {
				return i
			}
			return -1
		}
	}
	return -1
}

// kindNote says what the engine records for a decision kind and what it
// does not.
func kindNote(kind string) string {
	switch kind {
	case "wakeup", "fork":
		return "Each step shows what it settled on (the CPU chosen, or why the scan stopped). An idle scan lists the first 8 CPUs it looked at, each with why it was passed over or kept, and counts the rest."
	case "periodic", "newidle", "nohz":
		return "The pass records its domain, its idle type and update_sd_lb_stats()' statistics of the local and busiest groups (sum_nr_running, idle_cpus, group_util, group_load, avg_load, group_capacity, group_type) and of one other group, then calculate_imbalance()'s migration type and imbalance."
	case "active", "misfit", "asym":
		return "The balance pass that asked for the push records its domain, the local and busiest groups' statistics and calculate_imbalance()'s choice; the push itself runs from the stopper."
	}
	return "The simulator recorded this path as shown."
}

// taskPlacements lists every run interval of task, by start (then CPU).
func taskPlacements(tl *sim.Timeline, task int) []Placement {
	var out []Placement
	for c, runs := range tl.Runs {
		for i, iv := range runs {
			if iv.Task == task {
				out = append(out, Placement{CPU: c, Interval: i, Start: iv.Start, End: iv.End, Decision: iv.Decision})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Start != out[j].Start {
			return out[i].Start < out[j].Start
		}
		return out[i].CPU < out[j].CPU
	})
	return out
}

// PlacementText is a placement as one line ("cpu 3, 1.2 ms → 4 ms, woken").
func PlacementText(tl *sim.Timeline, p Placement) string {
	s := fmt.Sprintf("cpu %d, %s → %s", p.CPU, site.FormatNs(float64(p.Start)), site.FormatNs(float64(p.End)))
	if p.Decision >= 0 && p.Decision < len(tl.Decisions) {
		d := tl.Decisions[p.Decision]
		s += fmt.Sprintf(" (%s, from cpu %d)", d.Kind, d.From)
	}
	return s
}

// FirstVisibleSlice is the slice the keyboard opens when the pointer is
// not over one: the first slice starting in [t0, t1) on the lowest
// numbered CPU that has one, or (-1, -1).
func FirstVisibleSlice(tl *sim.Timeline, t0, t1 int64) (cpu, idx int) {
	cpu, idx = -1, -1
	if tl == nil {
		return
	}
	best := int64(-1)
	for c, runs := range tl.Runs {
		i := sort.Search(len(runs), func(i int) bool { return runs[i].End > t0 })
		if i < len(runs) && runs[i].Start < t1 && (best < 0 || max(runs[i].Start, t0) < best) {
			cpu, idx, best = c, i, max(runs[i].Start, t0)
		}
	}
	return
}

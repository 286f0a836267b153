package stepview

import (
	"fmt"
	"strings"

	"schedplay/engine/explain"
	"schedplay/engine/sim"
)

// RQRow is one runqueue as the table shows it.
type RQRow struct {
	CPU int
	// Curr is the running task ("idle" for the idle task), Queued the
	// waiting ones earliest deadline first, each "name v=… d=… lag=…".
	Curr   string
	Queued []string
	// State is "idle", "busy" or "overloaded" (queued tasks), plus flags.
	State string
	// Key is the row's content in one string: rows whose Key changed
	// since the previous step are highlighted.
	Key string
}

// entityText is one sched_entity: name, vruntime, deadline and lag in
// readable units ("not eligible" when its lag is negative).
func entityText(e sim.EntityState) string {
	s := fmt.Sprintf("%s v=%s d=%s lag=%s", e.Name, explain.FormatNs(e.Vruntime), explain.FormatNs(e.Deadline), explain.FormatNs(e.Lag))
	if !e.Eligible {
		s += " (not eligible)"
	}
	return s
}

// Rows lays the runqueues out.
func Rows(d sim.Detail) []RQRow {
	out := make([]RQRow, len(d.Runqueues))
	for i, rq := range d.Runqueues {
		r := RQRow{CPU: rq.CPU, Curr: "idle", State: "idle"}
		if rq.Curr != nil {
			r.Curr = entityText(*rq.Curr)
			r.State = "busy"
		}
		for _, q := range rq.Queued {
			r.Queued = append(r.Queued, entityText(q))
		}
		if len(rq.Queued) > 0 {
			r.State = fmt.Sprintf("overloaded (nr_running %d)", rq.NrRunning)
		}
		var flags []string
		if rq.Idle {
			flags = append(flags, "available_idle_cpu")
		}
		if rq.Nohz {
			flags = append(flags, "nohz idle")
		}
		if rq.Pending > 0 {
			flags = append(flags, fmt.Sprintf("%d wake-up(s) arriving", rq.Pending))
		}
		if rq.Misfit {
			flags = append(flags, "misfit")
		}
		if len(flags) > 0 {
			r.State += " · " + strings.Join(flags, ", ")
		}
		r.Key = fmt.Sprint(r.Curr, "|", r.Queued, "|", r.State)
		out[i] = r
	}
	return out
}

// Changed lists the CPUs whose row differs between two steps (all of
// them when the machines differ).
func Changed(prev, cur []RQRow) map[int]bool {
	out := map[int]bool{}
	for i, r := range cur {
		if len(prev) != len(cur) || prev[i].Key != r.Key {
			out[r.CPU] = true
		}
	}
	return out
}

// LLCText is one LLC's line: its span, has_idle_cores and nr_idle_scan
// (naming the wider domain whose sched_domain_shared holds them, when it
// is not the LLC's), nr_busy_cpus and the idle CPUs now.
func LLCText(l sim.LLCState) string {
	idle := l.IdleCPUs
	if idle == "" {
		idle = "none"
	}
	shared := ""
	if l.SharedCPUs != "" && l.SharedCPUs != l.CPUs {
		shared = fmt.Sprintf(" (%s cpus %s's sched_domain_shared)", l.SharedLevel, l.SharedCPUs)
	}
	return fmt.Sprintf("LLC cpus %s: has_idle_cores=%v, nr_idle_scan=%d%s, nr_busy_cpus=%d, idle CPUs now: %s",
		l.CPUs, l.HasIdleCores, l.NrIdleScan, shared, l.NrBusyCPUs, idle)
}

// EventText is an event as one line ("#12 at 1.5 ms · sched_tick: …").
func EventText(e sim.StepEvent) string {
	s := fmt.Sprintf("#%d at %s · %s: %s", e.N, explain.FormatNs(e.At), e.Kind, e.Text)
	if n := len(e.Decisions); n > 0 {
		s += fmt.Sprintf(" (%d placement decision", n)
		if n > 1 {
			s += "s"
		}
		s += ")"
	}
	return s
}

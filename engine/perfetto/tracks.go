package perfetto

import (
	"fmt"
	"strings"

	"schedplay/engine/sim"
)

// modeNames are the slice names of the core mode bands.
var modeNames = map[sim.Mode]string{
	sim.ModeST:          "ST",
	sim.ModeSMT:         "SMT",
	sim.ModePartitioned: "partitioned",
	sim.ModeSwitching:   "switching",
}

// modeEvents returns one thread track per core (in a "SMT core modes"
// process) with a complete slice per non-idle mode interval.
func modeEvents(tl *sim.Timeline, opt Options) []Event {
	if len(tl.Modes) == 0 {
		return nil
	}
	ev := []Event{{Name: "process_name", Ph: "M", PID: modesPID, TID: modesPID, Args: map[string]any{"name": "SMT core modes"}}}
	for core, ms := range tl.Modes {
		tid := coreTID(core)
		ev = append(ev, Event{Name: "thread_name", Ph: "M", PID: modesPID, TID: tid, Args: map[string]any{"name": coreName(core, opt)}},
			Event{Name: "thread_sort_index", Ph: "M", PID: modesPID, TID: tid, Args: map[string]any{"sort_index": core}})
		for _, m := range ms {
			name, ok := modeNames[m.Mode]
			if !ok || m.End <= m.Start {
				continue
			}
			ev = append(ev, Event{Name: name, Ph: "X", Cat: "mode", Ts: us(m.Start), Dur: us(m.End - m.Start), PID: modesPID, TID: tid})
		}
	}
	return ev
}

// coreTID is the thread id of a core's mode track: Perfetto keys threads
// by tid across the JSON events and the ftrace text, so the synthetic
// tracks keep clear of the tasks' thread ids (and of tid 0, the idle task).
func coreTID(core int) int { return modesPID + 2 + core }

func coreName(core int, opt Options) string {
	if core < len(opt.CoreCPUs) {
		var cs []string
		for _, c := range opt.CoreCPUs[core] {
			cs = append(cs, fmt.Sprint(c))
		}
		return fmt.Sprintf("core %d: CPUs %s", core, strings.Join(cs, ","))
	}
	return fmt.Sprintf("core %d", core)
}

// counterEvents returns the utilization counter (percent of CPUs busy per
// bucket) and, when the result has one, the throughput series of rep 0.
func counterEvents(res *sim.Result, opt Options) []Event {
	tl := res.Timeline
	ev := []Event{{Name: "process_name", Ph: "M", PID: countersPID, TID: countersPID, Args: map[string]any{"name": "schedplay counters"}}}
	end := tl.EndNs
	for _, runs := range tl.Runs {
		for _, iv := range runs {
			end = max(end, iv.End)
		}
	}
	if n := len(tl.Runs); n > 0 && end > 0 {
		step := max((end+int64(opt.UtilBuckets)-1)/int64(opt.UtilBuckets), 1)
		busy := make([]int64, (end+step-1)/step)
		for _, runs := range tl.Runs {
			for _, iv := range runs {
				for s := iv.Start; s < iv.End; {
					b := s / step
					e := min(iv.End, (b+1)*step)
					busy[b] += e - s
					s = e
				}
			}
		}
		for b, v := range busy {
			pct := float64(v) / float64(step*int64(n)) * 100
			ev = append(ev, Event{Name: "utilization %", Ph: "C", Ts: us(int64(b) * step), PID: countersPID, TID: countersPID, Args: map[string]any{"busy": round2(pct)}})
		}
	}
	if len(res.Reps) > 0 && res.Reps[0].Series.StepNs > 0 {
		s := res.Reps[0].Series
		for i, v := range s.Values {
			ev = append(ev, Event{Name: "throughput (" + res.Unit + ")", Ph: "C", Ts: us(int64(i) * s.StepNs), PID: countersPID, TID: countersPID, Args: map[string]any{"value": v}})
		}
	}
	return ev
}

func us(ns int64) float64 { return float64(ns) / 1e3 }

func round2(v float64) float64 { return float64(int64(v*100+0.5)) / 100 }

package site

import (
	"fmt"
	"math"
	"strconv"

	"schedplay/engine/export"
	"schedplay/engine/sim"
)

// NoFigure is what every view shows where a figure does not exist: no
// wake-ups → no latency percentiles, no repetition finished → no
// completion time, a value that is not a number.
const NoFigure = "—"

// Figure is one key figure of a result, as every view shows it: the
// playground's figures, the embed's, the compare view's headline.
type Figure struct {
	// Kind names the figure independently of the view's element ids:
	// "headline", "completion", "modes", "pealt", "migrations", "cs",
	// "latency", "latency-p99", "timed-N", "optime", "reps".
	Kind         string
	Label, Value string
	// Title explains the value (shown on hover).
	Title string
}

// HasWakeups reports whether a result recorded wake-up latencies: without
// any, its latency percentiles are not figures (the summary holds zeros).
func HasWakeups(res *sim.Result) bool {
	for i := range res.Reps {
		if res.Reps[i].Latency.Count > 0 {
			return true
		}
	}
	return res.Summary.LatencyMax.Max > 0
}

// FormatStat renders a summary statistic in unit: durations ("ns") in a
// time unit (FormatNsStat), GFLOP/s as TFLOP/s from 1000
// (FormatThroughput), anything else as mean ± stddev at a k/M/G scale
// (FormatMeanSD) with the unit after it. A statistic without a value
// (no repetition, NaN) is NoFigure.
func FormatStat(st sim.Stat, unit string) string {
	if st.N == 0 || math.IsNaN(st.Mean) || math.IsInf(st.Mean, 0) {
		return NoFigure
	}
	switch unit {
	case "ns":
		return FormatNsStat(st)
	case "":
		return FormatMeanSD(st.Mean, st.Stddev, st.N)
	}
	return FormatThroughput(st.Mean, st.Stddev, st.N, unit)
}

const spreadTitle = "mean ± sample stddev over repetitions"

// Headline is a result's first figure: the wake-up latency p99 for a
// latency workload (cyclictest), the first timed section for a workload
// that times its own (perf bench futex), GFLOP/s (TFLOP/s) for a
// floating-point workload, else the throughput in the result's unit.
func Headline(res *sim.Result) Figure {
	sm := &res.Summary
	if res.IsLatency() {
		return Figure{Kind: "headline", Label: "wake-up latency p99", Value: FormatStat(sm.LatencyP99, "ns"), Title: spreadTitle}
	}
	if t, ok := res.TimedHeadline(); ok && t.Time.N > 0 {
		return Figure{Kind: "headline", Label: t.Name, Value: FormatStat(t.Time, "ns"), Title: TimedTitle(t)}
	}
	if res.Unit == "GFLOP/s" || sm.GFLOPS.Mean > 0 && res.Unit == "" {
		st := sm.GFLOPS
		if res.Unit == "GFLOP/s" && st.N == 0 {
			st = sm.Throughput
		}
		return Figure{Kind: "headline", Label: "throughput", Value: FormatStat(st, "GFLOP/s"), Title: spreadTitle}
	}
	return Figure{Kind: "headline", Label: "throughput", Value: FormatStat(sm.Throughput, res.Unit), Title: spreadTitle}
}

// TimedTitle explains a timed-section figure.
func TimedTitle(t sim.TimedStat) string {
	return "timed section: mean duration, " + FormatStat(t.Count, "") + " executions per repetition"
}

// KeyFigures are a result's figures in display order, as the playground
// shows them (the embed shows a subset): the headline, completion, core
// modes (SMT machines), migrations, context switches, wake-up latency
// percentiles (when there were wake-ups), the other timed sections, the op
// time where it is a figure, and the repetitions. smt says the machine has
// cores of more than one thread (transitionsTitle explains its modes).
func KeyFigures(res *sim.Result, smt bool, transitionsTitle string) []Figure {
	sm := &res.Summary
	n := sm.Throughput.N
	figs := []Figure{Headline(res)}
	if sm.Completion.N > 0 {
		// Completion covers the repetitions that finished before run.duration.
		f := Figure{Kind: "completion", Label: "completion", Value: FormatStat(sm.Completion, "ns")}
		if sm.Completed < n {
			f.Value += fmt.Sprintf(" (%d of %d finished)", sm.Completed, n)
			f.Title = "mean over the repetitions that finished; the others reached run.duration first"
		}
		figs = append(figs, f)
	}
	if smt { // one-thread cores have no modes or PEs to alternate
		figs = append(figs,
			Figure{Kind: "modes", Label: "mode transitions", Value: FormatStat(sm.ModeTransitions, ""), Title: transitionsTitle},
			Figure{Kind: "pealt", Label: "PE alternations", Value: FormatStat(sm.PEAlternations, ""), Title: "switches of the active PE inside a core"})
	}
	figs = append(figs,
		Figure{Kind: "migrations", Label: "migrations", Value: FormatStat(sm.Migrations, "")},
		Figure{Kind: "cs", Label: "context switches", Value: FormatStat(sm.ContextSwitches, "")})
	if f, ok := RTBandwidthFigure(res); ok {
		figs = append(figs, f)
	}
	switch {
	case !HasWakeups(res):
	case res.IsLatency():
		// p99 is the headline: the other percentiles, once each.
		figs = append(figs, Figure{Kind: "latency", Label: "wake-up latency p50 / p99.9 / max",
			Value: FormatNs(sm.LatencyP50.Mean) + " / " + FormatNs(sm.LatencyP999.Mean) + " / " + FormatNs(sm.LatencyMax.Mean), Title: "means over repetitions"})
	default:
		figs = append(figs, Figure{Kind: "latency", Label: "wake-up latency p50 / p99",
			Value: FormatNs(sm.LatencyP50.Mean) + " / " + FormatNs(sm.LatencyP99.Mean),
			Title: "means over repetitions; p99.9 " + FormatNs(sm.LatencyP999.Mean) + ", max " + FormatNs(sm.LatencyMax.Mean)})
	}
	_, timedHeadline := res.TimedHeadline()
	for i, t := range sm.Timed {
		if i == 0 && timedHeadline || t.Time.N == 0 {
			continue // the headline already, or never executed after the warm-up
		}
		// A workload's own clock (perf bench futex's timed wake loop).
		figs = append(figs, Figure{Kind: "timed-" + strconv.Itoa(i), Label: t.Name, Value: FormatStat(t.Time, "ns"), Title: TimedTitle(t)})
	}
	if res.ShowsOpTime() {
		// one task's time per operation (sched pipe's usecs/op, the
		// inverse of futex hash's per-thread ops/sec); a workload with
		// timed sections is measured by them, and a latency workload's op
		// time is its timer period.
		figs = append(figs, Figure{Kind: "optime", Label: "time per op", Value: FormatStat(sm.OpTime, "ns"),
			Title: "one task of the first group: the measured time × its tasks ÷ their operations"})
	}
	figs = append(figs, Figure{Kind: "reps", Label: "repetitions", Value: strconv.Itoa(len(res.Reps))})
	return figs
}

// RTBandwidthFigure is what kept fair tasks running beside RT ones, when
// anything did: the fair deadline server's runs (6.12 and later) and the
// CPU time RT classes spent throttled (6.1), means over the repetitions.
func RTBandwidthFigure(res *sim.Result) (Figure, bool) {
	server, throttled := res.RTBandwidth()
	if server == 0 && throttled == 0 {
		return Figure{}, false
	}
	return Figure{Kind: "rt-bandwidth", Label: "fair server / RT throttled", Value: FormatNs(server) + " / " + FormatNs(throttled),
		Title: "per repetition: the time fair tasks ran for the fair deadline server (rq->fair_server, 6.12 and later), and the CPU time RT classes spent throttled (sched_rt_runtime_us, 6.1)"}, true
}

// LatencyP99 is the wake-up latency p99 as a figure of its own (the embed
// and the compare view list it); NoFigure without wake-ups.
func LatencyP99(res *sim.Result) Figure {
	f := Figure{Kind: "latency-p99", Label: "wake-up latency p99", Value: NoFigure, Title: spreadTitle}
	if HasWakeups(res) {
		f.Value = FormatStat(res.Summary.LatencyP99, "ns")
	}
	return f
}

// FormatSigned renders v with d decimals and its sign ("+1.5", "-0.3"),
// and a value that rounds to zero without one ("0.0", never "-0.0").
func FormatSigned(v float64, d int) string {
	s := strconv.FormatFloat(v, 'f', d, 64)
	if f, err := strconv.ParseFloat(s, 64); err == nil && f == 0 {
		return strconv.FormatFloat(0, 'f', d, 64)
	}
	if v > 0 {
		s = "+" + s
	}
	return s
}

// FormatTick renders an axis tick value (export.TickText: four
// significant digits, k/M/G from 10 000, never "1e+04"), as the exported
// charts do.
func FormatTick(v float64) string { return export.TickText(v) }

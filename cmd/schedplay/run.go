package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"schedplay/engine/budget"
	"schedplay/engine/compare"
	"schedplay/engine/perfetto"
	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/engine/units"
	"schedplay/site/api"
)

// cmdRun simulates a scenario and prints its metrics.
func cmdRun(e *env, args []string) int {
	fs := newFlagSet(e, "run", "SCENARIO [--variant NAME] [--set path=value]… [--reps N] [--seed N] [--json] [--timeline] [--trace FILE [--trace-window D]]")
	var sets setFlags
	variant := fs.String("variant", "", "apply the seed scenario's variant `NAME` (e.g. \"22 threads\")")
	fs.Var(&sets, "set", "override `path=value` (repeatable; e.g. policy.hz=1000, workload.groups[0].count=22)")
	var reps repsFlag
	var seed seedFlag
	fs.Var(&reps, "reps", "`N` repetitions, at least 1 (overrides run.reps)")
	fs.Var(&seed, "seed", "first seed `N`, 0 to 18446744073709551615 (overrides run.seed)")
	jsonOut := fs.Bool("json", false, "print the result as JSON (the same bytes as POST /api/v1/simulate)")
	timeline := fs.Bool("timeline", false, "with --json: include repetition 0's timeline and decisions")
	trace := fs.String("trace", "", "write a Perfetto trace of repetition 0 to `FILE`")
	traceWindow := fs.String("trace-window", "", "with --trace: keep only the first `DURATION` of the run (e.g. 200ms)")
	pos, err := parseInterspersed(e, fs, args)
	if err != nil {
		return flagExit(err)
	}
	if !oneScenario(e, fs, pos) {
		return exitUsage
	}
	var window units.Duration
	if *traceWindow != "" {
		if window, err = units.ParseDuration(*traceWindow); err != nil {
			fmt.Fprintf(e.stderr, "schedplay run: --trace-window: %v\n", err)
			return exitUsage
		}
	}
	_, r, code := resolveArg(e, "run", pos[0], *variant, runOverrides(sets, reps, seed))
	if code != exitOK {
		return code
	}
	res, err := sim.Run(context.Background(), r, sim.Options{Timeline: *timeline || *trace != "", MaxEvents: budget.Serve.RepEventCap(r.Machine.NumCPUs())})
	if err != nil {
		fmt.Fprintf(e.stderr, "schedplay run: %v\n", err)
		return exitFailed
	}
	if *trace != "" {
		if err := writeTrace(*trace, r, res, int64(window)); err != nil {
			fmt.Fprintf(e.stderr, "schedplay run: %v\n", err)
			return exitFailed
		}
		if !*timeline {
			res.Timeline = nil
		}
	}
	if *jsonOut {
		b, err := api.Marshal(res)
		if err != nil {
			fmt.Fprintf(e.stderr, "schedplay run: %v\n", err)
			return exitFailed
		}
		e.stdout.Write(b)
		return exitOK
	}
	writeSummary(e.stdout, r, res)
	if *trace != "" {
		fmt.Fprintf(e.stdout, "\ntrace of repetition 0 written to %s (open it in https://ui.perfetto.dev)\n", *trace)
	}
	return exitOK
}

// writeTrace writes the Perfetto trace of res to file.
func writeTrace(file string, r *scenario.Resolved, res *sim.Result, until int64) error {
	opt := perfetto.Options{Until: until}
	if t, err := r.Topology(context.Background()); err == nil {
		for _, cpus := range t.CoreCPUs {
			var cs []int
			for _, c := range cpus {
				cs = append(cs, int(c))
			}
			opt.CoreCPUs = append(opt.CoreCPUs, cs)
		}
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if err := perfetto.Write(f, res, opt); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeSummary prints the readable report of a run.
func writeSummary(w io.Writer, r *scenario.Resolved, res *sim.Result) {
	s := res.Summary
	n := len(res.Reps)
	fmt.Fprintf(w, "%s\n%d repetition(s), %s, up to %s each\n\n", r.Name, n, compare.SeedRange(r.Run.Seed, r.Run.Seed+uint64(max(n-1, 0))), r.Run.Duration)
	row := func(name, val string) { fmt.Fprintf(w, "%-18s %s\n", name, val) }
	tp, unit := s.Throughput, res.Unit
	_, timedHead := res.TimedHeadline()
	switch {
	case res.IsLatency():
		row("Throughput", "none (a latency workload: see the wake-up latency below)")
	case timedHead || len(s.Timed) > 0 && tp.Max == 0:
		// perf bench futex: the timed wake loop is the figure; ops/s over
		// the whole run would count the pauses between rounds.
		row("Throughput", "none (the workload computes nothing; see its timed sections)")
	case tp.Max > 0 || (s.OpTime.Max == 0 && s.LatencyP50.Max == 0):
		row("Throughput", fmt.Sprintf("%s %s (min %s, max %s)", pm(tp), unit, num(tp.Min), num(tp.Max)))
	default:
		// A workload that computes nothing (perf bench sched pipe: block
		// and wake) is measured by its wake-up latency and op time below.
		row("Throughput", "none (the workload computes nothing; see wake-up latency and op time)")
	}
	done := s.Completed // s.Completion covers these repetitions only
	switch {
	case done == 0 && r.Run.Until == scenario.UntilDuration:
		row("Completion", fmt.Sprintf("programs still running at the end of the %s (run.until = duration)", r.Run.Duration))
	case done == n && n > 0:
		row("Completion", fmt.Sprintf("%s ms (every repetition finished)", pmScaled(s.Completion, 1e-6)))
	case done > 0:
		row("Completion", fmt.Sprintf("%s ms (%d of %d repetitions finished within %s)", pmScaled(s.Completion, 1e-6), done, n, r.Run.Duration))
	default:
		row("Completion", fmt.Sprintf("0 of %d repetitions finished within %s", n, r.Run.Duration))
	}
	row("Mode transitions", pm(s.ModeTransitions))
	row("PE alternations", pm(s.PEAlternations))
	row("Migrations", pm(s.Migrations)+migrationCauses(res.Reps))
	row("Context switches", pm(s.ContextSwitches))
	if v := rtBandwidth(res); v != "" {
		row("RT vs fair", v)
	}
	if s.LatencyP50.N > 0 && s.LatencyMax.Max > 0 {
		row("Wake-up latency", fmt.Sprintf("p50 %s us, p99 %s us, p99.9 %s us, max %s us",
			pmScaled(s.LatencyP50, 1e-3), pmScaled(s.LatencyP99, 1e-3), pmScaled(s.LatencyP999, 1e-3), pmScaled(s.LatencyMax, 1e-3)))
	}
	for _, t := range s.Timed {
		label := "Timed " + t.Name // a long name keeps two spaces before its value
		fmt.Fprintf(w, "%-*s %s\n", max(18, len(label)+1), label, timedText(t))
	}
	if res.ShowsOpTime() {
		row("Op time", pmScaled(s.OpTime, 1e-3)+" us/op")
	}
	for _, wn := range res.Warnings {
		fmt.Fprintf(w, "warning: %s\n", wn)
	}
}

// timedText is a timed section's mean duration over the repetitions and
// its executions per repetition ("16.0 ± 0 us (10 per rep)").
func timedText(t sim.TimedStat) string {
	if t.Time.N == 0 {
		return fmt.Sprintf("not executed after the warm-up (%s per rep)", num(t.Count.Mean))
	}
	v := pmScaled(t.Time, 1e-3) + " us"
	if t.Time.N < t.Count.N {
		v += fmt.Sprintf(" (%d of %d repetitions)", t.Time.N, t.Count.N)
	}
	return v + fmt.Sprintf(" (%s per rep)", num(t.Count.Mean))
}

// rtBandwidth is what kept fair tasks running beside RT ones, per
// repetition on average: the fair deadline server's runs (6.12 and later)
// and the time RT classes were throttled (6.1), "" when neither happened.
func rtBandwidth(res *sim.Result) string {
	server, throttled := res.RTBandwidth()
	if server == 0 && throttled == 0 {
		return ""
	}
	var parts []string
	if server > 0 {
		parts = append(parts, fmt.Sprintf("fair server ran fair tasks %s ms", num(server/1e6)))
	}
	if throttled > 0 {
		parts = append(parts, fmt.Sprintf("RT throttled %s ms (CPU time)", num(throttled/1e6)))
	}
	return strings.Join(parts, ", ") + " per repetition"
}

// migrationCauses lists the mean migrations per cause, the non-zero ones.
func migrationCauses(reps []sim.RepMetrics) string {
	if len(reps) == 0 {
		return ""
	}
	var sum [8]float64
	for _, r := range reps {
		m := r.Migrations
		for i, v := range []int64{m.Wakeup, m.Periodic, m.Newidle, m.Nohz, m.Active, m.Misfit, m.Asym, m.RT} {
			sum[i] += float64(v)
		}
	}
	var parts []string
	for i, name := range []string{"wakeup", "periodic", "newidle", "nohz", "active", "misfit", "asym", "rt push"} {
		if sum[i] > 0 {
			parts = append(parts, fmt.Sprintf("%s %s", name, num(sum[i]/float64(len(reps)))))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func pm(s sim.Stat) string { return pmScaled(s, 1) }

func pmScaled(s sim.Stat, k float64) string {
	if s.N > 1 {
		return compare.MeanSD(s.Mean*k, s.Stddev*k)
	}
	return num(s.Mean * k)
}

// num formats a figure with about four significant digits.
func num(v float64) string {
	a := v
	if a < 0 {
		a = -a
	}
	switch {
	case a >= 1000 || a == float64(int64(a)):
		return fmt.Sprintf("%.0f", v)
	case a >= 100:
		return fmt.Sprintf("%.1f", v)
	case a >= 1:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

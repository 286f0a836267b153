package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"schedplay/engine/compare"
	"schedplay/engine/sweep"
	"schedplay/site/api"
	"schedplay/site/fanout"
	"schedplay/site/fanout/httpbackend"
)

// sweepFlags are the options of `schedplay sweep` past the plan.
type sweepFlags struct {
	out         string
	on          []string
	concurrency int
	timeout     time.Duration
	metric      string
	batch       int
}

// cmdSweep runs a grid of points (the cross product of --vary lists)
// under each --policy, --reps times each, on the local cores or on
// remote backends (--on), into a resumable directory.
func cmdSweep(e *env, args []string) int {
	fs := newFlagSet(e, "sweep", "SCENARIO [--vary path=v1,v2,…]… [--policy NAME]… [--reps N] [--seed N] [--set path=value]… [--metric NAME] [--out DIR] [--on URL]… [--concurrency N] [--batch N]")
	var sets setFlags
	var varies, policies, on multiFlag
	fs.Var(&varies, "vary", "`path=v1,v2,…` to vary (repeatable: the points are the cross product; values split on top-level commas)")
	fs.Var(&policies, "policy", "policy preset `NAME` (repeatable; the first is the reference of the p-values; default: the pair a seed scenario names, else the scenario's own policy)")
	variant := fs.String("variant", "", "apply the seed scenario's variant `NAME`")
	fs.Var(&sets, "set", "override `path=value` applied to every point (repeatable)")
	var reps repsFlag
	var seed seedFlag
	fs.Var(&reps, "reps", "`N` repetitions per point and policy (default: the scenario's run.reps)")
	fs.Var(&seed, "seed", "seed `N` of repetition 0; repetition r runs seed N+r (default: the scenario's run.seed)")
	var f sweepFlags
	fs.StringVar(&f.metric, "metric", "", "metric `NAME` to plot, a row of the compare table (default: the first, usually \"Average throughput\")")
	fs.StringVar(&f.out, "out", "", "results `DIR` (default: sweep-KEY, KEY from the sweep's definition, so the same command resumes)")
	fs.Var(&on, "on", "run on the schedplay API at `URL` (a deployed Worker, wrangler dev, schedplay serve) instead of the local cores;\n"+
		"repeatable or comma-separated; \"local\" adds the local cores")
	fs.IntVar(&f.concurrency, "concurrency", 0, "requests in flight per backend `N` (default: the cores locally, 4 per URL)")
	fs.IntVar(&f.batch, "batch", 0, "runs per request `N` to each URL (POST /api/v1/batch; default: 8 to a Cloudflare Worker,\n"+
		"where each request starts a fresh instance, 1 elsewhere: docs/sweep.md)")
	fs.DurationVar(&f.timeout, "timeout", 10*time.Minute, "give up one request after `D` and retry it")
	pos, err := parseInterspersed(e, fs, args)
	if err != nil {
		return flagExit(err)
	}
	if !oneScenario(e, fs, pos) {
		return exitUsage
	}
	for _, u := range on {
		for _, x := range strings.Split(u, ",") {
			if x = strings.TrimSpace(x); x != "" {
				f.on = append(f.on, x)
			}
		}
	}
	if f.concurrency < 0 {
		fmt.Fprintf(e.stderr, "schedplay sweep: --concurrency %d: give at least 1\n", f.concurrency)
		return exitUsage
	}
	if f.batch < 0 || f.batch > api.MaxBatch {
		fmt.Fprintf(e.stderr, "schedplay sweep: --batch %d: give 1 to %d\n", f.batch, api.MaxBatch)
		return exitUsage
	}
	spec, code := sweepSpec(e, pos[0], *variant, sets, varies, policies, reps, seed)
	if code != exitOK {
		return code
	}
	plan, err := sweep.NewPlan(spec)
	if err != nil {
		return reportError(e, "sweep", err)
	}
	targets, err := sweepTargets(e, f)
	if err != nil {
		fmt.Fprintf(e.stderr, "schedplay sweep: %v\n", err)
		return exitUsage
	}
	if f.out == "" {
		f.out = "sweep-" + sweepKey(plan)[:12]
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runSweep(ctx, e, plan, targets, f, append([]string{"schedplay", "sweep"}, args...))
}

// sweepSpec reads SCENARIO and the flags into a sweep.Spec.
func sweepSpec(e *env, arg, variant string, sets setFlags, varies, policies multiFlag, reps repsFlag, seed seedFlag) (sweep.Spec, int) {
	doc, err := loadScenario(e, arg)
	if err != nil {
		return sweep.Spec{}, reportError(e, "sweep", err)
	}
	vs, err := variantOverrides(e, doc, variant)
	if err != nil {
		return sweep.Spec{}, reportError(e, "sweep", err)
	}
	spec := sweep.Spec{Scenario: doc, Presets: e.presets, Set: append(vs, sets...), Reps: reps.n}
	if seed.set {
		spec.Seed = &seed.v
	}
	if len(policies) == 0 {
		if p, ok := presetOf(e, doc); ok && len(p.Compare) == 2 {
			policies = p.Compare
		}
	}
	for _, name := range policies {
		spec.Sides = append(spec.Sides, compare.PolicySide(name))
	}
	for _, v := range varies {
		path, values, err := compare.ParseVary(v)
		if err != nil {
			fmt.Fprintf(e.stderr, "schedplay sweep: --vary %v\n", err)
			return spec, exitUsage
		}
		spec.Vary = append(spec.Vary, sweep.Vary{Path: path, Values: values})
	}
	return spec, exitOK
}

// sweepTargets are the backends: the local cores, or the --on URLs.
func sweepTargets(e *env, f sweepFlags) ([]fanout.Target, error) {
	local := func() fanout.Target {
		n := f.concurrency
		if n == 0 {
			n = runtime.GOMAXPROCS(0)
		}
		httpbackend.TuneForSweep()
		return fanout.Target{Backend: httpbackend.Local{Handler: api.New(e.presets)}, Slots: n}
	}
	if len(f.on) == 0 {
		return []fanout.Target{local()}, nil
	}
	var out []fanout.Target
	seen := map[string]bool{}
	for _, u := range f.on {
		if seen[u] {
			return nil, fmt.Errorf("--on %s is given twice", u)
		}
		seen[u] = true
		if u == "local" {
			out = append(out, local())
			continue
		}
		if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
			return nil, fmt.Errorf("--on %q: give an http:// or https:// URL, or \"local\"", u)
		}
		n := f.concurrency
		if n == 0 {
			n = 4
		}
		out = append(out, fanout.Target{Backend: httpbackend.NewRemote(u, f.timeout), Slots: n, Batch: f.batch})
	}
	return out, nil
}

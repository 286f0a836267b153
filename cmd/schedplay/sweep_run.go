package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"schedplay/engine/sweep"
	"schedplay/site/api"
	"schedplay/site/fanout"
	"schedplay/site/fanout/httpbackend"
)

// runSweep runs plan's missing units into f.out and summarises them.
func runSweep(ctx context.Context, e *env, plan *sweep.Plan, targets []fanout.Target, f sweepFlags, command []string) int {
	done, err := openSweepDir(f.out, plan, command)
	if err != nil {
		fmt.Fprintf(e.stderr, "schedplay sweep: %v\n", err)
		return exitFailed
	}
	total := plan.NumUnits()
	fmt.Fprintf(e.stderr, "schedplay sweep: %d points × %d policies × %d repetitions = %d runs into %s\n",
		plan.NumPoints(), len(plan.Policies()), plan.Reps(), total, f.out)
	if done > 0 {
		fmt.Fprintf(e.stderr, "schedplay sweep: resuming: %d of %d runs already done\n", done, total)
	}
	if done < total {
		if !checkBackends(ctx, e, targets, f.batch) {
			return exitFailed
		}
		if code := runUnits(ctx, e, plan, targets, f.out, done); code != exitOK {
			return code
		}
	}
	s, err := summarise(f.out, plan, f.metric)
	if err != nil {
		fmt.Fprintf(e.stderr, "schedplay sweep: summarising: %v\n", err)
		return exitFailed
	}
	fmt.Fprintf(e.stdout, "results: %s\nsummary: %s\nplot:    %s (%s)\n",
		filepath.Join(f.out, resultsName), filepath.Join(f.out, summaryName), filepath.Join(f.out, plotName), s.Metric())
	if f.metric != "" && s.Metric() == f.metric && !hasMetric(s.Metrics(), f.metric) {
		fmt.Fprintf(e.stderr, "schedplay sweep: --metric %q: no such metric in these results; they have %s\n", f.metric, quoteList(s.Metrics()))
		return exitUsage
	}
	if s.Failed() > 0 {
		fmt.Fprintf(e.stderr, "schedplay sweep: %d of %d runs were refused (their lines in %s hold the error)\n", s.Failed(), total, resultsName)
		return exitFailed
	}
	return exitOK
}

// runUnits runs units done…total-1, appending their lines to results.jsonl.
func runUnits(ctx context.Context, e *env, plan *sweep.Plan, targets []fanout.Target, dir string, done int) int {
	file, err := os.OpenFile(filepath.Join(dir, resultsName), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintf(e.stderr, "schedplay sweep: %v\n", err)
		return exitFailed
	}
	defer file.Close()
	w := bufio.NewWriterSize(file, 1<<16)
	total := plan.NumUnits()
	prog := newProgress(e.stderr, total, done)
	body := func(i int) []byte { return plan.Body(plan.Unit(done + i)) }
	deliver := func(i int, r fanout.Reply) error {
		// One write per line: a run costs milliseconds, a write
		// microseconds, and a killed sweep keeps every line delivered.
		if _, err := w.Write(plan.Line(plan.Unit(done+i), r.Status, r.Body)); err != nil {
			return err
		}
		return w.Flush()
	}
	opt := fanout.Options{Progress: func(st fanout.Stats) { prog.update(done+st.Delivered, st) }}
	st, err := fanout.Run(ctx, targets, total-done, body, opt, deliver)
	ferr := w.Flush()
	prog.finish(done+st.Delivered, st)
	switch {
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(e.stderr, "schedplay sweep: interrupted after %d of %d runs; run the same command again to resume\n", done+st.Delivered, total)
		return exitFailed
	case err != nil:
		fmt.Fprintf(e.stderr, "schedplay sweep: stopped after %d of %d runs: %v\nrun the same command again to resume\n", done+st.Delivered, total, err)
		return exitFailed
	case ferr != nil:
		fmt.Fprintf(e.stderr, "schedplay sweep: writing %s: %v\n", resultsName, ferr)
		return exitFailed
	}
	return exitOK
}

// checkBackends asks each remote backend for its health and build: an
// unreachable one is reported (the run sets it aside until it answers),
// one whose build or presets differ from this program's is warned about
// (its results may differ from a local run). It fails when no backend
// answers.
func checkBackends(ctx context.Context, e *env, targets []fanout.Target, batch int) bool {
	mine := api.BuildOf(e.presets)
	up := 0
	for i, t := range targets {
		r, ok := t.Backend.(*httpbackend.Remote)
		if !ok {
			up++
			continue
		}
		b, runtime, err := remoteHealth(ctx, r)
		if batch == 0 {
			targets[i].Batch = autoBatch(runtime)
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "schedplay sweep: %s: %v (set aside until it answers)\n", r.Name(), err)
			continue
		}
		up++
		fmt.Fprintf(e.stderr, "schedplay sweep: %s: %s/%s, commit %s, %d in flight, %d runs per request\n", r.Name(), b.GOOS, b.GOARCH, b.Commit, t.Slots, max(targets[i].Batch, 1))
		if b.Presets != mine.Presets || (b.Commit != mine.Commit && b.Commit != "dev" && mine.Commit != "dev") {
			fmt.Fprintf(e.stderr, "schedplay sweep: warning: %s runs commit %s with presets %s; this schedplay is commit %s with presets %s: its results may differ from a local run\n",
				r.Name(), b.Commit, b.Presets, mine.Commit, mine.Presets)
		}
	}
	if up == 0 {
		fmt.Fprintf(e.stderr, "schedplay sweep: no backend answers\n")
		return false
	}
	return true
}

// autoBatch is the default runs per request to a backend running in
// runtime: a Worker starts a fresh Go instance (and loads the presets)
// for each request, about 10 ms under workerd, which 8 runs share; a
// native server's request costs a fraction of a millisecond
// (docs/sweep.md has the measurements).
func autoBatch(runtime string) int {
	if runtime == "cloudflare" {
		return 8
	}
	return 1
}

// remoteHealth reads a backend's GET /api/v1/health: its build and runtime.
func remoteHealth(ctx context.Context, r *httpbackend.Remote) (api.Build, string, error) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	rep, err := r.Get(ctx, "/api/v1/health")
	if err != nil {
		return api.Build{}, "", err
	}
	if rep.Status != 200 {
		return api.Build{}, "", &fanout.StatusError{Reply: rep}
	}
	var h struct {
		Runtime string    `json:"runtime"`
		Build   api.Build `json:"build"`
	}
	if err := json.Unmarshal(rep.Body, &h); err != nil {
		return api.Build{}, "", fmt.Errorf("health reply: %v", err)
	}
	return h.Build, h.Runtime, nil
}

func hasMetric(ms []string, m string) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

func quoteList(ms []string) string {
	q := make([]string, len(ms))
	for i, m := range ms {
		q[i] = fmt.Sprintf("%q", m)
	}
	return strings.Join(q, ", ")
}

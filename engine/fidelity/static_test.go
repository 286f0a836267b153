package fidelity

import (
	"context"
	"fmt"
	"math"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"schedplay/engine/compare"
	"schedplay/engine/sim"
	"schedplay/presets"
)

// TestModelOnlyRowsCurrent re-runs the model-only benchmark rows that
// calibration.md.tmpl states as text (no published figure, so they are not
// rows of figures.json) and wants the template to quote what the model
// gives now, at its stated 5 repetitions: a change of the engine that moves
// one of them fails here until the template is updated.
func TestModelOnlyRowsCurrent(t *testing.T) {
	if testing.Short() || runtime.GOOS == "js" {
		t.Skip("runs eight seed scenario rows at 5 repetitions (native only)")
	}
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{Presets: ps}
	ms := func(st sim.Stat) string { return fmt.Sprintf("%.1f ± %.1f ms", st.Mean/1e6, st.Stddev/1e6) }
	us := func(v float64) string { return fmt.Sprintf("%.1f µs", v/1e3) }
	perMsg := func(s *sim.Summary, msgs float64) string {
		return fmt.Sprintf("%.2f context switches per message", s.ContextSwitches.Mean/msgs)
	}
	for _, c := range []struct {
		spec  RunSpec
		quote func(s *sim.Summary) []string
	}{
		{RunSpec{Scenario: "vera-sched-pipe"}, func(s *sim.Summary) []string {
			return []string{fmt.Sprintf("%.2f ± %.2f µs/op", s.OpTime.Mean/1e3, s.OpTime.Stddev/1e3),
				"wake-up p50 " + us(s.LatencyP50.Mean), "p99 " + us(s.LatencyP99.Mean)}
		}},
		{RunSpec{Scenario: "vera-sched-messaging"}, func(s *sim.Summary) []string {
			return []string{"Total time " + ms(timed(t, s, "Total time")), perMsg(s, 160_000),
				"wake-up p50 " + us(s.LatencyP50.Mean), fmt.Sprintf("p99 %.0f µs", s.LatencyP99.Mean/1e3)}
		}},
		{RunSpec{Scenario: "vera-sched-messaging", Variant: "10 groups (perf's default)"}, func(s *sim.Summary) []string {
			return []string{"Total time " + ms(timed(t, s, "Total time"))}
		}},
		{RunSpec{Scenario: "vera-sched-messaging", Variant: "pipe"}, func(s *sim.Summary) []string {
			st := timed(t, s, "Total time")
			return []string{fmt.Sprintf("Total time %.2f ± %.2f ms", st.Mean/1e6, st.Stddev/1e6), perMsg(s, 160_000)}
		}},
		{RunSpec{Scenario: "vera-futex"}, func(s *sim.Summary) []string {
			st := timed(t, s, "wake loop")
			return []string{fmt.Sprintf("wake loop %.1f ± %.1f µs", st.Mean/1e3, st.Stddev/1e3)}
		}},
		{RunSpec{Scenario: "vera-futex", Variant: "hash"}, func(s *sim.Summary) []string {
			return []string{fmt.Sprintf("%.2f ± %.2f µs per call and thread", s.OpTime.Mean/1e3, s.OpTime.Stddev/1e3),
				fmt.Sprintf("%.2f M operations/sec a thread", 1e3/s.OpTime.Mean)}
		}},
		{RunSpec{Scenario: "vera-cyclictest-idle"}, func(s *sim.Summary) []string {
			return []string{"p50 " + us(s.LatencyP50.Mean), "p99 " + us(s.LatencyP99.Mean), "max " + us(s.LatencyMax.Mean)}
		}},
		{RunSpec{Scenario: "vera-cyclictest-idle", Variant: "-p 99 (SCHED_FIFO)"}, func(s *sim.Summary) []string {
			return []string{"p50 " + us(s.LatencyP50.Mean), "p99 " + us(s.LatencyP99.Mean), "max " + us(s.LatencyMax.Mean)}
		}},
	} {
		c.spec.Set = append(c.spec.Set, "run.reps=5")
		res, err := r.result(context.Background(), c.spec)
		if err != nil {
			t.Fatal(err)
		}
		row := templateRow(commandOf(c.spec))
		if row == "" {
			t.Errorf("calibration.md.tmpl has no model-only row for `%s`", commandOf(c.spec))
			continue
		}
		for _, q := range c.quote(&res.Summary) {
			if !strings.Contains(row, q) {
				t.Errorf("the row of `%s` does not say %q, what the model gives now (5 repetitions):\n%s", commandOf(c.spec), q, row)
			}
		}
	}
}

func timed(t *testing.T, s *sim.Summary, name string) sim.Stat {
	t.Helper()
	st, err := statOf(s, "timed:"+name)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// commandOf is the row's `schedplay run` command as the template prints it.
func commandOf(spec RunSpec) string { return command("run", spec) }

// command is a row's schedplay command (verb run or compare) as the
// template prints it.
func command(verb string, spec RunSpec) string {
	s := "schedplay " + verb + " " + spec.Scenario
	if spec.Variant != "" {
		if strings.ContainsAny(spec.Variant, " '") {
			s += fmt.Sprintf(` --variant "%s"`, spec.Variant)
		} else {
			s += " --variant " + spec.Variant
		}
	}
	return s
}

// templateRow is the template's table row whose command column is cmd.
func templateRow(cmd string) string {
	suffix := "| `" + cmd + "` |"
	for _, line := range strings.Split(docTemplate, "\n") {
		if strings.HasSuffix(line, suffix) {
			return line
		}
	}
	return ""
}

// TestSeedStoryRowsCurrent re-runs the comparisons of the template's table
// of seed stories (machines with nothing published to fit) and wants each
// row to quote what `schedplay compare` gives now at the scenario's own
// repetitions: a change of the engine that moves one fails here until the
// template is updated.
func TestSeedStoryRowsCurrent(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{Presets: ps}
	for _, c := range []struct {
		scenario, variant string
		quote             func(rows map[string]compare.Row, a, b *sim.Result, pols []string) []string
	}{
		{"hikey960-sysbench", "1 threads", func(rows map[string]compare.Row, _, _ *sim.Result, _ []string) []string {
			m := rows["Min per-run average"]
			return []string{"1 thread: " + meansVs(rows["Average throughput"], " vs "),
				fmt.Sprintf("(min per run %.2f vs %.2f)", m.A.Mean, m.B.Mean)}
		}},
		{"hikey960-sysbench", "4 threads", func(rows map[string]compare.Row, _, _ *sim.Result, _ []string) []string {
			return []string{"4 threads: " + meansVs(rows["Average throughput"], " vs ")}
		}},
		{"hikey960-short-sysbench", "1 threads", func(rows map[string]compare.Row, _, _ *sim.Result, pols []string) []string {
			c := rows["Completion time"]
			return []string{fmt.Sprintf("%.1f ms (%s) vs %.1f ms", c.A.Mean, pols[0], c.B.Mean)}
		}},
		{"power7-smt", "", func(rows map[string]compare.Row, a, b *sim.Result, _ []string) []string {
			tp, mt := rows["Average throughput"], rows["Mode transitions"]
			return []string{meansVs(tp, " → ") + fmt.Sprintf(" work/s (%+.0f %%)", *tp.DiffPct),
				fmt.Sprintf("hold %.0f %% of the busy time without packing, %.1f %% with it",
					100*upperThreadShare(a, 4), 100*upperThreadShare(b, 4)),
				fmt.Sprintf("(%.0f → %.0f", mt.A.Mean, mt.B.Mean)}
		}},
		{"itmt-hybrid", "", func(rows map[string]compare.Row, _, _ *sim.Result, _ []string) []string {
			tp, mg := rows["Average throughput"], rows["Migrations"]
			return []string{fmt.Sprintf("%+.1f %% (%s work/s)", *tp.DiffPct, meansVs(tp, " vs ")),
				fmt.Sprintf("%g migrations vs %g", mg.B.Mean, mg.A.Mean)}
		}},
	} {
		p, ok := ps.Get(presets.Scenario, c.scenario)
		if !ok || len(p.Compare) != 2 {
			t.Fatalf("seed scenario %s names no pair of policies", c.scenario)
		}
		var res [2]*sim.Result
		for i, pol := range p.Compare {
			if res[i], err = r.result(context.Background(), RunSpec{Scenario: c.scenario, Variant: c.variant, Policy: pol}); err != nil {
				t.Fatal(err)
			}
		}
		rows := map[string]compare.Row{}
		for _, row := range compare.Rows(res[0], res[1]) {
			rows[row.Metric] = row
		}
		cmd := command("compare", RunSpec{Scenario: c.scenario, Variant: c.variant})
		line := templateRow(cmd)
		if line == "" {
			t.Errorf("calibration.md.tmpl has no seed-story row for `%s`", cmd)
			continue
		}
		for _, q := range c.quote(rows, res[0], res[1], p.Compare) {
			if !strings.Contains(line, q) {
				t.Errorf("the row of `%s` does not say %q, what the model gives now:\n%s", cmd, q, line)
			}
		}
	}
}

// meansVs is a row's two means as the comparison table prints them, A
// then B.
func meansVs(row compare.Row, sep string) string {
	return compare.MeanSD(row.A.Mean, row.A.Stddev) + sep + compare.MeanSD(row.B.Mean, row.B.Stddev)
}

// upperThreadShare is the share of the busy time, over every repetition,
// that the threads past the first two of each core hold (core-major
// numbering, threads per core).
func upperThreadShare(res *sim.Result, threads int) float64 {
	var upper, all int64
	for _, rep := range res.Reps {
		for cpu, ns := range rep.BusyNs {
			all += ns
			if cpu%threads >= 2 {
				upper += ns
			}
		}
	}
	return float64(upper) / float64(all)
}

// TestCommandsSurviveAShell: every figure's documented command, run
// through sh as a reader pastes it, reaches the CLI with the arguments the
// figure runs: a value's own quotes and a path's brackets intact.
func TestCommandsSurviveAShell(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	figs, err := Figures()
	if err != nil {
		t.Fatal(err)
	}
	var specs []RunSpec
	for _, f := range figs {
		specs = append(specs, f.Run)
		if f.Vs != nil {
			specs = append(specs, *f.Vs)
		}
	}
	specs = append(specs, RunSpec{Scenario: "x", Set: []string{`a.b="it's"`}},
		RunSpec{Scenario: "x", Set: []string{"run.reps=20", "run.seed=5"}, Blocks: 3})
	for _, spec := range specs {
		cmd := spec.String()
		script := "set -- " + cmd + `; for a; do printf '%s\0' "$a"; done`
		if spec.Blocks > 1 {
			// for s in S0 S1 …; do schedplay run … --set run.seed=$s; done:
			// each block's command, with its own seed.
			seed, reps, err := spec.blockSeeds()
			if err != nil {
				t.Fatal(err)
			}
			seeds := make([]string, spec.Blocks)
			for k := range seeds {
				seeds[k] = strconv.FormatUint(blockSeed(seed, reps, k), 10)
			}
			head := "for s in " + strings.Join(seeds, " ") + "; do "
			inner, okHead := strings.CutPrefix(cmd, head)
			inner, okTail := strings.CutSuffix(inner, "; done")
			if !okHead || !okTail {
				t.Fatalf("blocked run %s; want %s…; done", cmd, head)
			}
			script = "s=" + seeds[len(seeds)-1] + "; set -- " + inner + `; for a; do printf '%s\0' "$a"; done`
			spec = spec.block(blockSeed(seed, reps, len(seeds)-1))
		}
		out, err := exec.Command(sh, "-c", script).Output()
		if err != nil {
			t.Fatalf("sh on %s: %v", cmd, err)
		}
		args := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		want := []string{"schedplay", "run", spec.Scenario}
		if spec.Variant != "" {
			want = append(want, "--variant", spec.Variant)
		}
		if spec.Policy != "" {
			want = append(want, "--set", "policy.preset="+spec.Policy)
		}
		for _, o := range spec.Set {
			want = append(want, "--set", o)
		}
		if strings.Join(args, "\x00") != strings.Join(want, "\x00") {
			t.Errorf("%s\nreaches the CLI as %q; want %q", cmd, args, want)
		}
	}
}

// poolStats over blocks gives what one run over all their repetitions
// gives: the count, the mean, the sample standard deviation, min and max.
func TestPoolStatsIsTheStatisticOfAllRepetitions(t *testing.T) {
	stat := func(v []float64) sim.Stat {
		st := sim.Stat{N: len(v), Min: math.Inf(1), Max: math.Inf(-1)}
		for _, x := range v {
			st.Mean += x / float64(len(v))
			st.Min, st.Max = min(st.Min, x), max(st.Max, x)
		}
		var ss float64
		for _, x := range v {
			ss += (x - st.Mean) * (x - st.Mean)
		}
		if len(v) > 1 {
			st.Stddev = math.Sqrt(ss / float64(len(v)-1))
		}
		return st
	}
	// Means of 10^4 and spreads of 10^-3 of them: a pooled sum of squares
	// of the raw values would lose the spread's digits.
	all := []float64{10312.5, 10318.25, 10301, 10330.75, 10309, 10296.5, 10288.25, 10322, 10315.5}
	want := stat(all)
	got := poolStats([]sim.Stat{stat(all[:4]), stat(all[4:5]), stat(all[5:])})
	if got.N != want.N || got.Min != want.Min || got.Max != want.Max ||
		math.Abs(got.Mean-want.Mean) > 1e-9 || math.Abs(got.Stddev-want.Stddev) > 1e-9 {
		t.Errorf("pooled %+v; want %+v", got, want)
	}
	if one := stat(all[:3]); poolStats([]sim.Stat{one}) != one {
		t.Errorf("one block is not its own statistic")
	}
}

// A blocked run needs its first block's seed and repetition count, and
// its blocks take consecutive seed ranges.
func TestBlockedRunSeeds(t *testing.T) {
	fig := `[{"name":"x","run":{"scenario":"vera-sgemm-nvpl","set":[%s],"blocks":3},"metric":"throughput","published":1,"unit":"u","source":"s","tolerance":0.1}]`
	for _, set := range []string{`"run.reps=100"`, `"run.seed=1"`, `"run.seed=1","run.reps=0"`} {
		if _, err := decodeFigures([]byte(fmt.Sprintf(fig, set))); err == nil || !strings.Contains(err.Error(), "run.seed=N and run.reps=N") {
			t.Errorf("set [%s]: error %v; want one naming run.seed and run.reps", set, err)
		}
	}
	figs, err := decodeFigures([]byte(fmt.Sprintf(fig, `"run.seed=7","run.reps=10"`)))
	if err != nil {
		t.Fatal(err)
	}
	spec := figs[0].Run
	seed, reps, err := spec.blockSeeds()
	if err != nil || seed != 7 || reps != 10 {
		t.Fatalf("blockSeeds %d, %d, %v; want 7, 10", seed, reps, err)
	}
	for k, want := range []string{"run.seed=7", "run.seed=17", "run.seed=27"} {
		if b := spec.block(blockSeed(seed, reps, k)); b.Blocks != 0 || b.Set[0] != want || b.Set[1] != "run.reps=10" {
			t.Errorf("block %d: %+v; want %s, run.reps=10, no blocks", k, b, want)
		}
	}
	if spec.Set[0] != "run.seed=7" {
		t.Errorf("block() changed the spec it was called on: %v", spec.Set)
	}
}

// A sampled spread is the median of the spreads of consecutive samples: a
// rare outlier sets the spread over all repetitions but only its own
// sample's, and a figure with a sample needs a spread of a per-repetition
// metric.
func TestSampledSpreadIsTheTypicalSamplesSpread(t *testing.T) {
	reps := func(v ...float64) *sim.Result {
		r := &sim.Result{}
		for _, x := range v {
			r.Reps = append(r.Reps, sim.RepMetrics{Throughput: x})
		}
		return r
	}
	// Three samples of 3 over two blocks: spreads 0.01, 0.02 and the
	// outlier's, far larger; the median is 0.02.
	rs := []*sim.Result{reps(99, 100, 101, 98, 100, 102), reps(100, 100, 70, 5)}
	got, err := value(rs, "throughput", StatSpread, 3)
	if err != nil || math.Abs(got-0.02) > 1e-12 {
		t.Errorf("sampled spread %v, %v; want 0.02", got, err)
	}
	all, _ := value(rs, "throughput", StatSpread, 0)
	if all != 0 { // value() without a sample reads the summary, empty here
		t.Errorf("unsampled spread of an empty summary %v", all)
	}
	if _, err := value([]*sim.Result{reps(1, 2)}, "throughput", StatSpread, 3); err == nil {
		t.Errorf("2 repetitions gave a sample of 3")
	}
	fig := `[{"name":"x","run":{"scenario":"s"},"metric":%q,"stat":%q,"sample":%d,"published":1,"unit":"u","source":"s","tolerance":0.1}]`
	for _, c := range []struct {
		metric, stat string
		sample       int
		ok           bool
	}{
		{"throughput", "spread", 5, true},
		{"completion_ns", "spread", 32, false},
		{"throughput", "", 5, false},
		{"throughput", "spread", 1, false},
		{"migrations", "spread", 5, false},
	} {
		_, err := decodeFigures([]byte(fmt.Sprintf(fig, c.metric, c.stat, c.sample)))
		if (err == nil) != c.ok {
			t.Errorf("%s %q sample %d: error %v; want ok %v", c.metric, c.stat, c.sample, err, c.ok)
		}
	}
}

package sim_test

import (
	"context"
	"math"
	"testing"

	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/presets"
)

// Calibration guard (docs/model.md, "Calibration"; docs/calibration.md).
// The Olympus core model and the SGEMM workloads were fitted once to the
// published Vera figures of domain.md; these tests fail when a change to the
// engine or to the presets moves the seed scenarios away from them. The
// bands are wider than the fit (a few seeds, one GEMM call per repetition)
// but narrow enough that losing a mechanism (PE0 preference, the hold after
// a PE switch, the capacity spread that makes sibling choice random) fails.

// seedSummary runs the seed scenario preset name under policy with the
// given overrides ("path=value") and returns the summary.
func seedSummary(t testing.TB, name, policy string, sets ...string) sim.Summary {
	t.Helper()
	_, res := seedRun(t, name, policy, sets...)
	return res.Summary
}

// seedRun runs the seed scenario preset name under policy ("" = its own)
// with the given overrides ("path=value") and returns the resolved
// scenario with the result.
func seedRun(t testing.TB, name, policy string, sets ...string) (*scenario.Resolved, *sim.Result) {
	t.Helper()
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	p, ok := ps.Get(presets.Scenario, name)
	if !ok {
		t.Fatalf("no scenario preset %q", name)
	}
	doc, err := scenario.Decode(p.Body)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var ovs []scenario.Override
	if policy != "" {
		sets = append([]string{"policy.preset=" + policy}, sets...)
	}
	for _, s := range sets {
		o, err := scenario.ParseSet(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		ovs = append(ovs, o)
	}
	doc, err = scenario.Apply(doc, ps, ovs)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	r, err := scenario.Resolve(doc, ps)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	res, err := sim.Run(context.Background(), r, sim.Options{})
	if err != nil {
		t.Fatalf("%s under %s: %v", name, policy, err)
	}
	return r, res
}

// within reports whether got is within frac of want.
func within(got, want, frac float64) bool { return math.Abs(got-want) <= frac*want }

// pct is the relative difference of b against a, in percent.
func pct(a, b float64) float64 { return 100 * (b - a) / a }

// TestCalibrationVeraSGEMM: mainline vs v6-on on the two SGEMM seed
// scenarios over 100 repetitions (published: NVPL 9.647 ± 0.173 →
// 10.297 ± 0.018 TFLOP/s, +6.7 %; OpenBLAS 7.119 ± 0.067 → 7.347 ± 0.019
// TFLOP/s, +3.2 %; the standard deviation falls several-fold; about 80 %
// fewer ST↔SMT transitions).
func TestCalibrationVeraSGEMM(t *testing.T) {
	for _, tc := range []struct {
		scenario          string
		base, v6          float64 // published means, GFLOP/s
		diffLo, diffHi    float64 // band for v6-on against mainline, %
		maxTransitionFrac float64 // v6-on transitions / mainline transitions
		// minFall is how many times smaller v6-on's standard deviation
		// must be; v6SD the published v6-on standard deviation it must
		// stay within ±50 % of (0: not checked). NVPL's baseline varies
		// several times less than the mails' (the fidelity row "NVPL
		// spread, baseline", a known miss), while v6-on's holds since
		// the SGEMM threads pay a repartition cost (docs/model.md), so
		// its fall is checked as a fall, and v6-on against the mails.
		minFall, v6SD float64
	}{
		{"vera-sgemm-nvpl", 9647, 10297, 3, 10, 0.5, 1.2, 18},
		// OpenBLAS changes sibling only ≈80 times per call, so most of its
		// transitions come from kernel noise under both policies.
		{"vera-sgemm-openblas", 7119, 7347, 1, 6, 0.9, 2, 0},
	} {
		t.Run(tc.scenario, func(t *testing.T) {
			// 100 repetitions, not the seed's 5: under v6-on the standard
			// deviation comes from about one run in a hundred that loses a
			// hand-over episode (docs/calibration.md), so 5 runs, or 40,
			// show a two-fold fall or not by the seeds' luck.
			base := seedSummary(t, tc.scenario, "mainline", "run.reps=100")
			v6 := seedSummary(t, tc.scenario, "v6-on", "run.reps=100")
			b, v := base.Throughput.Mean, v6.Throughput.Mean
			t.Logf("mainline %.0f ± %.0f, v6-on %.0f ± %.0f GFLOP/s (%+.2f%%); transitions %.0f → %.0f; alternations %.0f → %.0f",
				b, base.Throughput.Stddev, v, v6.Throughput.Stddev, pct(b, v), base.ModeTransitions.Mean, v6.ModeTransitions.Mean,
				base.PEAlternations.Mean, v6.PEAlternations.Mean)
			if d := pct(b, v); d < tc.diffLo || d > tc.diffHi {
				t.Errorf("v6-on against mainline %+.2f%%; want between %+.1f%% and %+.1f%%", d, tc.diffLo, tc.diffHi)
			}
			if !within(b, tc.base, 0.08) {
				t.Errorf("mainline %.0f GFLOP/s; want within ±8%% of the published %.0f", b, tc.base)
			}
			if !within(v, tc.v6, 0.08) {
				t.Errorf("v6-on %.0f GFLOP/s; want within ±8%% of the published %.0f", v, tc.v6)
			}
			if base.Throughput.Stddev < tc.minFall*v6.Throughput.Stddev {
				t.Errorf("standard deviation %.1f → %.1f GFLOP/s; want it to fall at least %.1f-fold with the PE0 preference", base.Throughput.Stddev, v6.Throughput.Stddev, tc.minFall)
			}
			if tc.v6SD > 0 && !within(v6.Throughput.Stddev, tc.v6SD, 0.5) {
				t.Errorf("v6-on standard deviation %.1f GFLOP/s; want within ±50%% of the published %.0f", v6.Throughput.Stddev, tc.v6SD)
			}
			if base.PEAlternations.Mean < 50 {
				t.Errorf("mainline has only %.0f PE alternations: sibling choice is no longer random", base.PEAlternations.Mean)
			}
			if v6.PEAlternations.Mean > 0.1*base.PEAlternations.Mean {
				t.Errorf("PE alternations %.0f → %.0f; want v6-on nearly none", base.PEAlternations.Mean, v6.PEAlternations.Mean)
			}
			if v6.ModeTransitions.Mean > tc.maxTransitionFrac*base.ModeTransitions.Mean {
				t.Errorf("v6-on transitions %.0f; want ≤ %.0f%% of mainline's %.0f", v6.ModeTransitions.Mean, 100*tc.maxTransitionFrac, base.ModeTransitions.Mean)
			}
		})
	}
}

// TestCalibrationThreadScaling: one Olympus core with both PEs busy yields
// about 1.06× one full-resource PE (domain.md: 88 threads ≈ 10.06, 176
// threads ≈ 10.70 TFLOP/s on one node). The yield is a property of the core,
// so it is measured where no scheduler loss hides it: 88 threads under
// v6-on (every thread on a PE0, no PE switches) against 176 threads under
// mainline. (Under v6-on, 176 threads also pay for the SMT asym pull
// stacking woken threads: docs/model.md, "176 threads under v6-on".)
func TestCalibrationThreadScaling(t *testing.T) {
	run := func(policy, n string) float64 {
		return seedSummary(t, "vera-thread-scaling", policy, "workload.groups[0].count="+n,
			"run.reps=2", "run.seed=1", "run.duration=1100ms", "run.warmup=500ms").Throughput.Mean
	}
	t88, t176 := run("v6-on", "88"), run("mainline", "176")
	ratio := t176 / t88
	t.Logf("88 threads (v6-on) %.0f, 176 threads (mainline) %.0f GFLOP/s, ratio %.3f", t88, t176, ratio)
	if ratio < 1.03 || ratio > 1.09 {
		t.Errorf("176/88 threads = %.3f; want about 1.06 (1.03–1.09)", ratio)
	}
	if !within(t88, 10297, 0.08) {
		t.Errorf("88 threads %.0f GFLOP/s; want within ±8%% of 10297", t88)
	}
}

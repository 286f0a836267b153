package compare

import (
	"context"
	"math"
	"strings"
	"testing"
	"testing/fstest"

	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/presets"
)

func TestWelchP(t *testing.T) {
	for _, tt := range []struct {
		a, b []float64
		want float64
	}{
		// t = -2, df = 8: two-sided p = 0.08052 (Student's t table).
		{[]float64{1, 2, 3, 4, 5}, []float64{3, 4, 5, 6, 7}, 0.080516},
		// unequal variances: t = -1.8974, df = 5.882; p = 0.10753 (numerical integration of the t density)
		{[]float64{1, 2, 3, 4, 5}, []float64{2, 4, 6, 8, 10}, 0.10753},
		{[]float64{5, 5, 5}, []float64{5, 5, 5}, 1},
		{[]float64{5, 5, 5}, []float64{6, 6, 6}, 0},
	} {
		if got := welchP(tt.a, tt.b); math.Abs(got-tt.want) > 5e-4 {
			t.Errorf("welchP(%v, %v) = %.5f; want %.5f", tt.a, tt.b, got, tt.want)
		}
	}
	if p := welchP([]float64{1}, []float64{2, 3}); !math.IsNaN(p) {
		t.Errorf("one sample: p = %v; want NaN", p)
	}
}

func testSpec(t *testing.T) Spec {
	fs := fstest.MapFS{
		"machine/m.json":   {Data: []byte(`{"description": "t", "machine": {"nodes": 1, "cores_per_node": 2, "threads_per_core": 2}}`)},
		"policy/fast.json": {Data: []byte(`{"description": "t", "policy": {"hz": 1000}}`)},
		"policy/slow.json": {Data: []byte(`{"description": "t", "policy": {"hz": 100}}`)},
		"workload/w.json":  {Data: []byte(`{"description": "t", "workload": {"groups": [{"name": "g", "count": 2, "program": [{"compute": "1ms"}]}]}}`)},
	}
	ps, err := presets.LoadFS(fs)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Decode([]byte(`{"schedplay": 1, "name": "fake", "machine": {"preset": "m"}, "policy": {"preset": "slow"}, "workload": {"preset": "w"}, "run": {"seed": 10, "reps": 4}}`))
	if err != nil {
		t.Fatal(err)
	}
	return Spec{Scenario: s, Presets: ps, A: PolicySide("slow"), B: PolicySide("fast")}
}

// fakeRun derives metrics from the resolved scenario so the test can check
// that each side got its own policy, the same seeds and the varied value.
func fakeRun(_ context.Context, r *scenario.Resolved, _ sim.Options) (*sim.Result, error) {
	res := &sim.Result{Scenario: r.Name, Unit: "work/s"}
	for i := 0; i < r.Run.Reps; i++ {
		seed := r.Run.Seed + uint64(i)
		res.Reps = append(res.Reps, sim.RepMetrics{
			Seed:            seed,
			Throughput:      float64(r.Policy.HZ) + float64(seed%3) + float64(r.Workload.Groups[0].Count),
			ModeTransitions: int64(100000 / r.Policy.HZ),
			Latency:         sim.Latency{Count: 10, P50: 1000, P99: 5000, P999: 9000, Max: 12000},
		})
	}
	return res, nil
}

func TestRunSameSeedsAndVary(t *testing.T) {
	s := testSpec(t)
	s.Vary, s.Values = "workload.groups[0].count", []string{"2", "4"}
	tab, err := Run(context.Background(), fakeRun, s)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Reps != 4 || len(tab.Seeds) != 4 || tab.Seeds[0] != 10 || len(tab.Sets) != 2 {
		t.Fatalf("table header: %+v", tab)
	}
	avg := tab.Sets[1].Rows[0]
	// slow: 100 + count 4 + seed%3 over seeds 10..13 = {1,2,0,1} → mean 105; fast: 1005.
	if avg.Metric != "Average throughput" || avg.A.Mean != 105 || avg.B.Mean != 1005 {
		t.Errorf("average row %+v; want A 105, B 1005", avg)
	}
	if avg.DiffPct == nil || math.Abs(*avg.DiffPct-857.142857) > 1e-3 || avg.LowerIsBetter {
		t.Errorf("difference %v; want +857.14%%, higher better", avg.DiffPct)
	}
	var names []string
	for _, r := range tab.Sets[0].Rows {
		names = append(names, r.Metric)
	}
	want := "Average throughput,Best throughput,Min per-run average,Max per-run average,Mode transitions,PE alternations,Migrations,Context switches,Latency p50,Latency p99,Latency p99.9,Latency max"
	if got := strings.Join(names, ","); got != want {
		t.Errorf("rows:\n%s\nwant\n%s", got, want)
	}
	mt := tab.Sets[0].Rows[4]
	if !mt.LowerIsBetter || mt.A.Mean != 1000 || mt.B.Mean != 100 || *mt.DiffPct != -90 {
		t.Errorf("mode transitions row %+v", mt)
	}
}

func TestVaryErrorsHavePaths(t *testing.T) {
	s := testSpec(t)
	s.Vary, s.Values = "workload.groups[0].count", []string{"1000000"}
	_, err := Run(context.Background(), fakeRun, s)
	if err == nil || !strings.Contains(err.Error(), "workload.groups[0].count: 1000000 tasks exceed") {
		t.Errorf("err = %v", err)
	}
	if _, _, err := ParseVary("run.reps"); err == nil {
		t.Error("ParseVary without = accepted")
	}
	p, v, err := ParseVary("policy.hz=100, 250,1000")
	if err != nil || p != "policy.hz" || strings.Join(v, "|") != "100|250|1000" {
		t.Errorf("ParseVary = %q %q %v", p, v, err)
	}
}

func TestMeanSD(t *testing.T) {
	for _, tt := range []struct {
		m, sd float64
		want  string
	}{{9685.41, 0.464, "9685.41 ± 0.46"}, {637, 21.21, "637 ± 21"}, {10.297, 0.018, "10.297 ± 0.018"}, {5, 0, "5 ± 0"}, {1e6, 12345, "1000000 ± 12345"}} {
		if got := MeanSD(tt.m, tt.sd); got != tt.want {
			t.Errorf("MeanSD(%g, %g) = %q; want %q", tt.m, tt.sd, got, tt.want)
		}
	}
}

func TestWriteTextAligned(t *testing.T) {
	tab, err := Run(context.Background(), fakeRun, testSpec(t))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteText(&b, tab); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	lines := strings.Split(out, "\n")
	var table []string
	for _, l := range lines {
		if strings.HasPrefix(l, "Metric") || strings.HasPrefix(l, "Average") || strings.HasPrefix(l, "Latency max") {
			table = append(table, l)
		}
	}
	if len(table) != 3 {
		t.Fatalf("table lines missing:\n%s", out)
	}
	colB := strings.Index(table[0], "B ")
	colD := strings.Index(table[0], "Difference")
	for _, l := range table[1:] {
		r := []rune(l)
		if len(r) <= colD || r[colB-1] != ' ' || r[colD-1] != ' ' || r[colB] == ' ' || r[colD] == ' ' {
			t.Errorf("columns not aligned (B at %d, Difference at %d):\n%s\n%s", colB, colD, table[0], l)
		}
	}
	for _, frag := range []string{"A = slow, B = fast; 4 repetitions each (seeds 10-13)", "± ", "work/s", "+", "%  (p", "Lower is better for: mode transitions"} {
		if !strings.Contains(out, frag) {
			t.Errorf("output lacks %q:\n%s", frag, out)
		}
	}
	t.Logf("\n%s", out)
}

func TestMeanSDRoundingNoiseIsZero(t *testing.T) {
	for _, tc := range []struct {
		mean, sd float64
		want     string
	}{
		{10306.2, 1.8e-12, "10306 ± 0"},
		{9685.4, 0.46, "9685.40 ± 0.46"},
		{637, 21, "637 ± 21"},
		{0, 0, "0 ± 0"},
	} {
		if got := MeanSD(tc.mean, tc.sd); got != tc.want {
			t.Errorf("MeanSD(%v, %v) = %q; want %q", tc.mean, tc.sd, got, tc.want)
		}
	}
}

// A latency workload (cyclictest) is read by its latency: no throughput
// rows, and no op time (its loop's period), but the latency rows.
func TestLatencyWorkloadRows(t *testing.T) {
	rep := sim.RepMetrics{Throughput: 0.002, OpTimeNs: 1e6, Ops: 1000}
	rep.Latency.Count, rep.Latency.P50, rep.Latency.P99, rep.Latency.Max = 1000, 4000, 4000, 5000
	res := &sim.Result{Unit: "work/s", Metric: "latency", Reps: []sim.RepMetrics{rep, rep}}
	var names []string
	for _, r := range Rows(res, res) {
		names = append(names, r.Metric)
	}
	got := strings.Join(names, ",")
	for _, bad := range []string{"throughput", "Op time"} {
		if strings.Contains(got, bad) {
			t.Errorf("rows %s include %q", got, bad)
		}
	}
	if !strings.Contains(got, "Latency p99") {
		t.Errorf("rows %s lack the latency", got)
	}
}

package export

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"schedplay/engine/sim"
)

// sampleResult is a two-repetition result with distinct values per field.
func sampleResult() *sim.Result {
	rep := func(seed uint64, thr float64, p99 int64) sim.RepMetrics {
		return sim.RepMetrics{
			Seed: seed, Throughput: thr, GFLOPS: thr * 2, Completion: 5e8, Elapsed: 1e9,
			ModeTransitions: 10, PEAlternations: 3,
			Migrations:      sim.Migrations{Wakeup: 1, Periodic: 2, Newidle: 3, Nohz: 4, Active: 5, Misfit: 6, Asym: 7, Total: 28},
			ContextSwitches: 100, Wakeups: 50,
			Latency:       sim.Latency{Count: 9, P50: 1000, P99: p99, P999: p99 + 1, Max: p99 + 2, Mean: 1500.5},
			BusyNs:        []int64{100, 200, 300, 400},
			ModeResidency: []sim.ModeResidency{{ST: 1, SMT: 2, Partitioned: 3, Switching: 4, Idle: 5}, {ST: 6, SMT: 7, Partitioned: 8, Switching: 9, Idle: 10}},
			Ops:           42, OpTimeNs: 2.5,
		}
	}
	return &sim.Result{Unit: "GFLOP/s", Reps: []sim.RepMetrics{rep(1, 10, 5000), rep(2, 14, 7000)}}
}

func readCSV(t *testing.T, s string) [][]string {
	t.Helper()
	r := csv.NewReader(strings.NewReader(s))
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("%v\n%s", err, s)
	}
	return recs
}

func TestResultsCSV(t *testing.T) {
	var b bytes.Buffer
	if err := ResultsCSV(&b, sampleResult()); err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, b.String())
	head := recs[0]
	col := func(name string) int {
		for i, h := range head {
			if h == name {
				return i
			}
		}
		t.Fatalf("no column %q in %v", name, head)
		return -1
	}
	// The header names every RepMetrics scalar the issue lists.
	for _, name := range []string{"seed", "throughput", "gflops", "completion_ns", "mode_transitions", "pe_alternations",
		"migrations_wakeup", "migrations_asym", "migrations_total", "context_switches", "wakeups",
		"latency_p50_ns", "latency_p99_ns", "latency_p999_ns", "latency_max_ns", "ops", "op_time_ns"} {
		col(name)
	}
	if len(recs) != 1+2+5 {
		t.Fatalf("%d records, want header + 2 reps + 5 summary rows:\n%s", len(recs), b.String())
	}
	row := func(name string) []string {
		for _, r := range recs {
			if r[0] == name {
				return r
			}
		}
		t.Fatalf("no row %q", name)
		return nil
	}
	checks := []struct{ row, col, want string }{
		{"0", "seed", "1"}, {"1", "seed", "2"},
		{"1", "throughput", "14"}, {"0", "latency_p99_ns", "5000"}, {"1", "latency_max_ns", "7002"},
		{"0", "migrations_nohz", "4"}, {"0", "op_time_ns", "2.5"}, {"0", "latency_mean_ns", "1500.5"},
		{"mean", "throughput", "12"}, {"min", "throughput", "10"}, {"max", "gflops", "28"},
		{"stddev", "throughput", "2.8284271247461903"}, {"stddev", "ops", "0"},
		{"n", "throughput", "2"}, {"mean", "seed", ""}, {"mean", "latency_p99_ns", "6000"},
	}
	for _, c := range checks {
		if got := row(c.row)[col(c.col)]; got != c.want {
			t.Errorf("row %s col %s = %q, want %q", c.row, c.col, got, c.want)
		}
	}
	var b2 bytes.Buffer
	_ = ResultsCSV(&b2, sampleResult())
	if b.String() != b2.String() {
		t.Error("two exports differ")
	}
}

func TestCPUCSV(t *testing.T) {
	var b bytes.Buffer
	if err := CPUCSV(&b, sampleResult(), []int{0, 0, 1, 1}); err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, b.String())
	if len(recs) != 1+2*4 {
		t.Fatalf("%d records:\n%s", len(recs), b.String())
	}
	if got := strings.Join(recs[0], ","); got != "rep,cpu,core,busy_ns,st_ns,smt_ns,partitioned_ns,switching_ns,idle_ns" {
		t.Errorf("header %s", got)
	}
	if got := strings.Join(recs[3], ","); got != "0,2,1,300,6,7,8,9,10" {
		t.Errorf("rep 0 cpu 2: %s", got)
	}
	b.Reset()
	if err := CPUCSV(&b, sampleResult(), nil); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(readCSV(t, b.String())[1], ","); got != "0,0,,100,,,,," {
		t.Errorf("no core map: %s", got)
	}
}

func TestJSONCanonical(t *testing.T) {
	r := sampleResult()
	r.Scenario = "a <b> & c"
	var a, b bytes.Buffer
	if err := JSON(&a, r); err != nil {
		t.Fatal(err)
	}
	_ = JSON(&b, r)
	if a.String() != b.String() {
		t.Error("not byte-stable")
	}
	if !strings.Contains(a.String(), `"scenario": "a <b> & c"`) || !strings.HasSuffix(a.String(), "}\n") {
		t.Errorf("unexpected form:\n%.200s", a.String())
	}
	var back sim.Result
	if err := json.Unmarshal(a.Bytes(), &back); err != nil || back.Reps[1].Latency.P99 != 7000 {
		t.Errorf("round trip: %v %+v", err, back.Reps)
	}
}

// Timed sections add two columns each after the fixed ones, sorted by
// name; a repetition without executions has an empty mean, left out of
// the statistics. A result without timed sections has no such columns.
func TestResultsCSVTimed(t *testing.T) {
	var plain bytes.Buffer
	if err := ResultsCSV(&plain, sampleResult()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "timed_") {
		t.Errorf("timed columns without timed sections: %s", readCSV(t, plain.String())[0])
	}
	r := sampleResult()
	r.Reps[0].Timed = []sim.TimedSection{{Name: "b", Count: 4, MeanNs: 2000}, {Name: "wake loop", Count: 10, MeanNs: 16000.5}}
	r.Reps[1].Timed = []sim.TimedSection{{Name: "b", Count: 2, MeanNs: 3000}, {Name: "wake loop", Count: 0}}
	var b bytes.Buffer
	if err := ResultsCSV(&b, r); err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, b.String())
	head := recs[0]
	wantTail := []string{"timed_mean_ns:b", "timed_count:b", "timed_mean_ns:wake loop", "timed_count:wake loop"}
	if got := head[len(head)-4:]; strings.Join(got, "|") != strings.Join(wantTail, "|") {
		t.Fatalf("header ends %q, want %q", got, wantTail)
	}
	cell := func(row, col string) string {
		for _, rec := range recs {
			if rec[0] == row {
				for i, h := range head {
					if h == col {
						return rec[i]
					}
				}
			}
		}
		t.Fatalf("no cell %s/%s", row, col)
		return ""
	}
	for _, c := range []struct{ row, col, want string }{
		{"0", "timed_mean_ns:wake loop", "16000.5"}, {"1", "timed_mean_ns:wake loop", ""},
		{"1", "timed_count:wake loop", "0"}, {"mean", "timed_mean_ns:wake loop", "16000.5"},
		{"n", "timed_mean_ns:wake loop", "1"}, {"n", "timed_count:wake loop", "2"},
		{"mean", "timed_mean_ns:b", "2500"}, {"mean", "timed_count:wake loop", "5"},
		{"mean", "throughput", "12"},
	} {
		if got := cell(c.row, c.col); got != c.want {
			t.Errorf("row %s col %s = %q, want %q", c.row, c.col, got, c.want)
		}
	}
}

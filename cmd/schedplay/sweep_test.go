package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"schedplay/engine/compare"
	"schedplay/engine/scenario"
	"schedplay/engine/sweep"
	"schedplay/presets"
)

// sweepArgs is a 2 × 2 grid under two policies, 3 repetitions: 24 runs.
func sweepArgs(file, out string, extra ...string) []string {
	return append([]string{"sweep", file, "--vary", "workload.groups[0].count=2,3", "--vary", "policy.hz=250,1000",
		"--policy", "mainline", "--policy", "none", "--reps", "3", "--out", out}, extra...)
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sweepPlan is the plan sweepArgs describes, for checking lines.
func sweepPlan(t *testing.T) *sweep.Plan {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := scenario.Decode([]byte(small))
	if err != nil {
		t.Fatal(err)
	}
	p, err := sweep.NewPlan(sweep.Spec{Scenario: doc, Presets: ps, Sides: []compare.Side{compare.PolicySide("mainline"), compare.PolicySide("none")}, Reps: 3,
		Vary: []sweep.Vary{{Path: "workload.groups[0].count", Values: []string{"2", "3"}}, {Path: "policy.hz", Values: []string{"250", "1000"}}}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A sweep run locally and one run through `schedplay serve` give the same
// files, and every line's result is the bytes POST /api/v1/simulate
// replies for the unit.
func TestSweepLocalEqualsRemote(t *testing.T) {
	file := writeFile(t, "small.json", small)
	ps, _ := presets.Load()
	srv := httptest.NewServer(serveHandler(ps, t.TempDir(), defaultServeConfig()))
	defer srv.Close()
	dir := t.TempDir()
	local, remote, batched := filepath.Join(dir, "local"), filepath.Join(dir, "remote"), filepath.Join(dir, "batched")
	if code, out, errs := run(t, "", sweepArgs(file, local)...); code != exitOK {
		t.Fatalf("local sweep exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := run(t, "", sweepArgs(file, remote, "--on", srv.URL)...); code != exitOK {
		t.Fatalf("remote sweep exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := run(t, "", sweepArgs(file, batched, "--on", srv.URL, "--batch", "5")...); code != exitOK {
		t.Fatalf("batched sweep exit %d\n%s%s", code, out, errs)
	}
	for _, name := range []string{resultsName, summaryName, plotName} {
		a := readFile(t, filepath.Join(local, name))
		if b, c := readFile(t, filepath.Join(remote, name)), readFile(t, filepath.Join(batched, name)); !bytes.Equal(a, b) || !bytes.Equal(a, c) {
			t.Errorf("%s differs between the local, the remote and the batched sweep", name)
		}
	}
	plan := sweepPlan(t)
	lines := bytes.Split(bytes.TrimSpace(readFile(t, filepath.Join(remote, resultsName))), []byte("\n"))
	if len(lines) != 24 {
		t.Fatalf("%d lines; want 24", len(lines))
	}
	for i, line := range lines {
		rec, err := sweep.ParseLine(line)
		if err != nil || rec.Unit != i {
			t.Fatalf("line %d: %+v, %v", i, rec, err)
		}
		res, err := http.Post(srv.URL+"/api/v1/simulate", "application/json", bytes.NewReader(plan.Body(plan.Unit(i))))
		if err != nil {
			t.Fatal(err)
		}
		want, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if !bytes.Equal(append(rec.Result, '\n'), want) {
			t.Errorf("line %d's result is not the simulate reply", i)
		}
	}
	csv := string(readFile(t, filepath.Join(local, summaryName)))
	if !strings.HasPrefix(csv, "workload.groups[0].count,policy.hz,policy,metric,unit,mean,stddev,n,of,diff_pct,p\n") ||
		!strings.Contains(csv, "\n3,1000,none,Context switches,,") {
		t.Errorf("summary.csv:\n%s", csv)
	}
}

// An interrupted sweep (a partial last line) resumes to the same files,
// and a directory holding another sweep is refused.
func TestSweepResume(t *testing.T) {
	file := writeFile(t, "small.json", small)
	dir := t.TempDir()
	full, cut := filepath.Join(dir, "full"), filepath.Join(dir, "cut")
	if code, _, errs := run(t, "", sweepArgs(file, full)...); code != exitOK {
		t.Fatal(errs)
	}
	if code, _, errs := run(t, "", sweepArgs(file, cut)...); code != exitOK {
		t.Fatal(errs)
	}
	res := readFile(t, filepath.Join(cut, resultsName))
	lines := bytes.SplitAfter(res, []byte("\n"))
	partial := append(bytes.Join(lines[:10], nil), lines[10][:40]...)
	if err := os.WriteFile(filepath.Join(cut, resultsName), partial, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(cut, summaryName))
	code, _, errs := run(t, "", sweepArgs(file, cut)...)
	if code != exitOK || !strings.Contains(errs, "resuming: 10 of 24 runs already done") {
		t.Fatalf("resume exit %d: %s", code, errs)
	}
	for _, name := range []string{resultsName, summaryName} {
		if !bytes.Equal(readFile(t, filepath.Join(full, name)), readFile(t, filepath.Join(cut, name))) {
			t.Errorf("resumed %s differs from the uninterrupted one", name)
		}
	}
	code, _, errs = run(t, "", append(sweepArgs(file, cut), "--seed", "9")...)
	if code != exitFailed || !strings.Contains(errs, "holds another sweep") {
		t.Errorf("another sweep into the same directory: exit %d: %s", code, errs)
	}
}

// A backend that dies mid-sweep leaves its units to the other one: the
// sweep finishes with the same bytes as a local run.
func TestSweepSurvivesADeadBackend(t *testing.T) {
	file := writeFile(t, "small.json", small)
	ps, _ := presets.Load()
	good := httptest.NewServer(serveHandler(ps, t.TempDir(), defaultServeConfig()))
	defer good.Close()
	var calls atomic.Int64
	h := serveHandler(ps, t.TempDir(), defaultServeConfig())
	dying := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) > 4 {
			panic(http.ErrAbortHandler) // the connection drops, as when a backend is killed
		}
		h.ServeHTTP(w, r)
	}))
	defer dying.Close()
	dir := t.TempDir()
	local, remote := filepath.Join(dir, "local"), filepath.Join(dir, "remote")
	if code, _, errs := run(t, "", sweepArgs(file, local)...); code != exitOK {
		t.Fatal(errs)
	}
	code, _, errs := run(t, "", sweepArgs(file, remote, "--on", dying.URL+","+good.URL, "--concurrency", "2")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if calls.Load() <= 4 {
		t.Errorf("the dying backend took %d requests; the test needs it to fail some", calls.Load())
	}
	if !bytes.Equal(readFile(t, filepath.Join(local, resultsName)), readFile(t, filepath.Join(remote, resultsName))) {
		t.Error("results differ from the local run")
	}
}

func TestSweepUsageErrors(t *testing.T) {
	file := writeFile(t, "small.json", small)
	out := t.TempDir()
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"sweep", file, "--vary", "policy.hz", "--out", out}, exitUsage, "--vary"},
		{[]string{"sweep", file, "--on", "ftp://x", "--out", out}, exitUsage, "http://"},
		{[]string{"sweep", file, "--batch", "65", "--out", out}, exitUsage, "--batch 65"},
		{[]string{"sweep", file, "--policy", "nope", "--out", out}, exitInvalid, `unknown policy preset "nope"`},
		{[]string{"sweep", file, "--vary", "policy.hz=250,-1", "--out", out}, exitInvalid, "policy.hz"},
		{[]string{"sweep", file, "--metric", "Nothing", "--out", out}, exitUsage, `--metric "Nothing"`},
	} {
		code, _, errs := run(t, "", tt.args...)
		if code != tt.code || !strings.Contains(errs, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tt.args[2:], code, errs, tt.code, tt.want)
		}
	}
}

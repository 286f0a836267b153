//go:build workerd

package main

// The sweep against real Workers: two `wrangler dev` (workerd) instances
// on 127.0.0.1 plus one `schedplay serve` handler. Run by ./build.sh test
// after ./build.sh worker (the Worker in dist-worker/, wrangler in
// wasm/edge/node_modules), or by hand:
//
//	./build.sh worker && go test -count=1 -tags workerd -run Workerd -v ./cmd/schedplay
//
// It checks bytes, never times; the rates it measures are printed as
// MEASURE lines (docs/sweep.md quotes them).

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"schedplay/presets"
	"schedplay/wasm/edge/edgetest"
)

// grid is the done-when grid: 2 thread counts × 2 tick rates × 3
// policies on hikey960, 3 repetitions each (36 runs).
func grid(out string, extra ...string) []string {
	return append([]string{"sweep", "hikey960-sysbench", "--vary", "workload.groups[0].count=2,4", "--vary", "policy.hz=250,1000",
		"--policy", "none", "--policy", "misfit", "--policy", "dynamiq-asym-packing", "--reps", "3", "--out", out}, extra...)
}

// sweepRate runs a sweep and returns its runs per second (from its last
// progress line) and its stderr.
func sweepRate(t *testing.T, args ...string) (float64, string) {
	t.Helper()
	code, _, errs := run(t, "", args...)
	if code != exitOK {
		t.Fatalf("%v: exit %d\n%s", args, code, errs)
	}
	m := regexp.MustCompile(`([0-9.]+) runs/s`).FindAllStringSubmatch(errs, -1)
	if len(m) == 0 {
		t.Fatalf("no rate in %s", errs)
	}
	r, _ := strconv.ParseFloat(m[len(m)-1][1], 64)
	return r, errs
}

func sameFiles(t *testing.T, a, b string, names ...string) {
	t.Helper()
	for _, n := range names {
		if !bytes.Equal(readFile(t, filepath.Join(a, n)), readFile(t, filepath.Join(b, n))) {
			t.Errorf("%s differs between %s and %s", n, a, b)
		}
	}
}

func TestWorkerdSweep(t *testing.T) {
	w1, w2 := edgetest.Start(t), edgetest.Start(t)
	ps, _ := presets.Load()
	serve := httptest.NewServer(serveHandler(ps, t.TempDir(), defaultServeConfig()))
	defer serve.Close()
	dir := t.TempDir()
	local := filepath.Join(dir, "local")
	rate, _ := sweepRate(t, grid(local)...)
	t.Logf("MEASURE sweep local (%d cores): %.1f runs/s", runtime.GOMAXPROCS(0), rate)

	// The 2×2×3 grid through one workerd: the same bytes and summary.
	sweepRate(t, grid(filepath.Join(dir, "w1"), "--on", w1.URL)...)
	sameFiles(t, local, filepath.Join(dir, "w1"), resultsName, summaryName, plotName)

	// Split over all three, batched, killing the second Worker once a
	// third of the runs are in: the sweep finishes, with the same bytes.
	split := filepath.Join(dir, "split")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	killed := make(chan int, 1)
	go func() {
		defer close(killed)
		for ctx.Err() == nil {
			if n := countLines(filepath.Join(split, resultsName)); n >= 8 {
				w2.Stop(syscall.SIGKILL)
				killed <- n
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	_, errs := sweepRate(t, grid(split, "--on", w1.URL+","+w2.URL+","+serve.URL, "--concurrency", "2", "--batch", "2", "--reps", "24")...)
	cancel()
	n, ok := <-killed
	if !ok {
		t.Fatalf("the sweep ended before a Worker could be killed:\n%s", errs)
	}
	t.Logf("killed %s after %d runs; the sweep said:\n%s", w2.URL, n, errs)
	if !strings.Contains(errs, w2.URL+" ") || !regexp.MustCompile(regexp.QuoteMeta(w2.URL)+` \d+ \(down\)`).MatchString(errs) {
		t.Errorf("the sweep's last line does not show %s down:\n%s", w2.URL, errs)
	}
	local24 := filepath.Join(dir, "local24")
	sweepRate(t, grid(local24, "--reps", "24")...)
	sameFiles(t, local24, split, resultsName, summaryName)

	// Rates on 1, 2 and 3 backends, and per isolate (one request at a
	// time) for a Vera and a hikey point, one point per request or 8.
	w3 := edgetest.Start(t) // the second one is dead; a fresh one takes its place
	for _, tc := range []struct {
		name string
		on   string
	}{{"1 backend (workerd)", w1.URL}, {"2 backends (workerd ×2)", w1.URL + "," + w3.URL}, {"3 backends (workerd ×2 + serve)", w1.URL + "," + w3.URL + "," + serve.URL}} {
		for _, batch := range []string{"1", "8"} {
			r, _ := sweepRate(t, grid(filepath.Join(dir, "rate", tc.name, batch), "--on", tc.on, "--concurrency", "2", "--batch", batch, "--reps", "12")...)
			t.Logf("MEASURE sweep %s, 2 in flight each, batch %s: %.2f runs/s", tc.name, batch, r)
		}
	}
	for _, p := range []struct{ name, scenario string }{{"hikey", "hikey960-sysbench"}, {"vera", "vera-sgemm-nvpl"}} {
		for _, batch := range []string{"1", "8"} {
			out := filepath.Join(dir, "isolate", p.name, batch)
			r, _ := sweepRate(t, "sweep", p.scenario, "--reps", "8", "--out", out, "--on", w1.URL, "--concurrency", "1", "--batch", batch)
			t.Logf("MEASURE isolate %s point, batch %s: %.2f points/s", p.name, batch, r)
		}
	}
	for _, be := range []struct{ name, url string }{{"workerd", w1.URL}, {"serve", serve.URL}} {
		for _, p := range []struct{ name, scenario string }{{"hikey", "hikey960-sysbench"}, {"vera", "vera-sgemm-nvpl"}} {
			for _, batch := range []int{1, 8} {
				wall, own := overhead(t, be.url, p.scenario, 16, batch)
				t.Logf("MEASURE overhead %s %s point, batch %d: %.1f ms/point wall, %.1f ms/point simulating and encoding, %.1f ms/point overhead",
					be.name, p.name, batch, wall, own, wall-own)
			}
		}
	}
}

// overhead sends n points of scenario to url one request at a time,
// batch points per request, and returns per point the wall time and the
// backend's own time (its Server-Timing: simulation and encoding).
func overhead(t *testing.T, url, scenario string, n, batch int) (wall, own float64) {
	t.Helper()
	for i := 0; i < n; i += batch {
		var items []string
		for k := i; k < i+batch; k++ {
			items = append(items, fmt.Sprintf(`{"scenario": %q, "reps": 1, "seed": %d}`, scenario, 1+k))
		}
		path, body := "/api/v1/simulate", items[0]
		if batch > 1 {
			path, body = "/api/v1/batch", `{"requests": [`+strings.Join(items, ",")+`]}`
		}
		t0 := time.Now()
		res, err := http.Post(url+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		wall += float64(time.Since(t0)) / 1e6
		var sim, enc float64
		if _, err := fmt.Sscanf(res.Header.Get("Server-Timing"), "sim;dur=%g, encode;dur=%g", &sim, &enc); err != nil || res.StatusCode != 200 {
			t.Fatalf("%s: %d, Server-Timing %q", url, res.StatusCode, res.Header.Get("Server-Timing"))
		}
		own += sim + enc
	}
	return wall / float64(n), own / float64(n)
}

func countLines(name string) int {
	f, err := os.Open(name)
	if err != nil {
		return 0
	}
	defer f.Close()
	n := 0
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 1<<20), 1<<24)
	for s.Scan() {
		n++
	}
	return n
}

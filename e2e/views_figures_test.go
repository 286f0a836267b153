//go:build e2e

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// figShot saves screenshots of the figures and the charts outside the
// repository (for a reviewer) when SCHEDPLAY_FIGSHOTS names a directory.
func figShot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("SCHEDPLAY_FIGSHOTS")
	if dir == "" {
		return
	}
	for _, sel := range []string{"#figures", "#charts"} {
		var buf []byte
		run(t, ctx, "screenshot "+name+" "+sel, chromedp.Screenshot(sel, &buf, chromedp.ByQuery))
		if err := os.WriteFile(filepath.Join(dir, name+"-"+sel[1:]+".png"), buf, 0o644); err != nil {
			t.Error(err)
		}
	}
}

// TestLatencyWorkloadFigures: a cyclictest page (result metric "latency")
// shows its wake-up latency once per percentile, no throughput chart and
// no op time (the timer period), and its latency chart says which
// repetition it draws and that the count axis is linear.
func TestLatencyWorkloadFigures(t *testing.T) {
	ctx := newPage(t, 120*time.Second)
	open(t, ctx, "/?preset=vera-cyclictest-idle")
	if st := waitResult(t, ctx); st != "done" {
		t.Fatalf("status %q: %s", st, text(t, ctx, "#figures"))
	}
	run(t, ctx, "latency chart", chromedp.WaitVisible("#chart-latency", chromedp.ByQuery))
	if k := text(t, ctx, "#fig-throughput .k"); !strings.Contains(k, "latency p99") {
		t.Errorf("headline %q is not the wake-up latency p99", k)
	}
	if eval[bool](t, ctx, `!!document.getElementById("chart-series")`) {
		t.Error("a latency workload shows a throughput-over-time chart")
	}
	if eval[bool](t, ctx, `!!document.getElementById("fig-optime")`) {
		t.Errorf("a latency workload shows a time per op: %q", text(t, ctx, "#fig-optime"))
	}
	// Each percentile once: "p99" (not p99.9) in exactly one figure label.
	labels := eval[[]string](t, ctx, `[...document.querySelectorAll("#figures .fig .k")].map(e => e.textContent)`)
	p99 := 0
	for _, l := range labels {
		p99 += strings.Count(strings.ReplaceAll(l, "p99.9", ""), "p99")
	}
	if p99 != 1 {
		t.Errorf("p99 appears %d times in the figure labels %q; want once", p99, labels)
	}
	if h := text(t, ctx, "#chart-latency h3"); !strings.Contains(h, "repetition 0") {
		t.Errorf("latency chart title %q does not say it draws repetition 0", h)
	}
	if p := text(t, ctx, "#chart-latency .pct"); !strings.HasPrefix(p, "repetition 0:") {
		t.Errorf("latency chart percentiles %q are not labelled repetition 0", p)
	}
	figShot(t, ctx, "vera-cyclictest-idle")
	t.Logf("figures: %q; latency chart: %q", text(t, ctx, "#figures .figs"), text(t, ctx, "#chart-latency .pct"))
}

// TestThroughputChartEndsWithRun: a run that completes inside a series
// bucket (hikey960-short-sysbench: 20 ms buckets, done at ≈111 ms) draws
// its time axis to the run's end, not to the end of the last bucket.
func TestThroughputChartEndsWithRun(t *testing.T) {
	ctx := newPage(t, 120*time.Second)
	open(t, ctx, "/?preset=hikey960-short-sysbench")
	if st := waitResult(t, ctx); st != "done" {
		t.Fatalf("status %q: %s", st, text(t, ctx, "#figures"))
	}
	run(t, ctx, "series chart", chromedp.WaitVisible("#chart-series canvas", chromedp.ByQuery))
	end, err := strconv.ParseInt(eval[string](t, ctx, `document.getElementById("chart-series").dataset.endNs || ""`), 10, 64)
	if err != nil {
		t.Fatalf("series chart without data-end-ns: %v", err)
	}
	if end%20e6 == 0 {
		t.Errorf("series axis ends at %d ns, a bucket boundary: not the run's end", end)
	}
	if c := text(t, ctx, "#fig-completion .v"); !strings.Contains(c, " ms") {
		t.Errorf("completion %q", c)
	}
	if eval[bool](t, ctx, `!!document.getElementById("warmup-note")`) {
		t.Errorf("warm-up note on a run without a warm-up: %q", text(t, ctx, "#warmup-note"))
	}
	figShot(t, ctx, "hikey960-short-sysbench")
	t.Logf("series axis ends at %d ns; completion %q", end, text(t, ctx, "#fig-completion .v"))
}

// TestWarmupMarked: vera-sgemm-nvpl measures after a 500 ms warm-up; the
// figures say so and the throughput chart shades and labels the warm-up.
func TestWarmupMarked(t *testing.T) {
	ctx := newPage(t, 240*time.Second)
	open(t, ctx, "/?preset=vera-sgemm-nvpl")
	if st := waitResult(t, ctx); st != "done" {
		t.Fatalf("status %q: %s", st, text(t, ctx, "#figures"))
	}
	if n := text(t, ctx, "#warmup-note"); !strings.Contains(n, "measured after a 500 ms warm-up") {
		t.Errorf("warm-up note %q", n)
	}
	run(t, ctx, "series chart", chromedp.WaitVisible("#chart-series canvas", chromedp.ByQuery))
	if w := eval[string](t, ctx, `document.getElementById("chart-series").dataset.warmupNs || ""`); w != "500000000" {
		t.Errorf("series chart warm-up %q ns; want 500000000", w)
	}
	if n := text(t, ctx, "#series-warmup"); !strings.Contains(n, "not measured") {
		t.Errorf("series chart warm-up label %q", n)
	}
	if v := text(t, ctx, "#fig-throughput .v"); !strings.Contains(v, " ± ") || !strings.HasSuffix(v, " TFLOP/s") {
		t.Errorf("headline %q", v)
	}
	figShot(t, ctx, "vera-sgemm-nvpl")
}

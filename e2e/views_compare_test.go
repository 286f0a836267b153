//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"schedplay/engine/compare"
	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/presets"
)

// comparePath opens the compare view of a seed scenario's own pair.
const comparePath = "/?compare=misfit,dynamiq-asym-packing&preset=hikey960-short-sysbench"

// openCompare opens the compare view and waits until both runs are shown.
func openCompare(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	openView(t, ctx, path, ".cmp-page")
	if st := waitAttr(t, ctx, "#cmp-status", "data-state", "done"); st != "done" {
		t.Fatalf("compare view: %s", text(t, ctx, "#cmp-status"))
	}
}

// nativeCompareText is what `schedplay compare` prints for the same
// comparison, computed here with the engine.
func nativeCompareText(t *testing.T, preset, a, b string) string {
	t.Helper()
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.FromReference(preset, ps)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := compare.Run(context.Background(), sim.Run, compare.Spec{Scenario: sc, Presets: ps,
		A: compare.PolicySide(a), B: compare.PolicySide(b)})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := compare.WriteText(&buf, tbl); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestCompareTableCopyAndDivergence(t *testing.T) {
	ctx := newPage(t, 120*time.Second)
	grantClipboard(t, ctx, baseURL)
	start := time.Now()
	openCompare(t, ctx, comparePath)
	t.Logf("MEASURE compare view of hikey960-short-sysbench: table, both timelines and deltas after %v", time.Since(start).Round(time.Millisecond))

	// The table: one row per metric, A and B as mean ± stddev, a signed
	// difference, a p-value and the lower-is-better marks.
	rows := eval[[][]string](t, ctx, `[...document.querySelectorAll("#cmp-table tbody tr")].map(r => [...r.children].map(c => c.textContent))`)
	byMetric := map[string][]string{}
	for _, r := range rows {
		byMetric[r[0]] = r
	}
	tp, ok := byMetric["Average throughput"]
	if !ok || len(tp) != 6 {
		t.Fatalf("no Average throughput row with 6 cells: %q", rows)
	}
	if !strings.Contains(tp[1], "±") || !strings.Contains(tp[2], "±") || !strings.HasSuffix(tp[3], "%") || !strings.HasPrefix(tp[4], "p") {
		t.Errorf("Average throughput row = %q; want mean ± sd for A and B, a signed %% difference and a p-value", tp)
	}
	if tp[3][0] != '+' && tp[3][0] != '-' {
		t.Errorf("difference %q is not signed", tp[3])
	}
	if ct := byMetric["Completion time"]; len(ct) != 6 || ct[5] != "lower is better" {
		t.Errorf("Completion time row = %q; want the lower-is-better mark", ct)
	}

	// Copy as text: the clipboard holds exactly what `schedplay compare`
	// prints, with aligned columns.
	run(t, ctx, "fill the clipboard", chromedp.Evaluate(`navigator.clipboard.writeText("sentinel")`, nil, awaitPromise))
	click(t, ctx, "#copy-text")
	how := waitAttr(t, ctx, "#copy-status", "data-how", "clipboard", "execCommand")
	var clip string
	run(t, ctx, "read the clipboard", chromedp.Evaluate(`navigator.clipboard.readText()`, &clip, awaitPromise))
	want := nativeCompareText(t, "hikey960-short-sysbench", "misfit", "dynamiq-asym-packing")
	if clip != want {
		t.Errorf("clipboard (copied by %s) =\n%s\nwant the text of schedplay compare:\n%s", how, clip, want)
	}
	checkColumns(t, clip)

	// The first divergence: found, marked on both timelines (at the same
	// time as the section says), with both decision paths linked to
	// KERNEL-MAP.md.
	if f := eval[string](t, ctx, `document.getElementById("divergence").getAttribute("data-found")`); f != "1" {
		t.Fatalf("no divergence found: %s", text(t, ctx, "#divergence"))
	}
	at := eval[string](t, ctx, `document.getElementById("divergence").getAttribute("data-at")`)
	for _, id := range []string{"tl-a", "tl-b"} {
		var m string
		run(t, ctx, "marker on "+id, chromedp.Poll(`document.getElementById("`+id+`").getAttribute("data-marker-at") || false`, &m,
			chromedp.WithPollingTimeout(5*time.Second)))
		if m == "" {
			t.Errorf("%s has no divergence marker", id)
		}
	}
	if m := eval[string](t, ctx, `document.getElementById("tl-a").getAttribute("data-marker-at")`); m != at {
		// A's own decision time may be later than the earlier of the two.
		t.Logf("marker on A at %s, divergence at %s", m, at)
	}
	links := eval[[]string](t, ctx, `[...document.querySelectorAll("#divergence a.kernel")].map(a => a.getAttribute("href"))`)
	if len(links) < 2 {
		t.Fatalf("decision paths have %d kernel links; want both paths linked", len(links))
	}
	for _, l := range links {
		if !strings.HasPrefix(l, "docs/KERNEL-MAP.md#") {
			t.Errorf("kernel link %q does not point into KERNEL-MAP.md", l)
		}
	}
	// A kernel function's link shows its KERNEL-MAP.md entry in the page
	// (build.sh copies docs/KERNEL-MAP.md into dist/docs/).
	click(t, ctx, "#divergence-b a.kernel")
	var entry string
	run(t, ctx, "kernel entry", chromedp.Poll(`(() => { const e = document.querySelector("#kernel-entry h3");
		return e ? e.textContent + " | " + document.querySelector("#kernel-entry p").textContent : false; })()`, &entry,
		chromedp.WithPollingTimeout(10*time.Second)))
	if !strings.Contains(entry, "() | kernel/sched/") {
		t.Errorf("kernel entry = %q; want the function and its KERNEL-MAP.md text", entry)
	}
	for _, id := range []string{"divergence-a", "divergence-b"} {
		if s := text(t, ctx, "#"+id); !strings.Contains(s, "cpu") {
			t.Errorf("#%s = %q; want the decision's CPUs", id, s)
		}
	}
	// Zooming to it moves both timelines to the same window.
	click(t, ctx, "#zoom-divergence")
	run(t, ctx, "both timelines zoomed", chromedp.Poll(`(() => { const w = ["tl-a","tl-b"].map(id => document.getElementById(id).getAttribute("data-t0") + "-" + document.getElementById(id).getAttribute("data-t1"));
		return w[0] === w[1] && !w[0].startsWith("0-"); })()`, nil, chromedp.WithPollingTimeout(20*time.Second)))
	wa := eval[[]string](t, ctx, `["tl-a","tl-b"].map(id => document.getElementById(id).getAttribute("data-t0") + "-" + document.getElementById(id).getAttribute("data-t1"))`)
	if wa[0] != wa[1] || strings.HasPrefix(wa[0], "0-") {
		t.Errorf("windows after zoom = %q; want one shared, zoomed window", wa)
	}

	// Per-core deltas: one row per core of the hikey960 (8 cores).
	if n := eval[int](t, ctx, `document.querySelectorAll("#delta-table tbody tr").length`); n != 8 {
		t.Errorf("delta table has %d rows; want 8 (one per core)", n)
	}
	fullShot(t, ctx, "compare-view")
}

// checkColumns checks that every table line of the text has the A, B and
// Difference columns at the header's offsets.
func checkColumns(t *testing.T, text string) {
	t.Helper()
	lines := strings.Split(text, "\n")
	hi := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "Metric ") {
			hi = i
		}
	}
	if hi < 0 {
		t.Fatalf("no header line in\n%s", text)
	}
	head := lines[hi]
	cols := []int{strings.Index(head, " A ") + 1, strings.Index(head, " B ") + 1, strings.Index(head, "Difference")}
	for _, c := range cols {
		if c <= 0 {
			t.Fatalf("header %q lacks the A, B and Difference columns", head)
		}
	}
	n := 0
	for _, l := range lines[hi+1:] {
		if l == "" {
			break
		}
		n++
		r := []rune(l)
		for _, c := range cols {
			if c >= len(r) || r[c-1] != ' ' || r[c] == ' ' {
				t.Errorf("line %q: no column starts at offset %d", l, c)
			}
		}
	}
	if n < 5 {
		t.Errorf("only %d table lines", n)
	}
}

func TestCompareSweepCompletesAndCancels(t *testing.T) {
	ctx := newPage(t, 180*time.Second)
	// Count engine workers terminated (Cancel terminates the one running
	// the current point).
	run(t, ctx, "count worker terminations", chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(`window.__terminated = 0;
			const t = Worker.prototype.terminate;
			Worker.prototype.terminate = function() { window.__terminated++; return t.apply(this, arguments); };`).Do(ctx)
		return err
	}))
	openCompare(t, ctx, comparePath)
	if st := runSweep(t, ctx, "workload.groups[0].count", "1,2,4"); st != "done" {
		t.Fatalf("sweep ended %q: %s", st, text(t, ctx, "#sweep-status"))
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#sweep-chart svg circle").length`); n != 6 {
		t.Errorf("sweep chart has %d points; want 3 values × 2 policies", n)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#sweep-chart svg .errbar, #sweep-chart svg polyline").length`); n < 2 {
		t.Errorf("sweep chart has no curves")
	}
	if v := eval[string](t, ctx, `document.getElementById("sweep-progress").getAttribute("value")`); v != "3" {
		t.Errorf("progress = %s; want 3 of 3", v)
	}
	rows := sweepRows(t, ctx)
	if len(rows) != 3 || rows[2][0] != "4" || !strings.Contains(rows[2][1], "work/s") {
		t.Errorf("sweep table = %q", rows)
	}
	run(t, ctx, "scroll to the sweep", chromedp.Evaluate(`document.getElementById("sweep").scrollIntoView(); true`, nil))
	time.Sleep(100 * time.Millisecond)
	shot(t, ctx, "compare-sweep")

	// A second sweep cancelled once its first point is in: it stops with
	// the points it has, the worker running the next point is terminated,
	// and the page still works.
	setField(t, ctx, "sweep-values", "8,16,32,64,128")
	before := eval[int](t, ctx, `window.__terminated`)
	click(t, ctx, "#sweep-run")
	cancelAfterFirstPoint(t, ctx)
	if st := waitAttr(t, ctx, "#sweep", "data-state", "done", "cancelled"); st != "cancelled" {
		t.Fatalf("second sweep ended %q; want cancelled", st)
	}
	pts := eval[string](t, ctx, `document.getElementById("sweep-chart").getAttribute("data-points")`)
	if pts != "1" && pts != "2" {
		t.Errorf("cancelled sweep has %s points; want the one finished before Cancel (or the next, if it beat the click)", pts)
	}
	if n := eval[int](t, ctx, `window.__terminated`) - before; pts == "1" && n < 1 {
		t.Errorf("Cancel terminated %d workers; want the one running the second point", n)
	}
	t.Logf("cancelled sweep kept %s of 5 points: %s", pts, text(t, ctx, "#sweep-status"))
	setField(t, ctx, "sweep-values", "2,3")
	click(t, ctx, "#sweep-run")
	if st := waitAttr(t, ctx, "#sweep", "data-state", "done", "cancelled"); st != "done" {
		t.Fatalf("a sweep after a cancelled one ended %q", st)
	}
}

func TestCompareBadAddress(t *testing.T) {
	ctx := newPage(t, 60*time.Second)
	openView(t, ctx, "/?compare=misfit,no-such-policy&preset=hikey960-short-sysbench", ".cmp-page")
	waitAttr(t, ctx, "#cmp-status", "data-state", "failed")
	if s := text(t, ctx, "#cmp-status"); !strings.Contains(s, "no-such-policy") {
		t.Errorf("status = %q; want the unknown policy named", s)
	}
}

// Without the async clipboard API (a page served over plain http from
// another host is not a secure context), "Copy as text" falls back to a
// textarea and execCommand("copy"); the clipboard then holds the same text.
func TestCompareCopyFallback(t *testing.T) {
	ctx := newPage(t, 120*time.Second)
	grantClipboard(t, ctx, baseURL)
	openCompare(t, ctx, comparePath)
	// Something else on the clipboard first, so the test sees the copy.
	run(t, ctx, "fill the clipboard", chromedp.Evaluate(`navigator.clipboard.writeText("sentinel")`, nil, awaitPromise))
	run(t, ctx, "hide the clipboard API", chromedp.Evaluate(`Object.defineProperty(window, "isSecureContext", {value: false}); true`, nil))
	click(t, ctx, "#copy-text")
	if how := waitAttr(t, ctx, "#copy-status", "data-how", "clipboard", "execCommand", ""); how != "execCommand" {
		t.Fatalf("copied by %q; want the execCommand fallback", how)
	}
	var clip string
	run(t, ctx, "read the clipboard", chromedp.Evaluate(`navigator.clipboard.readText()`, &clip, awaitPromise))
	if want := eval[string](t, ctx, `schedplayViews.compareText`); clip != want || !strings.HasPrefix(clip, "hikey960 short sysbench\n") {
		t.Errorf("clipboard after the fallback =\n%s\nwant\n%s", clip, want)
	}
}

// Two variants of a seed scenario compare like two policies.
func TestCompareVariants(t *testing.T) {
	ctx := newPage(t, 120*time.Second)
	openCompare(t, ctx, "/?compare=variant:1%20threads,variant:4%20threads&preset=hikey960-short-sysbench")
	heads := eval[[]string](t, ctx, `[...document.querySelectorAll("#cmp-table thead th")].map(c => c.textContent)`)
	if len(heads) < 3 || heads[1] != "A: 1 threads" || heads[2] != "B: 4 threads" {
		t.Errorf("table heads = %q", heads)
	}
	text := eval[string](t, ctx, `schedplayViews.compareText`)
	if !strings.Contains(text, "A = 1 threads, B = 4 threads") {
		t.Errorf("text table does not name the variants:\n%s", text)
	}
	if d := eval[string](t, ctx, `document.querySelector("#cmp-table tr[data-metric='Average throughput'] td.diff").textContent`); !strings.HasPrefix(d, "+") {
		t.Errorf("4 threads against 1: throughput difference %q; want an increase", d)
	}
	if l := eval[string](t, ctx, `document.getElementById("cmp-link").getAttribute("href")`); !strings.Contains(l, "compare=variant%3A1+threads%2Cvariant%3A4+threads") {
		t.Errorf("link to this comparison = %q; want the variants kept", l)
	}
}

// The playground's share link of a seed scenario (the seed expanded into
// the document) opens the seed's own comparison with ?compare=1.
func TestCompareOwnPairFromPlaygroundLink(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	p, _ := ps.Get(presets.Scenario, "hikey960-short-sysbench")
	sc, err := scenario.Decode(p.Body)
	if err != nil {
		t.Fatal(err)
	}
	share, err := scenario.EncodeShare(sc)
	if err != nil {
		t.Fatal(err)
	}
	ctx := newPage(t, 120*time.Second)
	openCompare(t, ctx, "/?compare=1#s="+share)
	if s := text(t, ctx, ".cmp-head p"); !strings.Contains(s, "A = "+p.Compare[0]) || !strings.Contains(s, "B = "+p.Compare[1]) {
		t.Errorf("sides = %q; want the seed scenario's pair %v", s, p.Compare)
	}
}

//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"schedplay/site"
)

// defaultPath opens the built-in default scenario whatever the browser's
// localStorage remembers from earlier tests.
func defaultPath() string { return "/#" + site.EncodeFragment(site.DefaultDoc()) }

// awaitPromise makes Evaluate wait for a returned Promise.
func awaitPromise(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }

// setField sets a control's value and fires its change event, as a user
// committing an edit does.
func setField(t *testing.T, ctx context.Context, id, value string) {
	t.Helper()
	js := fmt.Sprintf(`(() => { const e = document.getElementById(%q); if (!e) return false;
		e.value = %q; e.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`, id, value)
	if !eval[bool](t, ctx, js) {
		t.Fatalf("no control #%s", id)
	}
}

func click(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	run(t, ctx, "click "+sel, chromedp.Click(sel, chromedp.ByQuery))
}

// waitNewResult waits for a finished run whose figures differ from before
// (or any finished run when before is "").
func waitNewResult(t *testing.T, ctx context.Context, before string) string {
	t.Helper()
	var got string
	run(t, ctx, "wait for a new result", chromedp.Poll(fmt.Sprintf(`(() => {
		const f = document.getElementById("figures");
		if (!f || f.getAttribute("data-status") !== "done") return false;
		const t = f.querySelector(".figs"); const s = t ? t.textContent : "";
		return s !== "" && s !== %q ? s : false; })()`, before), &got, chromedp.WithPollingInterval(10*time.Millisecond)))
	return got
}

func figs(t *testing.T, ctx context.Context) string {
	return eval[string](t, ctx, `(document.querySelector("#figures .figs") || {}).textContent || ""`)
}

func scenarioJSON(t *testing.T, ctx context.Context) string {
	t.Helper()
	click(t, ctx, "#tab-json")
	run(t, ctx, "json tab", chromedp.WaitVisible("#f-json", chromedp.ByQuery))
	return eval[string](t, ctx, `document.getElementById("f-json").value`)
}

func TestLoadPageAndTransferSize(t *testing.T) {
	ctx := newPage(t, 90*time.Second)
	before := sent.Load()
	start := time.Now()
	open(t, ctx, "/")
	if st := waitResult(t, ctx); st != "done" {
		t.Fatalf("first run: status %q: %s", st, text(t, ctx, "#figures"))
	}
	// Let the spare engine worker finish loading before counting.
	time.Sleep(500 * time.Millisecond)
	t.Logf("MEASURE default page: first result %v after navigation (in page: %.0f ms); total transferred %d bytes (brotli/gzip as the browser accepts) for a cold load",
		time.Since(start).Round(time.Millisecond), eval[float64](t, ctx, `schedplayPerf.firstResultMs`), sent.Load()-before)
	// Issue #6: under 4 MB compressed in total (decimal megabytes).
	if n := sent.Load() - before; n >= 4_000_000 {
		t.Errorf("cold load transferred %d bytes, over the 4,000,000-byte budget", n)
	}
	if got := eval[int](t, ctx, `document.querySelectorAll("#gallery .card").length`); got == 0 {
		t.Errorf("the gallery shows no seed scenarios")
	}
	if txt := text(t, ctx, "#fig-throughput .v"); !strings.ContainsAny(txt, "0123456789") {
		t.Errorf("throughput figure %q has no number", txt)
	}
	if drawn := eval[string](t, ctx, `document.getElementById("timeline").getAttribute("data-drawn")`); drawn != "1" {
		t.Errorf("timeline not drawn (data-drawn=%q)", drawn)
	}
	shot(t, ctx, "playground")
	// Hover a slice: the tooltip explains it.
	run(t, ctx, "hover", chromedp.Evaluate(`(() => { const c = document.getElementById("timeline"); const r = c.getBoundingClientRect();
		c.dispatchEvent(new MouseEvent("mousemove", {clientX: r.left + 92 + (r.width - 100) * 0.1, clientY: r.top + 32, bubbles: true})); })()`, nil))
	run(t, ctx, "tooltip", chromedp.WaitVisible("#tooltip", chromedp.ByQuery))
	tip := text(t, ctx, "#tooltip")
	for _, want := range []string{"CPU 0", "pid", "→"} {
		if !strings.Contains(tip, want) {
			t.Errorf("tooltip %q lacks %q (task, CPU, interval)", tip, want)
		}
	}
	if !strings.Contains(tip, "placed by") && !strings.Contains(tip, "no placement decision") {
		t.Errorf("tooltip %q does not say how the task got there", tip)
	}
	t.Logf("tooltip: %q", tip)
	shot(t, ctx, "timeline-tooltip")
}

func TestSeedScenarios(t *testing.T) {
	ctx := newPage(t, 20*time.Second)
	open(t, ctx, defaultPath())
	run(t, ctx, "gallery", chromedp.WaitVisible("#gallery .card", chromedp.ByQuery))
	names := eval[[]string](t, ctx, `[...document.querySelectorAll("#gallery .card")].map(c => c.dataset.scenario)`)
	if len(names) == 0 {
		t.Fatal("no seed scenarios in the gallery")
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			ctx := newPage(t, 240*time.Second)
			start := time.Now()
			open(t, ctx, "/?preset="+name)
			// The first result: a provisional repetition 0 (large machines,
			// several repetitions) or the final one. The figures are read in
			// the same evaluation: the final result may replace them at once.
			var first struct{ Status, Value, Note string }
			run(t, ctx, "wait for a first result", chromedp.Poll(`(() => {
				const f = document.getElementById("figures");
				const s = f && f.getAttribute("data-status");
				const v = document.querySelector("#fig-throughput .v");
				const n = document.getElementById("provisional-note");
				if (s === "failed") return {Status: s, Value: "", Note: ""};
				if (s === "running" && f.getAttribute("data-provisional") && v) return {Status: "provisional", Value: v.textContent, Note: n ? n.textContent : ""};
				if (s === "done" && v) return {Status: s, Value: v.textContent, Note: ""};
				return false;
			})()`, &first, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(0)))
			firstAt := time.Since(start).Round(time.Millisecond)
			if first.Status == "provisional" && !strings.Contains(first.Note, "refining") {
				t.Errorf("provisional result without its note: %q", first.Note)
			}
			st := waitResult(t, ctx)
			if st != "done" {
				t.Fatalf("status %q: %s", st, text(t, ctx, "#figures"))
			}
			if first.Status == "provisional" {
				// The quick first run was the one index.mjs started while
				// the page booted (takeSpeculative).
				if !eval[bool](t, ctx, `schedplayPerf.speculative === 1`) {
					t.Error("the first run did not adopt the run started while the page booted")
				}
				// The refined figures replace the provisional ones.
				if p := eval[bool](t, ctx, `document.getElementById("figures").hasAttribute("data-provisional")`); p {
					t.Error("final result still marked provisional")
				}
				if reps := text(t, ctx, "#fig-reps .v"); strings.Contains(reps, "of") || reps == "1" {
					t.Errorf("final repetitions figure %q", reps)
				}
				t.Logf("MEASURE seed %s: provisional first result (repetition 0) %v after opening the link (in page %.0f ms; its engine run %s): %s", name,
					firstAt, eval[float64](t, ctx, `schedplayPerf.firstPreviewMs`),
					eval[string](t, ctx, `(() => { const r = (schedplayPerf.engineRuns || [])[0]; return r ? "sim " + Math.round(r.sim) + " ms, encode " + Math.round(r.encode) + " ms" : "?"; })()`),
					first.Value)
			}
			title := text(t, ctx, "#scenario-title")
			hash := eval[string](t, ctx, `location.hash`)
			if !strings.HasPrefix(hash, "#s=") {
				t.Errorf("URL does not carry the scenario: %q", hash)
			}
			t.Logf("MEASURE seed %s: final result %v after opening the link (in page %.0f ms); %q: %s", name,
				time.Since(start).Round(time.Millisecond), eval[float64](t, ctx, `schedplayPerf.firstResultMs`), title,
				text(t, ctx, "#fig-throughput .v"))
			if strings.HasPrefix(name, "vera-sgemm-nvpl") {
				shot(t, ctx, "vera-sgemm")
			}
		})
	}
}

func TestPolicyChangeChangesFigures(t *testing.T) {
	ctx := newPage(t, 120*time.Second)
	open(t, ctx, defaultPath())
	waitResult(t, ctx)
	base := figs(t, ctx)
	click(t, ctx, "#tab-policy")
	run(t, ctx, "policy tab", chromedp.WaitVisible("#preset-policy", chromedp.ByQuery))
	setField(t, ctx, "preset-policy", "dynamiq-asym-packing")
	after := waitNewResult(t, ctx, base)
	if after == base {
		t.Fatalf("figures unchanged after the policy change: %s", after)
	}
	if p := eval[string](t, ctx, `document.getElementById("preset-policy").value`); p != "dynamiq-asym-packing" {
		t.Errorf("policy select shows %q", p)
	}
	t.Logf("mainline: %s\ndynamiq-asym-packing: %s", base, after)
	// The topology view redraws the sched domains for the chosen policy.
	run(t, ctx, "domains", chromedp.WaitVisible("#domains", chromedp.ByQuery))
	if flags := text(t, ctx, "#domains"); !strings.Contains(flags, "ASYM_PACKING") {
		t.Errorf("dynamiq-asym-packing: no SD_ASYM_PACKING in the domain table: %q", flags)
	}
	setField(t, ctx, "preset-policy", "none")
	run(t, ctx, "domains without asym packing", chromedp.Poll(`(() => { const d = document.getElementById("domains");
		return d && !d.textContent.includes("ASYM_PACKING"); })()`, nil, chromedp.WithPollingTimeout(10*time.Second)))
	setField(t, ctx, "preset-policy", "dynamiq-asym-packing")
	waitResult(t, ctx)
	fullShot(t, ctx, "policy-editor")
	// Knob → redraw for hikey960-dynamiq + sysbench-cpu: flip the seed.
	var ms []float64
	cur := after
	for seed := 2; seed <= 12; seed++ {
		click(t, ctx, "#tab-run")
		run(t, ctx, "run tab", chromedp.WaitVisible("#f-run-seed", chromedp.ByQuery))
		setField(t, ctx, "f-run-seed", fmt.Sprint(seed))
		run(t, ctx, "redraw", chromedp.Poll(`window.schedplayPerf && schedplayPerf.knobToRedrawMs > 0 && document.getElementById("figures").getAttribute("data-status") === "done"`, nil, chromedp.WithPollingInterval(5*time.Millisecond)))
		ms = append(ms, eval[float64](t, ctx, `(() => { const v = schedplayPerf.knobToRedrawMs; schedplayPerf.knobToRedrawMs = 0; return v; })()`))
		t.Logf("knob→redraw %.0f ms: edit→post %.0f ms, round trip %.0f ms (engine %.0f ms in the worker, worker→main thread %.0f ms), reply %.0f bytes decoded in %.0f ms; reply→drawn %.0f ms (render %.0f ms)",
			ms[len(ms)-1], eval[float64](t, ctx, `schedplayPerf.editToPostMs`), eval[float64](t, ctx, `schedplayPerf.roundTripMs`),
			eval[float64](t, ctx, `schedplayPerf.engineMs`), eval[float64](t, ctx, `schedplayPerf.workerToMainMs || 0`), eval[float64](t, ctx, `schedplayPerf.replyBytes`), eval[float64](t, ctx, `schedplayPerf.decodeMs`),
			eval[float64](t, ctx, `schedplayPerf.replyToDrawnMs`), eval[float64](t, ctx, `schedplayPerf.renderMs`))
		cur = figs(t, ctx)
	}
	_ = cur
	t.Logf("last render's panel builds (ms): %s", eval[string](t, ctx, `JSON.stringify(Object.fromEntries(Object.entries(schedplayPerf).filter(([k]) => k.startsWith("build_") || k === "lastDrawMs")))`))
	sort.Float64s(ms)
	t.Logf("MEASURE knob-to-redraw (hikey960-dynamiq + sysbench-cpu, seed edits, live): median %.0f ms, min %.0f, max %.0f (n=%d)",
		ms[len(ms)/2], ms[0], ms[len(ms)-1], len(ms))
	// Issue #6's target is a median under 100 ms. It is reported (MEASURE),
	// not asserted: a timed assertion on a shared 2-core machine is flaky.
	if med := ms[len(ms)/2]; med >= 100 {
		t.Logf("MEASURE knob-to-redraw median %.0f ms is over the 100 ms target", med)
	}
}

func TestShareLinkReproducesScenario(t *testing.T) {
	ctx := newPage(t, 120*time.Second)
	open(t, ctx, defaultPath())
	waitResult(t, ctx)
	setField(t, ctx, "f-name", "shared ✓ scenario")
	click(t, ctx, "#tab-run")
	run(t, ctx, "run tab", chromedp.WaitVisible("#f-run-seed", chromedp.ByQuery))
	setField(t, ctx, "f-run-seed", "42")
	click(t, ctx, "#tab-policy")
	run(t, ctx, "policy tab", chromedp.WaitVisible("#preset-policy", chromedp.ByQuery))
	setField(t, ctx, "preset-policy", "none")
	waitNewResult(t, ctx, "")
	run(t, ctx, "settle", chromedp.Poll(`document.getElementById("figures").getAttribute("data-status") === "done"`, nil))
	link := eval[string](t, ctx, `location.href`)
	want := scenarioJSON(t, ctx)
	wantFigs := figs(t, ctx)
	if !strings.Contains(link, "#s=") {
		t.Fatalf("URL %q carries no scenario", link)
	}
	click(t, ctx, "#copy-link")
	run(t, ctx, "copy notice", chromedp.Poll(`(() => { const n = document.querySelector("#notice .notice-text");
		return n && /copied|address bar/.test(n.textContent); })()`, nil, chromedp.WithPollingTimeout(10*time.Second)))
	// A fresh page (whose last scenario in localStorage is something else).
	ctx2 := newPage(t, 120*time.Second)
	open(t, ctx2, defaultPath())
	waitResult(t, ctx2)
	run(t, ctx2, "open link", chromedp.Navigate("about:blank"), chromedp.Navigate(link),
		chromedp.WaitVisible(`#root[data-ready="1"]`, chromedp.ByQuery))
	waitResult(t, ctx2)
	if got := scenarioJSON(t, ctx2); got != want {
		t.Errorf("the link opened a different scenario:\n got %s\nwant %s", got, want)
	}
	if got := figs(t, ctx2); got != wantFigs {
		t.Errorf("same scenario, different figures:\n got %s\nwant %s", got, wantFigs)
	}
	// Back/forward: choose a seed scenario, then go back.
	title := text(t, ctx2, "#scenario-title")
	click(t, ctx2, "#gallery .card")
	run(t, ctx2, "seed chosen", chromedp.Poll(fmt.Sprintf(`document.getElementById("scenario-title").textContent !== %q`, title), nil))
	run(t, ctx2, "back", chromedp.NavigateBack())
	run(t, ctx2, "restored", chromedp.Poll(fmt.Sprintf(`document.getElementById("scenario-title").textContent === %q`, title), nil,
		chromedp.WithPollingTimeout(10*time.Second)))
	// Reload keeps the last scenario (localStorage), even without the hash.
	run(t, ctx2, "reload without hash", chromedp.Navigate(baseURL+"/"), chromedp.WaitVisible(`#root[data-ready="1"]`, chromedp.ByQuery))
	// The title is filled (and re-rendered) after data-ready: poll for it in
	// the page, where a re-render cannot leave a stale node behind.
	var restored bool
	if err := chromedp.Run(ctx2, chromedp.Poll(fmt.Sprintf(`(document.getElementById("scenario-title") || {}).textContent === %q`, title), &restored,
		chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		got := eval[string](t, ctx2, `(document.getElementById("scenario-title") || {}).textContent || ""`)
		t.Errorf("after reload the page shows %q, want the last scenario %q (%v)", got, title, err)
	}
}

func TestMalformedLinkShowsErrorAndDefault(t *testing.T) {
	ctx := newPage(t, 60*time.Second)
	bad := "#s=this-is-not/a*valid~link"
	open(t, ctx, "/"+bad)
	run(t, ctx, "notice", chromedp.WaitVisible("#notice .notice-text", chromedp.ByQuery))
	msg := text(t, ctx, "#notice .notice-text")
	if !strings.Contains(msg, "could not be read") || !strings.Contains(msg, "default scenario") {
		t.Errorf("notice %q does not explain the failure", msg)
	}
	if d := text(t, ctx, "#notice-detail"); d != bad {
		t.Errorf("the bad link text is not kept: %q", d)
	}
	if st := waitResult(t, ctx); st != "done" {
		t.Errorf("default scenario did not run: %s", st)
	}
	if title := text(t, ctx, "#scenario-title"); !strings.Contains(title, "hikey960") {
		t.Errorf("title %q is not the default scenario", title)
	}
	shot(t, ctx, "bad-link")
}

func TestScenarioNameIsText(t *testing.T) {
	ctx := newPage(t, 60*time.Second)
	open(t, ctx, defaultPath())
	waitResult(t, ctx)
	name := `<img src=x onerror="window.__pwned=1"><b>bold</b> & "q"`
	setField(t, ctx, "f-name", name)
	run(t, ctx, "title", chromedp.Poll(fmt.Sprintf(`document.getElementById("scenario-title").textContent === %q`, name), nil))
	if n := eval[int](t, ctx, `document.querySelectorAll("#root img, #scenario-title b").length`); n != 0 {
		t.Errorf("the name was parsed as HTML: %d elements", n)
	}
	time.Sleep(200 * time.Millisecond)
	if eval[bool](t, ctx, `window.__pwned === 1`) {
		t.Error("the name's onerror handler ran")
	}
	// The share link carries it and a fresh page shows it as text too.
	link := eval[string](t, ctx, `location.href`)
	ctx2 := newPage(t, 60*time.Second)
	open(t, ctx2, strings.TrimPrefix(link, baseURL))
	run(t, ctx2, "title", chromedp.Poll(fmt.Sprintf(`document.getElementById("scenario-title").textContent === %q`, name), nil))
	if n := eval[int](t, ctx2, `document.querySelectorAll("#root img").length`); n != 0 {
		t.Errorf("shared name parsed as HTML")
	}
}

func TestTooLargeScenarioRefused(t *testing.T) {
	ctx := newPage(t, 60*time.Second)
	open(t, ctx, defaultPath())
	waitResult(t, ctx)
	click(t, ctx, "#tab-machine")
	run(t, ctx, "machine tab", chromedp.WaitVisible("#f-machine-cores_per_node", chromedp.ByQuery))
	runsBefore := eval[int](t, ctx, `(schedplayPerf.engineRuns || []).length`)
	setField(t, ctx, "f-machine-cores_per_node", "100000")
	run(t, ctx, "refusal", chromedp.Poll(`(() => { const e = document.getElementById("run-error"); return e ? e.textContent : false; })()`, nil))
	// The reason is the validator's (issue 16: not a check of the page's own).
	msg := strings.Join(pageIssues(t, ctx, validatorMessages(t, editDoc(t, site.DefaultDoc(), "machine.cores_per_node", json.Number("100000")))), "\n")
	if !strings.Contains(msg, "out of range") {
		t.Errorf("refusal %q does not say why", msg)
	}
	t.Logf("refusal: %q", msg)
	// The page refused it without asking the engine, and is still
	// responsive: a click answers and the machine can be fixed.
	start := time.Now()
	click(t, ctx, "#tab-policy")
	run(t, ctx, "tab switch", chromedp.WaitVisible("#preset-policy", chromedp.ByQuery))
	t.Logf("MEASURE tab switch with the refused machine: %v (render %.0f ms)", time.Since(start).Round(time.Millisecond), eval[float64](t, ctx, `schedplayPerf.renderMs`))
	time.Sleep(300 * time.Millisecond)
	if n := eval[int](t, ctx, `(schedplayPerf.engineRuns || []).length`); n != runsBefore {
		t.Errorf("the refused machine was sent to the engine (%d runs, then %d)", runsBefore, n)
	}
	shot(t, ctx, "too-large")
	click(t, ctx, "#tab-machine")
	run(t, ctx, "machine tab", chromedp.WaitVisible("#f-machine-cores_per_node", chromedp.ByQuery))
	setField(t, ctx, "f-machine-cores_per_node", "8")
	// The refusal's "failed" status stays until the page has read the new
	// value: wait for the refusal to go before reading the status.
	run(t, ctx, "refusal cleared", chromedp.Poll(`(() => { const e = document.getElementById("run-error"); return !e || !e.textContent; })()`, nil))
	if st := waitResult(t, ctx); st != "done" {
		t.Errorf("after fixing the machine: status %q", st)
	}
	// A document over the size limit is refused at once, the page stays usable.
	click(t, ctx, "#tab-json")
	run(t, ctx, "json tab", chromedp.WaitVisible("#f-json", chromedp.ByQuery))
	run(t, ctx, "huge", chromedp.Evaluate(`(() => { const t = document.getElementById("f-json");
		const d = JSON.parse(t.value); d.name = "x".repeat(3 << 20); t.value = JSON.stringify(d); })()`, nil))
	// Measured in the page: from the click to the refusal on screen.
	var ms float64
	run(t, ctx, "huge refused", chromedp.Evaluate(`(async () => {
		const t0 = performance.now();
		document.getElementById("json-apply").click();
		for (;;) {
			const n = document.querySelector("#notice .notice-text");
			if (n && n.textContent.includes("the limit is")) return performance.now() - t0;
			await new Promise(r => setTimeout(r, 5));
		}
	})()`, &ms, awaitPromise))
	t.Logf("MEASURE huge document refused %.0f ms after the click: %q", ms, text(t, ctx, "#notice .notice-text"))
	if title := text(t, ctx, "#scenario-title"); strings.HasPrefix(title, "xxx") {
		t.Error("the huge document was loaded")
	}
	// Nothing lost: the user's text is still in the editor.
	if n := eval[int](t, ctx, `document.getElementById("f-json").value.length`); n < 3<<20 {
		t.Errorf("the editor holds %d characters after the refusal; the user's text is gone", n)
	}
	click(t, ctx, "#tab-run")
	run(t, ctx, "still usable", chromedp.WaitVisible("#f-run-seed", chromedp.ByQuery))
}

func TestVeraTimelinePanning(t *testing.T) {
	ctx := newPage(t, 300*time.Second)
	open(t, ctx, "/?preset=vera-sgemm-nvpl")
	if st := waitResult(t, ctx); st != "done" {
		t.Fatalf("vera: %s", text(t, ctx, "#figures"))
	}
	rows := eval[string](t, ctx, `document.getElementById("timeline").getAttribute("data-rows")`)
	t.Logf("vera timeline rows: %s", rows)
	span0 := eval[string](t, ctx, `document.getElementById("timeline").dataset.span`)
	var res struct {
		FPS      float64  `json:"fps"`
		Frames   int      `json:"frames"`
		Draws    int      `json:"draws"`
		DrawAvg  float64  `json:"drawAvg"`
		DrawMax  float64  `json:"drawMax"`
		RectsMax int      `json:"rectsMax"`
		CallsMax int      `json:"callsMax"`
		Span     string   `json:"span"`
		T0s      []string `json:"t0s"`
	}
	run(t, ctx, "pan", chromedp.Evaluate(`(async () => {
		const c = document.getElementById("timeline"); const r = c.getBoundingClientRect();
		const at = {clientX: r.left + r.width / 2, clientY: r.top + 60, bubbles: true, cancelable: true};
		for (let i = 0; i < 8; i++) c.dispatchEvent(new WheelEvent("wheel", {...at, deltaY: -250}));
		await new Promise(res => requestAnimationFrame(() => requestAnimationFrame(res)));
		let frames = 0, draws = 0, sum = 0, max = 0, rectsMax = 0, callsMax = 0, dir = 1, last = -1;
		const t0s = [], span = c.dataset.span;
		const t0 = performance.now();
		return await new Promise(res => {
			function step() {
				frames++;
				const d = schedplayPerf.lastDrawMs;
				if (d !== last) { draws++; sum += d; max = Math.max(max, d); last = d; }
				rectsMax = Math.max(rectsMax, Number(c.dataset.fillRects));
				callsMax = Math.max(callsMax, Number(c.dataset.fillCalls));
				const el = performance.now() - t0;
				if (el >= 1000 * (t0s.length + 1)) { dir = -dir; t0s.push(c.dataset.t0); } // turn every second
				c.dispatchEvent(new WheelEvent("wheel", {...at, deltaX: 30 * dir}));
				if (el < 3000) requestAnimationFrame(step);
				else res({fps: frames * 1000 / el, frames, draws, drawAvg: sum / Math.max(draws, 1), drawMax: max,
					rectsMax, callsMax, span, t0s: t0s.concat([c.dataset.t0])});
			}
			requestAnimationFrame(step);
		});
	})()`, &res, awaitPromise))
	t.Logf("MEASURE Vera timeline panning: %.1f fps over %d frames, %d draws; draw avg %.2f ms, max %.2f ms; at most %d rectangles in %d page calls per draw",
		res.FPS, res.Frames, res.Draws, res.DrawAvg, res.DrawMax, res.RectsMax, res.CallsMax)
	// Speed is measured, not asserted (shared machines); what is asserted
	// is that the wheel zoomed in, that panning moved the view both ways
	// and redrew it, and that the rectangles went out in batches.
	if res.Span == span0 {
		t.Errorf("the wheel did not zoom: span %s", span0)
	}
	if len(res.T0s) < 3 || res.T0s[0] == res.T0s[1] || res.T0s[1] == res.T0s[2] {
		t.Errorf("panning did not move the view: t0 %v", res.T0s)
	}
	if res.Draws < 2 {
		t.Errorf("panning redrew %d times", res.Draws)
	}
	if res.CallsMax == 0 || res.CallsMax*4 > res.RectsMax {
		t.Errorf("%d rectangles in %d page calls: not batched", res.RectsMax, res.CallsMax)
	}
	shot(t, ctx, "vera-timeline-zoomed")
	// One row per CPU: 352 rows, scrolled with the wheel over the labels.
	click(t, ctx, "#all-rows")
	run(t, ctx, "all rows", chromedp.Poll(`document.getElementById("timeline").dataset.rows === "352"`, nil))
	run(t, ctx, "scroll rows", chromedp.Evaluate(`(() => { const c = document.getElementById("timeline"); const r = c.getBoundingClientRect();
		c.dispatchEvent(new WheelEvent("wheel", {clientX: r.left + 30, clientY: r.top + 100, deltaY: 1800, bubbles: true, cancelable: true})); })()`, nil))
	shot(t, ctx, "vera-timeline-per-cpu")
	click(t, ctx, "#tab-machine")
	run(t, ctx, "topology", chromedp.WaitVisible("#domains", chromedp.ByQuery))
	// The lstopo drawing has every PE; clicking one shows its domain chain.
	if n := eval[int](t, ctx, `document.querySelectorAll(".lstopo .t-pe").length`); n != 352 {
		t.Errorf("machine drawing has %d PEs, want 352", n)
	}
	click(t, ctx, `.lstopo .t-pe[data-cpu="200"]`)
	run(t, ctx, "domains of CPU 200", chromedp.Poll(`(document.getElementById("domains-title") || {}).textContent === "Sched domains of CPU 200"`, nil,
		chromedp.WithPollingTimeout(10*time.Second)))
	if p := eval[string](t, ctx, `document.querySelector('.lstopo .t-pe[data-cpu="200"]').getAttribute("aria-pressed")`); p != "true" {
		t.Errorf("CPU 200's PE is not marked pressed: %q", p)
	}
	fullShot(t, ctx, "vera-topology")
}

func TestDarkThemeAndKeyboard(t *testing.T) {
	ctx := newPage(t, 60*time.Second)
	run(t, ctx, "dark", emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}))
	open(t, ctx, "/?preset=power7-smt")
	if st := waitResult(t, ctx); st != "done" {
		t.Fatalf("power7: %s", text(t, ctx, "#figures"))
	}
	if bg := eval[string](t, ctx, `getComputedStyle(document.body).backgroundColor`); bg != "rgb(16, 18, 20)" {
		t.Errorf("dark theme not applied: body background %s", bg)
	}
	// Keyboard: focus the timeline, zoom in with "+", pan with arrows, reset with "0".
	run(t, ctx, "focus", chromedp.Focus("#timeline", chromedp.ByQuery))
	span := func() string { return eval[string](t, ctx, `document.getElementById("timeline").dataset.span`) }
	whole := span()
	run(t, ctx, "zoom keys", chromedp.KeyEvent("+"), chromedp.KeyEvent("+"), chromedp.KeyEvent("+"))
	run(t, ctx, "zoomed", chromedp.Poll(fmt.Sprintf(`document.getElementById("timeline").dataset.span !== %q`, whole), nil))
	t0 := eval[string](t, ctx, `document.getElementById("timeline").dataset.t0`)
	run(t, ctx, "pan key", chromedp.KeyEvent(kb.ArrowRight))
	run(t, ctx, "panned", chromedp.Poll(fmt.Sprintf(`document.getElementById("timeline").dataset.t0 !== %q`, t0), nil))
	run(t, ctx, "reset key", chromedp.KeyEvent("0"))
	run(t, ctx, "reset", chromedp.Poll(fmt.Sprintf(`document.getElementById("timeline").dataset.span === %q`, whole), nil))
	if id := eval[string](t, ctx, `document.activeElement.id`); id != "timeline" {
		t.Errorf("focus moved to %q", id)
	}
	// Tabs are reachable with the keyboard: ArrowRight moves to the next tab.
	run(t, ctx, "tab focus", chromedp.Focus("#tab-machine", chromedp.ByQuery), chromedp.KeyEvent(kb.ArrowRight))
	run(t, ctx, "policy tab", chromedp.WaitVisible("#preset-policy", chromedp.ByQuery))
	shot(t, ctx, "dark-power7")
	click(t, ctx, "#tab-machine")
	run(t, ctx, "topology", chromedp.WaitVisible("#domains", chromedp.ByQuery))
	fullShot(t, ctx, "dark-power7-topology")
}

func TestWorkloadErrorAtFieldAndCancel(t *testing.T) {
	ctx := newPage(t, 90*time.Second)
	open(t, ctx, defaultPath())
	waitResult(t, ctx)
	click(t, ctx, "#tab-workload")
	run(t, ctx, "workload tab", chromedp.WaitVisible("#f-workload-groups-0-program", chromedp.ByQuery))
	// A group's custom slice: outside the range the kernel clamps
	// sched_runtime to, the decoder's error shows at the field; inside it
	// the field is clean; emptied, the key is gone again.
	setField(t, ctx, "f-workload-groups-0-slice", "1s")
	run(t, ctx, "slice issue", chromedp.Poll(`(() => { const e = document.getElementById("f-workload-groups-0-slice-issue");
		return e && e.textContent.includes("100us..100ms") ? e.textContent : false; })()`, nil))
	setField(t, ctx, "f-workload-groups-0-slice", "2ms")
	run(t, ctx, "slice accepted", chromedp.Poll(`!document.getElementById("f-workload-groups-0-slice-issue") &&
		document.getElementById("f-workload-groups-0-slice").value === "2ms"`, nil))
	setField(t, ctx, "f-workload-groups-0-slice", "")
	// The group's policy: SCHED_FIFO with no rt_priority is the decoder's
	// error at rt_priority; with one both fields are clean; SCHED_OTHER
	// again, both keys are gone.
	setField(t, ctx, "f-workload-groups-0-policy", "fifo")
	run(t, ctx, "rt_priority issue", chromedp.Poll(`(() => { const e = document.getElementById("f-workload-groups-0-rt_priority-issue");
		return e && e.textContent.includes("1..99") ? e.textContent : false; })()`, nil))
	setField(t, ctx, "f-workload-groups-0-rt_priority", "99")
	run(t, ctx, "rt accepted", chromedp.Poll(`!document.getElementById("f-workload-groups-0-rt_priority-issue") &&
		!document.getElementById("f-workload-groups-0-policy-issue") && document.getElementById("f-workload-groups-0-policy").value === "fifo"`, nil))
	setField(t, ctx, "f-workload-groups-0-rt_priority", "")
	setField(t, ctx, "f-workload-groups-0-policy", "")
	// Broken JSON stays in the field with a message there.
	setField(t, ctx, "f-workload-groups-0-program", `[{"compute": }]`)
	run(t, ctx, "json issue", chromedp.WaitVisible("#f-workload-groups-0-program-issue", chromedp.ByQuery))
	if v := eval[string](t, ctx, `document.getElementById("f-workload-groups-0-program").value`); v != `[{"compute": }]` {
		t.Errorf("the draft was lost: %q", v)
	}
	// Valid JSON, invalid step: the engine's located error shows at the field.
	setField(t, ctx, "f-workload-groups-0-program", `[{"compute": "5 parsecs"}]`)
	run(t, ctx, "engine issue", chromedp.Poll(`(() => { const e = document.getElementById("f-workload-groups-0-program-issue");
		return e && e.textContent.includes("program[0]") ? e.textContent : false; })()`, nil))
	t.Logf("field issue: %q", text(t, ctx, "#f-workload-groups-0-program-issue"))
	shot(t, ctx, "workload-error")
	// A long run can be cancelled, and a new run replaces a stale one.
	open(t, ctx, longRunPath(t))
	run(t, ctx, "running", chromedp.Poll(`document.getElementById("figures").getAttribute("data-status") === "running"`, nil))
	start := time.Now()
	click(t, ctx, "#cancel")
	run(t, ctx, "cancelled", chromedp.Poll(`(() => { const e = document.getElementById("run-error"); return e && e.textContent.includes("Cancelled"); })()`, nil))
	t.Logf("cancel took %v", time.Since(start))
	click(t, ctx, "#gallery .card[data-scenario='hikey960-sysbench']")
	// The page shows the new run's state at its next frame; until then the
	// figures still say "failed" (the cancel).
	run(t, ctx, "next run started", chromedp.Poll(`document.getElementById("figures").getAttribute("data-status") !== "failed"`, nil,
		chromedp.WithPollingTimeout(10*time.Second)))
	if st := waitResult(t, ctx); st != "done" {
		t.Errorf("the next run after a cancel: %s: %s (run error %q)", st, text(t, ctx, "#figures"),
			eval[string](t, ctx, `(document.getElementById("run-error") || {}).textContent || ""`))
	}
}

// longRunPath opens a scenario that simulates for many seconds: Vera's
// sched pipe with a million ping-pong loops (the preset has 5000).
func longRunPath(t *testing.T) string {
	t.Helper()
	loop := func(first bool) string {
		a, b := `{"compute": "1us"}, {"send": "ab", "sync": true}, {"recv": "ba"}`, `{"recv": "ab"}, {"compute": "1us"}, {"send": "ba", "sync": true}`
		if !first {
			a = b
		}
		return `[{"repeat": 1000000, "do": [` + a + `]}]`
	}
	d, err := site.ParseDoc([]byte(`{"schedplay": 1, "name": "long sched pipe", "machine": {"preset": "vera"}, "policy": {"preset": "v6-on"},
		"workload": {"preset": "sched-pipe", "groups": [{"name": "pipe-a", "count": 1, "process": true, "program": ` + loop(true) + `},
		{"name": "pipe-b", "count": 1, "process": true, "program": ` + loop(false) + `}]},
		"run": {"duration": "60s", "until": "done", "seed": 1, "reps": 5}}`))
	if err != nil {
		t.Fatal(err)
	}
	return "/#" + site.EncodeFragment(d)
}

func TestTabletLayout(t *testing.T) {
	ctx := newPage(t, 60*time.Second)
	run(t, ctx, "tablet", chromedp.EmulateViewport(820, 1180, chromedp.EmulateTouch))
	open(t, ctx, defaultPath())
	if st := waitResult(t, ctx); st != "done" {
		t.Fatalf("status %q", st)
	}
	if w := eval[int](t, ctx, `document.documentElement.scrollWidth`); w > 820 {
		t.Errorf("page is %d px wide on an 820 px tablet (horizontal scrolling)", w)
	}
	// One-finger drag pans the zoomed timeline.
	run(t, ctx, "zoom", chromedp.Focus("#timeline", chromedp.ByQuery), chromedp.KeyEvent("+"), chromedp.KeyEvent("+"))
	t0 := eval[string](t, ctx, `document.getElementById("timeline").dataset.t0`)
	run(t, ctx, "touch pan", chromedp.Evaluate(`(() => { const c = document.getElementById("timeline"); const r = c.getBoundingClientRect();
		const touch = (x) => new Touch({identifier: 1, target: c, clientX: x, clientY: r.top + 40});
		c.dispatchEvent(new TouchEvent("touchstart", {touches: [touch(r.left + 400)], bubbles: true, cancelable: true}));
		c.dispatchEvent(new TouchEvent("touchmove", {touches: [touch(r.left + 250)], bubbles: true, cancelable: true}));
		c.dispatchEvent(new TouchEvent("touchend", {touches: [], bubbles: true, cancelable: true})); })()`, nil))
	run(t, ctx, "panned", chromedp.Poll(fmt.Sprintf(`document.getElementById("timeline").dataset.t0 !== %q`, t0), nil,
		chromedp.WithPollingTimeout(5*time.Second)))
	shot(t, ctx, "tablet")
}

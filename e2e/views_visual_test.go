//go:build e2e

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The mode legend, the row labels and the SMT-only figures follow the
// machine's SMT model: POWER7 folds (SMT1/SMT2/SMT4), hikey960 has one
// thread per core (no legend, no PE, no mode figures).
func TestModeWordsFollowSMTModel(t *testing.T) {
	ctx := newPage(t, 120*time.Second)
	open(t, ctx, "/?preset=power7-smt")
	if st := waitResult(t, ctx); st != "done" {
		t.Fatalf("power7: %s", text(t, ctx, "#figures"))
	}
	leg := eval[string](t, ctx, `document.getElementById("mode-legend").textContent`)
	if !strings.Contains(leg, "SMT1") || !strings.Contains(leg, "SMT2/SMT4") || strings.Contains(leg, "partitioned") {
		t.Errorf("POWER7 legend %q; want SMT1 and SMT2/SMT4, no partitioned", leg)
	}
	if !eval[bool](t, ctx, `!!document.getElementById("fig-modes")`) {
		t.Error("POWER7 has no mode transitions figure")
	}
	shot(t, ctx, "visual-power7")

	open(t, ctx, "/?preset=hikey960-sysbench")
	if st := waitResult(t, ctx); st != "done" {
		t.Fatalf("hikey960: %s", text(t, ctx, "#figures"))
	}
	run(t, ctx, "charts", chromedp.WaitVisible("#chart-migrations", chromedp.ByQuery))
	var got struct {
		LegendShown bool
		Labels      string
		SMTFigures  []string
	}
	run(t, ctx, "hikey960 page", chromedp.Poll(`(() => {
		const c = document.getElementById("timeline");
		const labels = c && c.getAttribute("data-labels");
		if (!labels) return false;
		const leg = document.getElementById("mode-legend");
		return {LegendShown: getComputedStyle(leg).display !== "none" && leg.textContent !== "", Labels: labels,
			SMTFigures: ["fig-modes", "fig-pealt", "chart-residency"].filter(id => document.getElementById(id))};
	})()`, &got, chromedp.WithPollingTimeout(10*time.Second)))
	if got.LegendShown {
		t.Error("hikey960 (one thread per core) shows a mode legend")
	}
	if strings.Contains(got.Labels, "PE") || !strings.Contains(got.Labels, "cpu0") {
		t.Errorf("hikey960 row labels %q; want cpuN without PE", got.Labels)
	}
	if len(got.SMTFigures) > 0 {
		t.Errorf("hikey960 shows SMT-only figures %v", got.SMTFigures)
	}
	shot(t, ctx, "visual-hikey960")
}

// At 800 px the compare view fits: the mailing-list table scrolls inside
// its card; hikey960 has no mode legend and no PE labels there either.
func TestCompareNarrowFits(t *testing.T) {
	ctx := newPage(t, 120*time.Second)
	run(t, ctx, "800 px", chromedp.EmulateViewport(800, 900))
	openCompare(t, ctx, comparePath)
	run(t, ctx, "timelines drawn", chromedp.Poll(`document.getElementById("tl-a").getAttribute("data-drawn") === "1"`, nil,
		chromedp.WithPollingTimeout(10*time.Second)))
	var got struct {
		ScrollW, InnerW int
		TableInCard     bool
		Legend          bool
		Labels          string
	}
	run(t, ctx, "measure", chromedp.Evaluate(`(() => {
		const tbl = document.getElementById("cmp-table"), wrap = tbl.parentElement, card = wrap.parentElement;
		const leg = document.getElementById("cmp-mode-legend");
		return {ScrollW: document.documentElement.scrollWidth, InnerW: window.innerWidth,
			TableInCard: wrap.getBoundingClientRect().right <= card.getBoundingClientRect().right + 0.5,
			Legend: getComputedStyle(leg).display !== "none",
			Labels: document.getElementById("tl-a").getAttribute("data-labels") || ""};
	})()`, &got))
	if got.ScrollW > got.InnerW {
		t.Errorf("compare page is %d px wide in a %d px window", got.ScrollW, got.InnerW)
	}
	if !got.TableInCard {
		t.Error("the comparison table sticks out of its card")
	}
	if got.Legend || strings.Contains(got.Labels, "PE") {
		t.Errorf("hikey960 compare: legend shown %v, labels %q", got.Legend, got.Labels)
	}
	fullShot(t, ctx, "visual-compare-800")
}

// The sched-domain table never breaks a CPU range: Vera's MC span
// "0-87,176-263" may wrap only after its comma.
func TestDomainSpanWrapsAtCommas(t *testing.T) {
	ctx := newPage(t, 300*time.Second)
	open(t, ctx, "/?preset=vera-sched-pipe")
	run(t, ctx, "domains", chromedp.WaitVisible("#domains", chromedp.ByQuery))
	var got struct {
		Spans  []string
		Broken []string
		Wbr    int
	}
	run(t, ctx, "spans", chromedp.Poll(`(() => {
		const cells = [...document.querySelectorAll("#domains td.span")];
		if (!cells.length) return false;
		return {Spans: cells.map(c => c.textContent),
			Broken: [...document.querySelectorAll("#domains td.span .rng")].filter(r => r.getClientRects().length > 1).map(r => r.textContent),
			Wbr: document.querySelectorAll("#domains td.span wbr").length};
	})()`, &got, chromedp.WithPollingTimeout(60*time.Second)))
	joined := strings.Join(got.Spans, " ")
	if !strings.Contains(joined, ",") {
		t.Fatalf("no multi-range span in %q", got.Spans)
	}
	if len(got.Broken) > 0 {
		t.Errorf("CPU ranges broken across lines: %q", got.Broken)
	}
	if got.Wbr == 0 {
		t.Error("no break opportunities after the commas")
	}
	shot(t, ctx, "visual-domains")
}

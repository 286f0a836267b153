//go:build e2e

package e2e

import (
	"fmt"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestLiveVeraPolicyKnob: on Vera (352 CPUs) with "live" on, moving a
// policy knob re-runs the scenario without Run being pressed: repetition 0
// is drawn first (a new timeline), the refined result follows. Each move
// reports knob → first redrawn timeline (MEASURE; nothing is asserted on
// time, the machine is shared).
func TestLiveVeraPolicyKnob(t *testing.T) {
	ctx := newPage(t, 180*time.Second)
	open(t, ctx, "/?preset=vera-sgemm-nvpl")
	waitResult(t, ctx)
	if !eval[bool](t, ctx, `document.getElementById("live").checked`) {
		t.Fatal("live is off by default")
	}
	click(t, ctx, "#tab-policy")
	run(t, ctx, "policy tab", chromedp.WaitVisible("#preset-policy", chromedp.ByQuery))
	var ms []float64
	for i, pol := range []string{"v6-on", "mainline", "v6-on", "mainline"} {
		before := eval[string](t, ctx, `document.getElementById("timeline").getAttribute("data-result") || "0"`)
		prev, err := strconv.Atoi(before)
		if err != nil {
			t.Fatalf("data-result %q", before)
		}
		eval[bool](t, ctx, `(() => { if (window.schedplayPerf) schedplayPerf.knobToFirstDrawMs = 0; return true; })()`)
		setField(t, ctx, "preset-policy", pol)
		// A new timeline for this scenario, drawn without pressing Run.
		run(t, ctx, "new timeline after "+pol, chromedp.Poll(fmt.Sprintf(`(() => {
			const c = document.getElementById("timeline");
			return c && c.getAttribute("data-drawn") === "1" && Number(c.getAttribute("data-result")) > %d &&
				window.schedplayPerf && schedplayPerf.knobToFirstDrawMs > 0; })()`, prev), nil,
			chromedp.WithPollingInterval(5*time.Millisecond), chromedp.WithPollingTimeout(60*time.Second)))
		ms = append(ms, eval[float64](t, ctx, `schedplayPerf.knobToFirstDrawMs`))
		st := eval[string](t, ctx, `document.getElementById("figures").getAttribute("data-status")`)
		// The worker's part of the latest run (ms): waiting for a Go
		// instance, the whole handler, and its simulation and encoding.
		w := eval[map[string]float64](t, ctx, `(() => { const r = (schedplayPerf.engineRuns || []).at(-1) || {};
			return {wait: r.wait ?? -1, handle: r.handle ?? -1, sim: r.sim ?? -1, encode: r.encode ?? -1}; })()`)
		t.Logf("move %d (→ %s): first timeline after %.0f ms (figures %s); latest engine run: wait %.0f, handler %.0f (sim %.0f, encode %.0f) ms",
			i+1, pol, ms[len(ms)-1], st, w["wait"], w["handle"], w["sim"], w["encode"])
		if got := eval[string](t, ctx, `document.getElementById("preset-policy").value`); got != pol {
			t.Errorf("policy select shows %q, want %q", got, pol)
		}
		// The refinement (every repetition) replaces repetition 0.
		waitResult(t, ctx)
		if p := eval[bool](t, ctx, `document.getElementById("figures").hasAttribute("data-provisional")`); p {
			t.Error("final result still marked provisional")
		}
	}
	sort.Float64s(ms)
	t.Logf("MEASURE live knob → first redrawn timeline (vera-sgemm-nvpl, policy mainline ↔ v6-on): median %.0f ms, min %.0f, max %.0f (n=%d)",
		ms[len(ms)/2], ms[0], ms[len(ms)-1], len(ms))
}

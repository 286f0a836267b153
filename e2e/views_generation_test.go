//go:build e2e

package e2e

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"schedplay/site"
)

// TestGenerationShownAndSwitched: a seed link states the fair.c generation
// its policy names (the figures header, the topology view, the policy
// editor's select with the preset's description and what each generation
// sets); choosing another generation in the editor changes the share link
// and the JSON tab, re-runs the figures (live, on Vera) which then state
// it; a feature the policy sets against the generation shows as
// overridden; Undo goes back; the compare view states each side's.
func TestGenerationShownAndSwitched(t *testing.T) {
	cat, err := site.EmbeddedCatalog()
	if err != nil {
		t.Fatal(err)
	}
	ctx := newPage(t, 240*time.Second)
	open(t, ctx, "/?preset=vera-sgemm-nvpl") // policy mainline, which names tip-2026-09
	waitResult(t, ctx)
	if got := text(t, ctx, "#fig-policy"); got != "policy mainline · tip-2026-09" {
		t.Fatalf("figures header says %q; want the seed's policy and generation", got)
	}
	click(t, ctx, "#tab-policy")
	run(t, ctx, "policy tab", chromedp.WaitVisible("#f-policy-generation", chromedp.ByQuery))
	if v := eval[string](t, ctx, `document.getElementById("f-policy-generation").value`); v != "tip-2026-09" {
		t.Errorf("generation select shows %q", v)
	}
	opts := eval[[]string](t, ctx, `[...document.querySelectorAll("#f-policy-generation option")].map(o => o.value + "=" + o.title)`)
	var want []string
	for _, p := range cat.Of("generation") {
		want = append(want, p.Name+"="+p.Description)
	}
	if strings.Join(opts, "\n") != strings.Join(want, "\n") {
		t.Errorf("generation options (value=title):\n%s\nwant the catalog's:\n%s", strings.Join(opts, "\n"), strings.Join(want, "\n"))
	}
	tip, _ := cat.Get("generation", "tip-2026-09")
	if got := text(t, ctx, "#generation-desc"); got != tip.Description {
		t.Errorf("description %q; want the preset's %q", got, tip.Description)
	}
	run(t, ctx, "topology", chromedp.WaitVisible("#topo-policy", chromedp.ByQuery))
	if got := text(t, ctx, "#topo-policy"); !strings.HasSuffix(got, "mainline · tip-2026-09") {
		t.Errorf("topology view says %q", got)
	}
	// What each generation sets, from the presets.
	click(t, ctx, "#generation-flags summary")
	row := func(name string) []string {
		return eval[[]string](t, ctx, fmt.Sprintf(`[...document.querySelectorAll('#generation-flags tr[data-switch=%q] td')].map(c => c.textContent)`, name))
	}
	if got := row("SMT_AWARE_ASYM_CAPACITY"); strings.Join(got, "|") != "off|off|on|on" {
		t.Errorf("SMT_AWARE_ASYM_CAPACITY row %q; want 6.1 and 6.12 off, tip on, in effect on", got)
	}
	linkBefore := eval[string](t, ctx, `location.href`)
	jsonBefore := scenarioJSON(t, ctx)
	if !strings.Contains(jsonBefore, `"preset": "mainline"`) || strings.Contains(jsonBefore, `"generation"`) {
		t.Errorf("the seed's JSON names a generation of its own:\n%s", jsonBefore)
	}
	click(t, ctx, "#tab-policy")
	run(t, ctx, "policy tab again", chromedp.WaitVisible("#f-policy-generation", chromedp.ByQuery))
	prev := eval[string](t, ctx, `document.getElementById("timeline").getAttribute("data-result") || "0"`)

	setField(t, ctx, "f-policy-generation", "6.12")
	// Live re-runs Vera: a new result, whose figures state 6.12.
	run(t, ctx, "re-run under 6.12", chromedp.Poll(fmt.Sprintf(`(() => {
		const f = document.getElementById("figures"), p = document.getElementById("fig-policy"), c = document.getElementById("timeline");
		return f.getAttribute("data-status") === "done" && !f.hasAttribute("data-provisional") && p && p.textContent === "policy mainline · 6.12" &&
			Number(c.getAttribute("data-result")) > %s; })()`, prev), nil, chromedp.WithPollingTimeout(120*time.Second)))
	if v := eval[string](t, ctx, `document.getElementById("f-policy-generation").value`); v != "6.12" {
		t.Errorf("generation select shows %q after the change", v)
	}
	if got := text(t, ctx, "#generation-desc"); got == tip.Description || got == "" {
		t.Errorf("description %q after the change", got)
	}
	if got := row("SMT_AWARE_ASYM_CAPACITY"); len(got) != 4 || got[3] != "off" {
		t.Errorf("SMT_AWARE_ASYM_CAPACITY in effect %q; want 6.12's off", got)
	}
	if got := text(t, ctx, "#topo-policy"); !strings.HasSuffix(got, "mainline · 6.12") {
		t.Errorf("topology view says %q", got)
	}
	var link string
	run(t, ctx, "share link", chromedp.Poll(fmt.Sprintf(`location.href !== %q && location.href`, linkBefore), &link, chromedp.WithPollingTimeout(10*time.Second)))
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	d, ok, err := site.DecodeFragment("#" + u.Fragment)
	if !ok || err != nil || d.Generation(cat) != "6.12" || d.Section("policy")["preset"] != "mainline" {
		t.Errorf("the share link %q holds policy %v (%v)", link, d.Section("policy"), err)
	}
	if j := scenarioJSON(t, ctx); !strings.Contains(j, `"generation": "6.12"`) || !strings.Contains(j, `"preset": "mainline"`) {
		t.Errorf("the JSON tab after the change:\n%s", j)
	}

	// A feature the policy sets against 6.12 shows as overridden.
	click(t, ctx, "#tab-policy")
	run(t, ctx, "policy tab", chromedp.WaitVisible("#f-policy-features-SMT_AWARE_ASYM_CAPACITY", chromedp.ByQuery))
	if l := eval[string](t, ctx, `document.querySelector("#f-policy-features-ILB_IDLE_CORE option[value='']").textContent`); l != "default: off (6.12)" {
		t.Errorf("ILB_IDLE_CORE's default choice %q", l)
	}
	setField(t, ctx, "f-policy-features-SMT_AWARE_ASYM_CAPACITY", "true")
	run(t, ctx, "overridden", chromedp.Poll(`(() => { const c = document.querySelector("#generation-flags tr[data-switch=SMT_AWARE_ASYM_CAPACITY] td.effect");
		return c && c.classList.contains("overridden") && c.textContent.startsWith("on"); })()`, nil, chromedp.WithPollingTimeout(10*time.Second)))
	if k := text(t, ctx, `label[for="f-policy-features-SMT_AWARE_ASYM_CAPACITY"] .kernel`); !strings.Contains(k, "overrides 6.12 (off)") {
		t.Errorf("the feature's label says %q; want it marked as overriding 6.12", k)
	}
	waitResult(t, ctx)
	fullShot(t, ctx, "generation-editor")

	// Undo twice: the feature, then the generation. Clicked in the page:
	// each undo redraws the toolbar, and chromedp.Click's node can be gone
	// by the time it clicks (TestUndoRedoAndRunHistory, stop 57).
	jsClick(t, ctx, "#undo")
	jsClick(t, ctx, "#undo")
	run(t, ctx, "undone", chromedp.Poll(`(() => { const s = document.getElementById("f-policy-generation"); return s && s.value === "tip-2026-09"; })()`, nil,
		chromedp.WithPollingTimeout(10*time.Second)))
	run(t, ctx, "link back", chromedp.Poll(fmt.Sprintf(`location.href === %q`, linkBefore), nil, chromedp.WithPollingTimeout(120*time.Second)))
	run(t, ctx, "figures back", chromedp.Poll(`(() => { const f = document.getElementById("figures"), p = document.getElementById("fig-policy");
		return f.getAttribute("data-status") === "done" && p && p.textContent === "policy mainline · tip-2026-09"; })()`, nil, chromedp.WithPollingTimeout(120*time.Second)))

	// The compare view states each side's generation, in its labels and
	// its pickers (its header is drawn before the comparison runs).
	ctx2 := newPage(t, 60*time.Second)
	openView(t, ctx2, "/?compare=misfit,mainline&preset=hikey960-short-sysbench", ".cmp-page")
	run(t, ctx2, "compare head", chromedp.WaitVisible("#cmp-side-b", chromedp.ByQuery))
	if a, b := text(t, ctx2, "#cmp-side-a"), text(t, ctx2, "#cmp-side-b"); a != "A = misfit · "+site.NoGeneration || b != "B = mainline · tip-2026-09" {
		t.Errorf("compare sides %q, %q", a, b)
	}
	if o := eval[string](t, ctx2, `document.querySelector("#cmp-pick-a option[value='v6-on']").textContent`); o != "v6-on · tip-2026-09" {
		t.Errorf("picker option %q", o)
	}
}

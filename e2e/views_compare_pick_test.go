//go:build e2e

package e2e

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"schedplay/engine/scenario"
	"schedplay/presets"
	"schedplay/site"
	"schedplay/site/compareview"
)

// catchOpen makes window.open record its address (window.__opened)
// instead of opening a tab, so the test can follow the toolbar's Compare
// button in the same tab.
func catchOpen(t *testing.T, ctx context.Context) {
	t.Helper()
	run(t, ctx, "catch window.open", chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(`window.open = (u) => { window.__opened = String(u); return null; };`).Do(ctx)
		return err
	}))
}

// followCompareButton clicks the playground's Compare button and opens
// the address it asked for in this tab, waiting for the comparison.
func followCompareButton(t *testing.T, ctx context.Context) string {
	t.Helper()
	// Clicked from inside the page: the toolbar is rebuilt when a run
	// ends, which can replace the node between a driver's lookup and its
	// click.
	run(t, ctx, "click Compare", chromedp.Poll(`(() => { const b = document.getElementById("open-compare");
		if (!b) return false; b.click(); return true; })()`, nil, chromedp.WithPollingTimeout(10*time.Second)))
	var u string
	run(t, ctx, "Compare opened an address", chromedp.Poll(`window.__opened || false`, &u, chromedp.WithPollingTimeout(5*time.Second)))
	if !strings.HasPrefix(u, "?compare=1#s=") {
		t.Fatalf("Compare opened %q; want ?compare=1#s=…", u)
	}
	openCompare(t, ctx, "/"+u)
	return u
}

// sides is the compare view's "A = … vs B = …" line.
func sides(t *testing.T, ctx context.Context) string { return text(t, ctx, ".cmp-head p") }

// The default scenario (what "/" shows first) matches no seed scenario: Compare opens its policy
// against the documented counterpart (compareview.DefaultPair), the
// pickers choose another pair, and the playground link leads back to the
// same scenario.
func TestCompareButtonDefaultPairPickersAndBack(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	def, err := scenario.Decode([]byte(site.DefaultScenarioJSON))
	if err != nil {
		t.Fatal(err)
	}
	a, b := compareview.DefaultPair(def, ps)
	if a == b {
		t.Fatalf("DefaultPair of the default scenario = %s, %s", a, b)
	}
	ctx := newPage(t, 150*time.Second)
	catchOpen(t, ctx)
	// The default scenario, by link: "/" alone shows the tab's last
	// scenario (localStorage), which an earlier test may have set.
	open(t, ctx, defaultPath())
	followCompareButton(t, ctx)
	if s := sides(t, ctx); !strings.Contains(s, "A = "+a) || !strings.Contains(s, "B = "+b) {
		t.Fatalf("sides = %q; want A = %s, B = %s", s, a, b)
	}
	if got := eval[[]string](t, ctx, `[document.getElementById("cmp-pick-a").value, document.getElementById("cmp-pick-b").value]`); got[0] != a || got[1] != b {
		t.Errorf("pickers show %q; want the pair compared", got)
	}
	shot(t, ctx, "compare-default-pair")
	// Another pair from the pickers: the same scenario under A and misfit.
	other := "misfit"
	if b == other {
		other = "none"
	}
	setField(t, ctx, "cmp-pick-b", other)
	click(t, ctx, "#cmp-pick-go")
	waitLocation(t, ctx, "compare="+a+"%2C"+other)
	if st := waitAttr(t, ctx, "#cmp-status", "data-state", "done"); st != "done" {
		t.Fatalf("picked comparison: %s", text(t, ctx, "#cmp-status"))
	}
	if s := sides(t, ctx); !strings.Contains(s, "A = "+a) || !strings.Contains(s, "B = "+other) {
		t.Errorf("after picking: sides = %q; want A = %s, B = %s", s, a, other)
	}
	// Back to the playground, with the same scenario.
	href := eval[string](t, ctx, `document.getElementById("cmp-playground").href`)
	if strings.Contains(href, "compare=") || !strings.Contains(href, "#s=") {
		t.Fatalf("playground link %q; want the playground with the scenario", href)
	}
	run(t, ctx, "back to the playground", chromedp.Navigate(href), chromedp.WaitVisible(`#root[data-ready="1"]`, chromedp.ByQuery))
	run(t, ctx, "the scenario in the playground", chromedp.Poll(`document.getElementById("f-name") && document.getElementById("f-name").value || false`, nil,
		chromedp.WithPollingTimeout(10*time.Second)))
	if n := eval[string](t, ctx, `document.getElementById("f-name").value`); n != def.Name {
		t.Errorf("back in the playground with %q; want %q", n, def.Name)
	}
}

// A renamed seed scenario keeps its seed's pair: its sections still say
// which seed it is.
func TestCompareButtonAfterRename(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	// hikey960-sysbench's own pair differs from the default pair of its
	// policy, so the test tells a seed match from the fallback.
	const renamed = "hikey960-sysbench"
	q, _ := ps.Get(presets.Scenario, renamed)
	sc, err := scenario.Decode(q.Body)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := compareview.DefaultPair(sc, ps); a == q.Compare[0] && b == q.Compare[1] {
		t.Fatalf("%s's pair %v is also its default pair; the test would not tell them apart", renamed, q.Compare)
	}
	ctx := newPage(t, 150*time.Second)
	catchOpen(t, ctx)
	open(t, ctx, "/?preset="+renamed)
	waitResult(t, ctx)
	setField(t, ctx, "f-name", "my renamed copy")
	run(t, ctx, "the rename reaches the address", chromedp.Poll(`location.hash.startsWith("#s=") || false`, nil, chromedp.WithPollingTimeout(10*time.Second)))
	followCompareButton(t, ctx)
	if s := sides(t, ctx); !strings.Contains(s, "A = "+q.Compare[0]) || !strings.Contains(s, "B = "+q.Compare[1]) {
		t.Errorf("renamed %s compares %q; want its pair %v", renamed, s, q.Compare)
	}
	if h := text(t, ctx, "#cmp-scenario"); h != "my renamed copy" {
		t.Errorf("compare view names the scenario %q; want the new name", h)
	}
}

// An address that cannot be compared still leads back to the playground
// and offers the pickers.
func TestCompareBadAddressWayBack(t *testing.T) {
	ctx := newPage(t, 60*time.Second)
	openView(t, ctx, "/?compare=misfit,no-such-policy&preset=hikey960-short-sysbench", ".cmp-page")
	waitAttr(t, ctx, "#cmp-status", "data-state", "failed")
	run(t, ctx, "the way back", chromedp.WaitVisible("#cmp-playground", chromedp.ByQuery), chromedp.WaitVisible("#cmp-pick-b", chromedp.ByQuery))
	if href := eval[string](t, ctx, `document.getElementById("cmp-playground").href`); strings.Contains(href, "compare=") || !strings.Contains(href, "#s=") {
		t.Errorf("playground link %q; want the playground with the scenario", href)
	}
	shot(t, ctx, "compare-way-back")
	opts := eval[[]string](t, ctx, `[...document.querySelectorAll("#cmp-pick-b option")].map(o => o.value)`)
	if !slices.Contains(opts, "mainline") || !slices.Contains(opts, "variant:4 threads") {
		t.Errorf("B picker offers %q; want the policy presets and the seed's variants", opts)
	}
}

// waitLocation waits until the tab's address contains want (across a
// navigation, which a Poll would not survive).
func waitLocation(t *testing.T, ctx context.Context, want string) {
	t.Helper()
	var u string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if err := chromedp.Run(ctx, chromedp.Location(&u)); err == nil && strings.Contains(u, want) {
			return
		}
	}
	t.Fatalf("the address is %q; want it to contain %q", u, want)
}

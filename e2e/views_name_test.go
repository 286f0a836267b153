//go:build e2e

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"schedplay/site"
)

// Issue 16, bug 5: the scenario name follows edits of a seed scenario
// ("… — policy NAME"), and the share link and the embed snippet carry it;
// a name the user types stays.
func TestNameFollowsEditsIntoLinks(t *testing.T) {
	ctx := newPage(t, 120*time.Second)
	open(t, ctx, "/?preset=hikey960-sysbench")
	waitResult(t, ctx)
	seed := text(t, ctx, "#scenario-title")
	click(t, ctx, "#tab-policy")
	run(t, ctx, "policy tab", chromedp.WaitVisible("#preset-policy", chromedp.ByQuery))
	other := eval[string](t, ctx, `[...document.getElementById("preset-policy").options].map(o => o.value).find(v => v && v !== document.getElementById("preset-policy").value)`)
	setField(t, ctx, "preset-policy", other)
	want := seed + " — policy " + other
	run(t, ctx, "title follows", chromedp.Poll(`document.getElementById("scenario-title").textContent === `+jsList([]string{want})+`[0]`, nil,
		chromedp.WithPollingTimeout(10*time.Second)))
	// The address's share link carries the name.
	run(t, ctx, "link written", chromedp.Poll(`location.hash.startsWith("#s=") && location.hash`, nil))
	hash := eval[string](t, ctx, `location.hash`)
	d, ok, err := site.DecodeFragment(hash)
	if !ok || err != nil || d.Name() != want {
		t.Errorf("the share link's scenario is named %q (ok %v, %v); want %q", d.Name(), ok, err, want)
	}
	// The embed snippet too. Clicked from the page: the run the policy
	// change started can redraw the toolbar between a node lookup and a
	// pointer click ("Could not find node with given id", once in CI).
	jsClick(t, ctx, "#copy-embed")
	run(t, ctx, "embed snippet", chromedp.WaitVisible("#embed-snippet", chromedp.ByQuery))
	if snip := eval[string](t, ctx, `document.getElementById("embed-snippet").value`); !strings.Contains(snip, `title="schedplay: `+want+`"`) {
		t.Errorf("the embed snippet %q does not carry %q", snip, want)
	}
	// The user names it: edits keep that name.
	setField(t, ctx, "f-name", "my v6 run")
	click(t, ctx, "#tab-run")
	run(t, ctx, "run tab", chromedp.WaitVisible("#f-run-seed", chromedp.ByQuery))
	setField(t, ctx, "f-run-seed", "11")
	time.Sleep(200 * time.Millisecond)
	if got := eval[string](t, ctx, `document.getElementById("f-name").value`); got != "my v6 run" {
		t.Errorf("an edit renamed the user's scenario to %q", got)
	}
}

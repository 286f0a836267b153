//go:build e2e

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Issue 16, first visit: a one-screen orientation on the page itself (what
// it is, three things to try, the kernel map), dismissed for good, and
// never on a shared scenario; each seed story states its published figure
// and links its source (or says it has none).
func TestFirstVisitOrientation(t *testing.T) {
	ctx := newPage(t, 90*time.Second)
	// A first visit: the browser profile is shared by every test (and
	// by this one's earlier runs under -count), so the dismissal is
	// forgotten first.
	open(t, ctx, "/")
	run(t, ctx, "forget the dismissal", chromedp.Evaluate(`localStorage.removeItem("schedplay.oriented")`, nil))
	open(t, ctx, "/")
	run(t, ctx, "orientation", chromedp.WaitVisible("#orientation h2", chromedp.ByQuery))
	txt := text(t, ctx, "#orientation")
	for _, want := range []string{"Open a seed story", "Flip the policy", "Compare", "kernel map"} {
		if !strings.Contains(txt, want) {
			t.Errorf("the orientation lacks %q: %q", want, txt)
		}
	}
	if h := eval[string](t, ctx, `document.querySelector("#orientation a[href$='KERNEL-MAP.md']").getAttribute("href")`); h == "" {
		t.Error("no link to the kernel map")
	}
	if h := eval[float64](t, ctx, `document.getElementById("orientation").getBoundingClientRect().height`); h > 600 {
		t.Errorf("the orientation is %.0f px tall: more than one screen", h)
	}
	shot(t, ctx, "first-visit")
	// A seed story: it opens one with a published figure.
	jsClick(t, ctx, "#orient-story")
	run(t, ctx, "story opened", chromedp.Poll(`document.getElementById("scenario-title").textContent.includes("Vera")`, nil, chromedp.WithPollingTimeout(20*time.Second)))
	// The stories state their figure and link its source.
	src := eval[string](t, ctx, `document.querySelector(".card-source[data-scenario='vera-sgemm-nvpl']").textContent`)
	if !strings.Contains(src, "10.297") {
		t.Errorf("vera-sgemm-nvpl's card says %q", src)
	}
	if href := eval[string](t, ctx, `document.querySelector(".card-source[data-scenario='vera-sgemm-nvpl'] a").href`); !strings.HasPrefix(href, "https://") {
		t.Errorf("vera-sgemm-nvpl's source link %q", href)
	}
	if s := eval[string](t, ctx, `document.querySelector(".card-source[data-scenario='hikey960-sysbench']").textContent`); !strings.Contains(s, "No published figure") {
		t.Errorf("hikey960-sysbench's card says %q", s)
	}
	// Dismissed, it stays away on the next visit.
	jsClick(t, ctx, "#orient-close")
	run(t, ctx, "dismissed", chromedp.Poll(`document.getElementById("orientation").hidden`, nil))
	open(t, ctx, "/")
	time.Sleep(300 * time.Millisecond)
	if !eval[bool](t, ctx, `document.getElementById("orientation").hidden`) {
		t.Error("the orientation came back after it was dismissed")
	}
	// Never on a shared scenario, even on a first visit (the dismissal
	// above is forgotten, or the check could not fail).
	run(t, ctx, "forget the dismissal", chromedp.Evaluate(`localStorage.removeItem("schedplay.oriented")`, nil))
	for _, path := range []string{defaultPath(), "/?preset=hikey960-sysbench"} {
		ctx := newPage(t, 60*time.Second)
		open(t, ctx, path)
		time.Sleep(300 * time.Millisecond)
		if !eval[bool](t, ctx, `document.getElementById("orientation").hidden`) {
			t.Errorf("%s shows the orientation", path)
		}
	}
}

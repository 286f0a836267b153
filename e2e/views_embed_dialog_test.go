//go:build e2e

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Issue 16: the Embed dialog generates the iframe code with size and
// options, as they change, and its snippet opens a working embed.
func TestEmbedDialogSnippet(t *testing.T) {
	ctx := newPage(t, 90*time.Second)
	open(t, ctx, "/?preset=hikey960-short-sysbench")
	waitResult(t, ctx)
	click(t, ctx, "#copy-embed")
	run(t, ctx, "dialog", chromedp.WaitVisible("#embed-snippet", chromedp.ByQuery))
	snip := func() string { return eval[string](t, ctx, `document.getElementById("embed-snippet").value`) }
	if s := snip(); !strings.Contains(s, `width="800" height="460"`) || !strings.Contains(s, "embed=1") {
		t.Errorf("default snippet %q", s)
	}
	input(t, ctx, "embed-width", "100%")
	input(t, ctx, "embed-height", "520")
	eval[bool](t, ctx, `(e => (e.checked = false, e.dispatchEvent(new Event("change", {bubbles: true})), true))(document.getElementById("embed-run"))`)
	input(t, ctx, "embed-parent", "https://docs.example.org/some/page")
	s := snip()
	for _, want := range []string{`width="100%"`, `height="520"`, "run=0", "parent=https%3A%2F%2Fdocs.example.org", "#s="} {
		if !strings.Contains(s, want) {
			t.Errorf("snippet lacks %q: %s", want, s)
		}
	}
	input(t, ctx, "embed-height", "tall")
	if e := text(t, ctx, "#embed-error"); !strings.Contains(e, "pixels") {
		t.Errorf("a bad height says %q", e)
	}
	shot(t, ctx, "embed-dialog")
	// The embed the dialog links to works.
	href := eval[string](t, ctx, `document.getElementById("embed-open-link").href`)
	ctx2 := newPage(t, 60*time.Second)
	run(t, ctx2, "open the embed", chromedp.Navigate(href))
	waitAttr(t, ctx2, "#figures", "data-status", "done")
}

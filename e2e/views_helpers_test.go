//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// Helpers of the compare, embed and export tests (views_*_test.go).

// waitAttr polls until the element matching sel has attribute attr equal
// to one of want, and returns the value seen. "failed" always stops.
func waitAttr(t *testing.T, ctx context.Context, sel, attr string, want ...string) string {
	t.Helper()
	var got string
	js := fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return false;
		const v = e.getAttribute(%q); const want = %s;
		return (v === "failed" || want.includes(v)) ? v : false; })()`, sel, attr, jsList(want))
	run(t, ctx, fmt.Sprintf("wait for %s[%s=%v]", sel, attr, want), chromedp.Poll(js, &got,
		chromedp.WithPollingInterval(25*time.Millisecond)))
	return got
}

func jsList(xs []string) string {
	s := "["
	for i, x := range xs {
		if i > 0 {
			s += ","
		}
		s += fmt.Sprintf("%q", x)
	}
	return s + "]"
}

// browserContextID is the tab's browser context (empty: the default one).
func browserContextID(ctx context.Context) cdp.BrowserContextID {
	if c := chromedp.FromContext(ctx); c != nil {
		return c.BrowserContextID
	}
	return ""
}

// grantClipboard lets the page at origin read and write the clipboard.
func grantClipboard(t *testing.T, ctx context.Context, origin string) {
	t.Helper()
	p := browser.GrantPermissions([]browser.PermissionType{
		browser.PermissionTypeClipboardReadWrite, browser.PermissionTypeClipboardSanitizedWrite}).WithOrigin(origin)
	if id := browserContextID(ctx); id != "" {
		p = p.WithBrowserContextID(id)
	}
	run(t, ctx, "grant clipboard permissions", p)
}

// allowDownloads saves the tab's downloads into dir.
func allowDownloads(t *testing.T, ctx context.Context, dir string) {
	t.Helper()
	p := browser.SetDownloadBehavior(browser.SetDownloadBehaviorBehaviorAllow).WithDownloadPath(dir).WithEventsEnabled(true)
	if id := browserContextID(ctx); id != "" {
		p = p.WithBrowserContextID(id)
	}
	run(t, ctx, "allow downloads", p)
}

// openView opens path and checks that the view whose element sel marks it
// was mounted rather than the playground: until wasm/ui/main.go calls
// embedview.Start and compareview.Start, ?embed=1 and ?compare= open the
// playground, and these tests say so instead of timing out.
func openView(t *testing.T, ctx context.Context, path, sel string) {
	t.Helper()
	open(t, ctx, path)
	var got string
	run(t, ctx, "wait for "+sel, chromedp.Poll(fmt.Sprintf(`document.querySelector(%q) ? "view" :
		(document.querySelector("#figures, #timeline-box, .gallery") && !document.querySelector(".embed-page, .cmp-page") ? "playground" : false)`, sel),
		&got, chromedp.WithPollingInterval(25*time.Millisecond)))
	if got == "playground" {
		t.Fatalf("%s opened the playground, not the view: hook site/embedview and site/compareview into wasm/ui/main.go (see the packages' Start)", path)
	}
}

// runSweep fills the compare view's sweep with a field path and its
// values, runs it and returns the state it ended in.
func runSweep(t *testing.T, ctx context.Context, path, values string) string {
	t.Helper()
	setField(t, ctx, "sweep-path", path)
	setField(t, ctx, "sweep-values", values)
	click(t, ctx, "#sweep-run")
	return waitAttr(t, ctx, "#sweep", "data-state", "done", "cancelled", "invalid")
}

// cancelAfterFirstPoint clicks the sweep's Cancel from inside the page
// the moment its first point lands: a round trip through the test driver
// can let further points finish on a loaded machine.
func cancelAfterFirstPoint(t *testing.T, ctx context.Context) {
	t.Helper()
	var first bool
	run(t, ctx, "cancel after the first point", chromedp.Evaluate(`new Promise(resolve => {
		const iv = setInterval(() => {
			// >= 1, not === 1: two points landing between two polls must not hang the test
			if (Number(document.getElementById("sweep-progress").getAttribute("value")) >= 1) {
				clearInterval(iv);
				document.getElementById("sweep-cancel").click();
				resolve(true);
			}
		}, 1);
	})`, &first, awaitPromise))
}

// sweepRows are the sweep table's rows, cell texts.
func sweepRows(t *testing.T, ctx context.Context) [][]string {
	t.Helper()
	return eval[[][]string](t, ctx, `[...document.querySelectorAll("#sweep-table tbody tr")].map(r => [...r.children].map(c => c.textContent))`)
}

//go:build e2e

package e2e

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Issue 16, bug 3: docs/embed-example.html works opened as a file, as it
// says (Chromium gives a file: page's origin as "file://" and refuses it
// as a postMessage target), and served beside the site (dist/docs/).
func TestEmbedExampleHostPage(t *testing.T) {
	abs, err := filepath.Abs("../docs/embed-example.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, url string }{
		{"file", (&url.URL{Scheme: "file", Path: abs}).String() + "?base=" + url.QueryEscape(baseURL+"/")},
		{"served", baseURL + "/docs/embed-example.html"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := newPage(t, 90*time.Second)
			run(t, ctx, "open "+c.url, chromedp.Navigate(c.url))
			logText := func() string { return eval[string](t, ctx, `document.getElementById("log").textContent`) }
			if err := chromedp.Run(ctx, chromedp.Poll(`document.getElementById("log").textContent.includes("schedplay:ready")`, nil,
				chromedp.WithPollingTimeout(30*time.Second))); err != nil {
				t.Fatalf("no schedplay:ready reached the host page (log %q): %v", logText(), err)
			}
			eval[bool](t, ctx, `(document.getElementById("setrun").click(), true)`)
			if err := chromedp.Run(ctx, chromedp.Poll(`(() => { const f = document.getElementById("f-thr").textContent;
				return f !== "–" ? f : false; })()`, nil, chromedp.WithPollingTimeout(40*time.Second))); err != nil {
				t.Fatalf("no result reached the host page (log %q): %v", logText(), err)
			}
			if thr := text(t, ctx, "#f-thr"); strings.Contains(thr, "error") {
				t.Errorf("the run answered an error: %q", thr)
			}
			if name := text(t, ctx, "#f-name"); !strings.Contains(name, "sysbench on HiKey960") {
				t.Errorf("the host page shows scenario %q", name)
			}
			// sysbench-cpu wakes nothing up: no p99 to show (not "0.0 µs").
			if p99 := text(t, ctx, "#f-p99"); p99 != "—" {
				t.Errorf("wake-up latency p99 of a run without wake-ups: %q", p99)
			}
		})
	}
}

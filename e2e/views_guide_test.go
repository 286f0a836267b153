//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Issue 16, the guide: every page of /guide/ loads, every embedded
// playground reaches schedplay:ready and shows its figure, and the first
// button in the prose drives its playground to a new result.
func TestGuidePagesEmbedsReady(t *testing.T) {
	pages, _ := filepath.Glob(filepath.Join(os.Getenv("SCHEDPLAY_DIST"), "guide", "*.html"))
	if len(pages) < 6 {
		t.Fatalf("the build has %d guide pages, want an index and 5 concepts (./build.sh build)", len(pages))
	}
	frames := 0
	for _, p := range pages {
		name := filepath.Base(p)
		t.Run(strings.TrimSuffix(name, ".html"), func(t *testing.T) {
			ctx := newPage(t, 180*time.Second)
			run(t, ctx, "open", chromedp.Navigate(baseURL+"/guide/"+name), chromedp.WaitVisible("main.guide h1", chromedp.ByQuery))
			n := eval[int](t, ctx, `document.querySelectorAll("iframe.guide-embed").length`)
			frames += n
			if name != "index.html" && n == 0 {
				t.Fatalf("%s embeds no playground", name)
			}
			// Every frame: ready, and its figures drawn (the headline).
			run(t, ctx, "embeds ready with figures", chromedp.Poll(`(() => {
				let ok = true;
				for (const f of document.querySelectorAll("iframe.guide-embed")) {
					f.scrollIntoView({block: "nearest"});
					const d = f.contentDocument, fig = d && d.querySelector("#figures[data-status=done] #fig-throughput, #figures[data-status=done] #fig-latency");
					if (f.dataset.ready !== "1" || !fig || !fig.textContent.trim()) ok = false;
				}
				return ok;
			})()`, nil, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(150*time.Second)))
			if n == 0 {
				return
			}
			if name == "rt-fair.html" {
				// The fair server ran the starved fair task: the embed says for how long.
				fig := eval[string](t, ctx, `(f => { const e = f.contentDocument.querySelector("#fig-rt-bandwidth"); return e ? e.textContent : ""; })(document.querySelector("iframe.guide-embed"))`)
				if !strings.Contains(fig, "fair server") || !strings.Contains(fig, "ms /") {
					t.Errorf("rt-fair: the embed's fair server figure reads %q", fig)
				}
			}
			// The prose drives its playground: a new result arrives.
			btn := eval[string](t, ctx, `(b => b ? (b.click(), b.dataset.frame) : "")(document.querySelector(".guide-control button"))`)
			if btn == "" {
				t.Fatal("no control button in the prose")
			}
			run(t, ctx, "driven", chromedp.Poll(`document.getElementById(`+jsList([]string{btn})+`[0]).dataset.results === "1"`, nil,
				chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(150*time.Second)))
			if st := text(t, ctx, "#"+btn+"-status"); !strings.HasPrefix(st, "done") {
				t.Errorf("status after the button: %q", st)
			}
		})
	}
	t.Logf("%d pages, %d embedded playgrounds", len(pages), frames)
}

//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"schedplay/engine/scenario"
	"schedplay/engine/scenario/scenariotest"
	"schedplay/site/viewkit"
)

// observeLongTasks makes every document the tab opens record its main
// thread's long tasks (PerformanceObserver "longtask" entries: tasks over
// 50 ms) in window.__longTasks, from before the page's own scripts run.
func observeLongTasks(t *testing.T, ctx context.Context) {
	t.Helper()
	run(t, ctx, "observe long tasks", chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(`window.__longTasks = [];
new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push([Math.round(e.startTime), Math.round(e.duration)]); })
  .observe({type: "longtask", buffered: true});
new MutationObserver((_, o) => {
  const r = document.getElementById("root");
  if (r && r.getAttribute("data-ready") === "1" && !window.__readyAt) { window.__readyAt = Math.round(performance.now()); o.disconnect(); }
}).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-ready"]});`).Do(ctx)
		return err
	}))
}

// shareLink is the #s= fragment of a scenario document.
func shareLink(t *testing.T, doc string) string {
	t.Helper()
	s, err := scenario.Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	p, err := scenario.EncodeShare(s)
	if err != nil {
		t.Fatal(err)
	}
	return "#s=" + p
}

// TestHostileLinksNeverBlock opens each hostile link of issue 17 in every
// view that takes a link and checks that, while the view handles the link
// (decoding, validation, topology build, refusal: from viewkit.LinkMark to
// viewkit.LinkDoneMark), the page's main thread never blocks for more than
// 200 ms: long-task entries, an observed property, not a timing of the
// run. The playground is opened on its default scenario first and the link
// pasted into its address (a hash change, handled in place); the other
// views read their link at boot. After the link no task may freeze the
// page (1 s); the boot's and the drawing's long tasks are logged
// (MEASURE): on this 2-core machine they pass 200 ms for any link (the
// views' own cost, the same for any link of the same machine).
func TestHostileLinksNeverBlock(t *testing.T) {
	// freezeMs bounds any task after the link, drawing included (the
	// links froze the tab for 61 s to 2 min 44 s; a large machine's
	// drawing takes a few hundred ms here, the views' own business).
	const freezeMs = 1000
	numa := shareLink(t, scenariotest.NUMA64())
	names := shareLink(t, strings.Replace(scenariotest.TerminalEscape(), `"name": "g\u001b[2J"`, `"name": "`+strings.Repeat("n", 60<<10)+`"`, 1))
	pingpong := shareLink(t, scenariotest.PingPong(9_900_000, 4))
	playground := `document.querySelector("#figures[data-status='failed'], #figures[data-status='running'], #run-error")`
	for _, tt := range []hostileLink{
		{"NUMA64 playground", numa, true, `document.querySelector("#run-error") && document.querySelector("#topology .issue")`},
		{"NUMA64 embed", "/?embed=1" + numa, false, `document.querySelector("#embed-status[data-state='failed']")`},
		{"NUMA64 compare", "/?compare=1" + numa, false, `document.querySelector("#cmp-status[data-state='failed']")`},
		{"NUMA64 step", "/?step=1" + numa, false, `document.querySelector("#step-status[data-state='failed']")`},
		{"60 KB name playground", names, true, playground},
		{"ping-pong 9.9 M × 4 playground", pingpong, true, playground},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// The bounds are timings on a shared 2-core machine: a page
			// that goes past them twice in a row fails (a link that really
			// freezes the tab does so every time; the links this test is
			// about froze it for 61 s to 2 min 44 s).
			var problems []string
			for try := 1; try <= 2; try++ {
				if problems = tt.once(t, freezeMs); len(problems) == 0 {
					return
				}
				logf("hostile link %s, try %d: %s", tt.name, try, strings.Join(problems, "; "))
			}
			for _, p := range problems {
				t.Error(p)
			}
		})
	}
}

// hostileLink is one case of TestHostileLinksNeverBlock.
type hostileLink struct {
	name, path string
	inPlace    bool   // pasted into an open playground
	done       string // JS: true once the page has answered
}

// once opens the link in a new tab (or pastes it into an open playground),
// waits until the page has answered, and returns what went over the
// bounds: a main-thread task over 200 ms while the link was handled, or
// over freezeMs after it.
func (tt hostileLink) once(t *testing.T, freezeMs float64) []string {
	t.Helper()
	ctx := newPage(t, 120*time.Second)
	observeLongTasks(t, ctx)
	var from float64
	if tt.inPlace {
		open(t, ctx, defaultPath())
		waitResult(t, ctx)
		time.Sleep(time.Second) // the first result's drawing
		from = eval[float64](t, ctx, fmt.Sprintf(`(() => { const t = performance.now(); location.hash = %q; return t; })()`, tt.path))
	} else {
		run(t, ctx, "open", chromedp.Navigate(baseURL+tt.path), chromedp.WaitVisible(`#root[data-ready="1"]`, chromedp.ByQuery))
	}
	run(t, ctx, "the page answers", chromedp.Poll(fmt.Sprintf(`!!(%s)`, tt.done), nil,
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(60*time.Second)))
	time.Sleep(time.Second) // what the page does right after
	mark := func(name string) float64 {
		return eval[float64](t, ctx, fmt.Sprintf(`(performance.getEntriesByName(%q).at(-1) || {startTime: -1}).startTime`, name))
	}
	if !tt.inPlace {
		from = mark(viewkit.LinkMark)
	}
	to := mark(viewkit.LinkDoneMark)
	if from < 0 || to < from {
		t.Fatalf("the view's link marks are missing: %s at %.0f, %s at %.0f", viewkit.LinkMark, from, viewkit.LinkDoneMark, to)
	}
	long := eval[[][2]int](t, ctx, `window.__longTasks`)
	logf("MEASURE hostile link %s: the link handled from %.0f to %.0f ms; main-thread long tasks (start, ms) %v", tt.name, from, to, long)
	var problems []string
	for _, l := range long {
		// Only the part of a task inside [from, to] is the link's
		// handling: the view marks `to` when it has the engine's answer,
		// before it draws, so a task that starts at the mark is the
		// drawing, held to freezeMs like any task after the link.
		at, dur := float64(l[0]), float64(l[1])
		switch in := min(at+dur, to) - max(at, from); {
		case in > 200:
			problems = append(problems, fmt.Sprintf("handling the link, the main thread blocked for %.0f ms of a %d ms task at %d ms (long tasks %v)", in, l[1], l[0], long))
		case at >= from && dur > freezeMs:
			problems = append(problems, fmt.Sprintf("after the link, the page froze for %d ms at %d ms (long tasks %v)", l[1], l[0], long))
		}
	}
	return problems
}

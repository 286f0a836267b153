//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"schedplay/engine/scenario"
	"schedplay/presets"
)

// hostPage is a documentation page on another origin that frames the
// embed view and records every message the frame sends.
const hostPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>embed host</title>
<style>body{font:14px system-ui;margin:16px} iframe{border:1px solid #ccc}</style></head>
<body><h1>A documentation page</h1>
<iframe id="frame" width="820" height="460" title="schedplay" src="%s"></iframe>
<script>
window.msgs = [];
const frame = document.getElementById("frame");
window.addEventListener("message", (ev) => {
  if (ev.source !== frame.contentWindow) return;
  window.msgs.push({origin: ev.origin, data: ev.data});
});
window.send = (m) => frame.contentWindow.postMessage(m, %q);
window.find = (type, id) => window.msgs.map(m => m.data).find(d => d && d.type === type && (id === undefined || d.id === id)) || false;
</script></body></html>`

// shareOf is the #s= payload of a seed scenario.
func shareOf(t *testing.T, name string) string {
	t.Helper()
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.FromReference(name, ps)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.EncodeShare(sc)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// waitMsg waits for a message of type (and id, when not nil) from the
// frame and returns its data.
func waitMsg(t *testing.T, ctx context.Context, typ string, id any) map[string]any {
	t.Helper()
	arg := "undefined"
	if id != nil {
		b, _ := json.Marshal(id)
		arg = string(b)
	}
	var got map[string]any
	run(t, ctx, "wait for "+typ, chromedp.Poll(fmt.Sprintf(`window.find(%q, %s)`, typ, arg), &got,
		chromedp.WithPollingInterval(25*time.Millisecond)))
	return got
}

func TestEmbedInIframeAnswersPostMessage(t *testing.T) {
	host := httptest.NewServer(nil)
	defer host.Close()
	frameSrc := baseURL + "/?embed=1&parent=" + url.QueryEscape(host.URL) + "#s=" + shareOf(t, "hikey960-short-sysbench")
	host.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, hostPage, frameSrc, baseURL)
	})
	ctx := newPage(t, 120*time.Second)
	run(t, ctx, "open the host page", chromedp.Navigate(host.URL+"/doc.html"))

	var ready map[string]any
	if err := chromedp.Run(ctx, chromedp.Poll(`window.find("schedplay:ready")`, &ready,
		chromedp.WithPollingInterval(25*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatalf("no schedplay:ready from the frame within 30 s (%v): is site/embedview hooked into wasm/ui/main.go?", err)
	}
	if ready["version"] != float64(1) || ready["scenario"] != "hikey960 short sysbench" {
		t.Errorf("ready = %v; want version 1 and the scenario's name", ready)
	}
	if o := eval[string](t, ctx, `window.msgs[0].origin`); o != baseURL {
		t.Errorf("ready came from %q; want the playground's origin %q", o, baseURL)
	}

	// Run: progress, then the result with the summary and a link.
	run(t, ctx, "send run", chromedp.Evaluate(`window.send({type: "schedplay:run", id: 7}); true`, nil))
	res := waitMsg(t, ctx, "schedplay:result", 7)
	sum, _ := res["summary"].(map[string]any)
	tp, _ := sum["throughput"].(map[string]any)
	if res["scenario"] != "hikey960 short sysbench" || res["reps"] != float64(10) || res["unit"] != "work/s" {
		t.Errorf("result = %v", res)
	}
	if m, _ := tp["mean"].(float64); m <= 0 {
		t.Errorf("result throughput = %v; want a positive mean", tp)
	}
	if l, _ := res["link"].(string); !strings.HasPrefix(l, baseURL+"/") || !strings.Contains(l, "#s=") || strings.Contains(l, "embed=") {
		t.Errorf("result link = %q; want the playground address with the scenario", l)
	}
	if _, ok := res["timeline"]; ok {
		t.Error("the result carries the timeline; the spec leaves it out")
	}
	waitMsg(t, ctx, "schedplay:progress", 7)

	// An invalid scenario: error with the field's path, the old scenario kept.
	run(t, ctx, "send a bad set", chromedp.Evaluate(`window.send({type: "schedplay:set", id: "bad",
		scenario: {schedplay: 1, preset: "hikey960-short-sysbench", policy: {hz: 1}}}); true`, nil))
	bad := waitMsg(t, ctx, "schedplay:error", "bad")
	if bad["path"] != "policy.hz" {
		t.Errorf("error = %v; want path policy.hz", bad)
	}
	// A malformed schedplay message is answered; foreign traffic is not.
	run(t, ctx, "send junk", chromedp.Evaluate(`window.send({hello: 1}); window.send({type: "other:x", id: 1});
		window.send({type: "schedplay:launch", id: "junk"}); true`, nil))
	if e := waitMsg(t, ctx, "schedplay:error", "junk"); !strings.Contains(fmt.Sprint(e["message"]), "unknown message type") {
		t.Errorf("junk error = %v", e)
	}
	// set + run with a preset name and an override.
	run(t, ctx, "send set", chromedp.Evaluate(`window.send({type: "schedplay:set", id: 9, scenario: "hikey960-short-sysbench",
		set: ["name=two threads", "workload.groups[0].count=2", "run.reps=3"], run: true}); true`, nil))
	ack := waitMsg(t, ctx, "schedplay:ack", 9)
	if ack["scenario"] != "two threads" || ack["of"] != "schedplay:set" {
		t.Errorf("ack = %v", ack)
	}
	res9 := waitMsg(t, ctx, "schedplay:result", 9)
	if res9["reps"] != float64(3) || res9["scenario"] != "two threads" {
		t.Errorf("result after set = %v", res9)
	}
	// Ping answers ready again.
	run(t, ctx, "send ping", chromedp.Evaluate(`window.msgs = []; window.send({type: "schedplay:ping", id: 3}); true`, nil))
	if r := waitMsg(t, ctx, "schedplay:ready", nil); r["scenario"] != "two threads" {
		t.Errorf("ready after ping = %v", r)
	}
	if n := eval[int](t, ctx, `window.msgs.filter(m => m.data.type === "schedplay:error").length`); n != 0 {
		t.Errorf("foreign messages were answered: %v", eval[any](t, ctx, `window.msgs`))
	}
	time.Sleep(300 * time.Millisecond) // let the frame draw the last result
	shot(t, ctx, "embed-view")
}

// storageSpy counts every use of the storage APIs the embed must not touch.
const storageSpy = `(() => {
  window.__storage = [];
  const note = (what) => window.__storage.push(what);
  for (const name of ["localStorage", "sessionStorage", "indexedDB", "caches"]) {
    const d = Object.getOwnPropertyDescriptor(window, name) || Object.getOwnPropertyDescriptor(Window.prototype, name);
    if (!d || !d.get) continue;
    try { Object.defineProperty(window, name, {configurable: true, get() { note(name); return d.get.call(window); }}); } catch (e) {}
  }
  const c = Object.getOwnPropertyDescriptor(Document.prototype, "cookie");
  Object.defineProperty(document, "cookie", {configurable: true,
    get() { note("cookie"); return c.get.call(document); }, set(v) { note("cookie="); c.set.call(document, v); }});
  const push = history.pushState, replace = history.replaceState;
  history.pushState = function() { note("pushState"); return push.apply(this, arguments); };
  history.replaceState = function() { note("replaceState"); return replace.apply(this, arguments); };
})();`

func TestEmbedUsesNoStorage(t *testing.T) {
	ctx := newPage(t, 60*time.Second)
	run(t, ctx, "install the storage spy", chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := page.AddScriptToEvaluateOnNewDocument(storageSpy).Do(ctx)
		return err
	}))
	openView(t, ctx, "/?embed=1&preset=hikey960-short-sysbench", ".embed-page")
	waitAttr(t, ctx, "#figures", "data-status", "done")
	if used := eval[[]string](t, ctx, `window.__storage`); len(used) != 0 {
		t.Errorf("the embed view used %v; it must use no storage and no history", used)
	}
	for _, id := range []string{"fig-throughput", "fig-transitions", "fig-migrations"} {
		if s := text(t, ctx, "#"+id); s == "" {
			t.Errorf("#%s is empty", id)
		}
	}
	href := eval[string](t, ctx, `document.getElementById("embed-open").href`)
	if !strings.Contains(href, "#s=") || strings.Contains(href, "embed=1") {
		t.Errorf("Open in playground = %q", href)
	}
	// The figures come first; the timeline is drawn at the next frame.
	if err := chromedp.Run(ctx, chromedp.Poll(`document.getElementById("timeline").getAttribute("data-drawn") === "1"`, nil,
		chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Errorf("timeline not drawn: %v", err)
	}
	// The spy works: the playground itself does use localStorage.
	open(t, ctx, "/?preset=hikey960-short-sysbench")
	waitResult(t, ctx)
	if used := eval[[]string](t, ctx, `window.__storage`); len(used) == 0 {
		t.Errorf("the storage spy saw nothing on the playground page either; it does not work")
	}
}

func TestEmbedBadLinkShowsError(t *testing.T) {
	ctx := newPage(t, 60*time.Second)
	openView(t, ctx, "/?embed=1#s=not-a-scenario", ".embed-page")
	waitAttr(t, ctx, "#embed-status", "data-state", "failed")
	if s := text(t, ctx, "#embed-status"); !strings.Contains(s, "could not be read") {
		t.Errorf("status = %q", s)
	}
}

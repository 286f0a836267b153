//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"schedplay/engine/scenario"
)

// explainOpen reports whether the explain panel is shown.
func explainOpen(t *testing.T, ctx context.Context) bool {
	t.Helper()
	return eval[bool](t, ctx, `(() => { const p = document.getElementById("explain-panel"); return !!p && !p.hidden; })()`)
}

// Click a slice of the default scenario's timeline (hikey960, sysbench):
// the explain panel names the decision with linked kernel functions, shows
// a function's KERNEL-MAP entry in the page, and closes with Escape; Enter
// on the focused timeline opens it from the keyboard.
func TestExplainPanel(t *testing.T) {
	ctx := newPage(t, 90*time.Second)
	open(t, ctx, defaultPath()) // "/" opens the last scenario an earlier test left in localStorage
	if st := waitResult(t, ctx); st != "done" {
		t.Fatalf("default scenario: %s", st)
	}
	if !eval[bool](t, ctx, `!!document.getElementById("open-step")`) {
		t.Error("no Step button in the playground toolbar")
	}
	// Find a slice: click down a column of the canvas until one opens.
	rect := eval[map[string]float64](t, ctx, `(() => { const r = document.getElementById("timeline").getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height}; })()`)
	opened := false
	for _, fx := range []float64{0.35, 0.6, 0.8} {
		for y := rect["y"] + 24; y < rect["y"]+rect["h"]-2 && !opened; y += 5 {
			run(t, ctx, "click the timeline", chromedp.MouseClickXY(rect["x"]+rect["w"]*fx, y))
			opened = explainOpen(t, ctx)
		}
		if opened {
			break
		}
	}
	if !opened {
		t.Fatal("no click on the timeline opened the explain panel")
	}
	head := text(t, ctx, "#explain-panel h3")
	path := eval[[]string](t, ctx, `[...document.querySelectorAll("#explain-path li")].map(l => l.textContent)`)
	funcs := eval[[]string](t, ctx, `[...document.querySelectorAll("#explain-panel a.kernel")].map(a => a.dataset.func + " " + a.getAttribute("href"))`)
	t.Logf("explain panel: %q; path %q; links %q", head, path, funcs)
	if !strings.HasPrefix(head, "Why is ") || !strings.Contains(head, "pid") || len(path) < 2 {
		t.Fatalf("panel heading %q, path %q", head, path)
	}
	if len(funcs) == 0 || !strings.Contains(funcs[0], " docs/KERNEL-MAP.md#") {
		t.Fatalf("no kernel function linked to KERNEL-MAP.md: %q", funcs)
	}
	kind := eval[string](t, ctx, `document.getElementById("explain-panel").dataset.kind`)
	if kind == "" {
		t.Error("the panel names no decision kind")
	}
	// A forked worker's slice also shows where sched_exec() put the
	// parent (the default scenario's parent is drawn, not pinned).
	if exec := eval[[]string](t, ctx, `[...document.querySelectorAll("#explain-exec li")].map(l => l.textContent)`); kind == "fork" && (len(exec) < 2 || !strings.Contains(exec[0], "exec'ed")) {
		t.Errorf("a fork's panel without the parent's exec: %q", exec)
	} else if kind != "fork" && len(exec) > 0 {
		t.Errorf("a %s panel with an exec: %q", kind, exec)
	}
	// A kernel function's entry, in the page.
	run(t, ctx, "click a kernel function", chromedp.Click("#explain-panel a.kernel", chromedp.ByQuery))
	waitAttr(t, ctx, "#explain-kernel", "data-anchor", strings.ToLower(strings.Fields(funcs[0])[0]))
	entry := text(t, ctx, "#explain-kernel")
	if !strings.Contains(entry, strings.Fields(funcs[0])[0]+"()") || len(entry) < 60 {
		t.Errorf("KERNEL-MAP entry %q", entry)
	}
	fullShot(t, ctx, "explain-panel")
	// Escape closes it (focus is in the panel after the link click).
	run(t, ctx, "focus the panel", chromedp.Focus("#explain-panel", chromedp.ByQuery), chromedp.KeyEvent(kb.Escape))
	if explainOpen(t, ctx) {
		t.Fatal("Escape did not close the explain panel")
	}
	if !eval[bool](t, ctx, `document.activeElement === document.getElementById("timeline")`) {
		t.Error("closing did not return the focus to the timeline")
	}
	// Keyboard: Enter on the focused timeline.
	run(t, ctx, "Enter on the timeline", chromedp.Focus("#timeline", chromedp.ByQuery), chromedp.KeyEvent(kb.Enter))
	if !explainOpen(t, ctx) {
		t.Fatal("Enter on the timeline did not open the explain panel")
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#explain-panel a.kernel").length`); n == 0 {
		t.Error("keyboard-opened panel has no linked kernel function")
	}
	// The panel's navigation: the next placement of the task, if any.
	if eval[bool](t, ctx, `!!document.getElementById("explain-next")`) {
		before := eval[string](t, ctx, `document.getElementById("explain-panel").dataset.interval + "/" + document.getElementById("explain-panel").dataset.cpu`)
		run(t, ctx, "next placement", chromedp.Click("#explain-next", chromedp.ByQuery))
		after := eval[string](t, ctx, `document.getElementById("explain-panel").dataset.interval + "/" + document.getElementById("explain-panel").dataset.cpu`)
		if before == after {
			t.Errorf("next placement stayed on slice %s", before)
		}
	}
	run(t, ctx, "Escape", chromedp.KeyEvent(kb.Escape))
	if explainOpen(t, ctx) {
		t.Error("Escape did not close the keyboard-opened panel")
	}
	// A new run makes an open explanation stale: the panel closes.
	run(t, ctx, "Enter on the timeline", chromedp.Focus("#timeline", chromedp.ByQuery), chromedp.KeyEvent(kb.Enter))
	if !explainOpen(t, ctx) {
		t.Fatal("Enter did not reopen the panel")
	}
	var closed bool
	run(t, ctx, "run again and wait for the panel to close", chromedp.Click("#run", chromedp.ByQuery),
		chromedp.Poll(`document.getElementById("explain-panel").hidden`, &closed, chromedp.WithPollingTimeout(30*time.Second)))
}

// stepState is the counter and every runqueue row's content.
func stepState(t *testing.T, ctx context.Context) (string, []string) {
	t.Helper()
	return eval[string](t, ctx, `document.getElementById("step-counter").dataset.events`),
		eval[[]string](t, ctx, `[...document.querySelectorAll("#runqueues tbody tr")].map(r => r.dataset.key)`)
}

// clickStep clicks a step control and waits for the counter to show want.
func clickStep(t *testing.T, ctx context.Context, sel string, want int) {
	t.Helper()
	run(t, ctx, "click "+sel, chromedp.Click(sel, chromedp.ByQuery))
	waitAttr(t, ctx, "#step-counter", "data-events", fmt.Sprint(want))
	if st := waitAttr(t, ctx, "#step-status", "data-state", "done"); st != "done" {
		t.Fatalf("after %s: %s", sel, text(t, ctx, "#step-status"))
	}
}

// Step mode on hikey960: step a few events, see the counter and a
// runqueue change, and Back returns exactly to the previous state.
func TestStepMode(t *testing.T) {
	ctx := newPage(t, 120*time.Second)
	openView(t, ctx, "/?step=1&preset=hikey960-sysbench", ".step-page")
	if st := waitAttr(t, ctx, "#step-status", "data-state", "done"); st != "done" {
		t.Fatalf("step view: %s", text(t, ctx, "#step-status"))
	}
	n0, rq0 := stepState(t, ctx)
	if n0 != "0" || len(rq0) != 8 {
		t.Fatalf("start: counter %s, %d runqueues (hikey960 has 8 CPUs)", n0, len(rq0))
	}
	for i := 1; i <= 3; i++ {
		clickStep(t, ctx, "#step-next", i)
	}
	n3, rq3 := stepState(t, ctx)
	if strings.Join(rq3, "\n") == strings.Join(rq0, "\n") {
		t.Fatalf("three events changed no runqueue: %q", rq3)
	}
	ev := text(t, ctx, "#step-event-text")
	if !strings.HasPrefix(ev, "#3 at ") {
		t.Errorf("last event %q", ev)
	}
	clickStep(t, ctx, "#step-10", 13)
	_, rq13 := stepState(t, ctx)
	clickStep(t, ctx, "#step-next", 14)
	_, rq14 := stepState(t, ctx)
	t.Logf("event 3: %s; runqueues at 14: %q", ev, rq14)
	clickStep(t, ctx, "#step-back", 13)
	if _, back := stepState(t, ctx); strings.Join(back, "\n") != strings.Join(rq13, "\n") {
		t.Errorf("Back from 14 gave\n%q\nwant the state at 13\n%q", back, rq13)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#step-event a.kernel").length`); n == 0 {
		t.Error("no linked kernel function in the last event's decision path")
	}
	if s := text(t, ctx, "#step-llcs"); !strings.Contains(s, "has_idle_cores=") {
		t.Errorf("idle cores section %q", s)
	}
	if d := eval[string](t, ctx, `document.getElementById("step-timeline").dataset.drawn`); d != "1" {
		t.Errorf("timeline drawn = %q", d)
	}
	fullShot(t, ctx, "step-mode")
	clickStep(t, ctx, "#step-reset", 0)
	if n, rq := stepState(t, ctx); n != "0" || strings.Join(rq, "\n") != strings.Join(rq0, "\n") || n3 != "3" {
		t.Errorf("Reset: counter %s, runqueues %q", n, rq)
	}
}

// A machine too large to show is refused politely, with the limit.
func TestStepModeRefusesLargeMachine(t *testing.T) {
	ctx := newPage(t, 60*time.Second)
	openView(t, ctx, "/?step=1&preset=vera-sgemm-nvpl", ".step-page")
	waitAttr(t, ctx, "#step-status", "data-state", "failed")
	if s := text(t, ctx, "#step-status"); !strings.Contains(s, "at most 64 CPUs") {
		t.Errorf("status %q", s)
	}
}

// Names from the scenario (its name, a task group's name) are shown as
// text in the explain panel and the step view, never parsed as HTML.
func TestExplainAndStepTextOnly(t *testing.T) {
	sc, err := scenario.Decode([]byte(`{"schedplay":1,"name":"<b id=pwn1>x</b>","machine":{"preset":"hikey960"},"policy":{"preset":"mainline"},
		"workload":{"groups":[{"name":"<img id=pwn2 src=x>","count":2,"program":[{"compute":"5ms"}]}]},"run":{"duration":"20ms","reps":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	share, err := scenario.EncodeShare(sc)
	if err != nil {
		t.Fatal(err)
	}
	ctx := newPage(t, 90*time.Second)
	open(t, ctx, "/#s="+share)
	if st := waitResult(t, ctx); st != "done" {
		t.Fatalf("scenario: %s", st)
	}
	run(t, ctx, "Enter on the timeline", chromedp.Focus("#timeline", chromedp.ByQuery), chromedp.KeyEvent(kb.Enter))
	if !explainOpen(t, ctx) {
		t.Fatal("Enter did not open the explain panel")
	}
	if h := text(t, ctx, "#explain-panel h3"); !strings.Contains(h, "<img id=pwn2 src=x>") {
		t.Errorf("panel heading %q does not show the task's name as text", h)
	}
	openView(t, ctx, "/?step=1#s="+share, ".step-page")
	waitAttr(t, ctx, "#step-status", "data-state", "done")
	clickStep(t, ctx, "#step-next", 1)
	if h := text(t, ctx, "#step-scenario"); h != "<b id=pwn1>x</b>" {
		t.Errorf("scenario heading %q", h)
	}
	if s := text(t, ctx, "#runqueues"); !strings.Contains(s, "<img id=pwn2 src=x>") {
		t.Errorf("runqueues do not show the task name as text: %q", s)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("#pwn1, #pwn2").length`); n != 0 {
		t.Errorf("%d elements made from scenario strings", n)
	}
}

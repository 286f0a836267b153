//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"schedplay/engine/sim"
	"schedplay/site"
	"schedplay/site/playground"
	"schedplay/site/viewkit"
)

// shortVera is vera-sgemm-nvpl cut to one 600 ms repetition (352 CPUs).
func shortVera(t *testing.T) string {
	t.Helper()
	cat, err := site.EmbeddedCatalog()
	if err != nil {
		t.Fatal(err)
	}
	d, _ := cat.ScenarioDoc("vera-sgemm-nvpl")
	for path, v := range map[string]any{"run.duration": "600ms", "run.reps": json.Number("1")} {
		if d, err = d.Edit(path, v, cat); err != nil {
			t.Fatal(err)
		}
	}
	return "/#" + site.EncodeFragment(d)
}

// pixel reads the timeline canvas's pixel at CSS (x, y) as "r,g,b,a".
func pixel(t *testing.T, ctx context.Context, x, y float64) [4]int {
	t.Helper()
	v := eval[[]int](t, ctx, fmt.Sprintf(`(() => { const c = document.getElementById("timeline"), d = devicePixelRatio;
		return [...c.getContext("2d").getImageData(Math.round(%f*d), Math.round(%f*d), 1, 1).data]; })()`, x, y))
	return [4]int{v[0], v[1], v[2], v[3]}
}

func hexRGB(h string) [3]int {
	n, _ := strconv.ParseUint(strings.TrimPrefix(h, "#"), 16, 32)
	return [3]int{int(n >> 16), int(n >> 8 & 255), int(n & 255)}
}

// Issue 16, readability at 176–352 CPUs: on Vera the aggregated rows' mode
// bands are opaque stacks of the share of their cores in each mode (they
// were one 3 px strip of six cores at alpha 1/6), both legends are there,
// a search highlights a group's slices, "CPU" jumps to one row per CPU at
// that CPU, the wheel zooms in both layouts, and the slice being explained
// is outlined.
func TestVeraTimelineReadable(t *testing.T) {
	ctx := newPage(t, 240*time.Second)
	open(t, ctx, shortVera(t))
	if st := waitResult(t, ctx); st != "done" {
		t.Fatalf("status %q", st)
	}
	run(t, ctx, "drawn", chromedp.Poll(`document.getElementById("timeline").dataset.drawn === "1"`, nil))
	shot(t, ctx, "vera-aggregated")
	// The bands: find an aggregated band whose bottom pixel is a mode
	// colour exactly (opaque), somewhere along the row.
	layout := eval[struct{ Rows, W float64 }](t, ctx, `({Rows: +document.getElementById("timeline").dataset.rows, W: document.getElementById("timeline").clientWidth})`)
	if layout.Rows >= 352 || layout.Rows == 0 {
		t.Fatalf("Vera is not aggregated: %v rows", layout.Rows)
	}
	cat, _ := site.EmbeddedCatalog()
	d, _ := cat.ScenarioDoc("vera-sgemm-nvpl")
	cpus, err := playground.State{Doc: d, Catalog: cat}.CPUs()
	if err != nil {
		t.Fatal(err)
	}
	l := site.LayoutLanes(cpus, 470-20, false)
	modes := map[[3]int]bool{}
	for _, mo := range []sim.Mode{sim.ModeST, sim.ModeSMT, sim.ModePartitioned, sim.ModeSwitching} {
		modes[hexRGB(viewkit.ModeColor(mo, false))] = true
	}
	opaque := 0
	for _, bd := range l.Bands[:6] {
		for x := 120.0; x < layout.W-20; x += 37 {
			p := pixel(t, ctx, x, 20+bd.Y+bd.H-2)
			if modes[[3]int{p[0], p[1], p[2]}] {
				opaque++
			}
		}
	}
	if opaque == 0 {
		t.Errorf("no aggregated band pixel is a mode colour: the bands are still pale blends")
	}
	for _, id := range []string{"mode-legend", "task-legend"} {
		if txt := text(t, ctx, "#"+id); strings.TrimSpace(txt) == "" {
			t.Errorf("#%s is empty", id)
		}
	}
	// Search: the nvpl group's slices take an accent colour in the aggregated rows.
	setField(t, ctx, "find-task", "NVPL")
	eval[bool](t, ctx, `(document.getElementById("find-task").dispatchEvent(new Event("input", {bubbles: true})), true)`)
	run(t, ctx, "found", chromedp.Poll(`document.getElementById("timeline").dataset.find === "88"`, nil, chromedp.WithPollingTimeout(10*time.Second)))
	if c := text(t, ctx, "#find-count"); !strings.HasPrefix(c, "88 of ") {
		t.Errorf("find count %q", c)
	}
	blue := 0
	for x := 120.0; x < layout.W-20; x += 29 {
		p := pixel(t, ctx, x, 20+l.Rows[0].Y+l.Rows[0].H/2)
		if p[2] > p[0]+40 {
			blue++
		}
	}
	if blue == 0 {
		t.Error("the found tasks are not highlighted in the aggregated rows")
	}
	shot(t, ctx, "vera-find")
	// Jump to CPU 200: one row per CPU, CPU 200's row in view and outlined.
	setField(t, ctx, "jump-cpu", "200")
	run(t, ctx, "jumped", chromedp.Poll(`document.getElementById("timeline").dataset.rows === "352" && document.getElementById("timeline").dataset.markedRow`, nil,
		chromedp.WithPollingTimeout(10*time.Second)))
	marked, _ := strconv.Atoi(eval[string](t, ctx, `document.getElementById("timeline").dataset.markedRow`))
	var i0, i1 int
	fmt.Sscanf(eval[string](t, ctx, `document.getElementById("timeline").dataset.visibleRows`), "%d-%d", &i0, &i1)
	if marked < i0 || marked >= i1 {
		t.Errorf("CPU 200's row %d is not among the drawn rows %d–%d", marked, i0, i1)
	}
	if !eval[bool](t, ctx, `document.getElementById("all-rows").checked`) {
		t.Error("the jump turned one row per CPU on, but its box is not ticked")
	}
	if i1-i0 < 60 {
		t.Errorf("one row per CPU shows %d rows at a time", i1-i0)
	}
	shot(t, ctx, "vera-jump-cpu-200")
	// Gestures: the wheel over the plot zooms (rows stay), over the CPU
	// labels it scrolls the rows (the window stays).
	read := func() (string, string) {
		return eval[string](t, ctx, `document.getElementById("timeline").dataset.span`), eval[string](t, ctx, `document.getElementById("timeline").dataset.scrollY`)
	}
	wheel := func(x float64) {
		eval[bool](t, ctx, fmt.Sprintf(`(() => { const c = document.getElementById("timeline"); const r = c.getBoundingClientRect();
			c.dispatchEvent(new WheelEvent("wheel", {clientX: r.left + %f, clientY: r.top + 200, deltaY: -300, bubbles: true, cancelable: true})); return true; })()`, x))
		time.Sleep(150 * time.Millisecond)
	}
	span0, y0 := read()
	wheel(400)
	span1, y1 := read()
	if span1 == span0 || y1 != y0 {
		t.Errorf("wheel over the plot: span %s → %s, scroll %s → %s; want a zoom only", span0, span1, y0, y1)
	}
	wheel(30)
	span2, y2 := read()
	if span2 != span1 || y2 == y1 {
		t.Errorf("wheel over the labels: span %s → %s, scroll %s → %s; want a scroll only", span1, span2, y1, y2)
	}
	if h := text(t, ctx, "#timeline-help"); !strings.Contains(h, "over the CPU labels") {
		t.Errorf("the help does not say how to scroll: %q", h)
	}
	// The slice being explained is outlined.
	eval[bool](t, ctx, `(document.getElementById("explain-why").click(), true)`)
	run(t, ctx, "explained", chromedp.Poll(`document.getElementById("timeline").dataset.explained`, nil, chromedp.WithPollingTimeout(10*time.Second)))
	want := eval[string](t, ctx, `(p => p.dataset.cpu + ":" + p.dataset.interval)(document.getElementById("explain-panel"))`)
	if got := eval[string](t, ctx, `document.getElementById("timeline").dataset.explained`); got != want {
		t.Errorf("outlined slice %q, explained %q", got, want)
	}
	// The explained CPU's row is in view (the rows scrolled to it).
	var cpu int
	fmt.Sscanf(want, "%d:", &cpu)
	fmt.Sscanf(eval[string](t, ctx, `document.getElementById("timeline").dataset.visibleRows`), "%d-%d", &i0, &i1)
	if ri := l352(t, cpus).RowOf(cpu); ri < i0 || ri >= i1 {
		t.Errorf("the explained CPU %d (row %d) is out of view (rows %d–%d)", cpu, ri, i0, i1)
	}
	shot(t, ctx, "vera-explained")
}

// l352 is the one-row-per-CPU layout of these CPUs (rows in CPU order of
// the page's).
func l352(t *testing.T, cpus []site.LaneCPU) site.Layout {
	t.Helper()
	return site.LayoutLanes(cpus, 600, true)
}

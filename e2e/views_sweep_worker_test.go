//go:build e2e && workerd

package e2e

// The compare view's sweep on a Worker: a `wrangler dev` (workerd)
// instance on 127.0.0.1 allowing this page's origin, its URL typed in the
// sweep's "Run on" field. Run by ./build.sh test after ./build.sh worker:
//
//	SCHEDPLAY_DIST=$PWD/dist go test -count=1 -tags e2e,workerd -run Worker ./e2e/

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"schedplay/wasm/edge/edgetest"
)

func TestCompareSweepOnAWorker(t *testing.T) {
	w := edgetest.Start(t, "ALLOWED_ORIGINS:"+baseURL)
	ctx := newPage(t, 240*time.Second)
	openCompare(t, ctx, comparePath)
	if st := runSweep(t, ctx, "workload.groups[0].count", "1,2,4"); st != "done" {
		t.Fatalf("local sweep ended %q: %s", st, text(t, ctx, "#sweep-status"))
	}
	local := sweepRows(t, ctx)
	if on := eval[string](t, ctx, `document.getElementById("sweep").dataset.on`); on != "browser" {
		t.Errorf("the local sweep ran on %q", on)
	}

	// The same sweep on the Worker: the same table, the same chart.
	setField(t, ctx, "sweep-worker", w.URL+"/")
	if st := runSweep(t, ctx, "workload.groups[0].count", "1,2,4"); st != "done" {
		t.Fatalf("Worker sweep ended %q: %s\nwrangler:\n%s", st, text(t, ctx, "#sweep-status"), w.Log())
	}
	if on := eval[string](t, ctx, `document.getElementById("sweep").dataset.on`); on != "worker" {
		t.Errorf("the sweep with a Worker URL ran on %q", on)
	}
	remote := sweepRows(t, ctx)
	if fmt.Sprint(remote) != fmt.Sprint(local) || len(remote) != 3 {
		t.Errorf("the Worker's sweep table\n%q\ndiffers from this browser's\n%q", remote, local)
	}
	if v := eval[string](t, ctx, `document.getElementById("sweep-progress").getAttribute("value")`); v != "3" {
		t.Errorf("progress = %s; want 3 of 3", v)
	}
	shot(t, ctx, "compare-sweep-worker")

	// The URL is kept in this browser, never in the page's address or links.
	if got := eval[string](t, ctx, `localStorage.getItem("schedplay.sweep.worker")`); got != w.URL {
		t.Errorf("localStorage keeps %q; want %q", got, w.URL)
	}
	port := w.URL[strings.LastIndex(w.URL, ":"):]
	if leak := eval[string](t, ctx, fmt.Sprintf(`[location.href, ...[...document.querySelectorAll("a[href]")].map(a => a.href)].find(h => h.includes(%q)) || ""`, port)); leak != "" {
		t.Errorf("the Worker URL leaks into %q", leak)
	}

	// Cancel on the Worker: it stops with the points it has.
	setField(t, ctx, "sweep-values", "8,16,32,64,128,256")
	click(t, ctx, "#sweep-run")
	cancelAfterFirstPoint(t, ctx)
	if st := waitAttr(t, ctx, "#sweep", "data-state", "done", "cancelled"); st != "cancelled" {
		t.Errorf("the cancelled Worker sweep ended %q: %s", st, text(t, ctx, "#sweep-status"))
	}

	// A reload keeps the field; an address the page refuses is said so.
	openCompare(t, ctx, comparePath)
	if got := eval[string](t, ctx, `document.getElementById("sweep-worker").value`); got != w.URL {
		t.Errorf("after a reload the field holds %q; want %q", got, w.URL)
	}
	setField(t, ctx, "sweep-worker", "ftp://nowhere")
	if st := runSweep(t, ctx, "workload.groups[0].count", "1,2"); st != "invalid" || !strings.Contains(text(t, ctx, "#sweep-status"), "Worker's address") {
		t.Errorf("a bad Worker URL: %q, %s", st, text(t, ctx, "#sweep-status"))
	}
}

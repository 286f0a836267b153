//go:build e2e

package e2e

import (
	"strings"
	"testing"
	"time"
)

// Consecutive large comparisons on one engine worker: a Vera sweep of
// three points. Each point runs in its own Go instance; an instance that
// has exited must never be resumed (a timer of its runtime firing after
// exit used to throw "Go program has already exited" in the worker, and
// the page failed the request in flight).
func TestCompareSweepVeraConsecutive(t *testing.T) {
	ctx := newPage(t, 170*time.Second)
	openCompare(t, ctx, "/?compare=1&preset=vera-sgemm-nvpl")
	st := runSweep(t, ctx, "workload.groups[0].count", "22,44,88,176")
	rows := sweepRows(t, ctx)
	status := text(t, ctx, "#sweep-status")
	t.Logf("sweep %s: %s; rows %q", st, status, rows)
	if st != "done" || status != "Done: 4 points." {
		t.Fatalf("sweep ended %q: %s", st, status)
	}
	if len(rows) != 4 {
		t.Fatalf("sweep table has %d rows; want 4: %q", len(rows), rows)
	}
	for _, r := range rows {
		if len(r) != 3 || strings.Contains(r[1], "failed") || !strings.Contains(r[1], "±") {
			t.Errorf("point %q failed or has no mean ± sd", r)
		}
	}
}

// A sweep whose point fails says so: the failed point's row gives the
// reason and the status counts it, instead of "Done: 2 points.".
func TestCompareSweepReportsFailedPoints(t *testing.T) {
	ctx := newPage(t, 90*time.Second)
	openCompare(t, ctx, comparePath)
	st := runSweep(t, ctx, "workload.groups[0].count", "1,0")
	status := text(t, ctx, "#sweep-status")
	if st != "failed" || !strings.HasPrefix(status, "Done: 1 of 2 points; 1 failed: 0 (") || !strings.Contains(status, "at least 1") {
		t.Errorf("sweep with a failing point ended %q: %q; want failed, \"Done: 1 of 2 points; 1 failed: 0 (…at least 1…)\"", st, status)
	}
	rows := sweepRows(t, ctx)
	if len(rows) != 2 || !strings.Contains(rows[0][1], "±") || !strings.Contains(rows[1][1], "at least 1") {
		t.Errorf("sweep table = %q; want point 1 with values and point 0 with its error", rows)
	}
}

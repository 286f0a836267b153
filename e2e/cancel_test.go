//go:build e2e

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Issue 17: any job of the page can be cancelled. The compare view's
// comparison (the engine's run, in its worker) stops on Cancel, and the
// page says so.
func TestCompareCanBeCancelled(t *testing.T) {
	long := shareLink(t, `{"schedplay": 1, "preset": "vera-sgemm-nvpl", "run": {"reps": 100, "duration": "2s"}}`)
	ctx := newPage(t, 120*time.Second)
	open(t, ctx, "/?compare=1"+long)
	run(t, ctx, "Cancel is offered while it runs", chromedp.WaitVisible("#cmp-cancel", chromedp.ByQuery))
	click(t, ctx, "#cmp-cancel")
	if st := waitAttr(t, ctx, "#cmp-status", "data-state", "failed"); st != "failed" {
		t.Fatalf("status %s after Cancel", st)
	}
	if msg := text(t, ctx, "#cmp-status"); !strings.Contains(msg, "cancelled") {
		t.Errorf("the page does not say the comparison was cancelled: %q", msg)
	}
	run(t, ctx, "Cancel is gone", chromedp.WaitNotVisible("#cmp-cancel", chromedp.ByQuery))
}

//go:build e2e

package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Issue 16, bug 4: a control that cannot work is disabled with the reason
// shown. On Vera (352 CPUs) step mode refuses the machine while "live"
// works (issue 13: every machine re-runs live, TestLiveVeraPolicyKnob); on
// hikey960 (8 CPUs) both work.
func TestInertControlsDisabledWithReason(t *testing.T) {
	ctx := newPage(t, 120*time.Second)
	open(t, ctx, "/?preset=vera-sgemm-nvpl")
	run(t, ctx, "toolbar", chromedp.WaitVisible("#live", chromedp.ByQuery))
	type controls struct {
		LiveDisabled, LiveChecked, StepDisabled bool
		Why                                     string
	}
	read := func() controls {
		return eval[controls](t, ctx, `(() => { const l = document.getElementById("live"), s = document.getElementById("open-step"),
			w = document.getElementById("why-disabled");
			return {LiveDisabled: l.disabled, LiveChecked: l.checked, StepDisabled: s.disabled, Why: w ? w.textContent : ""}; })()`)
	}
	c := read()
	if c.LiveDisabled || !c.LiveChecked || !c.StepDisabled {
		t.Errorf("Vera: live disabled %v checked %v, Step disabled %v; want live on and Step disabled", c.LiveDisabled, c.LiveChecked, c.StepDisabled)
	}
	for _, want := range []string{"Step is off", "64 CPUs"} {
		if !strings.Contains(c.Why, want) {
			t.Errorf("Vera: the shown reason %q lacks %q", c.Why, want)
		}
	}
	if strings.Contains(c.Why, "Live is off") {
		t.Errorf("Vera: the shown reason %q says live is off", c.Why)
	}
	if vis := eval[bool](t, ctx, `(() => { const r = document.getElementById("why-disabled").getBoundingClientRect(); return r.width > 0 && r.height > 0; })()`); !vis {
		t.Error("the reason is not visible")
	}
	shot(t, ctx, "controls-disabled-vera")
	click(t, ctx, "#gallery .card[data-scenario='hikey960-sysbench']")
	run(t, ctx, "hikey960 enables them", chromedp.Poll(`!document.getElementById("live").disabled && !document.getElementById("open-step").disabled`, nil,
		chromedp.WithPollingTimeout(20*time.Second)))
	if c := read(); !c.LiveChecked || c.Why != "" {
		t.Errorf("hikey960: live checked %v, reason %q; want live on and no reason", c.LiveChecked, c.Why)
	}
}

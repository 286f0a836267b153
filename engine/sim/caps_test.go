package sim

import (
	"context"
	"slices"
	"testing"
)

// TestTimelineCaps: the timeline keeps at most TimelineCap intervals and
// DecisionCap decision records, and the result says where each was
// truncated ("truncated at N").
func TestTimelineCaps(t *testing.T) {
	r := resolveJSON(t, `{"schedplay": 1, "machine": {"nodes": 1, "cores_per_node": 2, "threads_per_core": 2},
		"workload": {"groups": [{"name": "w", "count": 6, "program": [{"repeat": 50, "do": [{"compute": "1ms"}, {"sleep": "300us"}]}]}]},
		"run": {"duration": "100ms", "seed": 3}}`)
	res, err := Run(context.Background(), r, Options{Timeline: true, TimelineCap: 40, DecisionCap: 7})
	if err != nil {
		t.Fatal(err)
	}
	tl := res.Timeline
	n := 0
	for _, runs := range tl.Runs {
		n += len(runs)
	}
	for _, modes := range tl.Modes {
		n += len(modes)
	}
	if n != 40 || len(tl.Decisions) != 7 || !tl.Truncated {
		t.Errorf("%d intervals, %d decisions, truncated %t; want 40, 7, true", n, len(tl.Decisions), tl.Truncated)
	}
	for _, w := range []string{
		"timeline truncated at 40 intervals; shorten run.duration to see all of repetition 0",
		"decision records truncated at 7; the later runs of the timeline have none",
	} {
		if !slices.Contains(res.Warnings, w) {
			t.Errorf("warnings %q lack %q", res.Warnings, w)
		}
	}
	full, err := Run(context.Background(), r, Options{Timeline: true})
	if err != nil || full.Timeline.Truncated || len(full.Warnings) != 0 {
		t.Errorf("default caps truncated a small run: %v %q", err, full.Warnings)
	}
}

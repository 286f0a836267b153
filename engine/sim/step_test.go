package sim

import (
	"context"
	"testing"
)

// Stepping in slices gives exactly what Run gives.
func TestStepperMatchesRun(t *testing.T) {
	r := resolve(t, "vera", "v6-on", "sgemm-nvpl", `{"duration":"120ms","seed":4}`)
	want := mustRun(t, r, Options{Timeline: true})
	x, err := New(context.Background(), r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for until := int64(0); !x.Done(); until += 7_000_000 {
		if _, err := x.Step(until); err != nil {
			t.Fatal(err)
		}
		sn := x.Snapshot()
		if len(sn.CPUs) != 352 || sn.Now > until {
			t.Fatalf("snapshot at %d: %d CPUs, now %d", until, len(sn.CPUs), sn.Now)
		}
	}
	got := x.Result()
	if toJSON(t, got.Reps) != toJSON(t, want.Reps) || toJSON(t, got.Timeline) != toJSON(t, want.Timeline) {
		t.Errorf("stepped result differs from Run")
	}
}

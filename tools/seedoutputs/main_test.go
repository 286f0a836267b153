package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"schedplay/presets"
)

// TestSeedOutputs: every seed run of a scenario gets a file named after its
// variant and policy, holding the simulate reply with at most two
// repetitions, and a second run writes the same bytes.
func TestSeedOutputs(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range runs(ps, "vera-futex") {
		names = append(names, r.file())
	}
	for _, want := range []string{"vera-futex____.json", "vera-futex____mainline.json", "vera-futex__parallel_wake__4_wakers___v6-on.json"} {
		if !slices.Contains(names, want) {
			t.Errorf("runs of vera-futex %q lack %q", names, want)
		}
	}
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if n, err := writeAll(context.Background(), ps, dir, "power7"); err != nil || n != 3 {
			t.Fatalf("power7-smt: %d outputs, %v; want 3 (its own policy, none, power7)", n, err)
		}
	}
	for _, f := range []string{"power7-smt____.json", "power7-smt____none.json", "power7-smt____power7.json"} {
		x, err := os.ReadFile(filepath.Join(a, f))
		if err != nil {
			t.Fatal(err)
		}
		y, _ := os.ReadFile(filepath.Join(b, f))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two runs", f)
		}
		var reply struct {
			Reps     []json.RawMessage `json:"reps"`
			Timeline json.RawMessage   `json:"timeline"`
		}
		if err := json.Unmarshal(x, &reply); err != nil || len(reply.Reps) != maxReps || len(reply.Timeline) == 0 {
			t.Errorf("%s: %d repetitions, %d bytes of timeline, %v; want %d and a timeline", f, len(reply.Reps), len(reply.Timeline), err, maxReps)
		}
	}
}

package main

import (
	"strings"
	"testing"
)

// The futex seed scenario's headline is its timed wake loop, as perf
// bench futex wake reports it; elapsed/ops (op time) is not shown for a
// workload that times its own sections, and still is for sched pipe.
func TestRunAndCompareShowTimedSections(t *testing.T) {
	for _, c := range []struct {
		args   []string
		has    []string
		hasNot []string
	}{
		{[]string{"run", "vera-futex", "--reps", "2"},
			[]string{"Throughput         none (the workload computes nothing; see its timed sections)", "Timed wake loop", " us (10 per rep)"},
			[]string{"Op time", "us/op"}},
		{[]string{"run", "vera-futex", "--variant", "parallel wake (4 wakers)", "--reps", "1"},
			[]string{"Timed per-waker wake", " us (40 per rep)"}, []string{"Op time"}},
		{[]string{"compare", "vera-futex", "--variant", "wake all", "--reps", "2"},
			[]string{"Timed wake loop", "Lower is better for:", "timed wake loop."}, []string{"Op time"}},
		{[]string{"run", "vera-sched-pipe", "--reps", "1", "--set", "run.duration=20ms"},
			[]string{"Op time"}, []string{"Timed"}},
	} {
		code, out, errOut := run(t, "", c.args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", c.args, code, errOut)
		}
		for _, f := range c.has {
			if !strings.Contains(out, f) {
				t.Errorf("%v: output lacks %q:\n%s", c.args, f, out)
			}
		}
		for _, f := range c.hasNot {
			if strings.Contains(out, f) {
				t.Errorf("%v: output has %q:\n%s", c.args, f, out)
			}
		}
	}
}

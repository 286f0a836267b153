package fidelity

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"schedplay/engine/sim"
	"schedplay/presets"
)

// TestModelOnlyRowsCurrent re-runs the model-only benchmark rows that
// calibration.md.tmpl states as text (no published figure, so they are not
// rows of figures.json) and wants the template to quote what the model
// gives now, at its stated 5 repetitions: a change of the engine that moves
// one of them fails here until the template is updated.
func TestModelOnlyRowsCurrent(t *testing.T) {
	if testing.Short() || runtime.GOOS == "js" {
		t.Skip("runs six seed scenarios at 5 repetitions (native only)")
	}
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{Presets: ps}
	ms := func(st sim.Stat) string { return fmt.Sprintf("%.1f ± %.1f ms", st.Mean/1e6, st.Stddev/1e6) }
	us := func(v float64) string { return fmt.Sprintf("%.1f µs", v/1e3) }
	perMsg := func(s *sim.Summary, msgs float64) string {
		return fmt.Sprintf("%.2f context switches per message", s.ContextSwitches.Mean/msgs)
	}
	for _, c := range []struct {
		spec  RunSpec
		quote func(s *sim.Summary) []string
	}{
		{RunSpec{Scenario: "vera-sched-pipe"}, func(s *sim.Summary) []string {
			return []string{fmt.Sprintf("%.2f ± %.2f µs/op", s.OpTime.Mean/1e3, s.OpTime.Stddev/1e3),
				"wake-up p50 " + us(s.LatencyP50.Mean), "p99 " + us(s.LatencyP99.Mean)}
		}},
		{RunSpec{Scenario: "vera-sched-messaging"}, func(s *sim.Summary) []string {
			return []string{"Total time " + ms(timed(t, s, "Total time")), perMsg(s, 160_000),
				"wake-up p50 " + us(s.LatencyP50.Mean), fmt.Sprintf("p99 %.0f µs", s.LatencyP99.Mean/1e3)}
		}},
		{RunSpec{Scenario: "vera-sched-messaging", Variant: "10 groups (perf's default)"}, func(s *sim.Summary) []string {
			return []string{"Total time " + ms(timed(t, s, "Total time"))}
		}},
		{RunSpec{Scenario: "vera-sched-messaging", Variant: "pipe"}, func(s *sim.Summary) []string {
			st := timed(t, s, "Total time")
			return []string{fmt.Sprintf("Total time %.2f ± %.2f ms", st.Mean/1e6, st.Stddev/1e6), perMsg(s, 160_000)}
		}},
		{RunSpec{Scenario: "vera-futex"}, func(s *sim.Summary) []string {
			st := timed(t, s, "wake loop")
			return []string{fmt.Sprintf("wake loop %.1f ± %.1f µs", st.Mean/1e3, st.Stddev/1e3)}
		}},
		{RunSpec{Scenario: "vera-cyclictest-idle"}, func(s *sim.Summary) []string {
			return []string{"p50 " + us(s.LatencyP50.Mean), "p99 " + us(s.LatencyP99.Mean), "max " + us(s.LatencyMax.Mean)}
		}},
	} {
		c.spec.Set = append(c.spec.Set, "run.reps=5")
		res, err := r.result(context.Background(), c.spec)
		if err != nil {
			t.Fatal(err)
		}
		row := templateRow(c.spec)
		if row == "" {
			t.Errorf("calibration.md.tmpl has no model-only row for `%s`", commandOf(c.spec))
			continue
		}
		for _, q := range c.quote(&res.Summary) {
			if !strings.Contains(row, q) {
				t.Errorf("the row of `%s` does not say %q, what the model gives now (5 repetitions):\n%s", commandOf(c.spec), q, row)
			}
		}
	}
}

func timed(t *testing.T, s *sim.Summary, name string) sim.Stat {
	t.Helper()
	st, err := statOf(s, "timed:"+name)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// commandOf is the row's command as the template prints it.
func commandOf(spec RunSpec) string {
	s := "schedplay run " + spec.Scenario
	if spec.Variant != "" {
		if strings.ContainsAny(spec.Variant, " '") {
			s += fmt.Sprintf(` --variant "%s"`, spec.Variant)
		} else {
			s += " --variant " + spec.Variant
		}
	}
	return s
}

// templateRow is the template's table row whose command column is spec's.
func templateRow(spec RunSpec) string {
	cmd := "| `" + commandOf(spec) + "` |"
	for _, line := range strings.Split(docTemplate, "\n") {
		if strings.HasSuffix(line, cmd) {
			return line
		}
	}
	return ""
}

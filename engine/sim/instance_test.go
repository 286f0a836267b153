package sim

import (
	"fmt"
	"strings"
	"testing"
)

// TestInstanceChannelsRunAsWrittenOut: a group of 6 receivers whose
// program reads "r{i}" runs exactly as 6 groups of one receiver reading
// r0 … r5 (every group forked from the same CPU, so the fork draws do not
// differ): the same channels in the same order, the same results; only
// the task names differ. Without the per-task compilation every receiver
// reads one channel "r{i}" that nobody writes, and the run cannot end.
func TestInstanceChannelsRunAsWrittenOut(t *testing.T) {
	tx := `{"name": "tx", "count": 3, "parent_cpu": 2, "program": [{"repeat": 40, "do": [` +
		`{"send": "r0", "ipc": "socket"}, {"send": "r1", "ipc": "socket"}, {"send": "r2", "ipc": "socket"}, ` +
		`{"send": "r3", "ipc": "socket"}, {"send": "r4", "ipc": "socket"}, {"send": "r5", "ipc": "socket"}, {"compute": "3us"}]}]}`
	rx := func(ch string) string {
		return `"process": true, "parent_cpu": 2, "program": [{"repeat": 120, "do": [{"recv": "` + ch + `"}, {"compute": "2us"}]}]}`
	}
	doc := func(groups string) string {
		return `{"schedplay": 1, "machine": {"preset": "x86-smt"}, "policy": {"preset": "mainline"}, "workload": {"metric": "ops", "groups": [` +
			groups + `]}, "run": {"duration": "50ms", "until": "done", "seed": 5, "reps": 2}}`
	}
	tpl := doc(tx + `, {"name": "rx", "count": 6, ` + rx("r{i}"))
	parts := []string{tx}
	for k := range 6 {
		parts = append(parts, fmt.Sprintf(`{"name": "rx%d", "count": 1, `, k)+rx(fmt.Sprintf("r%d", k)))
	}
	out := doc(strings.Join(parts, ", "))
	a := mustRun(t, resolveJSON(t, tpl), Options{Timeline: true})
	b := mustRun(t, resolveJSON(t, out), Options{Timeline: true})
	if ja, jb := toJSON(t, a.Summary), toJSON(t, b.Summary); ja != jb {
		t.Fatalf("templated receivers differ from written-out ones:\n%s\n%s", ja, jb)
	}
	if ja, jb := toJSON(t, a.Timeline.Runs), toJSON(t, b.Timeline.Runs); ja != jb {
		t.Error("the timelines' runs differ")
	}
	if a.Timeline.Tasks[3].Name != "rx/0" || b.Timeline.Tasks[3].Name != "rx0/0" {
		t.Errorf("names %q %q", a.Timeline.Tasks[3].Name, b.Timeline.Tasks[3].Name)
	}
	if a.Reps[0].Completion == 0 || a.Reps[1].Completion == 0 {
		t.Errorf("the run did not finish: %+v", a.Reps[0])
	}
}

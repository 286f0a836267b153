package scenario

import (
	"strings"
	"testing"
)

// TestGroupPolicy: a group's policy is SCHED_OTHER (absent), "batch",
// "idle", "fifo" or "rr"; an RT policy needs an rt_priority of 1..99, nice
// and a custom slice are SCHED_OTHER's and SCHED_BATCH's; each error names
// its field.
func TestGroupPolicy(t *testing.T) {
	ps := testPresets(t)
	for _, c := range []struct {
		fields, path, msg string // path "" when it resolves
	}{
		{`"policy": "fifo", "rt_priority": 99`, "", ""},
		{`"policy": "rr", "rt_priority": 1`, "", ""},
		{`"policy": "fifo"`, "workload.groups[0].rt_priority", "outside 1..99"},
		{`"policy": "rr", "rt_priority": 100`, "workload.groups[0].rt_priority", "outside 1..99"},
		{`"rt_priority": 10`, "workload.groups[0].rt_priority", "policy is SCHED_OTHER"},
		{`"policy": "deadline", "rt_priority": 10`, "workload.groups[0].policy", `unknown value "deadline"`},
		{`"policy": "fifo", "rt_priority": 10, "nice": -5`, "workload.groups[0].nice", "applies to SCHED_OTHER"},
		{`"policy": "fifo", "rt_priority": 10, "slice": "1ms"`, "workload.groups[0].slice", "an RT task has none"},
		{`"policy": "batch", "nice": 5, "slice": "1ms"`, "", ""},
		{`"policy": "idle"`, "", ""},
		{`"policy": "batch", "rt_priority": 10`, "workload.groups[0].rt_priority", "policy is SCHED_BATCH"},
		{`"policy": "idle", "nice": 19`, "workload.groups[0].nice", "does nothing for SCHED_IDLE"},
		{`"policy": "idle", "slice": "1ms"`, "workload.groups[0].slice", "ignores it for SCHED_IDLE"},
	} {
		s := mustDecode(t, doc(group(`"program": [{"compute": "1ms"}], `+c.fields)))
		r, err := Resolve(s, ps)
		if c.path == "" {
			if err != nil || !strings.Contains(c.fields, `"`+string(r.Workload.Groups[0].Policy)+`"`) {
				t.Errorf("%s: %v; want the group resolved with its policy", c.fields, err)
			}
			continue
		}
		if !errorsContain(err, c.path, c.msg) {
			t.Errorf("%s: %v; want %q at %s", c.fields, err, c.msg, c.path)
		}
	}
}

package scenario

import "testing"

// TestGroupPolicy: a group's policy is SCHED_OTHER (absent), "fifo" or
// "rr"; an RT policy needs an rt_priority of 1..99, and nice and a custom
// slice are SCHED_OTHER's; each error names its field.
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
	} {
		s := mustDecode(t, doc(group(`"program": [{"compute": "1ms"}], `+c.fields)))
		r, err := Resolve(s, ps)
		if c.path == "" {
			if err != nil || !r.Workload.Groups[0].Policy.RT() {
				t.Errorf("%s: %v; want an RT group", c.fields, err)
			}
			continue
		}
		if !errorsContain(err, c.path, c.msg) {
			t.Errorf("%s: %v; want %q at %s", c.fields, err, c.msg, c.path)
		}
	}
}

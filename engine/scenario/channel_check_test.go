package scenario

import "testing"

// TestBatchOnABufferedChannel: a send of several messages at once on a
// channel whose buffer can fill (a pipe, a socket, a capacity set at any
// of its sends) is refused at its wake, once per step; a futex wake-n
// and a batch on an unbounded channel are not.
func TestBatchOnABufferedChannel(t *testing.T) {
	ps := testPresets(t)
	rx := `{"name": "rx", "count": 1, "program": [{"repeat": 8, "do": [{"recv": "c"}]}]}`
	groups := func(tx string) string {
		return doc(`{"groups": [` + rx + `, {"name": "tx", "count": 2, "program": ` + tx + `}]}`)
	}
	runRejectCases(t, ps, []rejectCase{
		{"pipe", groups(`[{"send": "c", "ipc": "pipe", "wake": 4}]`), "workload.groups[1].program[0].wake",
			[]string{`posts 4 messages at once on channel "c", but it is a pipe`, `{"repeat": 4`}},
		{"socket", groups(`[{"send": "c", "ipc": "socket", "bytes": 64, "wake": 2}]`), "workload.groups[1].program[0].wake",
			[]string{"it is a socket"}},
		{"capacity at another send", groups(`[{"send": "c", "wake": 2}, {"send": "c", "capacity": 3}]`), "workload.groups[1].program[0].wake",
			[]string{"it has a capacity of 3 at workload.groups[1].program[1]"}},
	})
	// a templated channel: one report for the step, not one per task
	s := mustDecode(t, doc(`{"groups": [{"name": "tx", "count": 20, "program": [{"send": "c{i}", "ipc": "pipe", "wake": 2}]}, {"name": "rx", "count": 20, "program": [{"repeat": 2, "do": [{"recv": "c{i}"}]}]}]}`))
	if _, err := Resolve(s, ps); len(Errors(err)) != 1 || !errorsContain(err, "workload.groups[0].program[0].wake", `channel "c0"`) {
		t.Errorf("templated: %v; want one error, at program[0].wake, for c0", err)
	}
	for _, tx := range []string{
		`[{"send": "c", "ipc": "futex", "wake": 8}]`,
		`[{"send": "c", "wake": 3}]`,
		`[{"send": "c", "ipc": "pipe", "wake": 1}, {"send": "c", "ipc": "pipe"}]`,
	} {
		if _, err := Resolve(mustDecode(t, groups(tx)), ps); err != nil {
			t.Errorf("%s: %v", tx, err)
		}
	}
}

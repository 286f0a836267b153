package scenario

import (
	"fmt"
	"strings"
	"testing"
)

// TestChannelFor: {i} is the task's index; names without it are kept.
func TestChannelFor(t *testing.T) {
	for _, tt := range []struct {
		name string
		k    int
		want string
	}{{"g0r{i}", 7, "g0r7"}, {"{i}-{i}", 3, "3-3"}, {"plain", 5, "plain"}} {
		if got := ChannelFor(tt.name, tt.k); got != tt.want {
			t.Errorf("ChannelFor(%q, %d) = %q; want %q", tt.name, tt.k, got, tt.want)
		}
	}
	steps := []Step{{Repeat: 2, Do: []Step{{Recv: "r{i}"}}}, {Send: "done"}}
	got := InstanceSteps(steps, 4)
	if got[0].Do[0].Recv != "r4" || got[1].Send != "done" || steps[0].Do[0].Recv != "r{i}" {
		t.Errorf("InstanceSteps: %+v (original %+v)", got, steps)
	}
	if !UsesInstance(steps) || UsesInstance(got) {
		t.Error("UsesInstance")
	}
}

// TestInstanceChannelValidation: a brace outside {i} is refused at its
// path; a templated channel is one kernel object with the literal names
// it expands to; count × steps of templated groups is bounded.
func TestInstanceChannelValidation(t *testing.T) {
	ps := testPresets(t)
	for _, tt := range []struct{ groups, path, frag string }{
		{`[{"name": "rx", "count": 2, "program": [{"recv": "ch{j}"}]}]`, "workload.groups[0].program[0].recv", "brace outside {i}"},
		{`[{"name": "tx", "count": 1, "program": [{"send": "ch{"}]}]`, "workload.groups[0].program[0].send", "brace outside {i}"},
		{`[{"name": "tx", "count": 2, "program": [{"send": "ch{i}", "ipc": "pipe"}]}, {"name": "t2", "count": 1, "program": [{"send": "ch1", "ipc": "socket"}]}]`,
			"workload.groups[1].program[0]", `channel "ch1" is ipc "socket"`},
		{fmt.Sprintf(`[{"name": "rx", "count": %d, "program": [{"repeat": 2, "do": [{"recv": "c{i}"}, {"compute": "1us"}, {"compute": "1us"}, {"compute": "1us"}]}]}]`, MaxInstanceSteps/5+1),
			"workload.groups", "compiled per task"},
	} {
		s, err := Decode([]byte(doc(`{"groups": ` + tt.groups + `}`)))
		if err == nil {
			_, err = Resolve(s, ps)
		}
		if !errorsContain(err, tt.path, tt.frag) {
			t.Errorf("%s: got %v; want an error at %s containing %q", tt.groups, err, tt.path, tt.frag)
		}
	}
	// one report per step, not one per task of the group
	s, err := Decode([]byte(doc(`{"groups": [{"name": "tx", "count": 50, "program": [{"send": "c{i}", "ipc": "pipe"}, {"send": "c{i}", "ipc": "socket"}]}]}`)))
	if err == nil {
		_, err = Resolve(s, ps)
	}
	if n := len(Errors(err)); n != 1 || !errorsContain(err, "workload.groups[0].program[1]", `channel "c0" is ipc "socket"`) {
		t.Errorf("a templated conflict: %d errors (%v); want one, at program[1], for c0", n, err)
	}
	ok := `[{"name": "rx", "count": 3, "program": [{"recv": "ch{i}"}]}, {"name": "tx", "count": 1, "program": [{"send": "ch0", "ipc": "pipe"}, {"send": "ch1", "ipc": "pipe"}, {"send": "ch2", "ipc": "pipe"}]}]`
	if _, err := Resolve(mustDecode(t, doc(`{"groups": `+ok+`}`)), ps); err != nil {
		t.Errorf("a valid templated workload: %v", err)
	}
	if !strings.Contains(ok, InstanceToken) {
		t.Fatal("the test workload must use the token")
	}
}

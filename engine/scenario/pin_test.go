package scenario

import (
	"strings"
	"testing"
)

// TestGroupPin: "pin" decodes strictly, validates at its path, survives
// the canonical encoding and can be set by a merge-patch override.
func TestGroupPin(t *testing.T) {
	ps := testPresets(t)
	prog := `"program": [{"recv": "futex"}]`
	two := func(pin string) string {
		return doc(`{"groups": [{"name": "waker", "count": 1, "program": [{"send": "futex"}]}, {"name": "waiter", "count": 8, "cpus": "0-7", ` + pin + prog + `}]}`)
	}
	r, err := Resolve(mustDecode(t, two(`"pin": "each", `)), ps)
	if err != nil {
		t.Fatal(err)
	}
	if r.Workload.Groups[1].Pin != PinEach || r.Workload.Groups[0].Pin != PinNone {
		t.Errorf("pin = %q, %q; want \"\", \"each\"", r.Workload.Groups[0].Pin, r.Workload.Groups[1].Pin)
	}
	enc, err := Encode(mustDecode(t, two(`"pin": "each", `)))
	if err != nil || !strings.Contains(string(enc), `"pin":"each"`) {
		t.Errorf("canonical encoding lost pin: %s %v", enc, err)
	}
	r2, err := Resolve(mustDecode(t, string(enc)), ps)
	if err != nil || !equalJSON(t, r, r2) {
		t.Errorf("round trip changed the resolved scenario: %v", err)
	}
	if enc, _ := Encode(mustDecode(t, two(""))); strings.Contains(string(enc), "pin") {
		t.Errorf("absent pin must stay absent: %s", enc)
	}

	for _, tt := range []struct{ pin, path, frag string }{
		{`"pin": "all", `, "workload.groups[1].pin", `unknown value "all"`},
		{`"pin": true, `, "workload.groups[1].pin", "must be a string"},
		{`"pinned": "each", `, "workload.groups[1].pinned", "unknown field"},
	} {
		s, err := Decode([]byte(two(tt.pin)))
		if err == nil {
			_, err = Resolve(s, ps)
		}
		if !errorsContain(err, tt.path, tt.frag) {
			t.Errorf("%s: got %v; want an error at %s containing %q", tt.pin, err, tt.path, tt.frag)
		}
	}

	o, err := ParseSet("workload.groups[0].pin=each")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Apply(mustDecode(t, `{"schedplay": 1, "machine": {"preset": "smt4"}, "workload": {"preset": "spin"}}`), ps, []Override{o})
	if err != nil {
		t.Fatal(err)
	}
	r, err = Resolve(s, ps)
	if err != nil || r.Workload.Groups[0].Pin != PinEach || r.Workload.Groups[0].CPUs != "0-3" {
		t.Errorf("override: %v, group %+v; want pin each on the preset's cpus 0-3", err, r.Workload.Groups[0])
	}
}

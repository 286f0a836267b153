package scenario

import "testing"

// TestCustomSliceBounds: a group's slice takes the range
// __setscheduler_params() clamps sched_runtime to, 100 µs to 100 ms, and
// an error outside it names the field.
func TestCustomSliceBounds(t *testing.T) {
	ps := testPresets(t)
	for _, c := range []struct {
		slice string
		ok    bool
	}{{"100us", true}, {"100ms", true}, {"99us", false}, {"101ms", false}, {"0s", false}} {
		s := mustDecode(t, doc(group(`"program": [{"compute": "1ms"}], "slice": "`+c.slice+`"`)))
		r, err := Resolve(s, ps)
		if c.ok {
			if err != nil || r.Workload.Groups[0].Slice == nil || r.Workload.Groups[0].Slice.String() != c.slice {
				t.Errorf("slice %s: %v; want it kept", c.slice, err)
			}
			continue
		}
		if !errorsContain(err, "workload.groups[0].slice", "outside 100us..100ms") {
			t.Errorf("slice %s: %v; want an error at workload.groups[0].slice", c.slice, err)
		}
	}
}

package sim

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// DecodeResult gives what json.Unmarshal gives, for full and runs-only
// timelines and for a result without one.
func TestDecodeResultMatchesUnmarshal(t *testing.T) {
	r := resolve(t, "hikey960", "misfit", "sched-messaging", `{"duration":"20ms","until":"duration","seed":2,"reps":2}`)
	for _, opt := range []Options{{Timeline: true}, {Timeline: true, NoDecisions: true}, {}} {
		res := mustRun(t, r, opt)
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		var want Result
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		got, err := DecodeResult(b)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(&want, got) {
			t.Errorf("%+v: DecodeResult differs from json.Unmarshal", opt)
		}
		if !reflect.DeepEqual(res.Timeline, got.Timeline) || !reflect.DeepEqual(res.Summary, got.Summary) {
			t.Errorf("%+v: the result changed in its round trip", opt)
		}
	}
}

// Malformed replies are errors, never panics or silent half-results.
func TestDecodeResultErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{``, "want an object"},
		{`[]`, "want an object"},
		{`{"unit":"x",}`, "want a key"},
		{`{"unit" "x"}`, "want ':'"},
		{`{"unit":"x"} x`, "unexpected data"},
		{`{"unit":"x`, "unterminated string"},
		{`{"timeline":{"runs":[[1,2,3,4]}`, "unterminated value"},
		{`{"timeline":{"runs":[[1,2,3]]}}`, "row 0 has 3 numbers"},
		{`{"timeline":{"tasks":[{]}}`, "timeline: tasks"},
		{`{"reps":tru}`, "invalid character"},
		{`{"timeline":{"runs":[[1,2,3,4]] x}}`, "want ',' or '}'"},
		{`{"timeline":{"other":[}}}`, "invalid"},
	} {
		_, err := DecodeResult([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}

// FuzzDecodeResult: whatever DecodeResult accepts, json.Unmarshal accepts
// with the same result.
func FuzzDecodeResult(f *testing.F) {
	f.Add(`{"unit":"work/s","reps":[{"seed":1}],"timeline":{"runs":[[0,1,2,-1]],"modes":[[1,0,5]],"end_ns":5}}`)
	f.Add(`{"timeline":null,"summary":{}}`)
	f.Add(`{"u\u006eit":"x","timeline":{"tasks":[{"name":"a"}],"decisions":[{"at":1,"path":["x"]}]}}`)
	f.Add(`{"reps":[{"timed":[{"name":"wake loop","count":10,"mean_ns":16000}]}],"summary":{"timed":[{"name":"wake loop","time_ns":{"mean":16000,"n":1},"count":{"mean":10}}]},"timeline":{"end_ns":1}}`)
	f.Add(`{"reps":[{"timed":null}],"summary":{"timed":[]},"Timed":[{"name":"\"x\""}]}`)
	f.Fuzz(func(t *testing.T, in string) {
		got, err := DecodeResult([]byte(in))
		if err != nil {
			return
		}
		var want Result
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatalf("DecodeResult accepted what json.Unmarshal rejects (%v): %s", err, in)
		}
		if !reflect.DeepEqual(&want, got) {
			t.Fatalf("results differ for %s:\n%+v\n%+v", in, &want, got)
		}
	})
}

// EncodeResult writes what an encoding/json Encoder without HTML escaping
// writes, and DecodeResult reads it back, also with timed sections (in
// every repetition and the summary, sorted by name).
func TestEncodeResultMatchesEncoder(t *testing.T) {
	docs := []string{`{"schedplay":1,"name":"<b>x</b> & y","machine":{"preset":"hikey960"},"policy":{"preset":"misfit"},
		"workload":{"preset":"sched-messaging"},
		"run":{"duration":"20ms","until":"duration","seed":2,"reps":2}}`,
		`{"schedplay":1,"machine":{"preset":"hikey960"},"policy":{"preset":"misfit"},
		"workload":{"groups":[{"name":"a","count":8,"program":[{"repeat":3,"do":[{"timed":"z <loop>","do":[{"compute":"10ms"}]},{"timed":"a & b","do":[{"sleep":"100us"}]}]}]}]},
		"run":{"duration":"50ms","seed":1,"reps":2}}`}
	for i, opt := range []Options{{Timeline: true}, {Timeline: true, NoDecisions: true}, {}, {Timeline: true}, {}} {
		res := mustRun(t, resolveJSON(t, docs[i/3]), opt)
		res.Warnings = []string{"a <warning> & more"}
		want, err := marshalNoEscape(res)
		if err != nil {
			t.Fatal(err)
		}
		got, err := EncodeResult(res)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%+v: EncodeResult differs from the encoder:\n%.300s\n%.300s", opt, got, want)
		}
		back, err := DecodeResult(got)
		if err != nil || !reflect.DeepEqual(back, res) {
			t.Errorf("%+v: round trip: %v", opt, err)
		}
		if i >= 3 && (!strings.Contains(string(got), `"timed":[{"name":"a & b","count":24,`) || len(back.Summary.Timed) != 2 || back.Summary.Timed[1].Name != "z <loop>") {
			t.Errorf("%+v: timed sections lost: %+v\n%.600s", opt, back.Summary.Timed, got)
		}
	}
}

// The decision reader gives what encoding/json gives, on real records and
// on forms it leaves to encoding/json.
func TestDecodeDecisions(t *testing.T) {
	for _, in := range []string{
		`[{"at":1,"t":2,"k":"wakeup","from":3,"to":4,"path":["select_task_rq_fair","wake_affine → prev 3"]}]`,
		`[{"path":null,"to":-1,"k":"fork"},{"at":5}]`,
		`[]`, `null`, ` [ ] `,
		`[{"at":1,"AT":2}]`,
		`[{"k":"a\"b"}]`,
		`[{"k":"a\u2192b","path":["x\ty"]}]`,
		`[{"at":1,"at":2}]`,
		`[{"at":1.0}]`,
		`[{"at":null,"path":[]}]`,
		`[{"at":1,"extra":[1,2]}]`,
	} {
		var want []Decision
		werr := json.Unmarshal([]byte(in), &want)
		got, gerr := decodeDecisions([]byte(in))
		if (werr == nil) != (gerr == nil) || !reflect.DeepEqual(want, got) {
			t.Errorf("%s: got %#v (%v), want %#v (%v)", in, got, gerr, want, werr)
		}
	}
	if _, ok := fastDecisions([]byte(`[{"at":1,"t":2,"k":"wakeup","from":3,"to":4,"path":["a"]}]`)); !ok {
		t.Error("the encoder's form did not take the fast path")
	}
	if d, ok := fastDecisions([]byte(`[{"at":1,"t":2,"k":"wakeup","from":3,"to":4,"w":6,"path":["a"]}]`)); !ok || d[0].Waker != 6 {
		t.Errorf("a task's wake-up (w) did not take the fast path: %v %v", d, ok)
	}
	if _, ok := fastDecisions([]byte(`[{"at":01}]`)); ok {
		t.Error("a leading zero took the fast path")
	}
}

// FuzzDecodeDecisions: the decision reader agrees with encoding/json.
func FuzzDecodeDecisions(f *testing.F) {
	f.Add(`[{"at":1,"t":2,"k":"wakeup","from":3,"to":4,"path":["select_task_rq_fair","wake_affine → prev 3"]}]`)
	f.Add(`[{"path":null},{"at":-5}]`)
	f.Fuzz(func(t *testing.T, in string) {
		var want []Decision
		werr := json.Unmarshal([]byte(in), &want)
		got, gerr := decodeDecisions([]byte(in))
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%q: errors differ: %v vs %v", in, gerr, werr)
		}
		if werr == nil && !reflect.DeepEqual(want, got) {
			t.Fatalf("%q: %#v vs %#v", in, got, want)
		}
	})
}

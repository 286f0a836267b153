package sim

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// A timeline survives its JSON form exactly, and the form is the flat one.
func TestTimelineJSONRoundTrip(t *testing.T) {
	res := mustRun(t, resolve(t, "hikey960", "misfit", "sched-messaging", `{"duration":"20ms","until":"duration","seed":2}`), Options{Timeline: true})
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	iv := res.Timeline.Runs[0][0]
	flat := `"runs":[[` + strings.Join([]string{jsonInt(int64(iv.Task)), jsonInt(iv.Start), jsonInt(iv.End), jsonInt(int64(iv.Decision))}, ",")
	if !strings.Contains(string(b), flat) {
		t.Errorf("runs are not flat quadruples: want %s in %.200s", flat, b)
	}
	var back Result
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res.Timeline, back.Timeline) {
		t.Error("the timeline changed in its JSON round trip")
	}
	b2, _ := json.Marshal(back)
	if string(b) != string(b2) {
		t.Error("re-encoding differs")
	}
}

// A malformed interval array is an error naming the field, never a panic.
func TestTimelineJSONErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"runs":[[1,2,3]],"modes":[]}`, "runs: row 0 has 3 numbers"},
		{`{"runs":[[1,2,3,x]],"modes":[]}`, "invalid character"},
		{`{"runs":[1],"modes":[]}`, "runs: want an array per CPU"},
		{`{"runs":[],"modes":[[9,0,1]]}`, "mode 9 out of range"},
		{`{"runs":[[1,2,3,1.5]],"modes":[]}`, "want , or ]"},
		{`{"runs":[[1,2,3,1234567890123456789012]],"modes":[]}`, "want an integer"},
	} {
		var tl Timeline
		err := json.Unmarshal([]byte(c.in), &tl)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.in, err, c.want)
		}
	}
	var tl Timeline
	if err := json.Unmarshal([]byte(`{"runs":[[],[0,1,2,-1]],"modes":[[1,0,5]],"end_ns":5}`), &tl); err != nil ||
		len(tl.Runs) != 2 || tl.Runs[1][0] != (Interval{Task: 0, Start: 1, End: 2, Decision: -1}) || tl.Modes[0][0].Mode != ModeST {
		t.Errorf("%v %+v", err, tl)
	}
}

// FuzzTimelineJSON: decoding never panics, and what decodes re-encodes to
// something that decodes to the same timeline.
func FuzzTimelineJSON(f *testing.F) {
	f.Add(`{"runs":[[0,1,2,-1]],"modes":[[1,0,5]],"end_ns":5}`)
	f.Add(`{"runs":[],"modes":[]}`)
	f.Fuzz(func(t *testing.T, in string) {
		var tl Timeline
		if json.Unmarshal([]byte(in), &tl) != nil {
			return
		}
		b, err := json.Marshal(tl)
		if err != nil {
			t.Fatal(err)
		}
		var back Timeline
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s → %s: %v", in, b, err)
		}
		b2, _ := json.Marshal(back)
		if string(b) != string(b2) {
			t.Fatalf("%s → %s → %s", in, b, b2)
		}
	})
}

func jsonInt(v int64) string { b, _ := json.Marshal(v); return string(b) }

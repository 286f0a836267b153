package playground

import (
	"strings"
	"testing"

	"schedplay/site"
)

func TestFirstRequest(t *testing.T) {
	cat, err := site.EmbeddedCatalog()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[bool]bool{}
	for _, name := range cat.Names("scenario") {
		body, err := FirstRequest(cat, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s := Reduce(State{Catalog: cat}, SelectScenario{Name: name})
		cpus, err := site.MachineCPUs(s.Machine())
		if err != nil {
			t.Fatal(err)
		}
		// Large machines with several repetitions start with repetition
		// 0 alone (intervals only); the rest with the whole run.
		quick := len(cpus) > 64 && RunReps(s.Doc, cat) > 1
		seen[quick] = true
		if want := `{"timeline":true,"scenario":` + s.Doc.Canonical() + `}`; !quick && body != want {
			t.Errorf("%s (%d CPUs): first request %.200s, want the whole run", name, len(cpus), body)
		}
		if quick && (!strings.HasPrefix(body, `{"timeline":"runs","scenario":`) || !strings.Contains(body, `"reps":1`)) {
			t.Errorf("%s (%d CPUs): first request %.200s, want repetition 0 alone", name, len(cpus), body)
		}
		if strings.Contains(body, "\n") {
			t.Errorf("%s: the request has a newline (the first-frame file's separator)", name)
		}
	}
	if !seen[true] || !seen[false] {
		t.Errorf("the seeds should include both kinds of first request: %v", seen)
	}
	if _, err := FirstRequest(cat, "no-such-seed"); err == nil {
		t.Error("an unknown seed gave a first request")
	}
}

func TestFirstFrameReply(t *testing.T) {
	text := FirstFrame(`{"a":1}`, "{\"b\":\n2}")
	if got, ok := firstFrameReply(text, `{"a":1}`); !ok || got != "{\"b\":\n2}" {
		t.Errorf("reply %q %v", got, ok)
	}
	for _, c := range []struct{ text, req string }{
		{text, `{"a":2}`},      // another request
		{"", `{"a":1}`},        // no file
		{`{"a":1}`, `{"a":1}`}, // no reply
		{`{"a":1}` + "\n", `{"a":1}`},
	} {
		if got, ok := firstFrameReply(c.text, c.req); ok {
			t.Errorf("firstFrameReply(%q, %q) = %q, want none", c.text, c.req, got)
		}
	}
}

package api

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
)

// Each reply of a batch is, byte for byte, the simulate reply of its
// request (a refusal included).
func TestBatch(t *testing.T) {
	h := New(testPresets(t), WithRunner(fakeRun))
	items := []string{
		`{"scenario": "s1", "reps": 1, "seed": 7}`,
		`{"scenario": "s1", "set": ["policy.preset=fast"], "reps": 2}`,
		`{"scenario": "s1", "set": ["policy.hz=-1"]}`,
		`{"schedplay": 1, "name": "bare <doc>", "machine": {"preset": "m"}, "workload": {"preset": "w"}}`,
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("POST", "/api/v1/batch", strings.NewReader(`{"requests": [`+strings.Join(items, ",")+`]}`)))
	if w.Code != 200 {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	var got struct {
		Replies []struct {
			Status int             `json:"status"`
			Body   json.RawMessage `json:"body"`
		} `json:"replies"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || len(got.Replies) != len(items) {
		t.Fatalf("%v: %s", err, w.Body)
	}
	for i, item := range items {
		one := httptest.NewRecorder()
		h.ServeHTTP(one, httptest.NewRequest("POST", "/api/v1/simulate", strings.NewReader(item)))
		r := got.Replies[i]
		if r.Status != one.Code || !bytes.Equal(append(r.Body, '\n'), one.Body.Bytes()) {
			t.Errorf("item %d: batch %d %s; simulate %d %s", i, r.Status, r.Body, one.Code, one.Body)
		}
	}
	if got.Replies[2].Status != 400 {
		t.Errorf("the bad item answered %d", got.Replies[2].Status)
	}
	for body, want := range map[string]string{
		`{"requests": []}`:          "at least one",
		`{"requests": [1], "x": 2}`: `"path":"x"`,
		`{"requests": [` + strings.Repeat(`{},`, MaxBatch) + `{}]}`: "at most 64",
	} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("POST", "/api/v1/batch", strings.NewReader(body)))
		if w.Code != 400 || !strings.Contains(w.Body.String(), want) {
			t.Errorf("%.40s: %d %s; want 400 with %q", body, w.Code, w.Body, want)
		}
	}
}

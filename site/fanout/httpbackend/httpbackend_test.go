package httpbackend

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"schedplay/presets"
	"schedplay/site/api"
	"schedplay/site/fanout"
)

// The local backend and a remote one over HTTP give the same bytes.
func TestLocalAndRemoteAgree(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	h := api.New(ps)
	srv := httptest.NewServer(h)
	defer srv.Close()
	local, remote := Local{Handler: h}, NewRemote(srv.URL+"/", time.Minute)
	if err := remote.Probe(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{
		`{"scenario": "hikey960-sysbench", "reps": 1, "seed": 3}`,
		`{"scenario": "hikey960-sysbench", "set": ["policy.preset=misfit"], "reps": 1, "seed": 4}`,
		`{"scenario": "hikey960-sysbench", "set": ["policy.hz=0"]}`,
	} {
		a, err := local.Simulate(context.Background(), []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		b, err := remote.Simulate(context.Background(), []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		if a.Status != b.Status || !bytes.Equal(a.Body, b.Body) {
			t.Errorf("%s: local %d %.80s…, remote %d %.80s…", body, a.Status, a.Body, b.Status, b.Body)
		}
	}
	var bodies [][]byte
	var want []fanout.Reply
	for i := range 3 {
		b := []byte(fmt.Sprintf(`{"scenario": "hikey960-sysbench", "set": ["policy.hz=%d"], "reps": 1}`, []int{250, 0, 1000}[i]))
		r, _ := local.Simulate(context.Background(), b)
		bodies, want = append(bodies, b), append(want, r)
	}
	got, err := remote.SimulateBatch(context.Background(), bodies)
	if err != nil || len(got) != 3 {
		t.Fatalf("batch: %v, %d replies", err, len(got))
	}
	for i := range got {
		if got[i].Status != want[i].Status || !bytes.Equal(got[i].Body, want[i].Body) {
			t.Errorf("batch reply %d: %d %.80s…; simulate %d %.80s…", i, got[i].Status, got[i].Body, want[i].Status, want[i].Body)
		}
	}
	if r, _ := local.Simulate(context.Background(), []byte(`{"scenario": "hikey960-sysbench", "set": ["policy.hz=0"]}`)); r.Status != http.StatusBadRequest {
		t.Errorf("a bad request answers %d", r.Status)
	}
}

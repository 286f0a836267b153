package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"schedplay/engine/budget"
	"schedplay/engine/scenario"
	"schedplay/engine/scenario/scenariotest"
)

// TestStormStaysBounded sends 64 worst-case-but-admitted requests at once
// to a server with two slots and a queue of two: the validation of the
// 64-node, 244-distance machine (the largest topology the serve budget
// admits, about 300 MB to build). Two build at a time, two wait, the rest
// get 503 at once (no more than two ever run and two wait), the heap stays under its ceiling (twice, for the
// garbage collector's slack, the two running requests' estimated memory,
// plus 256 MB), and the presets answer meanwhile (their latency is
// measured, not asserted: MEASURE).
func TestStormStaysBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("builds four 4096-CPU topologies")
	}
	ps := realPresets(t)
	doc, err := scenario.Decode([]byte(scenariotest.NUMA64()))
	if err != nil {
		t.Fatal(err)
	}
	b := scenario.Budget{Profile: budget.Serve}
	r, err := scenario.Prepare(context.Background(), doc, ps, b)
	if err != nil {
		t.Fatal(err)
	}
	est := scenario.CostOf(r, b).Memory
	const slots, queue = 2, 2
	ceiling := 2*slots*est + 256<<20
	admit := newAdmission(slots, queue, slots*est)
	srv := httptest.NewServer(New(ps, WithProfile(budget.Serve), withAdmission(admit)))
	defer srv.Close()

	var peak uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() { // the heap, every 5 ms
		defer close(sampled)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	var lat []time.Duration
	var latMu sync.Mutex
	presetsDone := make(chan struct{})
	go func() { // the presets, while the storm lasts
		defer close(presetsDone)
		for {
			t0 := time.Now()
			resp, err := http.Get(srv.URL + "/api/v1/presets")
			if err != nil || resp.StatusCode != 200 {
				t.Errorf("presets during the storm: %v %v", err, resp)
				return
			}
			resp.Body.Close()
			latMu.Lock()
			lat = append(lat, time.Since(t0))
			latMu.Unlock()
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	codes := make(chan int, 64)
	var wg sync.WaitGroup
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Post(srv.URL+"/api/v1/validate", "application/json", strings.NewReader(scenariotest.NUMA64()))
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode == 503 && resp.Header.Get("Retry-After") == "" {
				t.Error("503 without Retry-After")
			}
			codes <- resp.StatusCode
		}()
	}
	wg.Wait()
	close(stop)
	<-sampled
	<-presetsDone
	close(codes)
	count := map[int]int{}
	for c := range codes {
		count[c]++
	}
	// How many are answered depends on when each request arrives against
	// when the first ones finish; what admission bounds is how many run
	// and wait at once.
	if count[200] < 1 || count[503] < 1 || count[200]+count[503] != 64 {
		t.Errorf("replies %v; want some answered, the rest 503", count)
	}
	running, waiting := admit.peaks()
	if running > slots || waiting > queue {
		t.Errorf("at most %d ran and %d waited at once; the bounds are %d and %d", running, waiting, slots, queue)
	}
	if float64(peak) > ceiling {
		t.Errorf("heap peaked at %s; the ceiling is %s (2 × %d × %s + 256 MiB)", budget.Bytes(float64(peak)), budget.Bytes(ceiling), slots, budget.Bytes(est))
	}
	slices.Sort(lat)
	if len(lat) == 0 {
		t.Fatal("no presets reply during the storm")
	}
	t.Logf("MEASURE storm of 64 NUMA64 validations (2 slots, queue 2): replies %v; heap peak %s (ceiling %s, estimate %s a request); presets during it: %d replies, p50 %v, max %v",
		count, budget.Bytes(float64(peak)), budget.Bytes(ceiling), budget.Bytes(est), len(lat), lat[len(lat)/2], lat[len(lat)-1])
}

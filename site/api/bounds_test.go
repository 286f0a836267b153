package api

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"schedplay/engine/budget"
	"schedplay/engine/scenario"
	"schedplay/engine/scenario/scenariotest"
	"schedplay/engine/sim"
	"schedplay/presets"
)

func realPresets(t testing.TB) *presets.Set {
	t.Helper()
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// post sends body to endpoint and returns the status and the decoded
// error body.
func post(t *testing.T, h http.Handler, endpoint, body string) (int, errorBody, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/v1/"+endpoint, strings.NewReader(body)))
	var e errorBody
	json.Unmarshal(rec.Body.Bytes(), &e)
	return rec.Code, e, rec.Body.String()
}

// TestHostileCorpus re-runs the API rows of issue 17: each request is
// refused at once, with the field that makes it expensive and the budget
// it exceeds, or bounded. The simulator is a stand-in counting its runs:
// a refused request never reaches it.
func TestHostileCorpus(t *testing.T) {
	ps := realPresets(t)
	var runs int
	var mu sync.Mutex
	counting := func(ctx context.Context, r *scenario.Resolved, opt sim.Options) (*sim.Result, error) {
		mu.Lock()
		runs++
		mu.Unlock()
		return &sim.Result{Scenario: r.Name}, nil
	}
	for _, tt := range []struct {
		name, endpoint, body string
		profile              budget.Profile
		status               int
		path, budget, frag   string
	}{
		{"NUMA64 validate in the browser", "validate", scenariotest.NUMA64(), budget.Browser, 422, "machine.distances", "domains", "above the browser budget of 300000"},
		{"NUMA64 simulate on the Worker", "simulate", scenariotest.NUMA64(), budget.Worker, 422, "machine.distances", "domains", "above the Worker budget"},
		{"60 KB group name × 16,384 tasks", "simulate", scenariotest.LongNames(), budget.Serve, 400, "workload.groups[0].name", "", "61440 bytes long; the limit is 200"},
		{"16,384 set appends", "simulate", scenariotest.ManySets(16384), budget.Serve, 422, "set", "overrides", "16384 overrides, above the serve budget of 1024"},
		{"compare vary ×32 on NUMA64, Worker", "compare", scenariotest.CompareVary32(), budget.Worker, 422, "machine.distances", "domains", "Worker budget"},
		{"ping-pong 9.9 M loops × 4, Worker", "simulate", scenariotest.PingPong(9_900_000, 4), budget.Worker, 422, "workload.groups[0]", "events", "Worker budget of 39.9 million"},
		{"duplicate key in the request wrapper", "simulate", `{"scenario": "vera-sgemm-nvpl", "reps": 1, "reps": 100}`, budget.Serve, 400, "reps", "", "duplicate key"},
		{"duplicate key in a side", "compare", `{"scenario": "vera-sgemm-nvpl", "a": {"label": "x", "label": "y"}, "b": {}}`, budget.Serve, 400, "a.label", "", "duplicate key"},
		{"2 MB unknown key", "simulate", `{"scenario": "vera-sgemm-nvpl", "` + strings.Repeat("k", 1<<20) + `": 1}`, budget.Serve, 400, "", "", "unknown request field"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			runs = 0
			h := New(ps, WithRunner(counting), WithProfile(tt.profile))
			code, e, body := post(t, h, tt.endpoint, tt.body)
			if code != tt.status || (tt.path != "" && e.Error.Path != tt.path) || e.Error.Budget != tt.budget || !strings.Contains(e.Error.Message, tt.frag) {
				t.Errorf("%d %.400s\nwant %d at %q (budget %q) containing %q", code, body, tt.status, tt.path, tt.budget, tt.frag)
			}
			if len(body) > 4096 {
				t.Errorf("a %d-byte error reply", len(body))
			}
			if runs != 0 {
				t.Errorf("%d runs of a refused request", runs)
			}
		})
	}
}

// TestCompareVaryNUMA64OnServe: the compare of 32 values on the 4096-CPU
// NUMA machine is admitted on serve: its two topologies are built once each
// (not 64 times), and a client that goes away stops it at the next run.
func TestCompareVaryNUMA64OnServe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 4096-CPU topology")
	}
	ps := realPresets(t)
	ctx, cancel := context.WithCancel(context.Background())
	runs := 0
	stopping := func(_ context.Context, r *scenario.Resolved, _ sim.Options) (*sim.Result, error) {
		if runs++; runs == 5 {
			cancel() // the client disconnects during the fifth run
		}
		return &sim.Result{Scenario: r.Name, Reps: []sim.RepMetrics{{}}}, nil
	}
	h := New(ps, WithRunner(stopping))
	req := httptest.NewRequest("POST", "/api/v1/compare", strings.NewReader(scenariotest.CompareVary32())).WithContext(ctx)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 503 || !strings.Contains(rec.Body.String(), "cancelled") || runs != 5 {
		t.Errorf("%d runs, %d %s; want 5 runs, then 503 cancelled", runs, rec.Code, rec.Body)
	}
}

// TestAdmission: with two slots and a queue of three, 64 simultaneous
// heavy requests get two running, three waiting and 59 refusals with 503
// and Retry-After at once, while the presets still answer.
func TestAdmission(t *testing.T) {
	ps := realPresets(t)
	release := make(chan struct{})
	var running, peak int
	var mu sync.Mutex
	slow := func(ctx context.Context, r *scenario.Resolved, _ sim.Options) (*sim.Result, error) {
		mu.Lock()
		running++
		peak = max(peak, running)
		mu.Unlock()
		<-release
		mu.Lock()
		running--
		mu.Unlock()
		return &sim.Result{Scenario: r.Name}, nil
	}
	h := New(ps, WithRunner(slow), WithAdmission(2, 3, 1<<40))
	codes := make(chan int, 64)
	var wg sync.WaitGroup
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/v1/simulate", strings.NewReader(`{"scenario": "vera-sgemm-nvpl"}`)))
			if rec.Code == 503 && rec.Header().Get("Retry-After") == "" {
				t.Error("503 without Retry-After")
			}
			codes <- rec.Code
		}()
	}
	busy := 0
	for busy < 59 {
		if c := <-codes; c == 503 {
			busy++
		} else {
			t.Fatalf("status %d before the slots were released", c)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/v1/presets", nil))
	if rec.Code != 200 {
		t.Errorf("presets while busy: %d", rec.Code)
	}
	close(release)
	wg.Wait()
	close(codes)
	ok := 0
	for c := range codes {
		if c == 200 {
			ok++
		}
	}
	if ok != 5 || peak != 2 {
		t.Errorf("%d answered and %d at once; want 5 and 2", ok, peak)
	}
}

// TestAdmissionMemory: requests whose estimated memory does not fit
// beside the running ones wait, even with a slot free.
func TestAdmissionMemory(t *testing.T) {
	a := newAdmission(4, 4, 100)
	r1, err := a.acquire(context.Background(), 60)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() {
		r2, err := a.acquire(context.Background(), 60)
		if err == nil {
			r2()
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("admitted 60 + 60 bytes within 100 (%v)", err)
	case <-time.After(50 * time.Millisecond):
	}
	r1()
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r3, _ := a.acquire(context.Background(), 100)
	go cancel()
	if _, err := a.acquire(ctx, 50); err != context.Canceled {
		t.Errorf("a cancelled waiter got %v", err)
	}
	r3()
	if a.running != 0 || a.inUse != 0 || len(a.waiting) != 0 {
		t.Errorf("left %d running, %v bytes, %d waiting", a.running, a.inUse, len(a.waiting))
	}
}

// TestDeadlineCoversTheRequest: the deadline runs from the request's first
// byte, so a request that spends it before the run is stopped before it.
func TestDeadlineCoversTheRequest(t *testing.T) {
	ps := realPresets(t)
	ran := false
	h := New(ps, WithRunner(func(ctx context.Context, r *scenario.Resolved, _ sim.Options) (*sim.Result, error) {
		ran = true
		return &sim.Result{}, ctx.Err()
	}), WithTimeout(time.Nanosecond))
	code, e, _ := post(t, h, "simulate", `{"scenario": "vera-sgemm-nvpl"}`)
	if code != 503 || !strings.Contains(e.Error.Message, "ran out of time") || ran {
		t.Errorf("%d %q (ran %t); want 503 ran out of time, before the run", code, e.Error.Message, ran)
	}
}

// TestOrigins: the API answers its own pages, the configured origins
// (with CORS, preflight included) and non-browser clients; it refuses
// other origins and foreign Host names (DNS rebinding).
func TestOrigins(t *testing.T) {
	h := New(testPresets(t), WithRunner(fakeRun), WithOrigins(Origins{Allow: OriginList{"https://play.example"}, Hosts: LoopbackHosts}))
	for _, tt := range []struct {
		method, host, origin string
		status               int
		cors                 bool
	}{
		{"GET", "127.0.0.1:8080", "", 200, false},
		{"POST", "127.0.0.1:8080", "http://127.0.0.1:8080", 200, false},
		{"POST", "localhost:8080", "http://localhost:8080", 200, false},
		{"POST", "[::1]:8080", "", 200, false},
		{"POST", "192.168.1.20:8080", "", 200, false},
		{"POST", "127.0.0.1:8080", "https://play.example", 200, true},
		{"OPTIONS", "127.0.0.1:8080", "https://play.example", 204, true},
		{"POST", "127.0.0.1:8080", "https://evil.example", 403, false},
		{"POST", "127.0.0.1:8080", "null", 403, false},
		{"POST", "evil.example:8080", "http://evil.example:8080", 403, false},
		{"GET", "rebound.evil.example", "", 403, false},
	} {
		url := "/api/v1/validate"
		if tt.method == "GET" {
			url = "/api/v1/presets"
		}
		req := httptest.NewRequest(tt.method, url, strings.NewReader(doc))
		req.Host = tt.host
		if tt.origin != "" {
			req.Header.Set("Origin", tt.origin)
		}
		if tt.method == "OPTIONS" {
			req.Header.Set("Access-Control-Request-Method", "POST")
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		cors := tt.origin != "" && rec.Header().Get("Access-Control-Allow-Origin") == tt.origin
		if rec.Code != tt.status || cors != tt.cors {
			t.Errorf("%s Host %s Origin %q: %d (CORS %t); want %d (CORS %t)\n%s", tt.method, tt.host, tt.origin, rec.Code, cors, tt.status, tt.cors, rec.Body)
		}
	}
}

// TestSecurityHeaders: every API reply, errors included, is nosniff,
// unframeable and without a referrer.
func TestSecurityHeaders(t *testing.T) {
	h := New(testPresets(t), WithRunner(fakeRun))
	for _, body := range []string{doc, "{"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/v1/validate", strings.NewReader(body)))
		hd := rec.Header()
		if hd.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(hd.Get("Content-Security-Policy"), "frame-ancestors 'none'") || hd.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%d reply headers %v", rec.Code, hd)
		}
	}
}

// TestBodyIdleTimeout: a client that sends its body a byte at a time,
// pausing longer than the idle timeout, is dropped.
func TestBodyIdleTimeout(t *testing.T) {
	h := New(testPresets(t), WithRunner(fakeRun), withBodyTimeouts(100*time.Millisecond, time.Second))
	srv := httptest.NewServer(h)
	defer srv.Close()
	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /api/v1/validate HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n{", len(doc))
	time.Sleep(300 * time.Millisecond) // idle: longer than 100 ms
	fmt.Fprint(c, doc[1:])
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	reply, _ := io.ReadAll(c)
	if strings.Contains(string(reply), `"valid":true`) {
		t.Errorf("a body that idled 300 ms was read whole: %.200s", reply)
	}
}

// TestBatchSharesItsBudget: a batch is one request (on a Worker, one CPU
// limit): its items draw on one events budget, and the item that would
// take it over is refused with 422, as are the ones after it.
func TestBatchSharesItsBudget(t *testing.T) {
	ps := realPresets(t)
	runs := 0
	h := New(ps, WithProfile(budget.Worker), WithRunner(func(_ context.Context, r *scenario.Resolved, _ sim.Options) (*sim.Result, error) {
		runs++
		return &sim.Result{Scenario: r.Name}, nil
	}))
	item := `{"scenario": ` + scenariotest.PingPong(400_000, 2) + `}` // about 8 million events
	items := strings.TrimSuffix(strings.Repeat(item+",", 10), ",")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/v1/batch", strings.NewReader(`{"requests": [`+items+`]}`)))
	var got struct {
		Replies []struct {
			Status int       `json:"status"`
			Body   errorBody `json:"body"`
		} `json:"replies"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil || rec.Code != 200 || len(got.Replies) != 10 {
		t.Fatalf("%d %v %.300s", rec.Code, err, rec.Body)
	}
	ok := 0
	for i, r := range got.Replies {
		switch {
		case r.Status == 200 && ok == i:
			ok++
		case r.Status == 422 && r.Body.Error.Budget == "events" && r.Body.Error.Path == "requests":
		default:
			t.Errorf("item %d: %d %+v", i, r.Status, r.Body.Error)
		}
	}
	if ok != 4 || runs != 4 {
		t.Errorf("%d items answered and %d run; want 4 (4 × 8 million events of the Worker's 40 million)", ok, runs)
	}
}

// TestTopologyEndpoint: the page's topology view gets a CPU's chain and
// every CPU's priority from the engine worker; a machine over the budget
// is refused there, before its build.
func TestTopologyEndpoint(t *testing.T) {
	ps := realPresets(t)
	h := New(ps, WithProfile(budget.Browser))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/v1/topology?cpu=5", strings.NewReader(`{"scenario": "vera-sgemm-nvpl"}`)))
	var v struct {
		NumCPUs    int   `json:"nr_cpus"`
		Priorities []int `json:"priorities"`
		CPUs       []struct {
			CPU     int `json:"cpu"`
			Domains []struct {
				Name string `json:"name"`
			} `json:"domains"`
		} `json:"cpus"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil || rec.Code != 200 {
		t.Fatalf("%d %v %.300s", rec.Code, err, rec.Body)
	}
	if v.NumCPUs != 352 || len(v.Priorities) != 352 || len(v.CPUs) != 1 || v.CPUs[0].CPU != 5 || len(v.CPUs[0].Domains) == 0 {
		t.Errorf("reply %+v", v)
	}
	for _, tt := range []struct{ url, body, path string }{
		{"/api/v1/topology?cpu=352", `{"scenario": "vera-sgemm-nvpl"}`, "cpu"},
		{"/api/v1/topology?cpu=x", `{"scenario": "vera-sgemm-nvpl"}`, "cpu"},
		{"/api/v1/topology", scenariotest.NUMA64(), "machine.distances"},
	} {
		code, e, body := post(t, h, strings.TrimPrefix(tt.url, "/api/v1/"), tt.body)
		if code/100 != 4 || e.Error.Path != tt.path {
			t.Errorf("%s: %d %.200s; want a refusal at %s", tt.url, code, body, tt.path)
		}
	}
}

// TestExtraEndpointIsBounded: an endpoint mounted with WithEndpoint runs
// under the API's bounds: it holds an admission slot for its memory while
// it runs (a second request waits, a third is refused with 503 and
// Retry-After), its request carries the deadline, and its body is read
// through the idle timeout.
func TestExtraEndpointIsBounded(t *testing.T) {
	entered := make(chan struct{}, 4)
	release := make(chan struct{})
	var deadlines, bodyErrs int
	var mu sync.Mutex
	ep := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, hasDeadline := r.Context().Deadline()
		_, err := io.ReadAll(r.Body)
		mu.Lock()
		if hasDeadline {
			deadlines++
		}
		if err != nil {
			bodyErrs++
		}
		mu.Unlock()
		entered <- struct{}{}
		if r.URL.Query().Get("hold") != "" {
			<-release
		}
		w.WriteHeader(http.StatusNoContent)
	})
	a := newAdmission(4, 1, 100)
	h := New(testPresets(t), withAdmission(a), withBodyTimeouts(100*time.Millisecond, time.Second),
		WithTimeout(time.Minute), WithEndpoint("/api/v1/x", ep, 100))
	srv := httptest.NewServer(h)
	defer srv.Close()
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	defer free() // before srv.Close, which waits for the held handler

	codes := make(chan int, 2)
	post := func() {
		resp, err := http.Post(srv.URL+"/api/v1/x?hold=1", "text/plain", strings.NewReader("file"))
		if err != nil {
			t.Error(err)
			codes <- 0
			return
		}
		resp.Body.Close()
		codes <- resp.StatusCode
	}
	go post()
	<-entered // the first holds the memory (100 of 100)
	go post()
	for end := time.Now().Add(10 * time.Second); ; {
		if _, waiting := a.peaks(); waiting == 1 {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the second request never waited for admission")
		}
		time.Sleep(5 * time.Millisecond)
	}
	resp, err := http.Post(srv.URL+"/api/v1/x", "text/plain", strings.NewReader("file"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("third request while one runs and one waits: %d, Retry-After %q; want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	free()
	if a, b := <-codes, <-codes; a != http.StatusNoContent || b != http.StatusNoContent {
		t.Errorf("the running and the waiting request: %d and %d; want 204 and 204", a, b)
	}
	if running, _ := a.peaks(); running != 1 {
		t.Errorf("%d ran at once; the memory allows 1", running)
	}

	// A body that idles longer than the idle timeout is cut off.
	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /api/v1/x HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nf")
	time.Sleep(300 * time.Millisecond)
	fmt.Fprint(c, "ile")
	<-entered
	mu.Lock()
	defer mu.Unlock()
	if bodyErrs != 1 {
		t.Errorf("%d body reads failed; want the idling one", bodyErrs)
	}
	if deadlines != 3 {
		t.Errorf("%d of 3 requests carried a deadline", deadlines)
	}
}

// TestRunsCappedByTheProfile: simulate, compare and step run the simulator
// with the profile's per-repetition event cap (budget.Profile.RepEventCap:
// 1.5 times the budget on the machine's CPUs), so a run whose estimate is
// low stops near the runtime's time budget instead of at the simulator's
// own 400 million events.
func TestRunsCappedByTheProfile(t *testing.T) {
	ps := realPresets(t)
	for _, p := range []budget.Profile{budget.Worker, budget.Browser, budget.Serve} {
		var caps []int64
		capturing := func(_ context.Context, r *scenario.Resolved, opt sim.Options) (*sim.Result, error) {
			caps = append(caps, opt.MaxEvents)
			return &sim.Result{Scenario: r.Name, Reps: []sim.RepMetrics{{}}}, nil
		}
		h := New(ps, WithRunner(capturing), WithProfile(p))
		for _, req := range []struct{ endpoint, body string }{
			{"simulate", `{"scenario": "vera-sgemm-nvpl", "set": ["run.reps=1"]}`},
			{"compare", `{"scenario": "vera-sgemm-nvpl", "set": ["run.reps=1"], "a": {"label": "mainline", "set": ["policy.preset=mainline"]}, "b": {"label": "v6", "set": ["policy.preset=v6-on"]}}`},
		} {
			caps = nil
			if code, _, body := post(t, h, req.endpoint, req.body); code != http.StatusOK {
				t.Fatalf("%s %s: %d %.300s", p.Name, req.endpoint, code, body)
			}
			want := p.RepEventCap(352) // vera: 352 CPUs
			if len(caps) == 0 || want <= 0 {
				t.Fatalf("%s %s: %d runs, cap %d", p.Name, req.endpoint, len(caps), want)
			}
			for _, c := range caps {
				if c != want {
					t.Errorf("%s %s: MaxEvents %d; want the %s profile's %d", p.Name, req.endpoint, c, p.Name, want)
				}
			}
		}
	}
}

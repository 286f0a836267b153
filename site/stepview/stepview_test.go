package stepview

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/presets"
	"schedplay/site"
	"schedplay/site/api"
)

func TestWantedAndParseURL(t *testing.T) {
	for search, want := range map[string]bool{
		"?step=1": true, "?step=1&preset=x": true, "?step=0": false, "": false,
		"?step=1&embed=1": false, "?step=1&compare=1": false,
	} {
		if Wanted(search) != want {
			t.Errorf("Wanted(%q) = %v", search, !want)
		}
	}
	r, err := ParseURL("?step=1&preset=hikey960-sysbench&n=12", "#x=1&s=abc")
	if err != nil || r.Share != "abc" || r.Preset != "hikey960-sysbench" || r.Steps != 12 {
		t.Fatalf("%+v %v", r, err)
	}
	for _, bad := range []string{"?step=1", "?step=1&preset=p&n=-1", "?step=1&preset=p&n=200001", "?step=1&preset=p&n=x"} {
		if _, err := ParseURL(bad, ""); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	if got := Link("https://h/p/", 7, "S"); got != "https://h/p/?step=1&n=7#s=S" {
		t.Error(got)
	}
	if got := Link("https://h/p/", 0, "S"); got != "https://h/p/?step=1#s=S" {
		t.Error(got)
	}
}

func TestNext(t *testing.T) {
	for _, tt := range []struct {
		n      int
		action string
		want   int
	}{{0, "step", 1}, {5, "step10", 15}, {5, "back", 4}, {0, "back", 0}, {9, "reset", 0}, {MaxSteps, "step", MaxSteps}, {3, "other", 3}} {
		if got := Next(tt.n, tt.action); got != tt.want {
			t.Errorf("Next(%d, %s) = %d, want %d", tt.n, tt.action, got, tt.want)
		}
	}
}

func TestMachineCPUs(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	for name, ok := range map[string]bool{"hikey960-sysbench": true, "vera-sgemm-nvpl": false} {
		sc, err := scenario.FromReference(name, ps)
		if err != nil {
			t.Fatal(err)
		}
		r, err := scenario.Resolve(sc, ps)
		if err != nil {
			t.Fatal(err)
		}
		n, err := MachineCPUs(r)
		if (err == nil) != ok || ok && n != 8 || !ok && !strings.Contains(err.Error(), "at most 64 CPUs") {
			t.Errorf("%s: %d CPUs, %v", name, n, err)
		}
	}
}

func TestRowsAndChanged(t *testing.T) {
	d := sim.Detail{Runqueues: []sim.RunqueueState{
		{CPU: 0, NrRunning: 2, V: 1000, Curr: &sim.EntityState{Name: "a", Vruntime: 900, Deadline: 3_000_900, Lag: 100, Eligible: true},
			Queued: []sim.EntityState{{Name: "b", Vruntime: 1100, Deadline: 2_000_000, Lag: -100}}},
		{CPU: 1, Idle: true, Nohz: true, Queued: []sim.EntityState{}},
	}}
	rows := Rows(d)
	if rows[0].Curr != "a v=900 ns d=3.001 ms lag=100 ns" || rows[0].Queued[0] != "b v=1.1 µs d=2 ms lag=-100 ns (not eligible)" ||
		!strings.HasPrefix(rows[0].State, "overloaded (nr_running 2)") {
		t.Errorf("row 0: %+v", rows[0])
	}
	if rows[1].Curr != "idle" || rows[1].State != "idle · available_idle_cpu, nohz idle" {
		t.Errorf("row 1: %+v", rows[1])
	}
	d2 := d
	d2.Runqueues = append([]sim.RunqueueState(nil), d.Runqueues...)
	d2.Runqueues[1] = sim.RunqueueState{CPU: 1, NrRunning: 1, Curr: &sim.EntityState{Name: "b", Eligible: true}}
	ch := Changed(rows, Rows(d2))
	if len(ch) != 1 || !ch[1] {
		t.Errorf("changed %v", ch)
	}
	if got := LLCText(sim.LLCState{CPUs: "0-3", HasIdleCores: true, NrIdleScan: 4, SharedLevel: "MC", SharedCPUs: "0-3", NrBusyCPUs: 1}); got != "LLC cpus 0-3: has_idle_cores=true, nr_idle_scan=4, nr_busy_cpus=1, idle CPUs now: none" {
		t.Error(got)
	}
	if got := LLCText(sim.LLCState{CPUs: "4-7", NrIdleScan: 8, SharedLevel: "PKG", SharedCPUs: "0-7", IdleCPUs: "5"}); got != "LLC cpus 4-7: has_idle_cores=false, nr_idle_scan=8 (PKG cpus 0-7's sched_domain_shared), nr_busy_cpus=0, idle CPUs now: 5" {
		t.Error(got)
	}
	if got := EventText(sim.StepEvent{N: 3, At: 1500_000, Kind: "try_to_wake_up", Text: "cpu 0 wakes x", Decisions: []int{4}}); got != "#3 at 1.5 ms · try_to_wake_up: cpu 0 wakes x (1 placement decision)" {
		t.Error(got)
	}
}

// The view's Body and Reply round-trip through the real endpoint.
func TestBodyAndReplyThroughAPI(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.FromReference("hikey960-sysbench", ps)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := scenario.Encode(sc)
	if err != nil {
		t.Fatal(err)
	}
	h := api.New(ps)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/api/v1/step", strings.NewReader(Body(doc, 25))))
	if rec.Code != 200 {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	r, err := DecodeReply(rec.Body.String())
	if err != nil {
		t.Fatal(err)
	}
	if r.Events != 25 || r.Event == nil || r.Event.N != 25 || len(r.Detail.Runqueues) != 8 || len(r.Detail.LLCs) != 1 || // DynamiQ: one shared L3

		r.Timeline == nil || len(r.Timeline.Runs) != 8 || r.LastDecision == nil || len(r.LastDecision.Path) == 0 {
		t.Fatalf("reply: events %d, %d runqueues, %d LLCs, last decision %+v", r.Events, len(r.Detail.Runqueues), len(r.Detail.LLCs), r.LastDecision)
	}
}

// The step view, the playground's Step button (site.StepRefusal) and the
// endpoint refuse the same machines.
func TestStepLimitsMatchEndpoint(t *testing.T) {
	if site.MaxStepCPUs != api.MaxStepCPUs || MaxSteps != api.MaxStepSteps {
		t.Errorf("step limits: page %d CPUs %d steps, endpoint %d CPUs %d steps", site.MaxStepCPUs, MaxSteps, api.MaxStepCPUs, api.MaxStepSteps)
	}
	if site.StepRefusal(site.MaxStepCPUs) != nil || site.StepRefusal(site.MaxStepCPUs+1) == nil {
		t.Error("StepRefusal does not refuse exactly above MaxStepCPUs")
	}
}

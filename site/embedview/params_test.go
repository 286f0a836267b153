package embedview

import (
	"encoding/json"
	"strings"
	"testing"

	"schedplay/engine/embed"
	"schedplay/engine/sim"
	"schedplay/site"
)

func TestWantedAndParams(t *testing.T) {
	for _, tt := range []struct {
		search, hash string
		wanted       bool
		want         Params
	}{
		{"?embed=1", "#s=abc", true, Params{Share: "abc"}},
		{"?embed=1&preset=power7-smt&run=0", "", true, Params{Preset: "power7-smt", NoRun: true}},
		{"?embed=1&parent=https%3A%2F%2Fdocs.example.org", "#v=1&s=xyz", true, Params{Share: "xyz", Parent: "https://docs.example.org"}},
		{"?embed=0", "", false, Params{}},
		{"?compare=1&preset=x", "", false, Params{Preset: "x"}},
		{"", "#s=abc", false, Params{Share: "abc"}},
	} {
		if got := Wanted(tt.search); got != tt.wanted {
			t.Errorf("Wanted(%q) = %v; want %v", tt.search, got, tt.wanted)
		}
		if got := ParseParams(tt.search, tt.hash); got != tt.want {
			t.Errorf("ParseParams(%q, %q) = %+v; want %+v", tt.search, tt.hash, got, tt.want)
		}
	}
}

func TestSnippetEscapesAndCarriesTheScenario(t *testing.T) {
	doc := []byte(`{"schedplay":1,"name":"<script>alert(1)</script> & co","preset":"hikey960-short-sysbench"}`)
	s, err := Snippet("https://schedplay.dev/", doc)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(s, "<script>") || !strings.Contains(s, "&lt;script&gt;") {
		t.Errorf("snippet does not escape the name: %s", s)
	}
	if !strings.HasPrefix(s, `<iframe src="https://schedplay.dev/?embed=1#s=`) {
		t.Errorf("snippet src: %s", s)
	}
	if _, err := Snippet("https://x/", []byte(`{"schedplay":1,"bogus":1}`)); err == nil {
		t.Error("a scenario with an unknown key made a snippet")
	}
}

func TestFigures(t *testing.T) {
	r := &sim.Result{Unit: "work/s", Reps: make([]sim.RepMetrics, 3)}
	r.Summary.Throughput = sim.Stat{Mean: 7.2494, Stddev: 0.0055, N: 3}
	r.Summary.ModeTransitions = sim.Stat{Mean: 637, Stddev: 21, N: 3}
	r.Summary.Migrations = sim.Stat{Mean: 4, N: 3}
	figs := Figures(r, true)
	got := map[string]string{}
	for _, f := range figs {
		got[f.ID] = f.Value
	}
	want := map[string]string{"fig-throughput": "7.2494 ± 0.0055 work/s", "fig-transitions": "637 ± 21", "fig-migrations": "4 ± 0", "fig-reps": "3"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q; want %q", k, got[k], v)
		}
	}
	if _, ok := got["fig-latency"]; ok {
		t.Error("latency shown for a run without wake-up latency samples")
	}
	r.Unit, r.Metric = "GFLOP/s", "sgemm" // an sgemm result's throughput is in GFLOP/s
	r.Summary.Throughput = sim.Stat{Mean: 1942.1, Stddev: 61.3, N: 3}
	r.Summary.LatencyP99 = sim.Stat{Mean: 12500, Stddev: 800, N: 3}
	r.Summary.LatencyMax = sim.Stat{Max: 40000, N: 3}
	got = map[string]string{}
	for _, f := range Figures(r, true) {
		got[f.ID] = f.Value
	}
	if got["fig-throughput"] != "1.942 ± 0.061 TFLOP/s" || got["fig-latency"] != "12.50 ± 0.80 µs" {
		t.Errorf("GFLOP/s and latency figures: %v", got)
	}
	// A timed section (perf bench futex's wake loop) is a key figure; one
	// never executed after the warm-up is not.
	r.Summary.Timed = []sim.TimedStat{{Name: "idle", Count: sim.Stat{N: 3}}, {Name: "wake loop", Time: sim.Stat{Mean: 16000, Stddev: 500, N: 3}, Count: sim.Stat{Mean: 10, N: 3}}}
	figs = Figures(r, true)
	got = map[string]string{}
	labels := map[string]string{}
	for _, f := range figs {
		got[f.ID], labels[f.ID] = f.Value, f.Label
	}
	if got["fig-timed-1"] != "16.00 ± 0.50 µs" || labels["fig-timed-1"] != "wake loop" {
		t.Errorf("timed figure %q %q", labels["fig-timed-1"], got["fig-timed-1"])
	}
	if _, ok := got["fig-timed-0"]; ok || figs[len(figs)-1].ID != "fig-reps" {
		t.Errorf("figures %v", figs)
	}
}

// A latency workload (cyclictest) has its wake-up latency p99 as the
// headline, not the little work its loop computes per second.
func TestFiguresLatencyHeadline(t *testing.T) {
	r := &sim.Result{Unit: "work/s", Metric: "latency", Reps: make([]sim.RepMetrics, 2)}
	r.Summary.Throughput = sim.Stat{Mean: 0.002, N: 2}
	r.Summary.LatencyP99 = sim.Stat{Mean: 4000, N: 2}
	r.Summary.LatencyMax = sim.Stat{Max: 4000, N: 2}
	figs := Figures(r, true)
	if figs[0].Label != "wake-up latency p99" || figs[0].Value != "4 ± 0 µs" {
		t.Errorf("headline %+v; want the wake-up latency p99", figs[0])
	}
	for _, f := range figs {
		if strings.Contains(f.Value, "work/s") {
			t.Errorf("figure %+v shows the latency loop's work/s", f)
		}
	}
}

// An ops workload that times its own sections (perf bench futex) has its
// first timed section as the headline figure, not its ops/s over the run.
func TestFiguresTimedOpsHeadline(t *testing.T) {
	r := &sim.Result{Unit: "ops/s", Reps: make([]sim.RepMetrics, 3)}
	r.Summary.Throughput = sim.Stat{Mean: 7859, N: 3}
	r.Summary.Timed = []sim.TimedStat{{Name: "wake loop", Time: sim.Stat{Mean: 24240, Stddev: 180, N: 3}, Count: sim.Stat{Mean: 10, N: 3}}}
	figs := Figures(r, true)
	if figs[0].ID != "fig-throughput" || figs[0].Label != "wake loop" || figs[0].Value != "24.24 ± 0.18 µs" {
		t.Errorf("headline %+v; want the timed wake loop", figs[0])
	}
	for _, f := range figs[1:] {
		if f.ID == "fig-timed-0" || strings.Contains(f.Value, "ops/s") {
			t.Errorf("figure %+v repeats the headline or shows ops/s", f)
		}
	}
	r.Summary.Timed = nil
	if figs := Figures(r, true); figs[0].Value != "7859 ± 0 ops/s" {
		t.Errorf("untimed ops headline %+v; want ops/s", figs[0])
	}
}

// The embed's own replies must never be treated as requests (an unframed
// page would otherwise answer itself forever).
func TestOwnRepliesAreNotRequests(t *testing.T) {
	for _, b := range [][]byte{embed.Ready("x"), embed.Ack(json.RawMessage(`1`), "x", "l"), embed.Progress(nil, 0.5),
		embed.Result(nil, &sim.Result{}, "l"), embed.Error(nil, errString("e"))} {
		var m struct{ Type string }
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if !isReply(m.Type) {
			t.Errorf("%s is not recognised as a reply", m.Type)
		}
	}
	for _, typ := range []string{embed.TypeSet, embed.TypeRun, embed.TypePing} {
		if isReply(typ) {
			t.Errorf("%s treated as a reply", typ)
		}
	}
}

type errString string

func (e errString) Error() string { return string(e) }

// Issue 16, bug 6: the embed shows every figure it has exactly as the
// playground does (one formatter: site.KeyFigures), GFLOP/s as TFLOP/s
// included.
func TestFiguresMatchPlayground(t *testing.T) {
	r := &sim.Result{Unit: "GFLOP/s", Reps: make([]sim.RepMetrics, 5)}
	r.Summary.Throughput = sim.Stat{Mean: 10289.5, Stddev: 5.0, N: 5}
	r.Summary.GFLOPS = r.Summary.Throughput
	r.Summary.ModeTransitions = sim.Stat{Mean: 103, Stddev: 4, N: 5}
	r.Summary.Migrations = sim.Stat{Mean: 2036, Stddev: 31, N: 5}
	r.Summary.LatencyP99 = sim.Stat{Mean: 71700, Stddev: 900, N: 5}
	r.Summary.LatencyMax = sim.Stat{Mean: 90000, Max: 95000, N: 5}
	r.Reps[0].FairServerNs = 250e6 // a fair server ran: 50 ms a repetition on average
	page := map[string]string{}
	for _, f := range site.KeyFigures(r, true, "") {
		page[f.Kind] = f.Value
	}
	page["latency-p99"] = site.LatencyP99(r).Value
	rt := false
	for _, f := range Figures(r, true) {
		kind := map[string]string{"fig-throughput": "headline", "fig-transitions": "modes", "fig-migrations": "migrations",
			"fig-latency": "latency-p99", "fig-reps": "reps", "fig-rt-bandwidth": "rt-bandwidth"}[f.ID]
		if f.ID == "fig-rt-bandwidth" {
			rt = true
			if f.Value != "50 ms / 0 ns" {
				t.Errorf("fig-rt-bandwidth %q; want 50 ms / 0 ns", f.Value)
			}
		}
		if f.Value != page[kind] {
			t.Errorf("%s: embed %q, playground %q", f.ID, f.Value, page[kind])
		}
	}
	if !rt {
		t.Error("the embed leaves out the fair server's time")
	}
	if !strings.HasSuffix(page["headline"], " TFLOP/s") {
		t.Errorf("headline %q", page["headline"])
	}
}

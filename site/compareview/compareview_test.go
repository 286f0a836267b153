package compareview

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"schedplay/engine/compare"
	"schedplay/engine/explain"
	"schedplay/engine/scenario"
	"schedplay/engine/scenario/scenariotest"
	"schedplay/engine/sim"
	plans "schedplay/engine/sweep"
	"schedplay/engine/topo"
	"schedplay/presets"
	"schedplay/site/api"
	"schedplay/site/viewkit"
)

func loadPresets(t *testing.T) *presets.Set {
	t.Helper()
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

func TestParseURL(t *testing.T) {
	for _, tt := range []struct {
		search, hash string
		want         Request
		err          string
	}{
		{"?compare=mainline,v6-on&preset=vera-sgemm-nvpl", "", Request{A: "mainline", B: "v6-on", Preset: "vera-sgemm-nvpl"}, ""},
		{"?compare=1", "#s=abc", Request{Share: "abc"}, ""},
		{"?compare=%20a%20,%20b%20&preset=p&sweep=run.reps=1,2", "", Request{A: "a", B: "b", Preset: "p", Sweep: "run.reps=1,2"}, ""},
		{"?compare=a", "#s=x", Request{}, "name two policy presets"},
		{"?compare=a,b,c", "#s=x", Request{}, "name two policy presets"},
		{"?compare=a,", "#s=x", Request{}, "name two policy presets"},
		{"?compare=a,b", "", Request{}, "no scenario"},
	} {
		got, err := ParseURL(tt.search, tt.hash)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseURL(%q, %q) error = %v; want %q", tt.search, tt.hash, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseURL(%q, %q) = %+v, %v; want %+v", tt.search, tt.hash, got, err, tt.want)
		}
	}
	if !Wanted("?compare=1&preset=x") || Wanted("?preset=x") || Wanted("?compare=1&embed=1") {
		t.Error("Wanted: compare opens the view, embed=1 wins, nothing else")
	}
}

func TestLoad(t *testing.T) {
	ps := loadPresets(t)
	// ?compare=1 takes the seed scenario's own pair, from a preset or from
	// a share link of it.
	sc, a, b, err := Request{Preset: "hikey960-short-sysbench"}.Load(ps)
	if err != nil || a.Label != "misfit" || b.Label != "dynamiq-asym-packing" || sc == nil {
		t.Fatalf("Load(preset, compare=1) = %v, %+v, %+v, %v", sc, a, b, err)
	}
	if len(a.Set) != 1 || a.Set[0].Path != "policy.preset" || string(a.Set[0].Value) != `"misfit"` {
		t.Errorf("policy side = %+v; want policy.preset=misfit as compare.PolicySide makes it", a)
	}
	share, err := scenario.EncodeShare(sc)
	if err != nil {
		t.Fatal(err)
	}
	if _, a, b, err = (Request{Share: share}).Load(ps); err != nil || a.Label != "misfit" || b.Label != "dynamiq-asym-packing" {
		t.Errorf("Load(share, compare=1) = %+v, %+v, %v", a, b, err)
	}
	// Variants of the seed scenario.
	_, a, b, err = Request{A: "variant:1 threads", B: "variant:4 threads", Preset: "hikey960-short-sysbench"}.Load(ps)
	if err != nil || a.Label != "1 threads" || b.Label != "4 threads" || len(b.Set) != 1 || string(b.Set[0].Value) != "4" {
		t.Errorf("Load(variants) = %+v, %+v, %v", a, b, err)
	}
	if _, _, _, err = (Request{A: "misfit", B: "variant:nope", Preset: "hikey960-short-sysbench"}).Load(ps); err == nil || !strings.Contains(err.Error(), "1 threads") {
		t.Errorf("unknown variant: err = %v; want the variants listed", err)
	}
	if _, _, _, err = (Request{A: "misfit", B: "nope", Preset: "hikey960-short-sysbench"}).Load(ps); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown policy: err = %v", err)
	}
	// A seed scenario expanded into a document (the playground's form) is
	// recognised by its name.
	body, _ := ps.Get(presets.Scenario, "power7-smt")
	s1, err := scenario.Decode(body.Body)
	if err != nil {
		t.Fatal(err)
	}
	share1, _ := scenario.EncodeShare(s1)
	if _, a, b, err = (Request{Share: share1}).Load(ps); err != nil || a.Label != body.Compare[0] || b.Label != body.Compare[1] {
		t.Errorf("Load(expanded seed) = %+v, %+v, %v; want %v", a, b, err, body.Compare)
	}
	own := `{"schedplay":1,"machine":{"preset":"hikey960-dynamiq"},"policy":{"preset":"misfit"},"workload":{"preset":"sysbench-cpu"}}`
	s2, _ := scenario.Decode([]byte(own))
	share2, _ := scenario.EncodeShare(s2)
	// Without a seed scenario: the scenario's policy against its
	// counterpart on the machine's seed scenarios (DefaultPair).
	if _, a, b, err = (Request{Share: share2}).Load(ps); err != nil || a.Label != "misfit" || b.Label != "dynamiq-asym-packing" {
		t.Errorf("compare=1 without a seed scenario = %+v, %+v, %v; want misfit against dynamiq-asym-packing", a, b, err)
	}
	if _, _, _, err = (Request{A: "a", B: "b", Share: "!!!"}).Load(ps); err == nil {
		t.Error("a bad share link loaded")
	}
}

func TestLink(t *testing.T) {
	got := Link("http://h:8080/?compare=x,y&preset=p&sweep=q", "misfit", "v6-on", "abc")
	if got != "http://h:8080/?compare=misfit%2Cv6-on#s=abc" {
		t.Errorf("Link = %q", got)
	}
}

func TestParseSweep(t *testing.T) {
	p, vals, err := ParseSweep(" workload.groups[0].count ", "22, 44,88,176")
	if err != nil || p != "workload.groups[0].count" || strings.Join(vals, "|") != "22|44|88|176" {
		t.Errorf("ParseSweep = %q, %q, %v", p, vals, err)
	}
	if _, vals, err := ParseSweep("run.reps", "1..4, 8,10..10"); err != nil || strings.Join(vals, ",") != "1,2,3,4,8,10" {
		t.Errorf("ranges: %q, %v", vals, err)
	}
	for _, tt := range [][2]string{{"run.reps", "4..1"}, {"run.reps", "1..x"}, {"run.reps", "1..100"}, {"run.reps", "1..20,1..20"}, {"", "1,2"}, {"run.reps", ""}, {"run.reps", "1,,2"}, {"a..b", "1"}, {"run.reps", strings.Repeat("1,", 40) + "1"}} {
		if _, _, err := ParseSweep(tt[0], tt[1]); err == nil {
			t.Errorf("ParseSweep(%q, %q) accepted", tt[0], tt[1])
		}
	}
	for _, tt := range []struct {
		n    int
		want string
	}{{0, "1,2,4,8"}, {1, "1,2,4,8"}, {88, "22,44,88,176"}, {3, "1,3,6"}, {4, "1,2,4,8"}} {
		if got := DefaultSweepValues(tt.n); got != tt.want {
			t.Errorf("DefaultSweepValues(%d) = %q; want %q", tt.n, got, tt.want)
		}
	}
}

func TestSweepSVG(t *testing.T) {
	pts := []Point{
		{Value: "1", A: compare.Value{Mean: 10, Stddev: 1, N: 3}, B: compare.Value{Mean: 12, Stddev: 0.5, N: 3}},
		{Value: "2", Err: "failed"},
		{Value: "4", A: compare.Value{Mean: 20, Stddev: 2, N: 3}, B: compare.Value{Mean: 30, N: 3}},
	}
	svg := SweepSVG(pts, "workload.groups[0].count", []string{"1", "2", "4", "<8>"}, "Average throughput", "work/s", "A = <b>", "B", 600, 280)
	if n := strings.Count(svg, "<circle"); n != 4 {
		t.Errorf("%d markers; want 2 good points × 2 sides", n)
	}
	if n := strings.Count(svg, `class="errbar"`); n != 3 {
		t.Errorf("%d error bars; want 3 (B's second point has no spread)", n)
	}
	if strings.Contains(svg, "<b>") || strings.Contains(svg, "<8>") || !strings.Contains(svg, "&lt;8&gt;") {
		t.Error("SVG text is not escaped")
	}
	c := NewChart(pts, 4, 600, 280)
	if c.YMin != 0 || c.YMax < 32 {
		t.Errorf("chart range [%v, %v]; want 0 and above the top error bar", c.YMin, c.YMax)
	}
	if c.Y(c.YMin) != c.Bot || c.Y(c.YMax) != c.Top || c.X(0) != c.Left || c.X(3) != c.Right {
		t.Errorf("chart geometry: %+v", c)
	}
	// Data far above zero keep their own range.
	far := NewChart([]Point{{A: compare.Value{Mean: 1000, Stddev: 1}, B: compare.Value{Mean: 1010, Stddev: 1}}}, 1, 600, 280)
	if far.YMin < 990 || far.YMax > 1020 {
		t.Errorf("range [%v, %v] for data at 1000–1010", far.YMin, far.YMax)
	}
}

func TestRowCells(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, tt := range []struct {
		row     compare.Row
		verdict string
		diff    string
	}{
		{compare.Row{Metric: "Average throughput", DiffPct: f(6.95), P: f(0.0001), A: compare.Value{N: 10}}, "better", "+6.95%"},
		{compare.Row{Metric: "Completion time", LowerIsBetter: true, DiffPct: f(-6.5), P: f(0.0001)}, "better", "-6.50%"},
		{compare.Row{Metric: "Migrations", LowerIsBetter: true, DiffPct: f(12), P: f(0.01)}, "worse", "+12.00%"},
		{compare.Row{Metric: "Average throughput", DiffPct: f(1.8), P: f(0.3)}, "same", "+1.80%"},
		{compare.Row{Metric: "Best throughput", DiffPct: f(1.8)}, "better", "+1.80%"},
		{compare.Row{Metric: "Mode transitions", LowerIsBetter: true}, "", "n/a"},
	} {
		c := RowCells(tt.row)
		if c.Verdict != tt.verdict || c.Diff != tt.diff {
			t.Errorf("RowCells(%s %v) = %q %q; want %q %q", tt.row.Metric, tt.row.DiffPct, c.Verdict, c.Diff, tt.verdict, tt.diff)
		}
	}
	c := RowCells(compare.Row{Unit: "ms", A: compare.Value{Mean: 637.2, Stddev: 21.4, N: 5}, B: compare.Value{Mean: 103.6, N: 1}})
	if c.A != "637 ± 21 ms" || c.B != "103.6 ms" {
		t.Errorf("values: %q, %q", c.A, c.B)
	}
	c = RowCells(compare.Row{Unit: "work/s", A: compare.Value{Mean: 1.592249, Stddev: 2e-16, N: 10}, B: compare.Value{Mean: 0.965, N: 10}})
	if c.A != "1.59 ± 0 work/s" || c.B != "0.965 ± 0 work/s" {
		t.Errorf("values: %q, %q", c.A, c.B)
	}
	// completion time over the repetitions that finished
	c = RowCells(compare.Row{Unit: "ms", A: compare.Value{Mean: 110, Stddev: 10, N: 3, Of: 5}, B: compare.Value{N: 0, Of: 5}})
	if c.A != "110 ± 10 ms (3 of 5 finished)" || c.B != "0 of 5 finished" {
		t.Errorf("partial values: %q, %q", c.A, c.B)
	}
}

// runPair runs a seed scenario under both policies of its pair, with
// timelines.
func runPair(t *testing.T, ps *presets.Set, name string) (a, b *sim.Result, tp *topo.Topology) {
	t.Helper()
	sc, pa, pb, err := Request{Preset: name}.Load(ps)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := scenario.ParseSet("run.reps=2")
	var res [2]*sim.Result
	for i, p := range []compare.Side{pa, pb} {
		s, err := scenario.Apply(sc, ps, append(p.Set, o))
		if err != nil {
			t.Fatal(err)
		}
		r, err := scenario.Resolve(s, ps)
		if err != nil {
			t.Fatal(err)
		}
		if res[i], err = sim.Run(context.Background(), r, sim.Options{Timeline: true}); err != nil {
			t.Fatal(err)
		}
		if tp, err = topo.Build(r.Machine, r.Policy.DomainPolicy); err != nil {
			t.Fatal(err)
		}
	}
	return res[0], res[1], tp
}

func TestDeltaRowsAndDivergenceOnARealPair(t *testing.T) {
	ps := loadPresets(t)
	a, b, tp := runPair(t, ps, "hikey960-short-sysbench")
	ds, err := explain.CoreDeltas(a, b, tp.CoreCPUs)
	if err != nil {
		t.Fatal(err)
	}
	rows := DeltaRows(ds)
	if len(rows) != 8 {
		t.Fatalf("%d rows; want one per hikey960 core", len(rows))
	}
	strongest := 0.0
	for _, r := range rows {
		if h := r.Busy.Heat; h < -1 || h > 1 {
			t.Errorf("core %d busy heat %v out of range", r.Core, h)
		}
		strongest = max(strongest, r.Busy.Heat, -r.Busy.Heat)
	}
	if strongest != 1 {
		t.Errorf("strongest busy heat = %v; want 1 for the largest change", strongest)
	}
	d, ok := explain.FirstDivergence(a.Timeline, b.Timeline)
	if !ok {
		t.Fatal("misfit and asym packing placed the task identically")
	}
	for _, dec := range []*sim.Decision{d.A, d.B} {
		m := DivergenceMarkers(d, dec)
		if m[0].At != d.At {
			t.Errorf("first marker at %d; want the divergence time %d", m[0].At, d.At)
		}
		if last := m[len(m)-1]; dec != nil && (last.At != dec.At || last.CPU != dec.To) {
			t.Errorf("markers %v do not show the side's decision %+v", m, dec)
		}
	}
	end := max(a.Timeline.EndNs, b.Timeline.EndNs)
	t0, t1 := DivergenceWindow(d, end)
	if t0 > min(d.A.At, d.B.At) || t1 < max(d.A.At, d.B.At) || t1-t0 >= end {
		t.Errorf("zoom window [%d, %d] of %d does not frame both decisions (%d, %d)", t0, t1, end, d.A.At, d.B.At)
	}
}

func TestHeatColor(t *testing.T) {
	if HeatColor(0) != "transparent" || !strings.HasPrefix(HeatColor(0.5), "rgb(217") || !strings.HasPrefix(HeatColor(-1), "rgb(26") {
		t.Errorf("HeatColor: %q %q %q", HeatColor(0), HeatColor(0.5), HeatColor(-1))
	}
}

// Every function a decision path can link has its heading in
// docs/KERNEL-MAP.md, at the anchor the links use.
func TestKernelLinksResolve(t *testing.T) {
	md, err := os.ReadFile("../../docs/KERNEL-MAP.md")
	if err != nil {
		t.Fatal(err)
	}
	heads := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^#+ `([a-z_0-9]+)\\(\\)`").FindAllStringSubmatch(string(md), -1) {
		heads[strings.ToLower(m[1])] = true
	}
	for _, f := range explain.LinkedFuncs() {
		l := explain.KernelLink(explain.Anchor(f))
		if !strings.HasPrefix(l, "docs/KERNEL-MAP.md#") || !heads[strings.TrimPrefix(l, "docs/KERNEL-MAP.md#")] {
			t.Errorf("link %q of %s() has no heading in KERNEL-MAP.md", l, f)
		}
	}
}

func TestKernelEntry(t *testing.T) {
	md, err := os.ReadFile("../../docs/KERNEL-MAP.md")
	if err != nil {
		t.Fatal(err)
	}
	title, body, ok := KernelEntry(string(md), "select_idle_sibling")
	if !ok || title != "select_idle_sibling()" || !strings.Contains(body, "kernel/sched/fair.c") || strings.Contains(body, "\n") || strings.Contains(body, "###") {
		t.Errorf("KernelEntry(select_idle_sibling) = %q, %q, %v", title, body, ok)
	}
	for _, f := range explain.LinkedFuncs() {
		if _, body, ok := KernelEntry(string(md), explain.Anchor(f)); !ok || body == "" {
			t.Errorf("no KERNEL-MAP entry text for %s()", f)
		}
	}
	if _, _, ok := KernelEntry(string(md), "no_such_function"); ok {
		t.Error("found an entry for a function KERNEL-MAP.md does not list")
	}
}

func TestSweepSummary(t *testing.T) {
	ok := Point{Value: "22"}
	if got, failed := SweepSummary([]Point{ok, {Value: "44"}}, 2); got != "Done: 2 points." || failed {
		t.Errorf("all points = %q, %v", got, failed)
	}
	pts := []Point{ok, {Value: "44"}, {Value: "88", Err: "the engine worker failed"}, {Value: "176", Err: "timeout"}}
	got, failed := SweepSummary(pts, 4)
	if want := "Done: 2 of 4 points; 2 failed: 88 (the engine worker failed), 176 (timeout)."; got != want || !failed {
		t.Errorf("SweepSummary = %q, %v; want %q, true", got, failed, want)
	}
	if got, failed := SweepSummary([]Point{ok}, 3); got != "Done: 1 of 3 points." || !failed {
		t.Errorf("missing points = %q, %v", got, failed)
	}
}

func TestDefaultPair(t *testing.T) {
	ps := loadPresets(t)
	for _, tt := range []struct{ machine, policy, a, b string }{
		// 1: a seed pair on the machine holds the policy
		{`{"preset":"hikey960-dynamiq"}`, `{"preset":"misfit"}`, "misfit", "dynamiq-asym-packing"},
		{`{"preset":"vera"}`, `{"preset":"v6-on","features":{}}`, "v6-on", "mainline"},
		// 2: the policy the machine's first seed studies
		{`{"preset":"hikey960-dynamiq"}`, `{"preset":"mainline"}`, "mainline", "dynamiq-asym-packing"},
		{`{"preset":"vera"}`, `{"preset":"v6-auto"}`, "v6-auto", "v6-on"},
		// 3: no seed on the machine: a seed pair holding the policy
		{`{"cpus":4}`, `{"preset":"power7"}`, "power7", "none"},
		// an inline policy is compared as mainline
		{`{"cpus":4}`, `{"features":{}}`, "mainline", "v6-on"},
		// 4: no seed pair holds it
		{`{"cpus":4}`, `{"preset":"v6-off"}`, "v6-off", "mainline"},
	} {
		sc := &scenario.Scenario{Schedplay: 1, Machine: json.RawMessage(tt.machine), Policy: json.RawMessage(tt.policy)}
		if a, b := DefaultPair(sc, ps); a != tt.a || b != tt.b {
			t.Errorf("DefaultPair(%s, %s) = %s, %s; want %s, %s", tt.machine, tt.policy, a, b, tt.a, tt.b)
		}
	}
}

// A seed scenario the playground expanded keeps its pair after a rename
// (its sections are unchanged) and as a variant ("NAME (VARIANT)").
func TestSeedOfRenamedAndVariant(t *testing.T) {
	ps := loadPresets(t)
	p, _ := ps.Get(presets.Scenario, "hikey960-sysbench")
	sc, err := scenario.Decode(p.Body)
	if err != nil {
		t.Fatal(err)
	}
	seedName := sc.Name
	sc.Name = "my copy"
	if got := SeedOf(sc, "", ps); got.Name != "hikey960-sysbench" {
		t.Errorf("renamed seed matched %q; want hikey960-sysbench", got.Name)
	}
	share, _ := scenario.EncodeShare(sc)
	if _, a, b, err := (Request{Share: share}).Load(ps); err != nil || a.Label != p.Compare[0] || b.Label != p.Compare[1] {
		t.Errorf("renamed seed compares %+v, %+v, %v; want its pair %v", a, b, err, p.Compare)
	}
	// Renamed and edited: no longer the seed.
	edited, err := scenario.Apply(sc, ps, []scenario.Override{{Path: "run.reps", Value: json.RawMessage("7")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := SeedOf(edited, "", ps); got.Name != "" {
		t.Errorf("renamed and edited scenario matched seed %q", got.Name)
	}
	// A variant keeps the seed's name with the variant's in brackets.
	v, err := scenario.Apply(sc, ps, p.Variants[2].Set)
	if err != nil {
		t.Fatal(err)
	}
	v.Name = seedName + " (" + p.Variants[2].Name + ")"
	if got := SeedOf(v, "", ps); got.Name != "hikey960-sysbench" {
		t.Errorf("variant %q matched %q; want hikey960-sysbench", v.Name, got.Name)
	}
}

func TestCheckWorkerURL(t *testing.T) {
	for in, want := range map[string]string{"": "", "  ": "", "https://x.workers.dev/": "https://x.workers.dev", "http://127.0.0.1:8787": "http://127.0.0.1:8787"} {
		if got, err := CheckWorkerURL(in); err != nil || got != want {
			t.Errorf("CheckWorkerURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"ftp://x", "x.workers.dev", "https://", "https://x/?a=1", "javascript:alert(1)"} {
		if _, err := CheckWorkerURL(bad); err == nil {
			t.Errorf("CheckWorkerURL(%q) accepted", bad)
		}
	}
}

// A value's runs, run one by one as the sweep sends them, make the table
// POST /api/v1/compare gives for that value; a refused run fails the
// point with the refusal.
func TestPointOfIsTheCompareTable(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	h := api.New(ps)
	doc, err := scenario.FromReference("hikey960-sysbench", ps)
	if err != nil {
		t.Fatal(err)
	}
	a, b := compare.PolicySide("none"), compare.PolicySide("misfit")
	plan, err := SweepPlan(doc, ps, a, b, "workload.groups[0].count", []string{"2", "0"})
	if err != nil {
		t.Fatal(err)
	}
	var recs []plans.Record
	for i := 0; i < plan.NumUnits(); i++ {
		status, _, body := api.Do(context.Background(), h, "POST", "/api/v1/simulate", plan.Body(plan.Unit(i)))
		rec := plans.Record{Unit: i, Status: status, Result: body}
		if status != 200 {
			rec.Result, rec.Error = nil, body
		}
		recs = append(recs, rec)
	}
	pt, tbl := PointOf(plan, recs[:plan.GroupSize()], "2", "none", "misfit")
	if pt.Err != "" || tbl == nil {
		t.Fatalf("point %+v", pt)
	}
	enc, _ := scenario.Encode(doc)
	_, _, reply := api.Do(context.Background(), h, "POST", "/api/v1/compare", []byte(viewkit.CompareBody(enc, a, b, "workload.groups[0].count=2")))
	var want struct {
		Table *compare.Table `json:"table"`
	}
	if err := json.Unmarshal(reply, &want); err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(tbl.Sets[0].Rows)
	w, _ := json.Marshal(want.Table.Sets[0].Rows)
	if string(got) != string(w) || tbl.Reps != want.Table.Reps || fmt.Sprint(tbl.Seeds) != fmt.Sprint(want.Table.Seeds) {
		t.Errorf("rows\n%s\nwant\n%s", got, w)
	}
	bad, _ := PointOf(plan, recs[plan.GroupSize():], "0", "none", "misfit")
	if !strings.Contains(bad.Err, "at least 1") {
		t.Errorf("the refused point says %q", bad.Err)
	}
}

// TestCoreCPUsWithoutBuild: the cores' CPUs the view takes from the machine
// are the ones topo.Build numbers, for every machine preset.
func TestCoreCPUsWithoutBuild(t *testing.T) {
	ps := loadPresets(t)
	for _, name := range ps.Names(presets.Machine) {
		r := scenariotest.Resolve(t, `{"schedplay": 1, "machine": {"preset": "`+name+`"}, "workload": {"groups": []}}`)
		tp, err := topo.Build(r.Machine, r.Policy.DomainPolicy)
		if err != nil {
			t.Fatal(err)
		}
		if got := CoreCPUs(r.Machine); !reflect.DeepEqual(got, tp.CoreCPUs) {
			t.Errorf("%s: cores %v; topo.Build numbers %v", name, got, tp.CoreCPUs)
		}
	}
}

// TestSideLabelStatesTheResolvedGeneration: a side's label names the
// generation the engine resolves for the scenario under that side, for
// every policy preset and variant of every seed scenario.
func TestSideLabelStatesTheResolvedGeneration(t *testing.T) {
	ps := loadPresets(t)
	seen := map[string]bool{}
	for _, name := range ps.Names(presets.Scenario) {
		sc0, err := scenario.FromReference(name, ps)
		if err != nil {
			t.Fatal(err)
		}
		// The seed as it is, and with its policy's generation edited.
		sc612, err := scenario.Apply(sc0, ps, []scenario.Override{{Path: "policy.generation", Value: []byte(`"6.12"`)}})
		if err != nil {
			t.Fatal(err)
		}
		seed, _ := ps.Get(presets.Scenario, name)
		for _, sc := range []*scenario.Scenario{sc0, sc612} {
			sides := []compare.Side{{Label: "as is"}}
			for _, p := range ps.Names(presets.Policy) {
				sides = append(sides, compare.PolicySide(p))
			}
			for _, vr := range seed.Variants {
				sides = append(sides, compare.Side{Label: vr.Name, Set: vr.Set})
			}
			for _, side := range sides {
				s, err := scenario.Apply(sc, ps, side.Set)
				if err != nil {
					t.Fatal(err)
				}
				r, err := scenario.Prepare(t.Context(), s, ps, scenario.Budget{})
				if err != nil {
					continue // a policy this machine cannot take
				}
				want := side.Label + " · " + r.Policy.Generation
				if r.Policy.Generation == "" {
					want = side.Label + " · built-in defaults"
				}
				if got := SideLabel(sc, ps, side); got != want {
					t.Errorf("%s, side %s: %q; want %q", name, side.Label, got, want)
				}
				seen[r.Policy.Generation] = true
			}
		}
	}
	if len(seen) < 3 {
		t.Errorf("generations seen %v; want 6.12's absence, and each named one", seen)
	}
	if got := SideLabel(&scenario.Scenario{Schedplay: 1}, ps, compare.PolicySide("no-such-policy")); got != "no-such-policy" {
		t.Errorf("unknown policy: %q; want the bare label", got)
	}
}

package site

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"schedplay/engine/sim"
	"schedplay/engine/topo"
	"schedplay/presets"
)

// testCatalog is the small catalog in testdata/catalog.json (the
// playground's tests read it too).
func testCatalog(t *testing.T) *Catalog {
	t.Helper()
	b, err := os.ReadFile("testdata/catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseCatalog(b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestParseCatalogShapes(t *testing.T) {
	for _, body := range []string{
		`[{"kind":"policy","name":"a","body":{}}]`,
		`{"presets":[{"kind":"policy","name":"a","body":{}}]}`,
		`{"presets":{"policy":[{"name":"a","body":{}}]}}`,
	} {
		c, err := ParseCatalog([]byte(body))
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if _, ok := c.Get("policy", "a"); !ok {
			t.Errorf("%s: policy a not found", body)
		}
	}
	if _, err := ParseCatalog([]byte(`{"x":1}`)); err == nil {
		t.Error("ParseCatalog accepted an object without presets")
	}
}

func TestParsePath(t *testing.T) {
	els, err := ParsePath("workload.groups[12].program[0].compute")
	if err != nil {
		t.Fatal(err)
	}
	want := []PathElem{{Key: "workload"}, {Key: "groups"}, {Index: 12}, {Key: "program"}, {Index: 0}, {Key: "compute"}}
	if len(els) != len(want) {
		t.Fatalf("got %v", els)
	}
	for i := range want {
		if els[i] != want[i] {
			t.Errorf("elem %d = %v, want %v", i, els[i], want[i])
		}
	}
	for _, bad := range []string{"", "a..b", "a[x]", "a[-1]", "a[1"} {
		if _, err := ParsePath(bad); err == nil {
			t.Errorf("ParsePath(%q) accepted", bad)
		}
	}
}

func TestEditOverridesOnPreset(t *testing.T) {
	cat := testCatalog(t)
	d, _ := cat.ScenarioDoc("demo")
	d2, err := d.Edit("workload.groups[0].count", 22, cat)
	if err != nil {
		t.Fatal(err)
	}
	if got := d2.Get("workload.groups[0].count", cat); got != 22 {
		t.Errorf("count = %v, want 22", got)
	}
	if p := d2.Section("workload")["preset"]; p != "sysbench-cpu" {
		t.Errorf("preset dropped: %v", d2.Section("workload"))
	}
	// The original is untouched (copy on write) ...
	if got := d.Get("workload.groups[0].count", cat); Compact(got) != "4" {
		t.Errorf("original changed: count = %v", got)
	}
	// ... and the preset's own body too.
	if got := Expand(map[string]any{"preset": "sysbench-cpu"}, "workload", cat); Compact(got["groups"]) != `[{"count":4,"name":"sb","program":[{"compute":"1ms"}]}]` {
		t.Errorf("preset body changed: %s", Compact(got))
	}
	// Setting the preset's own value back drops the override.
	d3, _ := d2.Edit("workload.groups[0].count", 4, cat)
	if _, has := d3.Section("workload")["groups"]; has {
		t.Errorf("override kept after restoring the preset value: %v", Compact(d3.Section("workload")))
	}
	// A preset field swaps the whole section.
	d4, _ := d2.Edit("policy.idle_select_asym", true, cat)
	d5, _ := d4.Edit("policy.preset", "v6-on", cat)
	if Compact(d5.Section("policy")) != `{"preset":"v6-on"}` {
		t.Errorf("policy = %s", Compact(d5.Section("policy")))
	}
	if _, err := d.Edit("workload.groups[5].count", 1, cat); err == nil {
		t.Error("edit past the end of a list accepted")
	}
}

func TestShareRoundTrip(t *testing.T) {
	cat := testCatalog(t)
	d, _ := cat.ScenarioDoc("demo")
	d, _ = d.Edit("name", `<img src=x onerror=alert(1)> "quoted"`, cat)
	frag := EncodeFragment(d)
	if !strings.HasPrefix(frag, "s=") || strings.ContainsAny(frag[2:], "+/=#&") {
		t.Fatalf("fragment not base64url: %q", frag)
	}
	got, ok, err := DecodeFragment("#" + frag)
	if err != nil || !ok {
		t.Fatalf("decode: ok=%v err=%v", ok, err)
	}
	if got.Canonical() != d.Canonical() {
		t.Errorf("round trip changed the scenario:\n got %s\nwant %s", got.Canonical(), d.Canonical())
	}
	if _, ok, _ := DecodeFragment("#other=1"); ok {
		t.Error("a hash without s= decoded as a scenario")
	}
	for _, bad := range []string{"#s=!!!", "#s=AAAA", "#s=" + strings.Repeat("A", 10)} {
		if _, ok, err := DecodeFragment(bad); !ok || err == nil {
			t.Errorf("DecodeFragment(%q): ok=%v err=%v, want an error", bad, ok, err)
		}
	}
}

func TestTimeScale(t *testing.T) {
	s := TimeScale{T0: 1000, T1: 3000, Left: 100, Right: 300}
	if x := s.TimeToPx(2000); x != 200 {
		t.Errorf("TimeToPx(2000) = %v", x)
	}
	if tm := s.PxToTime(150); tm != 1500 {
		t.Errorf("PxToTime(150) = %v", tm)
	}
	for _, tm := range []int64{1000, 1234, 2999} {
		if got := s.PxToTime(s.TimeToPx(tm)); got != tm {
			t.Errorf("round trip %d → %d", tm, got)
		}
	}
	t0, t1 := ZoomAt(0, 1000_000, 250_000, 0.5, 1000_000)
	if t0 != 125_000 || t1 != 625_000 {
		t.Errorf("ZoomAt = %d,%d", t0, t1)
	}
	t0, t1 = Pan(0, 500_000, -100, 1000_000)
	if t0 != 0 || t1 != 500_000 {
		t.Errorf("Pan clamps at 0: %d,%d", t0, t1)
	}
	t0, t1 = Pan(400_000, 900_000, 300_000, 1000_000)
	if t0 != 500_000 || t1 != 1000_000 {
		t.Errorf("Pan clamps at end: %d,%d", t0, t1)
	}
	ticks, step := TimeScale{T0: 0, T1: 1e9, Left: 0, Right: 1000}.Ticks(80)
	if step != 100e6 || len(ticks) != 11 {
		t.Errorf("ticks step %d n %d", step, len(ticks))
	}
}

func veraMachine() topo.Machine {
	return topo.Machine{Nodes: 2, CoresPerNode: 88, ThreadsPerCore: 2, Numbering: topo.SiblingMajor}
}

func TestMachineCPUsNumbering(t *testing.T) {
	cpus, err := MachineCPUs(veraMachine())
	if err != nil {
		t.Fatal(err)
	}
	if len(cpus) != 352 {
		t.Fatalf("%d CPUs", len(cpus))
	}
	// CPU 0 and 176 are siblings (domain.md), CPU 88 is on node 1.
	if c := cpus[176]; c.Core != 0 || c.Thread != 1 {
		t.Errorf("cpu176 = %+v", c)
	}
	if c := cpus[88]; c.Node != 1 || c.Core != 88 || c.Thread != 0 {
		t.Errorf("cpu88 = %+v", c)
	}
	cm, _ := MachineCPUs(topo.Machine{Nodes: 1, CoresPerNode: 4, ThreadsPerCore: 4, Numbering: topo.CoreMajor})
	if c := cm[5]; c.Core != 1 || c.Thread != 1 {
		t.Errorf("core-major cpu5 = %+v", c)
	}
	if _, err := MachineCPUs(topo.Machine{Nodes: 64, CoresPerNode: 1000, ThreadsPerCore: 2}); err == nil {
		t.Error("a 128000-CPU machine was accepted")
	}
}

func TestLayoutLanes(t *testing.T) {
	small, _ := MachineCPUs(topo.Machine{Nodes: 1, CoresPerNode: 4, ThreadsPerCore: 2, Numbering: topo.SiblingMajor})
	l := LayoutLanes(small, 400, false)
	if l.CoresPerRow != 1 || len(l.Rows) != 8 || len(l.Bands) != 4 {
		t.Fatalf("small layout: %d rows %d bands k=%d", len(l.Rows), len(l.Bands), l.CoresPerRow)
	}
	// Core 0: PE0 (cpu0) above PE1 (cpu4), under the core's band.
	if l.Rows[0].CPUs[0] != 0 || l.Rows[1].CPUs[0] != 4 || l.Bands[0].Y >= l.Rows[0].Y {
		t.Errorf("core 0 rows: %+v %+v band %+v", l.Rows[0], l.Rows[1], l.Bands[0])
	}
	if l.Height > 400 {
		t.Errorf("height %v > 400", l.Height)
	}
	vera, _ := MachineCPUs(veraMachine())
	l = LayoutLanes(vera, 560, false)
	if l.CoresPerRow < 2 || !l.Aggregated || l.Height > 560 {
		t.Errorf("vera fit: k=%d height %v", l.CoresPerRow, l.Height)
	}
	seen := map[int]bool{}
	for _, r := range l.Rows {
		for _, c := range r.CPUs {
			if seen[c] {
				t.Errorf("cpu %d in two rows", c)
			}
			seen[c] = true
		}
	}
	if len(seen) != 352 || len(l.NodeY) != 2 {
		t.Errorf("rows cover %d CPUs, %d nodes", len(seen), len(l.NodeY))
	}
	p7, _ := MachineCPUs(topo.Machine{Nodes: 1, CoresPerNode: 16, ThreadsPerCore: 4, Numbering: topo.CoreMajor})
	if l := LayoutLanes(p7, 160, false); !l.Aggregated || len(l.Rows[0].CPUs) != 4*l.CoresPerRow {
		t.Errorf("POWER7 in 160px: aggregated=%v, first row %v", l.Aggregated, l.Rows[0].CPUs)
	}
	if l := LayoutLanes(p7, 450, false); l.Aggregated || len(l.Rows) != 64 {
		t.Errorf("POWER7 in 450px: aggregated=%v rows=%d", l.Aggregated, len(l.Rows))
	}
	all := LayoutLanes(vera, 560, true)
	if all.CoresPerRow != 1 || all.Aggregated || len(all.Rows) != 352 {
		t.Errorf("all rows: k=%d rows=%d", all.CoresPerRow, len(all.Rows))
	}
	if r := all.RowAt(all.Rows[10].Y + 1); r != 10 {
		t.Errorf("RowAt = %d, want 10", r)
	}
	if r := all.RowAt(all.Bands[0].Y + 1); r != -1 {
		t.Errorf("RowAt(band) = %d, want -1", r)
	}
	i, j := all.VisibleRows(all.Rows[5].Y, all.Rows[9].Y)
	if i != 5 || j != 9 {
		t.Errorf("VisibleRows = %d,%d", i, j)
	}
}

func TestCoalesceAndHit(t *testing.T) {
	runs := []sim.Interval{{Task: 1, Start: 0, End: 100}, {Task: 2, Start: 110, End: 200},
		{Task: 1, Start: 5000, End: 6000}, {Task: 3, Start: 9000, End: 9001}}
	s := TimeScale{T0: 0, T1: 10000, Left: 0, Right: 1000} // 10 ns/px
	got := Coalesce(runs, s, 2, 1, nil)
	if len(got) != 3 || got[0].Task != -1 || got[0].X1 != 20 || got[1].Task != 1 || got[2].X1-got[2].X0 != 1 {
		t.Errorf("coalesced = %+v", got)
	}
	i, j := VisibleRange(runs, 150, 5001)
	if i != 1 || j != 3 {
		t.Errorf("VisibleRange = %d,%d", i, j)
	}
	zoom := TimeScale{T0: 4000, T1: 8000, Left: 0, Right: 400}
	if got := Coalesce(runs, zoom, 1, 1, nil); len(got) != 1 || got[0].X0 != 100 || got[0].X1 != 200 {
		t.Errorf("zoomed = %+v", got)
	}
	if k := IntervalAt(runs, 150, 0); k != 1 {
		t.Errorf("IntervalAt(150) = %d", k)
	}
	if k := IntervalAt(runs, 8990, 20); k != 3 {
		t.Errorf("IntervalAt(8990, slack) = %d", k)
	}
	if k := IntervalAt(runs, 3000, 20); k != -1 {
		t.Errorf("IntervalAt(gap) = %d", k)
	}
	cpus, _ := MachineCPUs(topo.Machine{Nodes: 1, CoresPerNode: 1, ThreadsPerCore: 2})
	l := LayoutLanes(cpus, 200, false)
	tl := &sim.Timeline{Runs: [][]sim.Interval{runs, nil}}
	h := HitTest(l, s, tl, 15, l.Rows[0].Y+1)
	if h.CPU != 0 || h.Interval != 1 {
		t.Errorf("hit = %+v", h)
	}
	if h := HitTest(l, s, tl, 15, l.Rows[1].Y+1); h.CPU != 1 || h.Interval != -1 {
		t.Errorf("hit on idle cpu1 = %+v", h)
	}
}

func TestModeRuns(t *testing.T) {
	modes := []sim.ModeInterval{{Mode: sim.ModeST, Start: 0, End: 100}, {Mode: sim.ModeIdle, Start: 100, End: 500},
		{Mode: sim.ModeSMT, Start: 500, End: 1000}}
	got := ModeRuns(modes, TimeScale{T0: 0, T1: 1000, Left: 0, Right: 100}, nil)
	if len(got) != 2 || got[0].Mode != sim.ModeST || got[1].X0 != 50 {
		t.Errorf("mode runs = %+v", got)
	}
}

func TestFormat(t *testing.T) {
	cases := map[string]string{
		FormatNs(750):    "750 ns",
		FormatNs(1250):   "1.25 µs",
		FormatNs(12.5e6): "12.5 ms",
		FormatNs(2e9):    "2 s",
		FormatThroughput(27400, 120, 5, "GFLOP/s"): "27.40 ± 0.12 TFLOP/s",
		FormatThroughput(7.5, 0.25, 3, "work/s"):   "7.50 ± 0.25 work/s",
	}
	for got, want := range cases {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

func TestBusyColumns(t *testing.T) {
	runs := [][]sim.Interval{
		{{Start: 0, End: 100}},  // cpu0 busy in columns 0..9
		{{Start: 50, End: 100}}, // cpu1 busy in columns 5..9
		{{Start: 0, End: 25}},   // cpu2 (not in the group)
		{{Start: 15, End: 20}, {Start: 95, End: 200}},
	}
	s := TimeScale{T0: 0, T1: 100, Left: 10, Right: 20} // 10 ns per px
	cols := BusyColumns(runs, []int{0, 1}, s, nil)
	want := []float64{.5, .5, .5, .5, .5, 1, 1, 1, 1, 1}
	for i := range want {
		if d := cols[i] - want[i]; d > 1e-9 || d < -1e-9 {
			t.Errorf("col %d = %v, want %v", i, cols[i], want[i])
		}
	}
	cols = BusyColumns(runs, []int{3}, s, cols)
	if cols[1] != .5 || cols[9] != .5 || cols[5] != 0 {
		t.Errorf("partial pixels: %v", cols)
	}
}

// The page's embedded catalog is the one the API lists, with every seed
// scenario and its story.
func TestEmbeddedCatalog(t *testing.T) {
	c, err := EmbeddedCatalog()
	if err != nil {
		t.Fatal(err)
	}
	ps, _ := presets.Load()
	for _, name := range ps.Names(presets.Scenario) {
		if _, ok := c.ScenarioDoc(name); !ok {
			t.Errorf("seed scenario %s missing", name)
		}
	}
	if len(c.List) != len(ps.All()) {
		t.Errorf("%d presets, the API lists %d", len(c.List), len(ps.All()))
	}
}

// An aggregated band shows the share of its cores in each mode per pixel
// column (issue 16: the 2 px band of six cores drawn at alpha 1/6 was a
// pale strip).
func TestModeShares(t *testing.T) {
	modes := [][]sim.ModeInterval{
		{{Mode: sim.ModeST, Start: 0, End: 100}},
		{{Mode: sim.ModeSMT, Start: 0, End: 50}, {Mode: sim.ModeIdle, Start: 50, End: 100}},
		{{Mode: sim.ModePartitioned, Start: 25, End: 100}},
	}
	s := TimeScale{T0: 0, T1: 100, Left: 10, Right: 14} // 25 ns per column
	got := ModeShares(modes, []int{0, 1, 2}, s, nil)
	third := 1.0 / 3
	want := []ModeShare{{third, third, 0, 0}, {third, third, third, 0}, {third, 0, third, 0}, {third, 0, third, 0}}
	if len(got) != len(want) {
		t.Fatalf("%d columns", len(got))
	}
	for x := range want {
		for m := range want[x] {
			if d := got[x][m] - want[x][m]; d > 1e-9 || d < -1e-9 {
				t.Errorf("column %d: %v, want %v", x, got[x], want[x])
				break
			}
		}
	}
	// Half a column covered counts half.
	got = ModeShares([][]sim.ModeInterval{{{Mode: sim.ModeST, Start: 0, End: 37}}}, []int{0}, s, got)
	if d := got[1][0] - 0.48; d > 1e-9 || d < -1e-9 {
		t.Errorf("partial column share %v", got[1][0])
	}
}

// Find: a search marks tasks by name (a group's tasks carry its name),
// MatchColumns counts only their runs, and SliceBox/RowOf place the slice
// the explain panel outlines.
func TestTaskMatchesAndSliceBox(t *testing.T) {
	tl := &sim.Timeline{
		Tasks: []sim.TaskInfo{{Name: "sgemm/0"}, {Name: "sgemm/1"}, {Name: "kworker/3"}},
		Runs:  [][]sim.Interval{{{Task: 0, Start: 0, End: 50}, {Task: 2, Start: 50, End: 100}}, {{Task: 1, Start: 0, End: 100}}},
	}
	match, n := TaskMatches(tl.Tasks, " SGEMM ")
	if n != 2 || !match[0] || !match[1] || match[2] {
		t.Errorf("TaskMatches = %v %d", match, n)
	}
	if m, n := TaskMatches(tl.Tasks, ""); m != nil || n != 0 {
		t.Errorf("an empty query matched %v", m)
	}
	s := TimeScale{T0: 0, T1: 100, Left: 0, Right: 2} // 50 ns per column
	if got := MatchColumns(tl.Runs, []int{0, 1}, match, s, nil); got[0] != 1 || got[1] != 0.5 {
		t.Errorf("MatchColumns = %v, want [1 0.5]", got)
	}
	if got := BusyColumns(tl.Runs, []int{0, 1}, s, nil); got[0] != 1 || got[1] != 1 {
		t.Errorf("BusyColumns = %v", got)
	}
	cpus, _ := MachineCPUs(topo.Machine{Nodes: 1, CoresPerNode: 2, ThreadsPerCore: 1})
	l := LayoutLanes(cpus, 200, false)
	wide := TimeScale{T0: 0, T1: 100, Left: 10, Right: 110}
	x0, x1, y, h, ok := SliceBox(l, wide, tl, 0, 1)
	if !ok || x0 != 60 || x1 != 110 || y != l.Rows[0].Y || h != l.Rows[0].H {
		t.Errorf("SliceBox = %v %v %v %v %v", x0, x1, y, h, ok)
	}
	if _, _, _, _, ok := SliceBox(l, TimeScale{T0: 200, T1: 300, Left: 10, Right: 110}, tl, 0, 1); ok {
		t.Error("a slice outside the window has a box")
	}
	if l.RowOf(1) != 1 || l.RowOf(7) != -1 {
		t.Errorf("RowOf = %d %d", l.RowOf(1), l.RowOf(7))
	}
}

// TestEmbeddedCatalogTrees: the embedded catalog decodes a preset's body
// when it is first asked for, to the same tree as decoding it at once.
func TestEmbeddedCatalogTrees(t *testing.T) {
	c, err := EmbeddedCatalog()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range c.List {
		want, err := ParseValue(string(p.Body))
		if err != nil {
			t.Fatalf("%s/%s: %v", p.Kind, p.Name, err)
		}
		if got := p.Tree(); !reflect.DeepEqual(got, want) || got == nil {
			t.Errorf("%s/%s: lazy tree differs from the body", p.Kind, p.Name)
		}
		if q, _ := c.Get(p.Kind, p.Name); !reflect.DeepEqual(q.Tree(), want) {
			t.Errorf("%s/%s: Get's copy has another tree", p.Kind, p.Name)
		}
	}
}

package export

import (
	"bytes"
	"encoding/xml"
	"image/color"
	"image/png"
	"io"
	"strings"
	"testing"

	"schedplay/engine/palette"
	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/engine/topo"
	"schedplay/presets"
)

// smallTimeline: 2 cores × 2 threads (core 0 = CPUs 0,2; core 1 = 1,3).
func smallTimeline() (*sim.Timeline, []Lane) {
	tl := &sim.Timeline{
		Tasks: []sim.TaskInfo{{Name: "worker"}, {Name: `<script>alert("x")</script>`}},
		Runs: [][]sim.Interval{
			{{Task: 0, Start: 0, End: 500, Decision: -1}},
			{{Task: 1, Start: 250, End: 1000, Decision: -1}},
			{},
			{},
		},
		Modes: [][]sim.ModeInterval{
			{{Mode: sim.ModeST, Start: 0, End: 500}},
			{{Mode: sim.ModeSMT, Start: 250, End: 1000}},
		},
		EndNs: 1000,
	}
	lanes := []Lane{{CPU: 0, Core: 0, Thread: 0}, {CPU: 2, Core: 0, Thread: 1}, {CPU: 1, Core: 1, Thread: 0}, {CPU: 3, Core: 1, Thread: 1}}
	return tl, lanes
}

// svgRect is a parsed <rect>.
type svgRect struct {
	X, Y, W, H, Fill, Title string
}

// parseSVG checks the document is well-formed XML and returns its rects
// and texts.
func parseSVG(t *testing.T, doc []byte) ([]svgRect, []string) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	var rects []svgRect
	var texts []string
	var cur *svgRect
	inText, inTitle := false, false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "rect":
				r := svgRect{}
				for _, a := range e.Attr {
					switch a.Name.Local {
					case "x":
						r.X = a.Value
					case "y":
						r.Y = a.Value
					case "width":
						r.W = a.Value
					case "height":
						r.H = a.Value
					case "fill":
						r.Fill = a.Value
					}
				}
				rects = append(rects, r)
				cur = &rects[len(rects)-1]
			case "text":
				inText = true
			case "title":
				inTitle = true
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "text":
				inText = false
			case "title":
				inTitle = false
			case "rect":
				cur = nil
			}
		case xml.CharData:
			if inText {
				texts = append(texts, string(e))
			}
			if inTitle && cur != nil {
				cur.Title = string(e)
			}
		}
	}
	return rects, texts
}

func TestTimelineSVGGeometry(t *testing.T) {
	tl, lanes := smallTimeline()
	var b bytes.Buffer
	if err := TimelineSVG(&b, tl, lanes, TimelineOptions{Width: 1092, Title: "a <b> & c"}); err != nil {
		t.Fatal(err)
	}
	rects, texts := parseSVG(t, b.Bytes())
	// Plot width 1092 − 64 − 28 = 1000 px over 1000 ns: 1 px per ns.
	find := func(fill string) []svgRect {
		var out []svgRect
		for _, r := range rects {
			if r.Fill == fill && r.H != "10" { // skip legend swatches
				out = append(out, r)
			}
		}
		return out
	}
	w := find(palette.Hex(TaskColor(0)))
	if len(w) != 1 || w[0].X != "64" || w[0].W != "500" || w[0].Title != "worker on cpu 0" {
		t.Errorf("worker slice %+v", w)
	}
	s := find(palette.Hex(TaskColor(1)))
	if len(s) != 1 || s[0].X != "314" || s[0].W != "750" || !strings.Contains(s[0].Title, `<script>alert("x")</script>`) {
		t.Errorf("script slice %+v", s)
	}
	// CPU 1's row is the third lane, below core 1's band: y = 24 + 5 + 12 + 12 + 2 + 5.
	if s[0].Y != "60" {
		t.Errorf("cpu 1 row at y=%s", s[0].Y)
	}
	if st := find(palette.Hex(ModeColor(sim.ModeST))); len(st) != 1 || st[0].Y != "24" || st[0].W != "500" {
		t.Errorf("ST band %+v", st)
	}
	if smt := find(palette.Hex(ModeColor(sim.ModeSMT))); len(smt) != 1 || smt[0].Y != "55" {
		t.Errorf("SMT band %+v", smt)
	}
	joined := strings.Join(texts, "|")
	for _, want := range []string{"a <b> & c", "cpu 0", "cpu 3", `<script>alert("x")</scr`, "core ST", "core SMT", "core switching", "0 µs", "0.5 µs", "1 µs"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no text %q in %q", want, joined)
		}
	}
	raw := b.String()
	if strings.Contains(raw, "<script") || strings.Contains(raw, "<b>") {
		t.Error("user strings are not escaped")
	}
	var b2 bytes.Buffer
	_ = TimelineSVG(&b2, tl, lanes, TimelineOptions{Width: 1092, Title: "a <b> & c"})
	if !bytes.Equal(b.Bytes(), b2.Bytes()) {
		t.Error("two exports differ")
	}
}

func TestTimelineWindow(t *testing.T) {
	tl, lanes := smallTimeline()
	var b bytes.Buffer
	// Window [500, 1000): the worker slice ends at the left edge and is gone.
	if err := TimelineSVG(&b, tl, lanes, TimelineOptions{Start: 500, End: 1000, Width: 592}); err != nil {
		t.Fatal(err)
	}
	rects, _ := parseSVG(t, b.Bytes())
	for _, r := range rects {
		if r.Fill == palette.Hex(TaskColor(0)) && r.H != "10" {
			t.Errorf("slice outside the window drawn: %+v", r)
		}
		if r.Fill == palette.Hex(TaskColor(1)) && r.H != "10" && (r.X != "64" || r.W != "500") {
			t.Errorf("clipped slice %+v", r)
		}
	}
	if err := TimelineSVG(&b, tl, lanes, TimelineOptions{Start: 5, End: 5}); err == nil {
		t.Error("empty window accepted")
	}
	if err := TimelineSVG(&b, nil, lanes, TimelineOptions{}); err == nil {
		t.Error("nil timeline accepted")
	}
}

// denseTimeline has n CPUs (2 per core), each with slices 1..41 µs long
// times unit/1000, packed over one second: at unit 1e4 (10-410 µs), 352
// CPUs give about 1.2 million slices, all narrower than a pixel at 1200 px;
// at unit 1e6 (1-41 ms) about 30000 slices, each wider than a pixel.
func denseTimeline(n int, unit int64) (*sim.Timeline, []Lane) {
	tl := &sim.Timeline{EndNs: 1e9}
	var lanes []Lane
	for i := 0; i < 64; i++ {
		tl.Tasks = append(tl.Tasks, sim.TaskInfo{Name: "t"})
	}
	seed := uint64(1)
	for cpu := 0; cpu < n; cpu++ {
		var ivs []sim.Interval
		for t := int64(0); t < 1e9; {
			seed = seed*6364136223846793005 + 1442695040888963407
			d := int64(1000+seed>>33%40000) * unit / 1000
			ivs = append(ivs, sim.Interval{Task: int(seed >> 58), Start: t, End: t + d, Decision: -1})
			t += d + d/4
		}
		tl.Runs = append(tl.Runs, ivs)
		lanes = append(lanes, Lane{CPU: cpu, Core: cpu / 2, Thread: cpu % 2})
	}
	for core := 0; core < n/2; core++ {
		var m []sim.ModeInterval
		for t := int64(0); t < 1e9; t += 300000 {
			m = append(m, sim.ModeInterval{Mode: sim.Mode(1 + t/300000%4), Start: t, End: t + 300000})
		}
		tl.Modes = append(tl.Modes, m)
	}
	return tl, lanes
}

func TestTimelineAggregatesVera(t *testing.T) {
	tl, lanes := denseTimeline(352, 10000)
	var b bytes.Buffer
	if err := TimelineSVG(&b, tl, lanes, TimelineOptions{}); err != nil {
		t.Fatal(err)
	}
	rects, texts := parseSVG(t, b.Bytes())
	if len(rects) > 20000+2*len(lanes)+50 {
		t.Errorf("%d rects: the element cap did not hold", len(rects))
	}
	if b.Len() > 3<<20 {
		t.Errorf("SVG is %d bytes", b.Len())
	}
	if !strings.Contains(strings.Join(texts, "|"), "busy (merged slices)") {
		t.Error("no busy legend although slices merged")
	}
	busy := 0
	for _, r := range rects {
		if r.Fill == palette.Hex(busyColor) {
			busy++
		}
	}
	if busy < len(lanes) {
		t.Errorf("%d busy runs for %d rows", busy, len(lanes))
	}
	b.Reset()
	if err := TimelineSVG(&b, tl, lanes, TimelineOptions{MaxElements: 2000}); err != nil {
		t.Fatal(err)
	}
	if rects, _ := parseSVG(t, b.Bytes()); len(rects) > 2000+2*len(lanes)+50 {
		t.Errorf("cap 2000: %d rects", len(rects))
	}
	t.Logf("352 CPUs, %d slices per row: %d bytes", len(tl.Runs[0]), b.Len())
	// Slices wider than half a pixel but too many in all: the cap merges
	// more coarsely.
	tl, lanes = denseTimeline(352, 1e6)
	b.Reset()
	if err := TimelineSVG(&b, tl, lanes, TimelineOptions{MaxElements: 5000}); err != nil {
		t.Fatal(err)
	}
	rects, _ = parseSVG(t, b.Bytes())
	if len(rects) > 5000+2*len(lanes)+50 || len(rects) < 1000 {
		t.Errorf("cap 5000 with %d slices per row: %d rects", len(tl.Runs[0]), len(rects))
	}
}

func TestTimelinePNG(t *testing.T) {
	tl, lanes := smallTimeline()
	var b bytes.Buffer
	if err := TimelinePNG(&b, tl, lanes, TimelineOptions{Width: 1092}); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := layoutTimeline(tl, lanes, TimelineOptions{Width: 1092})
	if img.Bounds().Dx() != 1092 || img.Bounds().Dy() != d.h {
		t.Errorf("size %v, want 1092×%d", img.Bounds(), d.h)
	}
	at := func(x, y int) string {
		r, g, bl, _ := img.At(x, y).RGBA()
		return palette.Hex(rgba(r, g, bl))
	}
	checks := []struct {
		x, y int
		want string
	}{
		{100, 30, palette.Hex(TaskColor(0))}, // worker on cpu 0
		{600, 30, palette.Hex(laneColor)},    // cpu 0 idle after 500 ns
		{400, 61, palette.Hex(TaskColor(1))}, // the other task on cpu 1
		{100, 25, palette.Hex(ModeColor(sim.ModeST))},
		{5, 5, palette.Hex(backgroundColor)},
	}
	for _, c := range checks {
		if got := at(c.x, c.y); got != c.want {
			t.Errorf("pixel (%d,%d) = %s, want %s", c.x, c.y, got, c.want)
		}
	}
}

func TestLanesFromTopology(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := scenario.Decode([]byte(`{"schedplay":1,"machine":{"preset":"vera"},"workload":{"preset":"idle"}}`))
	r, err := scenario.Resolve(sc, ps)
	if err != nil {
		t.Fatal(err)
	}
	tp, err := topo.Build(r.Machine, r.Policy.DomainPolicy)
	if err != nil {
		t.Fatal(err)
	}
	lanes := LanesFromTopology(tp)
	if len(lanes) != tp.NumCPUs() {
		t.Fatalf("%d lanes for %d CPUs", len(lanes), tp.NumCPUs())
	}
	seen := map[int]bool{}
	for i, l := range lanes {
		seen[l.CPU] = true
		info := tp.CPUs[l.CPU]
		if info.Core != l.Core || info.Thread != l.Thread {
			t.Errorf("lane %d: %+v but cpu info %+v", i, l, info)
		}
		if i > 0 && lanes[i-1].Core == l.Core && lanes[i-1].Thread >= l.Thread {
			t.Errorf("lane %d: PE order broken within core %d", i, l.Core)
		}
		if i > 0 && lanes[i-1].Core > l.Core {
			t.Errorf("lane %d: cores out of order", i)
		}
	}
	if len(seen) != len(lanes) {
		t.Error("a CPU appears twice")
	}
	cores := CPUCores(tp)
	for _, l := range lanes {
		if cores[l.CPU] != l.Core {
			t.Errorf("CPUCores[%d] = %d, lane says core %d", l.CPU, cores[l.CPU], l.Core)
		}
	}
}

// rgba converts 16-bit colour channels to color.RGBA.
func rgba(r, g, b uint32) color.RGBA {
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0xff}
}

func TestEscape(t *testing.T) {
	tl, lanes := smallTimeline()
	tl.Tasks[0].Name = "bad\x01\xff name & 'q' \"x\"\n<y>"
	var b bytes.Buffer
	if err := TimelineSVG(&b, tl, lanes, TimelineOptions{Title: "\x00<title>"}); err != nil {
		t.Fatal(err)
	}
	rects, texts := parseSVG(t, b.Bytes()) // fails on invalid XML
	found := false
	for _, r := range rects {
		if strings.HasPrefix(r.Title, "bad\uFFFD\uFFFD name & 'q' \"x\"\n<y>") {
			found = true
		}
	}
	if !found || !strings.Contains(strings.Join(texts, "|"), "\uFFFD<title>") {
		t.Errorf("escaped strings did not round-trip: %q", texts)
	}
}

func TestTicks(t *testing.T) {
	cases := []struct {
		span        int64
		step        int64
		first, unit string
	}{
		{1000, 100, "0.1", "µs"}, {5e6, 5e5, "0.5", "ms"}, {1e9, 1e8, "0.1", "s"}, {37, 5, "5", "ns"}, {3e9, 5e8, "0.5", "s"},
	}
	for _, c := range cases {
		step := niceStep(c.span / 10)
		u, name := timeUnit(step)
		if step != c.step || formatTick(step, u) != c.first || name != c.unit {
			t.Errorf("span %d: step %d first %s %s, want %d %s %s", c.span, step, formatTick(step, u), name, c.step, c.first, c.unit)
		}
	}
	if got := formatTick(1234567, 1e6); got != "1.234567" {
		t.Errorf("formatTick = %s", got)
	}
}

func TestCoreLabelsOnThinRows(t *testing.T) {
	tl, lanes := denseTimeline(200, 1e6)
	var b bytes.Buffer
	if err := TimelineSVG(&b, tl, lanes, TimelineOptions{}); err != nil {
		t.Fatal(err)
	}
	_, texts := parseSVG(t, b.Bytes())
	joined := "|" + strings.Join(texts, "|") + "|"
	if !strings.Contains(joined, "|cpu 0,1|") || !strings.Contains(joined, "|cpu 198,199|") || strings.Contains(joined, "|cpu 5|") {
		t.Errorf("thin rows: want one label per core, got %.300s", joined)
	}
}

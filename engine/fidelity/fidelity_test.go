package fidelity

import (
	"bytes"
	"context"
	"os"
	"runtime"
	"strings"
	"testing"

	"schedplay/presets"
)

// calibrationDoc is the generated document, relative to this package.
const calibrationDoc = "../../docs/calibration.md"

// TestFigures runs every published figure and asserts its tolerance: the
// model is deterministic, so a figure that drifts out of its band is a
// change of the model, not noise. A figure marked known_off must still
// miss (else the mark is stale). docs/calibration.md must be the
// generated document; SCHEDPLAY_UPDATE_DOCS=1 rewrites it.
func TestFigures(t *testing.T) {
	if testing.Short() || runtime.GOOS == "js" {
		t.Skip("runs every figure's simulations (native only: about 6 minutes under node, like the seed scenarios' run in engine/sim)")
	}
	figs, err := Figures()
	if err != nil {
		t.Fatal(err)
	}
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	rows, err := (&Runner{Presets: ps}).Run(context.Background(), figs)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		switch {
		case r.Err != nil:
			t.Errorf("%s: %v", r.Name, r.Err)
		case !r.Within && r.KnownOff == "":
			t.Errorf("%s: model %s, published %s: off by %+.3g (tolerance %g)", r.Name, r.Format(r.Model), r.Format(r.Published), r.Off, r.Tolerance)
		case r.Within && r.KnownOff != "":
			t.Errorf("%s: model %s now holds the published %s: drop its known_off", r.Name, r.Format(r.Model), r.Format(r.Published))
		}
	}
	var doc bytes.Buffer
	if err := WriteDoc(&doc, rows); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("SCHEDPLAY_UPDATE_DOCS") == "1" {
		if err := os.WriteFile(calibrationDoc, doc.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(calibrationDoc)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, doc.Bytes()) {
		t.Errorf("docs/calibration.md is stale: run `SCHEDPLAY_UPDATE_DOCS=1 go test ./engine/fidelity` (or `schedplay fidelity --doc > docs/calibration.md`)")
	}
}

func TestDecodeFiguresRefusesBadRows(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`[{"name":"x","run":{"scenario":"s"},"metric":"throughput","published":1,"source":"s","tolerance":0.1,"extra":1}]`, "unknown field"},
		{`[{"name":"x","run":{"scenario":"s"},"metric":"nope","published":1,"source":"s","tolerance":0.1}]`, "metric"},
		{`[{"name":"x","run":{"scenario":"s"},"combine":"ratio","metric":"throughput","published":1,"source":"s","tolerance":0.1}]`, "needs vs"},
		{`[{"name":"x","run":{"scenario":"s"},"metric":"throughput","published":1,"source":"s","tolerance":0}]`, "tolerance"},
		{`[{"name":"x","run":{"scenario":"s"},"metric":"throughput","published":1,"tolerance":0.1}]`, "source"},
		{`[{"name":"x","run":{"scenario":"s"},"metric":"timed:","published":1,"source":"s","tolerance":0.1}]`, "metric"},
		{`[{"name":"x","run":{"scenario":"s"},"metric":"throughput","stat":"spread","published":0,"source":"s","tolerance":0.005}]`, "absolute"},
		{`[{"name":"x","run":{"scenario":"s"},"vs":{"scenario":"s"},"combine":"change","absolute":true,"metric":"throughput","published":0,"source":"s","tolerance":0.1}]`, "always judged by its difference"},
	} {
		if _, err := decodeFigures([]byte(tc.doc)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.doc, err, tc.want)
		}
	}
}

func TestJudge(t *testing.T) {
	f := Figure{Published: 100, Tolerance: 0.05}
	if off, ok := judge(f, 104); !ok || off < 0.039 || off > 0.041 {
		t.Errorf("104 vs 100 ±5%%: %g %v", off, ok)
	}
	if _, ok := judge(f, 106); ok {
		t.Error("106 vs 100 ±5% held")
	}
	c := Figure{Combine: CombineChange, Published: 0.067, Tolerance: 0.015}
	if _, ok := judge(c, 0.051); ok {
		t.Error("+5.1 % vs +6.7 % ±1.5 pt held")
	}
	if _, ok := judge(c, 0.055); !ok {
		t.Error("+5.5 % vs +6.7 % ±1.5 pt missed")
	}
	// A spread the source rounds to "±0 %": within half a point of 0.
	z := Figure{Stat: StatSpread, Absolute: true, Published: 0, Tolerance: 0.005}
	if off, ok := judge(z, 0.004); !ok || off != 0.004 {
		t.Errorf("0.4 %% vs 0 %% ±0.5 pt: %g %v", off, ok)
	}
	if _, ok := judge(z, 0.041); ok {
		t.Error("4.1 % vs 0 % ±0.5 pt held")
	}
	if v := verdict(Row{Figure: z, Model: 0.041}); v != "NO (±0.5 pt)" {
		t.Errorf("verdict %q; want the tolerance in points", v)
	}
	if _, err := decodeFigures([]byte(`[{"name":"x","run":{"scenario":"s"},"metric":"throughput","stat":"spread","absolute":true,"published":0,"source":"s","tolerance":0.005}]`)); err != nil {
		t.Errorf("an absolute figure with a published 0: %v", err)
	}
}

// TestTemplateQuotesFigures: every {{model "NAME"}} of calibration.md.tmpl
// names a figure of figures.json, so the prose cannot quote a row that was
// renamed or dropped (checked without running anything).
func TestTemplateQuotesFigures(t *testing.T) {
	figs, err := Figures()
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, f := range figs {
		known[f.Name] = true
	}
	names, err := templateRefs(docTemplate)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatal("calibration.md.tmpl quotes no figure: its prose would repeat the table's values by hand")
	}
	for _, n := range names {
		if !known[n] {
			t.Errorf("calibration.md.tmpl quotes %q, which figures.json does not have", n)
		}
	}
}

// TestExpandRefs: a quoted figure becomes its model cell, a name no row has
// is an error, and an unterminated quote is refused.
func TestExpandRefs(t *testing.T) {
	rows := []Row{{Figure: Figure{Name: "a ÷ b", Unit: "×"}, Model: 1.25}, {Figure: Figure{Name: "c", Combine: CombineChange}, Model: -0.113}}
	got, err := expandRefs(`x {{model "a ÷ b"}}, y {{model "c"}} and {{model "a ÷ b"}}.`, rows)
	if want := "x 1.25 ×, y -11.3 % and 1.25 ×."; err != nil || got != want {
		t.Errorf("expandRefs = %q, %v; want %q", got, err, want)
	}
	if _, err := expandRefs(`{{model "d"}}`, rows); err == nil || !strings.Contains(err.Error(), `"d"`) {
		t.Errorf("unknown figure: error %v, want one naming it", err)
	}
	if _, err := expandRefs("{{model \"a ÷\nb\"}}", rows); err == nil {
		t.Error("a quote across lines was accepted")
	}
}

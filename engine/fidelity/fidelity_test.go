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
}

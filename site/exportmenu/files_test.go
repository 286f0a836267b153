package exportmenu

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"image/png"
	"strings"
	"testing"

	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/presets"
)

// runPreset simulates a seed scenario (2 reps, with the timeline).
func runPreset(t *testing.T, ps *presets.Set, name string) ([]byte, *sim.Result) {
	t.Helper()
	sc, err := scenario.FromReference(name, ps)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := scenario.ParseSet("run.reps=2")
	sc, err = scenario.Apply(sc, ps, []scenario.Override{o})
	if err != nil {
		t.Fatal(err)
	}
	r, err := scenario.Resolve(sc, ps)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background(), r, sim.Options{Timeline: true})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := scenario.Encode(sc)
	if err != nil {
		t.Fatal(err)
	}
	return doc, res
}

func TestBuildEveryKindParses(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	doc, res := runPreset(t, ps, "hikey960-short-sysbench")
	src := Source{Scenario: doc, Result: res, Suffix: "-misfit"}
	for _, k := range Kinds {
		t.Run(string(k), func(t *testing.T) {
			f, err := Build(k, src, ps)
			if err != nil {
				t.Fatalf("Build(%s): %v", k, err)
			}
			if !strings.HasPrefix(f.Name, "hikey960-short-sysbench-misfit.") {
				t.Errorf("Build(%s) name = %q; want the scenario's name and the suffix", k, f.Name)
			}
			if len(f.Data) == 0 {
				t.Fatalf("Build(%s): empty file", k)
			}
			checkParses(t, k, f.Data)
		})
	}
}

// checkParses opens a file with the reader of its format.
func checkParses(t *testing.T, k Kind, data []byte) {
	t.Helper()
	switch k {
	case Perfetto:
		var tr struct {
			Sys    string            `json:"systemTraceEvents"`
			Events []json.RawMessage `json:"traceEvents"`
		}
		if err := json.Unmarshal(data, &tr); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(tr.Sys, "sched_switch: prev_comm=") || len(tr.Events) == 0 {
			t.Errorf("trace lacks sched_switch lines or JSON events: %.200s", tr.Sys)
		}
	case ResultsCSV, CPUCSV:
		rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
		if err != nil && !strings.Contains(err.Error(), "wrong number of fields") {
			t.Fatal(err)
		}
		if len(rows) < 3 {
			t.Errorf("%d CSV rows", len(rows))
		}
	case ResultsJSON, Scenario, RTApp:
		var v map[string]any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		if k == Scenario {
			if _, err := scenario.Decode(data); err != nil {
				t.Errorf("the exported scenario does not decode: %v", err)
			}
		}
		if k == RTApp && v["tasks"] == nil {
			t.Errorf("rt-app JSON has no tasks: %s", data)
		}
	case TimelinePNG:
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if img.Bounds().Dx() < 300 {
			t.Errorf("PNG is %v", img.Bounds())
		}
	case TimelineSVG:
		if !bytes.HasPrefix(bytes.TrimSpace(data), []byte("<?xml")) && !bytes.HasPrefix(bytes.TrimSpace(data), []byte("<svg")) {
			t.Errorf("SVG starts %.40q", data)
		}
	}
}

func TestBuildWithoutResult(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	doc := []byte(`{"schedplay":1,"preset":"hikey960-short-sysbench"}`)
	if _, err := Build(ResultsCSV, Source{Scenario: doc}, ps); err != ErrNoResult {
		t.Errorf("results CSV without a result: err = %v; want ErrNoResult", err)
	}
	if _, err := Build(TimelinePNG, Source{Scenario: doc, Result: &sim.Result{}}, ps); err != ErrNoTimeline {
		t.Errorf("PNG without a timeline: err = %v; want ErrNoTimeline", err)
	}
	f, err := Build(RTApp, Source{Scenario: doc}, ps)
	if err != nil {
		t.Fatalf("rt-app needs no result: %v", err)
	}
	if f.Name != "hikey960-short-sysbench.rt-app.json" {
		t.Errorf("name %q", f.Name)
	}
	if _, err := Build(Scenario, Source{Scenario: []byte(`{"schedplay":1,"bogus":2}`)}, ps); err == nil {
		t.Error("an invalid scenario was exported")
	}
}

func TestFileBase(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"hikey960 short sysbench", "hikey960-short-sysbench"},
		{"<b>Vera</b> SGEMM (NVPL)", "b-vera-b-sgemm-nvpl"},
		{"../../etc/passwd", "etc-passwd"},
		{"", "schedplay"},
		{"ümlaut", "mlaut"},
		{strings.Repeat("a", 80), strings.Repeat("a", 60)},
	} {
		if got := FileBase(tt.in); got != tt.want {
			t.Errorf("FileBase(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

//go:build e2e

package e2e

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"schedplay/engine/scenario"
)

// waitFile waits until dir holds the finished download name.
func waitFile(t *testing.T, dir, name string) []byte {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err == nil && len(b) > 0 {
			if _, err := os.Stat(filepath.Join(dir, name+".crdownload")); os.IsNotExist(err) {
				return b
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	t.Fatalf("no download %s; the directory has %v", name, names)
	return nil
}

func TestExportsDownloadFilesThatParse(t *testing.T) {
	ctx := newPage(t, 120*time.Second)
	dir := t.TempDir()
	allowDownloads(t, ctx, dir)
	openCompare(t, ctx, comparePath)
	base := "hikey960-short-sysbench-misfit"
	for _, tc := range []struct {
		kind, file string
		check      func(t *testing.T, b []byte)
	}{
		{"perfetto", base + ".perfetto.json", func(t *testing.T, b []byte) {
			var tr struct {
				Sys    string            `json:"systemTraceEvents"`
				Events []json.RawMessage `json:"traceEvents"`
			}
			if err := json.Unmarshal(b, &tr); err != nil {
				t.Fatal(err)
			}
			n := strings.Count(tr.Sys, " sched_switch: prev_comm=")
			if n == 0 || len(tr.Events) == 0 {
				t.Errorf("trace: %d sched_switch lines, %d JSON events; want both", n, len(tr.Events))
			}
			if !strings.Contains(tr.Sys, "sysbench") {
				t.Errorf("trace lacks the task names")
			}
		}},
		{"results-csv", base + ".results.csv", func(t *testing.T, b []byte) {
			r := csv.NewReader(bytes.NewReader(b))
			r.FieldsPerRecord = -1
			rows, err := r.ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) < 11 || rows[0][0] != "row" || rows[1][0] != "0" {
				t.Errorf("results CSV starts %q; want a header and 10 repetitions", rows[:min(len(rows), 2)])
			}
		}},
		{"cpu-csv", base + ".cpus.csv", func(t *testing.T, b []byte) {
			r := csv.NewReader(bytes.NewReader(b))
			r.FieldsPerRecord = -1
			if rows, err := r.ReadAll(); err != nil || len(rows) < 8 {
				t.Errorf("per-CPU CSV: %d rows, %v", len(rows), err)
			}
		}},
		{"results-json", base + ".results.json", func(t *testing.T, b []byte) {
			var res struct {
				Reps    []json.RawMessage `json:"reps"`
				Summary map[string]any    `json:"summary"`
			}
			if err := json.Unmarshal(b, &res); err != nil || len(res.Reps) != 10 || res.Summary["throughput"] == nil {
				t.Errorf("results JSON: %d reps, summary %v, %v", len(res.Reps), res.Summary != nil, err)
			}
		}},
		{"timeline-png", base + ".timeline.png", func(t *testing.T, b []byte) {
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if img.Bounds().Dx() < 600 || img.Bounds().Dy() < 100 {
				t.Errorf("PNG is %v", img.Bounds())
			}
		}},
		{"timeline-svg", base + ".timeline.svg", func(t *testing.T, b []byte) {
			s := string(b)
			if !strings.Contains(s, "<svg") || !strings.Contains(s, "</svg>") || !strings.Contains(s, "<rect") {
				t.Errorf("SVG: %.120s", s)
			}
		}},
		{"scenario", base + ".scenario.json", func(t *testing.T, b []byte) {
			if _, err := scenario.Decode(b); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), `"misfit"`) {
				t.Errorf("the scenario of side A does not name its policy: %s", b)
			}
		}},
		{"rt-app", base + ".rt-app.json", func(t *testing.T, b []byte) {
			var doc struct {
				Tasks  map[string]any `json:"tasks"`
				Global map[string]any `json:"global"`
			}
			if err := json.Unmarshal(b, &doc); err != nil || len(doc.Tasks) == 0 || doc.Global == nil {
				t.Errorf("rt-app JSON: %v; %s", err, b)
			}
		}},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			click(t, ctx, "#export-a-"+tc.kind)
			b := waitFile(t, dir, tc.file)
			tc.check(t, b)
			waitAttr(t, ctx, "#export-a-notes", "data-kind", tc.kind)
			if st := eval[string](t, ctx, `document.getElementById("export-a-notes").getAttribute("data-state")`); st == "error" {
				t.Errorf("export reported an error: %s", text(t, ctx, "#export-a-notes"))
			}
		})
	}
	// rt-app's notes say what does not map, in the page.
	notes := text(t, ctx, "#export-a-notes")
	if !strings.Contains(notes, "rt-app") {
		t.Errorf("rt-app notes = %q", notes)
	}
	t.Logf("rt-app notes: %s", notes)
}

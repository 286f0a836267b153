package viewkit

import (
	"slices"
	"strings"
	"testing"

	"schedplay/engine/scenario/scenariotest"
	"schedplay/engine/sim"
	"schedplay/engine/topo"
)

func presetWords(t *testing.T, name string) ModeWords {
	t.Helper()
	r := scenariotest.Resolve(t, `{"schedplay":1,"machine":{"preset":"`+name+`"},"workload":{"preset":"idle"}}`)
	return WordsFor(r.Machine)
}

func legendText(w ModeWords) string {
	var out []string
	for _, m := range w.Legend() {
		out = append(out, w.Name(m))
	}
	return strings.Join(out, " | ")
}

// Each SMT model's legend uses its own words (core_model.go coreEvaluate:
// folding shows ST for SMT1 and SMT for SMT2/SMT4; competitive ST/SMT;
// only spatial holds a partitioned core with one PE busy).
func TestModeWordsPerModel(t *testing.T) {
	for _, tt := range []struct {
		machine, legend string
	}{
		{"vera", "ST (full resources) | partitioned, 2+ busy | partitioned, 1 busy (held) | switching"},
		{"power7", "SMT1 | SMT2/SMT4 | switching"},
		{"x86-smt", "ST, 1 busy | SMT, 2+ busy | switching"},
		{"hikey960-dynamiq", ""},
		{"hikey960", ""},
	} {
		w := presetWords(t, tt.machine)
		if got := legendText(w); got != tt.legend {
			t.Errorf("%s (%+v) legend %q, want %q", tt.machine, w, got, tt.legend)
		}
		if w.SMT() != (tt.legend != "") {
			t.Errorf("%s: SMT() = %v", tt.machine, w.SMT())
		}
	}
	// A hybrid machine with one-thread E-cores still has SMT P-cores.
	if w := presetWords(t, "intel-hybrid"); !w.SMT() || len(w.Legend()) == 0 {
		t.Errorf("intel-hybrid: %+v has no mode legend", w)
	}
	// The zero value (machine unknown) keeps the spatial legend.
	if got := legendText(ModeWords{}); !strings.Contains(got, "partitioned, 1 busy") {
		t.Errorf("zero ModeWords legend %q", got)
	}
}

func TestFoldLevels(t *testing.T) {
	p7 := ModeWords{Model: topo.SMTFolding, Threads: 4}
	for _, tt := range []struct{ highest, threads, want int }{
		{0, 4, 1}, {1, 4, 2}, {2, 4, 4}, {3, 4, 4}, {1, 2, 2}, {2, 3, 3}, {4, 8, 8},
	} {
		if got := FoldLevel(tt.highest, tt.threads); got != tt.want {
			t.Errorf("FoldLevel(%d, %d) = %d, want %d", tt.highest, tt.threads, got, tt.want)
		}
	}
	if got := (ModeWords{Model: topo.SMTFolding, Threads: 8}).FoldLevels(); got != "SMT2/SMT4/SMT8" {
		t.Errorf("8-thread fold levels %q", got)
	}
	if got := p7.Long(sim.ModeSMT, 4); !strings.HasPrefix(got, "SMT4") {
		t.Errorf("folding SMT4 tooltip %q", got)
	}
	if got := p7.Long(sim.ModeSMT, 0); !strings.HasPrefix(got, "SMT2/SMT4") {
		t.Errorf("folding unknown-level tooltip %q", got)
	}
	if p7.STShort() != "SMT1" || !strings.Contains(p7.NeverST(), "SMT2/SMT4") || !strings.Contains(p7.TransitionsTitle(), "SMT2/SMT4") {
		t.Errorf("folding residency/transition words: %q %q %q", p7.STShort(), p7.NeverST(), p7.TransitionsTitle())
	}
	if slices.Contains(p7.Legend(), sim.ModePartitioned) {
		t.Error("folding legend lists the spatial model's held partitioned mode")
	}
}

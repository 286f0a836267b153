package sim

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// modelsLine matches the one-line doc comment every modelling function
// carries: "// selectIdleSibling is select_idle_sibling(); …".
var modelsLine = regexp.MustCompile(`(?m)^// (\w+) is ([a-z_][a-z0-9_]*)\(\)`)

// TestKernelMapListsEveryModelledFunction keeps docs/KERNEL-MAP.md the single
// index (style.md §3): every kernel function named by a modelling function's
// doc comment in engine/sim and engine/topo must appear in it.
func TestKernelMapListsEveryModelledFunction(t *testing.T) {
	km, err := os.ReadFile("../../docs/KERNEL-MAP.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, dir := range []string{".", "../topo"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range modelsLine.FindAllStringSubmatch(string(src), -1) {
				seen++
				if !strings.Contains(string(km), m[2]) {
					t.Errorf("%s: %s models %s(), which docs/KERNEL-MAP.md does not list", f, m[1], m[2])
				}
			}
		}
	}
	if seen < 40 {
		t.Fatalf("found only %d modelling doc comments; the pattern no longer matches the code", seen)
	}
}

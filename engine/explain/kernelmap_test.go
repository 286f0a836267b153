package explain

import (
	"os"
	"strings"
	"testing"
)

// Every function Describe links has an entry with prose in the real
// KERNEL-MAP.md, and a made-up one has none.
func TestKernelEntryRealMap(t *testing.T) {
	b, err := os.ReadFile("../../docs/KERNEL-MAP.md")
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	for _, f := range LinkedFuncs() {
		title, body, ok := KernelEntry(md, Anchor(f))
		if !ok || title != f+"()" || len(body) < 20 || strings.Contains(body, "### ") {
			t.Errorf("%s: %v %q %.60q", f, ok, title, body)
		}
	}
	if _, _, ok := KernelEntry(md, "no_such_function"); ok {
		t.Error("an entry for no_such_function")
	}
	if KernelLink("wake_affine") != "docs/KERNEL-MAP.md#wake_affine" {
		t.Error(KernelLink("wake_affine"))
	}
}

func TestKernelEntryStopsAtNextHeading(t *testing.T) {
	md := "# Map\n### `a_b()`\nFirst line,\n  second `x`.\n\n### `c()`\nother\n"
	title, body, ok := KernelEntry(md, "a_b")
	if !ok || title != "a_b()" || body != "First line, second `x`." {
		t.Fatalf("%v %q %q", ok, title, body)
	}
}

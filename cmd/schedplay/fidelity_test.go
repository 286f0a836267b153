package main

import (
	"strings"
	"testing"
)

func TestFidelityVerb(t *testing.T) {
	code, out, errs := run(t, "", "fidelity", "--figure", "sleeps per call", "--quiet")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"figure", "published", "model", "ratio", "within tolerance",
		"NVPL sleeps per call", "OpenBLAS sleeps per call", "Sources:", "[1]"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "SGEMM, baseline") {
		t.Errorf("--figure kept a figure it does not name:\n%s", out)
	}
	if code, _, errs := run(t, "", "fidelity", "--figure", "no such figure"); code != exitUsage || !strings.Contains(errs, "no figure") {
		t.Errorf("unknown figure: exit %d, %s", code, errs)
	}
	if code, _, errs := run(t, "", "fidelity", "--doc", "--figure", "sleeps per call"); code != exitUsage || !strings.Contains(errs, "--markdown") {
		t.Errorf("--doc with --figure: exit %d, %s", code, errs)
	}
	if code, _, _ := run(t, "", "fidelity", "extra"); code != exitUsage {
		t.Errorf("stray argument: exit %d", code)
	}
}

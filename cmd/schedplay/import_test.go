package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportVerb: a real snapshot imports to a scenario on stdout that
// validate, topo and share accept; the notes go to stderr; a bad input
// exits 3 with the file named; collect prints the script.
func TestImportVerb(t *testing.T) {
	snap := filepath.Join("..", "..", "engine", "importer", "testdata", "sysfs", "x86_64-epyc_7451.tar.gz")
	code, out, errs := run(t, "", "import", snap)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "sysfs snapshot: 96 CPUs") || !strings.Contains(errs, "note: no node distances") {
		t.Errorf("stderr lacks the summary and notes:\n%s", errs)
	}
	file := writeFile(t, "epyc.json", out)
	for _, verb := range [][]string{{"validate", file}, {"topo", file, "--cpus", "0"}, {"share", file}} {
		if code, _, errs := run(t, "", verb...); code != exitOK {
			t.Errorf("%v: exit %d: %s", verb, code, errs)
		}
	}
	_, topoOut, _ := run(t, "", "topo", file, "--cpus", "0")
	if !strings.Contains(topoOut, "8 node(s) × 6 cores × 2 thread(s) = 96 CPUs") {
		t.Errorf("topo of the import:\n%s", topoOut)
	}
	dest := filepath.Join(t.TempDir(), "s.json")
	if code, _, errs := run(t, "", "import", snap, "--out", dest); code != exitOK {
		t.Fatalf("--out: exit %d: %s", code, errs)
	}
	if b, _ := os.ReadFile(dest); string(b) != out {
		t.Errorf("--out wrote a different document")
	}
	bad := writeFile(t, "bad.txt", "# CPU,Core,Socket,Node\n0,0,0\n")
	if code, _, errs := run(t, "", "import", bad); code != exitInvalid || !strings.Contains(errs, "bad.txt:2:") {
		t.Errorf("bad input: exit %d: %s", code, errs)
	}
	if code, _, errs := run(t, "# CPU,Core,Socket,Node\n0,0,0,0\n1,1,0,0\n", "import", "-"); code != exitOK {
		t.Errorf("stdin: exit %d: %s", code, errs)
	}
	code, out, _ = run(t, "", "collect")
	if code != exitOK || !strings.HasPrefix(out, "#!/bin/sh\n") || !strings.Contains(out, "topology/thread_siblings_list") {
		t.Errorf("collect: exit %d:\n%.200s", code, out)
	}
}

// TestImportTraceVerb: a trace imports with --machine and runs; --strict
// refuses a malformed line with its number.
func TestImportTraceVerb(t *testing.T) {
	tr := filepath.Join("..", "..", "engine", "importer", "testdata", "trace", "surfaceflinger.systrace.txt.gz")
	code, out, errs := run(t, "", "import", tr, "--machine", "hikey960", "--policy", "mainline")
	if code != exitOK || !strings.Contains(errs, "ftrace text:") || !strings.Contains(out, `"until": "duration"`) {
		t.Fatalf("exit %d: %s", code, errs)
	}
	file := writeFile(t, "replay.json", out)
	if code, _, errs := run(t, "", "run", file, "--reps", "1"); code != exitOK {
		t.Errorf("run of the replay: exit %d: %s", code, errs)
	}
	bad := writeFile(t, "bad.txt", "  a-1 [000] d..2 1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=1 next_prio=120\n  a-1 [000] d..2 1.000100: sched_switch: broken\n")
	if code, _, errs := run(t, "", "import", bad, "--strict"); code != exitInvalid || !strings.Contains(errs, "bad.txt:2:") {
		t.Errorf("--strict: exit %d: %s", code, errs)
	}
	if code, _, errs := run(t, "", "import", bad); code != exitOK || !strings.Contains(errs, "1 malformed lines skipped (first at line 2") {
		t.Errorf("skip: exit %d: %s", code, errs)
	}
}

// TestImportDirAndCheck: an unpacked snapshot directory imports like its
// tarball, and --check prints the domains comparison.
func TestImportDirAndCheck(t *testing.T) {
	dir := t.TempDir()
	tgz := filepath.Join("..", "..", "engine", "importer", "testdata", "sysfs", "x86_64-64cpu-linux6.2.tar.gz")
	if out, err := exec.Command("tar", "-C", dir, "-xzf", tgz).CombinedOutput(); err != nil {
		t.Skipf("tar: %v %s", err, out)
	}
	_, fromDir, _ := run(t, "", "import", dir)
	_, fromTar, _ := run(t, "", "import", tgz)
	norm := func(s string) string { return s[strings.Index(s, `"schedplay"`):] }
	if !strings.Contains(fromDir, `"machine"`) || norm(fromDir) != norm(fromTar) {
		t.Errorf("the directory imports to\n%s\nthe tarball to\n%s", fromDir, fromTar)
	}
	dmesg := filepath.Join("..", "..", "engine", "importer", "testdata", "domains", "nuc11-i7-1165G7.dmesg")
	code, _, errs := run(t, "", "import", dir, "--check", dmesg)
	if code != exitOK || !strings.Contains(errs, "8 of the 8 CPUs in the dump match on every level") {
		t.Errorf("--check: exit %d:\n%s", code, errs)
	}
}

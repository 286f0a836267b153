package collect_test

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"schedplay/engine/importer"
	"schedplay/engine/importer/collect"
	"schedplay/engine/importer/sysfs"
	"schedplay/presets"
)

// unpack extracts a tar.gz into dir.
func unpack(t *testing.T, file, dir string) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(z)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.FromSlash(h.Name))
		switch h.Typeflag {
		case tar.TypeReg:
			os.MkdirAll(filepath.Dir(p), 0o755)
			b, _ := io.ReadAll(tr)
			os.WriteFile(p, b, 0o644)
		case tar.TypeSymlink:
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.Symlink(h.Linkname, p)
		}
	}
}

// TestScriptCollectsWhatImportReads runs the script with /bin/sh on an
// unpacked real dump (as if it were /), then checks that the tarball it
// writes holds only files import reads, and imports to the same scenario
// as the dump itself.
func TestScriptCollectsWhatImportReads(t *testing.T) {
	sh := shellWithTar(t)
	dump := filepath.Join("..", "testdata", "sysfs", "original-arm-A510-A710-A715-X3.tar.gz")
	dir := t.TempDir()
	unpack(t, dump, dir)
	script := filepath.Join(dir, "collect.sh")
	os.WriteFile(script, []byte(collect.Script()), 0o755)
	out := filepath.Join(dir, "out.tar.gz")
	cmd := exec.Command(sh, script, out)
	cmd.Env = append(os.Environ(), "SCHEDPLAY_ROOT="+filepath.Join(dir, "arm-A510-A710-A715-X3"), "TMPDIR="+dir)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, msg)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	z, _ := gzip.NewReader(f)
	tr := tar.NewReader(z)
	files := 0
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			files++
			if !sysfs.Keep(h.Name) {
				t.Errorf("collected %s, which import does not read", h.Name)
			}
		}
	}
	f.Close()
	if files < 100 {
		t.Errorf("collected %d files; want the dump's topology (over 100)", files)
	}
	ps, _ := presets.Load()
	imp := func(p string) string {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		res, err := importer.Import("x.tar.gz", f, importer.Options{Presets: ps})
		if err != nil {
			t.Fatal(err)
		}
		return string(res.Scenario)
	}
	if a, b := imp(out), imp(dump); a != b {
		t.Errorf("collected snapshot imports to\n%s\nthe dump to\n%s", a, b)
	}
	if !strings.Contains(collect.Script(), "sched/domains") {
		t.Error("the script does not collect the sched domains")
	}
}

// TestScriptSaysHowToGetTheDomains: without sched/domains the script
// says what to do: mount debugfs, or, where the kernel has
// sched/verbose (update_sched_domain_debugfs() returns early without
// sched_debug_verbose in 6.12's kernel/sched/debug.c), turn it on for
// the run.
func TestScriptSaysHowToGetTheDomains(t *testing.T) {
	sh := shellWithTar(t)
	dir := t.TempDir()
	unpack(t, filepath.Join("..", "testdata", "sysfs", "arm-A510-A710-A715-X3.tar.gz"), dir)
	root := filepath.Join(dir, "arm-A510-A710-A715-X3")
	script := filepath.Join(dir, "collect.sh")
	os.WriteFile(script, []byte(collect.Script()), 0o755)
	run := func() string {
		cmd := exec.Command(sh, script, filepath.Join(dir, "out.tar.gz"))
		cmd.Env = append(os.Environ(), "SCHEDPLAY_ROOT="+root, "TMPDIR="+dir)
		msg, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %s", err, msg)
		}
		return string(msg)
	}
	if msg := run(); !strings.Contains(msg, "mount -t debugfs") {
		t.Errorf("no debugfs: %s", msg)
	}
	sched := filepath.Join(root, "sys", "kernel", "debug", "sched")
	os.MkdirAll(sched, 0o755)
	os.WriteFile(filepath.Join(sched, "verbose"), []byte("N\n"), 0o644)
	if msg := run(); !strings.Contains(msg, "echo Y > /sys/kernel/debug/sched/verbose") {
		t.Errorf("debugfs without domains: %s", msg)
	}
}

// shellWithTar is the path of sh; the test is skipped without sh or tar.
func shellWithTar(t *testing.T) string {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	if _, err := exec.LookPath("tar"); err != nil {
		t.Skip("no tar")
	}
	return sh
}

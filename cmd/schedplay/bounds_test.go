package main

import (
	"bytes"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"schedplay/engine/scenario/scenariotest"
	"schedplay/presets"
	"schedplay/site/pagesec"
)

// TestTerminalEscapes: a scenario whose names hold terminal control
// sequences prints them escaped on a terminal, in every verb that shows
// them (run and compare printed them raw).
func TestTerminalEscapes(t *testing.T) {
	file := writeFile(t, "esc.json", scenariotest.TerminalEscape())
	for _, args := range [][]string{
		{"run", file},
		{"compare", file, "--policy", "mainline", "--policy", "v6-on"},
		{"validate", file},
		{"validate", strings.Replace(file, "esc.json", "nope\x1b[2J.json", 1)},
	} {
		var out, errb bytes.Buffer
		mainWith(args, strings.NewReader(""), &terminalWriter{w: &out}, &terminalWriter{w: &errb})
		all := out.String() + errb.String()
		if strings.ContainsAny(all, "\x1b\x07") {
			t.Errorf("%v printed a raw control character:\n%q", args[0], all)
		}
		if args[0] != "validate" && !strings.Contains(all, `\x1b]0;pwned\x07\x1b[31mred`) {
			t.Errorf("%v: the escaped name is missing:\n%s", args[0], all)
		}
	}
}

// TestTerminalWriter: control characters, C1 controls, bidirectional
// overrides and bytes that are not UTF-8 are escaped; text (a UTF-8
// character cut between two writes included) is not.
func TestTerminalWriter(t *testing.T) {
	var b bytes.Buffer
	w := &terminalWriter{w: &b}
	for _, p := range []string{"ok\tα\n", "\x1b[31m", "\u0085\u202e", "\xff", "é"[:1], "é"[1:], "\r\x7f"} {
		w.Write([]byte(p))
	}
	if want := "ok\tα\n\\x1b[31m\\u0085\\u202e\\xffé\\x0d\\x7f"; b.String() != want {
		t.Errorf("got %q; want %q", b.String(), want)
	}
}

// TestFilesAreReadWithALimit: /dev/zero and a FIFO fed without end are
// read through a size-limited reader (the size was trusted from stat,
// which says 0 for both: 863 MB and 1.73 GB were read before).
func TestFilesAreReadWithALimit(t *testing.T) {
	for _, verb := range []string{"validate", "run", "share"} {
		code, _, errOut := run(t, "", verb, "/dev/zero")
		if code != exitInvalid || !strings.Contains(errOut, "larger than the limit of 1048576 bytes") {
			t.Errorf("%s /dev/zero: exit %d: %s", verb, code, errOut)
		}
	}
	code, _, errOut := run(t, "", "topo", "/dev/zero")
	if code == exitOK || !strings.Contains(errOut, "larger than the limit") {
		t.Errorf("topo /dev/zero: exit %d: %s", code, errOut)
	}
}

// TestServePageHeaders: every page is nosniff, without referrer and
// unframeable except the embed view; directories are never listed.
func TestServePageHeaders(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "build"), 0o755)
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<html>hi</html>"), 0o644)
	os.WriteFile(filepath.Join(dir, "build", "app.wasm"), []byte("\x00asm"), 0o644)
	ps, _ := presets.Load()
	h := serveHandler(ps, dir, serveConfig{slots: 1, queue: 1})
	for _, tt := range []struct {
		url    string
		status int
		frame  string
	}{
		{"/", 200, pagesec.CSP(false)},
		{"/?embed=1", 200, pagesec.CSP(true)},
		{"/?compare=mainline,v6-on", 200, pagesec.CSP(false)},
		{"/build/", 404, pagesec.CSP(false)},
		{"/build", 404, pagesec.CSP(false)},
		{"/build/app.wasm", 200, pagesec.CSP(false)},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", tt.url, nil))
		hd := rec.Header()
		if rec.Code != tt.status || hd.Get("Content-Security-Policy") != tt.frame || hd.Get("X-Content-Type-Options") != "nosniff" || hd.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("GET %s: %d %v; want %d, %s", tt.url, rec.Code, hd, tt.status, tt.frame)
		}
		if strings.Contains(rec.Body.String(), "app.wasm") {
			t.Errorf("GET %s lists the directory", tt.url)
		}
	}
}

package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMutateNeedsOneOccurrence(t *testing.T) {
	m := mutant{Name: "m", File: "f.go", Old: "a < b", New: "a <= b"}
	if got, err := mutate("if a < b {}", m); err != nil || got != "if a <= b {}" {
		t.Errorf("one occurrence: %q, %v", got, err)
	}
	if _, err := mutate("if a > b {}", m); err == nil || !strings.Contains(err.Error(), "no longer") {
		t.Errorf("none: %v; want a stale-list error", err)
	}
	if _, err := mutate("a < b; a < b", m); err == nil || !strings.Contains(err.Error(), "2 times") {
		t.Errorf("two: %v; want a not-unique error", err)
	}
}

func TestVerdict(t *testing.T) {
	fail := errors.New("exit status 1")
	if _, err := verdict("m", []byte("ok  \tschedplay/engine/sim\t6s\n"), nil); err == nil || !strings.Contains(err.Error(), "SURVIVED") {
		t.Errorf("passing tests: %v; want SURVIVED", err)
	}
	out := "--- FAIL: TestA (0.00s)\n    --- FAIL: TestB/sub (0.01s)\nFAIL\n"
	if k, err := verdict("m", []byte(out), fail); err != nil || strings.Join(k, ",") != "TestA,TestB/sub" {
		t.Errorf("killed: %v, %v; want TestA and TestB/sub", k, err)
	}
	if _, err := verdict("m", []byte("FAIL\tschedplay/engine/sim [build failed]\n"), fail); err == nil || !strings.Contains(err.Error(), "does not build") {
		t.Errorf("build failure: %v; want does not build", err)
	}
	if _, err := verdict("m", []byte("fatal error: out of memory\n"), fail); err == nil || !strings.Contains(err.Error(), "did not finish") {
		t.Errorf("a crash: %v; want did not finish", err)
	}
}

// Every mutant of the shipped list applies to the engine as it is: a
// list that no longer matches the code fails here, not only when someone
// runs ./build.sh mutants.
func TestShippedListApplies(t *testing.T) {
	root := filepath.Join("..", "..")
	b, err := os.ReadFile(filepath.Join(root, "engine", "sim", "testdata", "mutants.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ms []mutant
	if err := json.Unmarshal(b, &ms); err != nil {
		t.Fatal(err)
	}
	if len(ms) < 50 {
		t.Fatalf("%d mutants; the list has lost entries", len(ms))
	}
	names := map[string]bool{}
	for _, m := range ms {
		if names[m.Name] {
			t.Errorf("mutant %q listed twice", m.Name)
		}
		names[m.Name] = true
		src, err := os.ReadFile(filepath.Join(root, m.File))
		if err != nil {
			t.Errorf("%s: %v", m.Name, err)
			continue
		}
		if _, err := mutate(string(src), m); err != nil {
			t.Error(err)
		}
	}
}

// Two runs on one tree would undo each other's restores: the second is
// refused while the first holds the lock, and allowed after it releases.
func TestLockTreeOneRunAtATime(t *testing.T) {
	path := filepath.Join(t.TempDir(), lockFile)
	release, err := lockTree(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockTree(path); err == nil || !strings.Contains(err.Error(), "another run") {
		t.Errorf("a second run while the first holds the lock: %v; want refused", err)
	}
	release()
	release() // idempotent: the signal path and the normal exit may both call it
	again, err := lockTree(path)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	again()
}

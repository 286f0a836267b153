package api

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"schedplay/presets"
)

// nativeReference is where the native run of TestSimulateSameEverywhere
// leaves its reply for the js/wasm run of the same test (./build.sh test
// runs the native tests first, with -count=1, then the wasm ones under node).
// The name carries a hash of the package directory, so two checkouts tested
// at the same time (a fresh clone's CI next to a working tree) do not read
// each other's reply.
func nativeReference(t *testing.T) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	h.Write([]byte(wd))
	return filepath.Join(os.TempDir(), fmt.Sprintf("schedplay-api-native-simulate-%016x.json", h.Sum64()))
}

// TestSimulateSameEverywhere runs testdata/golden-scenario.json through the
// real handler and simulator. Natively it records the reply; under
// GOOS=js GOARCH=wasm it requires the very same bytes, which proves that
// the browser worker computes exactly what the native binary does. (The
// Cloudflare build is checked against the native CLI by
// wasm/edge/edge_test.sh, the browser bundle by wasm/engine/browser_test.mjs.)
func TestSimulateSameEverywhere(t *testing.T) {
	scen, err := os.ReadFile("testdata/golden-scenario.json")
	if err != nil {
		t.Fatal(err)
	}
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	New(ps).ServeHTTP(rec, httptest.NewRequest("POST", "/api/v1/simulate", bytes.NewReader(scen)))
	if rec.Code != 200 {
		t.Fatalf("simulate: %d %s", rec.Code, rec.Body)
	}
	got := rec.Body.Bytes()
	again := httptest.NewRecorder()
	New(ps).ServeHTTP(again, httptest.NewRequest("POST", "/api/v1/simulate", bytes.NewReader(scen)))
	if !bytes.Equal(again.Body.Bytes(), got) {
		t.Fatal("two runs of the same scenario and seed replied differently")
	}
	ref := nativeReference(t)
	if runtime.GOOS != "js" {
		if err := os.WriteFile(ref, got, 0o644); err != nil {
			t.Logf("cannot record the native reply for the wasm run: %v", err)
		}
		return
	}
	want, err := os.ReadFile(ref)
	if err != nil {
		t.Skipf("no native reply recorded (%v); run `go test -count=1 ./site/api` natively first", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("simulate reply under js/wasm differs from the native one in %s (if the simulator changed since, rerun `go test -count=1 ./site/api` natively)\njs:     %.500s\nnative: %.500s", ref, got, want)
	}
}

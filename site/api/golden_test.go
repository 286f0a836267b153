package api

import (
	"bytes"
	"flag"
	"net/http/httptest"
	"os"
	"runtime"
	"testing"

	"schedplay/presets"
)

var update = flag.Bool("update", false, "rewrite testdata/golden-simulate.json from this run (natively)")

// TestSimulateGolden runs testdata/golden-scenario.json through the real
// handler and simulator and compares the reply byte for byte with
// testdata/golden-simulate.json. The same test runs natively and under
// GOOS=js GOARCH=wasm (node, ./build.sh test), so passing in both proves
// that the browser worker computes exactly what the native binary does.
// After a deliberate change of the simulator, regenerate natively with
//
//	go test ./site/api -run TestSimulateGolden -update
//
// and read the diff before committing it.
func TestSimulateGolden(t *testing.T) {
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
	const golden = "testdata/golden-simulate.json"
	if *update {
		if runtime.GOOS == "js" {
			t.Fatal("regenerate the golden file natively, not under wasm")
		}
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("simulate reply on %s/%s differs from %s; if the simulator changed on purpose, regenerate natively:\n  go test ./site/api -run TestSimulateGolden -update\ngot:  %.600s\nwant: %.600s", runtime.GOOS, runtime.GOARCH, golden, got, want)
	}
}

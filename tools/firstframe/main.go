// Command firstframe writes the precomputed first frame of every seed link
// (site/playground/firstframe.go) into DIR/NAME.txt: the page's first
// simulate request for ?preset=NAME and the reply of the engine's handler
// (wasm/engine, run natively). ./build.sh build runs it into dist/first.
//
// Usage: go run ./tools/firstframe DIR
package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"schedplay/site"
	"schedplay/site/playground"
	"schedplay/wasm/engine"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: firstframe DIR")
		os.Exit(2)
	}
	if err := write(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "firstframe:", err)
		os.Exit(1)
	}
}

// write writes one file per seed scenario of the page's catalog.
func write(dir string) error {
	cat, err := site.EmbeddedCatalog()
	if err != nil {
		return err
	}
	h, err := engine.Handler()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, name := range cat.Names("scenario") {
		text, err := frame(h, cat, name)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".txt"), []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// frame is the first-frame file of seed link name.
func frame(h http.Handler, cat *site.Catalog, name string) (string, error) {
	req, err := playground.FirstRequest(cat, name)
	if err != nil {
		return "", err
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/api/v1/simulate", strings.NewReader(req)))
	if rec.Code != http.StatusOK {
		return "", fmt.Errorf("the engine replied %d: %.300s", rec.Code, rec.Body.String())
	}
	return playground.FirstFrame(req, rec.Body.String()), nil
}

package playground

import (
	"os"
	"testing"

	"schedplay/site"
)

// testCatalog is package site's small test catalog (site/testdata).
func testCatalog(t *testing.T) *site.Catalog {
	t.Helper()
	b, err := os.ReadFile("../testdata/catalog.json")
	if err != nil {
		t.Fatal(err)
	}
	c, err := site.ParseCatalog(b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

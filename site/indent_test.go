package site

import (
	"encoding/json"
	"testing"

	"schedplay/presets"
)

// TestIndentAsMarshalIndent: the editors' indented JSON is
// json.MarshalIndent's, byte for byte, on every preset body and on values
// whose strings need escapes.
func TestIndentAsMarshalIndent(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	vals := []any{nil, "a<b>&\"c\"\n", []any{}, map[string]any{}, []any{json.Number("1.5e3"), map[string]any{"é": []any{nil, true}}}}
	for _, p := range ps.All() {
		v, err := ParseValue(string(p.Body))
		if err != nil {
			t.Fatal(err)
		}
		vals = append(vals, v)
	}
	for _, v := range vals {
		want, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if got := Indent(v); got != string(want) {
			t.Fatalf("Indent(%v) =\n%s\nwant\n%s", v, got, want)
		}
	}
}

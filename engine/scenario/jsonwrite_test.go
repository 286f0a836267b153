package scenario

import (
	"bytes"
	"encoding/json"
	"testing"
)

// stdTree is encoding/json's encoding of v, as MarshalTree promises it.
func stdTree(v any, escapeHTML bool) ([]byte, error) {
	if escapeHTML {
		return json.Marshal(v)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// sameAsMarshal fails t when MarshalTree and encoding/json write v
// differently, or one of them refuses it.
func sameAsMarshal(t testing.TB, v any) {
	t.Helper()
	for _, esc := range []bool{true, false} {
		want, werr := stdTree(v, esc)
		got, gerr := MarshalTree(v, esc)
		if (werr == nil) != (gerr == nil) || !bytes.Equal(got, want) {
			t.Fatalf("%#v (escapeHTML %v): MarshalTree wrote %q (%v); encoding/json %q (%v)", v, esc, got, gerr, want, werr)
		}
	}
}

// TestMarshalTreeWritesAsEncodingJSON: byte for byte encoding/json's
// output on the tree types, their nil and empty forms, strings that need
// escapes, numbers valid and not, other Go types, and every tree the
// parser reads from the edge cases and the presets.
func TestMarshalTreeWritesAsEncodingJSON(t *testing.T) {
	cases := []any{
		nil, true, false, "", "a", `a"b`, `a\b`, "a\nb", "\x00", "<a&b>", "é", "日本", "\u2028", "\xff", "a\u007fb",
		json.Number(""), json.Number("0"), json.Number("-1.5e+07"), json.Number("01"), json.Number("x"), json.Number("1e"),
		[]any(nil), []any{}, map[string]any(nil), map[string]any{},
		map[string]any{"b": 1, "a": []any{json.Number("2"), nil, "<"}, "": map[string]any{"z&": true}, "é": false},
		[]any{1.5, 3, int64(-7), map[string]string{"k": "v"}, []int{1, 2}, struct{ A int }{4}},
		[]any{map[string]any{"n": json.Number("1.0"), "s": "\t"}},
		[]any{func() {}}, map[string]any{"c": make(chan int)},
	}
	for _, c := range cases {
		sameAsMarshal(t, c)
	}
	for _, c := range scanCases {
		if v, ok := scanTree([]byte(c)); ok {
			sameAsMarshal(t, v)
		}
	}
	for _, d := range append(presetBodies(t), numaDoc(64)) {
		v, err := ParseJSON(d)
		if err != nil {
			t.Fatal(err)
		}
		sameAsMarshal(t, v)
	}
}

// FuzzMarshalTree: MarshalTree writes any tree ParseJSON reads as
// encoding/json does.
func FuzzMarshalTree(f *testing.F) {
	for _, c := range scanCases {
		f.Add([]byte(c))
	}
	for _, d := range seedDocs(f) {
		f.Add([]byte(d))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if v, err := ParseJSON(data); err == nil {
			sameAsMarshal(t, v)
		}
	})
}

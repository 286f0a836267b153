package export

import (
	"bytes"
	"encoding/json"
	"io"
)

// JSON writes v as canonical indented JSON (two spaces, struct field order,
// map keys sorted by encoding/json, no HTML escaping so "<" stays "<" for a
// person reading the file) followed by a newline. The bytes depend only on
// v, so two exports of the same Result are identical.
func JSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

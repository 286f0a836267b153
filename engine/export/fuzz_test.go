package export

import (
	"bytes"
	"encoding/xml"
	"io"
	"testing"
)

// FuzzEsc: any string escapes to well-formed XML text.
func FuzzEsc(f *testing.F) {
	for _, s := range []string{"", "<script>", "a&b", "\x00\xff", "\"'\n\t", "é €"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		doc := "<a t=\"" + esc(s) + "\">" + esc(s) + "</a>"
		dec := xml.NewDecoder(bytes.NewReader([]byte(doc)))
		for {
			_, err := dec.Token()
			if err != nil {
				if err == io.EOF {
					return
				}
				t.Fatalf("%q: %v", s, err)
			}
		}
	})
}

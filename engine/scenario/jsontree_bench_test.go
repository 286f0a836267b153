package scenario

import (
	"encoding/json"
	"testing"
)

// BenchmarkJSONTree: reading and writing a 64-node machine's document (a
// 64×64 distance matrix, 15 KB), as the page does several times when such
// a link is opened: ParseJSON's one pass against the token reader it
// replaced, and MarshalTree against json.Marshal.
func BenchmarkJSONTree(b *testing.B) {
	doc := numaDoc(64)
	tree, err := ParseJSON(doc)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("read/scanTree", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := ParseJSON(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("read/tokens", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := parseTokens(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("write/MarshalTree", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := MarshalTree(tree, true); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("write/json.Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := json.Marshal(tree); err != nil {
				b.Fatal(err)
			}
		}
	})
}

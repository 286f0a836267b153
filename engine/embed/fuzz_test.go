package embed

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// FuzzParseMessage: any data either is not ours, or parses to a schedplay
// message, or yields an error whose reply is valid JSON.
func FuzzParseMessage(f *testing.F) {
	for _, s := range []string{
		`{"type":"schedplay:run","id":1}`, `{"type":"schedplay:set","scenario":{"schedplay":1}}`,
		`{"type":"schedplay:set","scenario":"x","set":["a=1"],"run":true}`, `{"type":"other"}`, `[]`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseMessage(data)
		if errors.Is(err, ErrNotOurs) {
			return
		}
		if !strings.HasPrefix(m.Type, "schedplay:") {
			t.Fatalf("type %q accepted", m.Type)
		}
		if err != nil && !json.Valid(Error(m.ID, err)) {
			t.Fatalf("error reply is not JSON for %q", data)
		}
	})
}

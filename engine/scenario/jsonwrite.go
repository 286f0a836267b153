package scenario

import (
	"bytes"
	"encoding/json"
	"slices"
)

// MarshalTree writes a JSON tree (map[string]any, []any, json.Number,
// string, bool, nil: what ParseJSON reads) byte for byte as encoding/json
// does (json.Marshal when escapeHTML, an Encoder with SetEscapeHTML(false)
// otherwise, without its newline): keys sorted, nil maps and lists as null,
// "" as the number 0. It walks the tree without reflection; a value of any
// other type, a string that needs escaping and an invalid number are
// written by encoding/json itself, so the bytes and errors are its own. The
// page writes a large machine's document several times per edit (its
// canonical form, the link, the stored copy): through reflection a 64-node
// distance matrix cost up to 15 ms of the main thread each time (a Chromium
// profile of the playground opening such a link).
func MarshalTree(v any, escapeHTML bool) ([]byte, error) {
	return appendTree(nil, v, escapeHTML, 0)
}

// maxTreeDepth is how deep appendTree walks before it hands the rest to
// encoding/json (which refuses a cyclic value).
const maxTreeDepth = 512

func appendTree(b []byte, v any, escapeHTML bool, depth int) ([]byte, error) {
	if depth > maxTreeDepth {
		return appendStd(b, v, escapeHTML)
	}
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		if v {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case string:
		return appendString(b, v, escapeHTML)
	case json.Number:
		if v == "" {
			return append(b, '0'), nil
		}
		if !validNumber(string(v)) {
			return appendStd(b, v, escapeHTML)
		}
		return append(b, v...), nil
	case []any:
		if v == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendTree(b, e, escapeHTML, depth+1); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case map[string]any:
		if v == nil {
			return append(b, "null"...), nil
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendString(b, k, escapeHTML); err != nil {
				return nil, err
			}
			b = append(b, ':')
			if b, err = appendTree(b, v[k], escapeHTML, depth+1); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
	return appendStd(b, v, escapeHTML)
}

// appendString quotes s; one that needs any escape (or is not plain
// ASCII) is quoted by encoding/json.
func appendString(b []byte, s string, escapeHTML bool) ([]byte, error) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || escapeHTML && (c == '<' || c == '>' || c == '&') {
			return appendStd(b, s, escapeHTML)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), nil
}

// appendStd appends encoding/json's own encoding of v.
func appendStd(b []byte, v any, escapeHTML bool) ([]byte, error) {
	if escapeHTML {
		out, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		return append(b, out...), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...), nil
}

// validNumber reports whether s is one JSON number and nothing else.
func validNumber(s string) bool { return numberEnd(s, 0) == len(s) }

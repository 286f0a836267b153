package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"schedplay/engine/scenario"
)

// EncodeResult writes res as JSON without HTML escaping, byte for byte
// what an encoding/json Encoder with SetEscapeHTML(false) writes (without
// its trailing newline). It writes the timeline itself: given a
// MarshalJSON result, encoding/json re-scans all of it, which under wasm
// cost more than writing it.
func EncodeResult(res *Result) ([]byte, error) {
	head := *res // its members before the timeline; the two after it are omitempty
	head.Timeline, head.Warnings = nil, nil
	b, err := marshalNoEscape(&head)
	if err != nil {
		return nil, err
	}
	b = b[:len(b)-1] // the closing brace
	if res.Timeline != nil {
		b = append(b, `,"timeline":`...)
		if b, err = res.Timeline.appendJSON(b); err != nil {
			return nil, err
		}
	}
	if len(res.Warnings) > 0 {
		w, err := marshalNoEscape(res.Warnings)
		if err != nil {
			return nil, err
		}
		b = append(b, `,"warnings":`...)
		b = append(b, w...)
	}
	return append(b, '}'), nil
}

// marshalNoEscape is json.Marshal without HTML escaping.
func marshalNoEscape(v any) ([]byte, error) { return scenario.MarshalTree(v, false) }

// DecodeResult reads a simulate reply (a Result as JSON). It gives the same
// Result as json.Unmarshal, but encoding/json never scans the timeline's
// interval arrays, which are most of a large reply: under wasm its scanner
// took longer over them than the browser page had for a whole first result.
func DecodeResult(b []byte) (*Result, error) {
	var rest bytes.Buffer
	rest.WriteByte('{')
	var tl *Timeline
	err := walkObject(b, func(key string, raw, val []byte) error {
		if strings.EqualFold(key, "timeline") { // encoding/json matches keys so, the last one wins
			if string(val) == "null" {
				tl = nil
				return nil
			}
			tl = &Timeline{}
			return tl.UnmarshalJSON(val)
		}
		if rest.Len() > 1 {
			rest.WriteByte(',')
		}
		rest.Write(raw)
		rest.WriteByte(':')
		rest.Write(val)
		return nil
	})
	if err != nil {
		return nil, err
	}
	rest.WriteByte('}')
	var res Result
	if err := json.Unmarshal(rest.Bytes(), &res); err != nil {
		return nil, err
	}
	res.Timeline = tl
	return &res, nil
}

// walkObject calls fn with each member of the JSON object b: the key
// (unquoted when it has no escapes), the key as written, and the value's
// bytes. It checks the object's structure, not the values' contents (fn
// decodes those).
func walkObject(b []byte, fn func(key string, raw, val []byte) error) error {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return fmt.Errorf("json: want an object at byte %d", i)
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return trailing(b, i+1)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return fmt.Errorf("json: want a key at byte %d", i)
		}
		kend, err := skipString(b, i)
		if err != nil {
			return err
		}
		raw := b[i:kend]
		key := string(raw[1 : len(raw)-1])
		if bytes.IndexByte(raw, '\\') >= 0 {
			if err := json.Unmarshal(raw, &key); err != nil {
				return err
			}
		}
		i = skipSpace(b, kend)
		if i >= len(b) || b[i] != ':' {
			return fmt.Errorf("json: want ':' at byte %d", i)
		}
		i = skipSpace(b, i+1)
		vend, err := skipValue(b, i)
		if err != nil {
			return err
		}
		if err := fn(key, raw, b[i:vend]); err != nil {
			return err
		}
		i = skipSpace(b, vend)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == '}' {
			return trailing(b, i+1)
		}
		return fmt.Errorf("json: want ',' or '}' at byte %d", i)
	}
}

// trailing accepts only white space after the object.
func trailing(b []byte, i int) error {
	if i = skipSpace(b, i); i != len(b) {
		return fmt.Errorf("json: unexpected data after the object at byte %d", i)
	}
	return nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index after the string starting at b[i] ('"').
func skipString(b []byte, i int) (int, error) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		default:
			if b[j] < 0x20 {
				return 0, fmt.Errorf("json: control character in string at byte %d", j)
			}
		}
	}
	return 0, fmt.Errorf("json: unterminated string at byte %d", i)
}

// skipValue returns the index after the value starting at b[i]: a string,
// or everything up to the bracket that closes an object or array, or a
// literal or number up to the next delimiter. Whoever decodes the value
// checks what is inside.
func skipValue(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, fmt.Errorf("json: want a value at byte %d", i)
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, err := skipString(b, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, fmt.Errorf("json: unterminated value at byte %d", i)
	}
	j := i
	for j < len(b) {
		switch b[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			if j == i {
				return 0, fmt.Errorf("json: want a value at byte %d", i)
			}
			return j, nil
		}
		j++
	}
	return j, nil
}

package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The scenario document is handled as a JSON tree (map[string]any, []any,
// json.Number, string, bool, nil) while presets are merged and overrides set;
// only the merged sections are decoded into typed structs.

// Input limits of the JSON reader.
const (
	// MaxDocumentSize is the largest scenario document accepted (bytes).
	MaxDocumentSize = 1 << 20
	// maxNesting is the deepest object/array nesting accepted.
	maxNesting = 64
)

// parseTree reads exactly one JSON value, rejecting duplicate keys, nesting
// deeper than maxNesting and trailing data. Errors carry the path reached.
func parseTree(data []byte) (any, error) {
	if len(data) > MaxDocumentSize {
		return nil, &Error{Msg: fmt.Sprintf("document is %d bytes; the limit is %d", len(data), MaxDocumentSize)}
	}
	return ParseJSON(data)
}

// ParseJSON reads exactly one JSON value of any size (the caller bounds
// it) as strictly as a scenario document: UTF-8 text, numbers kept exact
// (json.Number), no duplicate key, no nesting deeper than 64 levels, no
// trailing data, and errors that name the line and column ("invalid JSON at
// line 2, column 14: …"). The API checks a whole request body with it, so
// its wrapper and overrides are held to the same rules, and the page's
// editors parse with it, so they say what the CLI says. The value is a tree
// of map[string]any, []any, json.Number, string, bool and nil; errors are
// located (*Error).
func ParseJSON(data []byte) (any, error) {
	if err := checkUTF8(data); err != nil {
		return nil, err
	}
	if v, ok := scanTree(data); ok {
		return v, nil
	}
	// Refused in one pass: the token reader says why.
	return parseTokens(data)
}

// parseTokens is ParseJSON's reader of record, through encoding/json's
// token reader: its errors carry the path reached and the line and column.
// ParseJSON reads with scanTree first, which accepts the same documents.
func parseTokens(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec, "", 0)
	if err != nil {
		return nil, syntaxError(data, dec, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &Error{Msg: fmt.Sprintf("unexpected data after the JSON value at %s", lineCol(data, dec.InputOffset()))}
	}
	return v, nil
}

func parseValue(dec *json.Decoder, path string, depth int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, pathErr{path, err}
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil
	}
	if depth >= maxNesting {
		return nil, &Error{Path: path, Msg: fmt.Sprintf("nested deeper than %d levels", maxNesting)}
	}
	switch d {
	case '{':
		m := map[string]any{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, pathErr{path, err}
			}
			k := kt.(string)
			if _, dup := m[k]; dup {
				return nil, &Error{Path: joinPath(path, k), Msg: "duplicate key"}
			}
			v, err := parseValue(dec, joinPath(path, k), depth+1)
			if err != nil {
				return nil, err
			}
			m[k] = v
		}
		_, err := dec.Token()
		return m, wrapPath(path, err)
	case '[':
		a := []any{}
		for dec.More() {
			v, err := parseValue(dec, indexPath(path, len(a)), depth+1)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token()
		return a, wrapPath(path, err)
	}
	return nil, pathErr{path, fmt.Errorf("unexpected %q", d)}
}

// checkUTF8 refuses a document that is not UTF-8 text, or whose strings
// escape half of a UTF-16 surrogate pair ("\ud800" alone): encoding/json
// would silently turn either into U+FFFD, and a name is never rewritten.
func checkUTF8(data []byte) error {
	if !utf8.Valid(data) {
		off := 0
		for r, size := utf8.DecodeRune(data); r != utf8.RuneError || size > 1; r, size = utf8.DecodeRune(data[off:]) {
			off += size
		}
		return &Error{Msg: fmt.Sprintf("invalid UTF-8 at %s: the document must be UTF-8 text", lineCol(data, int64(off)))}
	}
	bad := func(off int) error {
		return &Error{Msg: fmt.Sprintf("invalid escape at %s: half of a UTF-16 surrogate pair (\\ud800-\\udfff must come in high-low pairs)", lineCol(data, int64(off)))}
	}
	inString, high := false, -1 // high: offset of a pending high-surrogate escape
	for i := 0; i < len(data); i++ {
		if !inString {
			inString = data[i] == '"'
			continue
		}
		unit := -1 // the UTF-16 code unit of a \uXXXX escape at i
		if data[i] == '\\' && i+5 < len(data) && data[i+1] == 'u' {
			if v, err := strconv.ParseUint(string(data[i+2:i+6]), 16, 16); err == nil {
				unit = int(v)
			}
		}
		isLow := unit >= 0xdc00 && unit < 0xe000
		switch {
		case high >= 0 && !isLow:
			return bad(high)
		case high < 0 && isLow:
			return bad(i)
		case unit >= 0xd800 && unit < 0xdc00:
			high = i
		default:
			high = -1
		}
		switch {
		case unit >= 0:
			i += 5
		case data[i] == '\\':
			i++ // an escaped character, perhaps a quote
		case data[i] == '"':
			inString = false
		}
	}
	return nil
}

// pathErr is a low-level decoder error reached at path.
type pathErr struct {
	path string
	err  error
}

func (p pathErr) Error() string { return p.err.Error() }

func wrapPath(path string, err error) error {
	if err == nil {
		return nil
	}
	return pathErr{path, err}
}

// syntaxError turns a decoder error into an *Error with a line:column.
func syntaxError(data []byte, dec *json.Decoder, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var pe pathErr
	path := ""
	if errors.As(err, &pe) {
		path, err = pe.path, pe.err
	}
	off := dec.InputOffset()
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// The Decoder's token reader reports offsets before the
		// whitespace and the offending byte ("{\"a\": x}" at column 5,
		// not 7); the whole-document scanner reports the byte after it.
		var v any
		if err2 := json.Unmarshal(data, &v); errors.As(err2, &se) {
			off, err = se.Offset-1, se
		} else {
			off = se.Offset
		}
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		msg = "the JSON text ends early (cut off?)"
	}
	return &Error{Path: path, Msg: fmt.Sprintf("invalid JSON at %s: %s", lineCol(data, off), msg)}
}

func lineCol(data []byte, off int64) string {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := off - int64(bytes.LastIndexByte(data[:off], '\n'))
	return fmt.Sprintf("line %d, column %d", line, col)
}

// mergePatch applies patch to target as RFC 7386 JSON Merge Patch does:
// objects merge key by key, null deletes a key, anything else replaces.
// Neither argument is modified.
func mergePatch(target, patch any) any {
	pm, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	out := map[string]any{}
	if tm, ok := target.(map[string]any); ok {
		for k, v := range tm {
			out[k] = v
		}
	}
	for k, v := range pm {
		if v == nil {
			delete(out, k)
			continue
		}
		out[k] = mergePatch(out[k], v)
	}
	return out
}

// composePatch returns the patch equivalent to applying p1 and then p2;
// nulls (deletions) of either survive for the final mergePatch.
func composePatch(p1, p2 any) any {
	m2, ok := p2.(map[string]any)
	if !ok {
		return p2
	}
	m1, ok := p1.(map[string]any)
	if !ok {
		return m2
	}
	out := make(map[string]any, len(m1)+len(m2))
	for k, v := range m1 {
		out[k] = v
	}
	for k, v := range m2 {
		if sub, isObj := v.(map[string]any); isObj {
			if _, ok := out[k].(map[string]any); ok {
				out[k] = composePatch(out[k], sub)
				continue
			}
		}
		out[k] = v
	}
	return out
}

// diffPatch returns the merge patch p with mergePatch(base, p) == target
// (for a map target), and whether the two are equal.
func diffPatch(base, target any) (any, bool) {
	bm, ok1 := base.(map[string]any)
	tm, ok2 := target.(map[string]any)
	if !ok1 || !ok2 {
		if reflect.DeepEqual(base, target) {
			return nil, true
		}
		return target, false
	}
	p := map[string]any{}
	for k := range bm {
		if _, ok := tm[k]; !ok {
			p[k] = nil
		}
	}
	for k, tv := range tm {
		bv, ok := bm[k]
		if !ok {
			p[k] = tv
			continue
		}
		if sub, same := diffPatch(bv, tv); !same {
			p[k] = sub
		}
	}
	return p, len(p) == 0
}

// cloneTree deep-copies a JSON tree.
func cloneTree(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = cloneTree(x)
		}
		return m
	case []any:
		a := make([]any, len(t))
		for i, x := range t {
			a[i] = cloneTree(x)
		}
		return a
	}
	return v
}

// canonicalJSON encodes a tree compactly with sorted keys and without HTML
// escaping (strings stay strings; nothing here is ever interpreted as HTML).
func canonicalJSON(v any) []byte {
	b, err := MarshalTree(v, false)
	if err != nil {
		panic(fmt.Sprintf("scenario: canonical encoding of a parsed tree failed: %v", err))
	}
	return b
}

// typeName names a JSON tree value's type for error messages.
func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}

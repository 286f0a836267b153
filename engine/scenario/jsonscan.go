package scenario

import "encoding/json"

// scanTree reads exactly one JSON value from data, as parseValue does
// through encoding/json's token reader, in one pass over the bytes: the same
// strict language (RFC 8259 JSON, no duplicate key, no nesting deeper than
// maxNesting, no trailing data) and the same tree (map[string]any, []any,
// json.Number, string, bool, nil). It only says whether the document is
// valid: ParseJSON reads a refused one again with the token reader, whose
// messages name the line, column and path. The token reader costs an
// allocated path string and a decoder round per value: a 64-node link (a
// distance matrix of 4,096 numbers, read three times while it is decoded)
// held the page's main thread for 130–150 ms.
func scanTree(data []byte) (any, bool) {
	s := scanner{data: data}
	v, ok := s.value(0)
	if !ok {
		return nil, false
	}
	s.space()
	return v, s.i == len(s.data)
}

type scanner struct {
	data []byte
	i    int
	// strs and nums hold each plain string and each number read so far,
	// boxed once: a distance matrix or a CPU list repeats a few values
	// thousands of times, and each would cost two allocations (its text and
	// its interface). Apart, because "1" and 1 have the same text.
	strs, nums map[string]any
}

// maxInterned is how many distinct values of each kind a document's read
// keeps boxed (a document of distinct numbers gains nothing from more).
const maxInterned = 4096

// intern returns text boxed as box makes it, boxed once per document in
// seen (up to maxInterned values).
func intern(seen *map[string]any, text []byte, box func(string) any) any {
	if v, ok := (*seen)[string(text)]; ok {
		return v
	}
	if *seen == nil {
		*seen = map[string]any{}
	}
	t := string(text)
	v := box(t)
	if len(*seen) < maxInterned {
		(*seen)[t] = v
	}
	return v
}

func boxString(t string) any { return t }
func boxNumber(t string) any { return json.Number(t) }

// space skips JSON whitespace.
func (s *scanner) space() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// value reads one value at nesting depth (the top level is 0).
func (s *scanner) value(depth int) (any, bool) {
	s.space()
	if s.i >= len(s.data) {
		return nil, false
	}
	switch c := s.data[s.i]; c {
	case '{':
		if depth >= maxNesting {
			return nil, false
		}
		return s.object(depth)
	case '[':
		if depth >= maxNesting {
			return nil, false
		}
		return s.array(depth)
	case '"':
		return s.str()
	case 't':
		return true, s.literal("true")
	case 'f':
		return false, s.literal("false")
	case 'n':
		return nil, s.literal("null")
	default:
		if c == '-' || c >= '0' && c <= '9' {
			return s.number()
		}
		return nil, false
	}
}

func (s *scanner) literal(word string) bool {
	if len(s.data)-s.i < len(word) || string(s.data[s.i:s.i+len(word)]) != word {
		return false
	}
	s.i += len(word)
	return true
}

func (s *scanner) object(depth int) (any, bool) {
	s.i++ // {
	m := map[string]any{}
	s.space()
	if s.i < len(s.data) && s.data[s.i] == '}' {
		s.i++
		return m, true
	}
	for {
		s.space()
		if s.i >= len(s.data) || s.data[s.i] != '"' {
			return nil, false
		}
		kv, ok := s.str()
		if !ok {
			return nil, false
		}
		k := kv.(string)
		if _, dup := m[k]; dup {
			return nil, false
		}
		s.space()
		if s.i >= len(s.data) || s.data[s.i] != ':' {
			return nil, false
		}
		s.i++
		v, ok := s.value(depth + 1)
		if !ok {
			return nil, false
		}
		m[k] = v
		if more, ok := s.next('}'); !ok || !more {
			return m, ok
		}
	}
}

func (s *scanner) array(depth int) (any, bool) {
	s.i++ // [
	a := []any{}
	s.space()
	if s.i < len(s.data) && s.data[s.i] == ']' {
		s.i++
		return a, true
	}
	for {
		v, ok := s.value(depth + 1)
		if !ok {
			return nil, false
		}
		a = append(a, v)
		if more, ok := s.next(']'); !ok || !more {
			return a, ok
		}
	}
}

// next steps over the comma after a member (more) or the closing bracket
// (not more) of an object or array; anything else is refused.
func (s *scanner) next(closing byte) (more, ok bool) {
	s.space()
	if s.i >= len(s.data) {
		return false, false
	}
	switch s.data[s.i] {
	case ',':
		s.i++
		return true, true
	case closing:
		s.i++
		return false, true
	}
	return false, false
}

// str reads a string. One without escapes is its bytes (ParseJSON has
// checked they are UTF-8); escapes are decoded by encoding/json itself.
func (s *scanner) str() (any, bool) {
	start := s.i
	s.i++ // "
	escaped := false
	for s.i < len(s.data) {
		switch c := s.data[s.i]; {
		case c == '"':
			s.i++
			if !escaped {
				return intern(&s.strs, s.data[start+1:s.i-1], boxString), true
			}
			var v string
			if json.Unmarshal(s.data[start:s.i], &v) != nil {
				return nil, false
			}
			return v, true
		case c < 0x20:
			return nil, false
		case c == '\\':
			escaped = true
			if !s.escape() {
				return nil, false
			}
		default: // the bytes of a non-ASCII character are all ≥ 0x80
			s.i++
		}
	}
	return nil, false
}

// escape checks the escape at s.i (a backslash) and steps over it.
func (s *scanner) escape() bool {
	if s.i+1 >= len(s.data) {
		return false
	}
	switch s.data[s.i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.i += 2
		return true
	case 'u':
		if s.i+6 > len(s.data) {
			return false
		}
		for _, h := range s.data[s.i+2 : s.i+6] {
			if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
				return false
			}
		}
		s.i += 6
		return true
	}
	return false
}

// number reads a number as its text (json.Number, as UseNumber gives).
func (s *scanner) number() (any, bool) {
	end := numberEnd(s.data, s.i)
	if end < 0 {
		return nil, false
	}
	start := s.i
	s.i = end
	return intern(&s.nums, s.data[start:end], boxNumber), true
}

// numberEnd returns where the JSON number starting at text[i] ends, or -1
// when none starts there: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
// (the scanner reads bytes, MarshalTree checks strings).
func numberEnd[T string | []byte](text T, i int) int {
	digits := func() int {
		n := 0
		for i < len(text) && text[i] >= '0' && text[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(text) && text[i] == '-' {
		i++
	}
	switch {
	case i < len(text) && text[i] == '0':
		i++
	case digits() == 0:
		return -1
	}
	if i < len(text) && text[i] == '.' {
		i++
		if digits() == 0 {
			return -1
		}
	}
	if i < len(text) && (text[i] == 'e' || text[i] == 'E') {
		i++
		if i < len(text) && (text[i] == '+' || text[i] == '-') {
			i++
		}
		if digits() == 0 {
			return -1
		}
	}
	return i
}

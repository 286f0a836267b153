package sim

import (
	"encoding/json"
	"unicode/utf8"
)

// decodeDecisions reads a timeline's "decisions" array. Tens of thousands
// of records in the playground's full reply took encoding/json over a
// second under wasm, freezing the page as the result arrived; this reader
// handles the form EncodeResult writes (keys at, t, k, from, to, w, path;
// plain strings) and gives anything else to encoding/json, so the result
// is always what json.Unmarshal gives. Repeated path steps share one
// string.
func decodeDecisions(b []byte) ([]Decision, error) {
	if out, ok := fastDecisions(b); ok {
		return out, nil
	}
	var out []Decision
	err := json.Unmarshal(b, &out)
	return out, err
}

// fastDecisions is decodeDecisions' fast path; ok is false when b is not
// in the form it handles (then nothing is decided from its output).
func fastDecisions(b []byte) (out []Decision, ok bool) {
	p := flatParser{b: b}
	p.space()
	if p.lit("null") {
		p.space()
		return nil, p.i == len(p.b)
	}
	if !p.eat('[') {
		return nil, false
	}
	out = []Decision{}
	intern := map[string]string{}
	p.space()
	if p.eat(']') {
		p.space()
		return out, p.i == len(p.b)
	}
	for {
		p.space()
		d, ok := p.decision(intern)
		if !ok {
			return nil, false
		}
		out = append(out, d)
		p.space()
		if p.eat(']') {
			break
		}
		if !p.eat(',') {
			return nil, false
		}
	}
	p.space()
	return out, p.i == len(p.b)
}

// decision reads one record with exactly the keys EncodeResult writes, in
// any order, each at most once.
func (p *flatParser) decision(intern map[string]string) (d Decision, ok bool) {
	if !p.eat('{') {
		return d, false
	}
	var seen uint8
	for {
		p.space()
		key, ok := p.plainString()
		if !ok {
			return d, false
		}
		p.space()
		if !p.eat(':') {
			return d, false
		}
		p.space()
		var bit uint8
		var ip *int // an int member
		switch key {
		case "at":
			bit = 1
			d.At, ok = p.int()
		case "t":
			bit, ip = 2, &d.Task
		case "k":
			bit = 4
			var s string
			s, ok = p.plainString()
			d.Kind = internString(intern, s)
		case "from":
			bit, ip = 8, &d.From
		case "to":
			bit, ip = 16, &d.To
		case "path":
			bit = 32
			d.Path, ok = p.strings(intern)
		case "w":
			bit, ip = 64, &d.Waker
		}
		if ip != nil {
			var v int64
			v, ok = p.int()
			*ip = int(v)
		}
		if bit == 0 || !ok || seen&bit != 0 {
			return d, false
		}
		seen |= bit
		p.space()
		if p.eat('}') {
			return d, true
		}
		if !p.eat(',') {
			return d, false
		}
	}
}

// strings reads an array of plain strings (or null).
func (p *flatParser) strings(intern map[string]string) ([]string, bool) {
	if p.lit("null") {
		return nil, true
	}
	if !p.eat('[') {
		return nil, false
	}
	out := []string{}
	p.space()
	if p.eat(']') {
		return out, true
	}
	for {
		p.space()
		s, ok := p.plainString()
		if !ok {
			return nil, false
		}
		out = append(out, internString(intern, s))
		p.space()
		if p.eat(']') {
			return out, true
		}
		if !p.eat(',') {
			return nil, false
		}
	}
}

// plainString reads a JSON string without escapes, control characters or
// invalid UTF-8 (anything else makes the caller fall back). The returned
// string aliases nothing: it is copied.
func (p *flatParser) plainString() (string, bool) {
	if !p.eat('"') {
		return "", false
	}
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			s := p.b[start:p.i]
			p.i++
			if !utf8.Valid(s) {
				return "", false
			}
			return string(s), true
		case c == '\\' || c < 0x20:
			return "", false
		}
		p.i++
	}
	return "", false
}

// internString returns one shared copy of s.
func internString(m map[string]string, s string) string {
	if v, ok := m[s]; ok {
		return v
	}
	m[s] = s
	return s
}

package rtapp

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// node is a JSON value read the way rt-app's workgen reads its files:
// objects keep their keys in order, duplicates included ("run" twice in
// one phase is two events); /* … */ and // comments and trailing commas
// are allowed.
type node struct {
	kind byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' bool, 'z' null
	keys []string
	vals []*node
	str  string
	num  float64
	b    bool
	line int
}

// get returns the first value under key (nil when absent).
func (n *node) get(key string) *node {
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

// maxDepth bounds nesting (a use case is four levels deep).
const maxDepth = 32

// parser reads one document.
type parser struct {
	s    string
	i    int
	line int
}

// parse reads data into a node; errors carry the line.
func parse(data []byte) (*node, error) {
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("line 1: not UTF-8 text")
	}
	p := &parser{s: string(data), line: 1}
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if err := p.space(); err != nil {
		return nil, err
	}
	if p.i < len(p.s) {
		return nil, p.errf("unexpected %q after the document", p.s[p.i])
	}
	return n, nil
}

// lineError is a parse error at a line.
type lineError struct {
	line int
	msg  string
}

func (e *lineError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

func (p *parser) errf(format string, args ...any) error {
	return &lineError{line: p.line, msg: fmt.Sprintf(format, args...)}
}

// space skips whitespace and comments.
func (p *parser) space() error {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == '\n':
			p.line++
			p.i++
		case c == ' ' || c == '\t' || c == '\r':
			p.i++
		case strings.HasPrefix(p.s[p.i:], "//"):
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		case strings.HasPrefix(p.s[p.i:], "/*"):
			end := strings.Index(p.s[p.i+2:], "*/")
			if end < 0 {
				return p.errf("a /* comment is not closed")
			}
			p.line += strings.Count(p.s[p.i:p.i+2+end], "\n")
			p.i += end + 4
		default:
			return nil
		}
	}
	return nil
}

func (p *parser) value(depth int) (*node, error) {
	if depth > maxDepth {
		return nil, p.errf("nested deeper than %d levels", maxDepth)
	}
	if err := p.space(); err != nil {
		return nil, err
	}
	if p.i >= len(p.s) {
		return nil, p.errf("unexpected end of the document")
	}
	n := &node{line: p.line}
	switch c := p.s[p.i]; {
	case c == '{':
		n.kind = 'o'
		return n, p.members(n, depth)
	case c == '[':
		n.kind = 'a'
		return n, p.elements(n, depth)
	case c == '"':
		s, err := p.str()
		n.kind, n.str = 's', s
		return n, err
	case strings.HasPrefix(p.s[p.i:], "true"), strings.HasPrefix(p.s[p.i:], "True"):
		n.kind, n.b = 'b', true
		p.i += 4
	case strings.HasPrefix(p.s[p.i:], "false"), strings.HasPrefix(p.s[p.i:], "False"):
		n.kind = 'b'
		p.i += 5
	case strings.HasPrefix(p.s[p.i:], "null"):
		n.kind = 'z'
		p.i += 4
	case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
		j := p.i
		for j < len(p.s) && strings.IndexByte("+-.eE0123456789", p.s[j]) >= 0 {
			j++
		}
		v, err := strconv.ParseFloat(p.s[p.i:j], 64)
		if err != nil {
			return nil, p.errf("bad number %q", p.s[p.i:j])
		}
		n.kind, n.num = 'n', v
		p.i = j
	default:
		return nil, p.errf("unexpected %q", c)
	}
	return n, nil
}

func (p *parser) members(n *node, depth int) error {
	p.i++ // {
	for {
		if err := p.space(); err != nil {
			return err
		}
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return nil
		}
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return p.errf("want a quoted key")
		}
		k, err := p.str()
		if err != nil {
			return err
		}
		if err := p.space(); err != nil {
			return err
		}
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return p.errf("want ':' after %q", k)
		}
		p.i++
		v, err := p.value(depth + 1)
		if err != nil {
			return err
		}
		n.keys = append(n.keys, k)
		n.vals = append(n.vals, v)
		if err := p.space(); err != nil {
			return err
		}
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			return nil
		}
		return p.errf("want ',' or '}' after the value of %q", k)
	}
}

func (p *parser) elements(n *node, depth int) error {
	p.i++ // [
	for {
		if err := p.space(); err != nil {
			return err
		}
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return nil
		}
		v, err := p.value(depth + 1)
		if err != nil {
			return err
		}
		n.vals = append(n.vals, v)
		if err := p.space(); err != nil {
			return err
		}
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return nil
		}
		return p.errf("want ',' or ']' in a list")
	}
}

// str reads a JSON string at p.i (escapes as JSON has them).
func (p *parser) str() (string, error) {
	j := p.i + 1
	for j < len(p.s) && p.s[j] != '"' {
		if p.s[j] == '\\' {
			j++
		}
		if j < len(p.s) && p.s[j] == '\n' {
			return "", p.errf("a string runs past the end of its line")
		}
		j++
	}
	if j >= len(p.s) {
		return "", p.errf("a string is not closed")
	}
	s, err := strconv.Unquote(strings.ReplaceAll(p.s[p.i:j+1], `\/`, "/"))
	if err != nil {
		return "", p.errf("bad string %s", p.s[p.i:j+1])
	}
	p.i = j + 1
	return s, nil
}

package trace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// ChromeText returns a reader of the ftrace text inside a Chrome JSON
// trace's "systemTraceEvents" string, unescaped as it streams (the
// string may be hundreds of MB; it is never held whole). Other members
// are skipped.
func ChromeText(r *bufio.Reader) (io.Reader, error) {
	if err := skipSpace(r); err != nil {
		return nil, err
	}
	if c, _ := r.ReadByte(); c != '{' {
		return nil, errors.New("a Chrome JSON trace is an object")
	}
	for {
		if err := skipSpace(r); err != nil {
			return nil, err
		}
		c, err := r.ReadByte()
		if err != nil {
			return nil, io.ErrUnexpectedEOF
		}
		if c == '}' {
			return nil, errors.New("no \"systemTraceEvents\": a JSON trace without ftrace text has no scheduling events (sched_switch …) to replay")
		}
		if c == ',' {
			continue
		}
		if c != '"' {
			return nil, fmt.Errorf("unexpected %q in the trace object", c)
		}
		key, err := readKey(r)
		if err != nil {
			return nil, err
		}
		if err := skipSpace(r); err != nil {
			return nil, err
		}
		if c, _ := r.ReadByte(); c != ':' {
			return nil, errors.New("malformed JSON: want ':' after a key")
		}
		if err := skipSpace(r); err != nil {
			return nil, err
		}
		if key == "systemTraceEvents" {
			if c, _ := r.ReadByte(); c != '"' {
				return nil, errors.New("\"systemTraceEvents\" is not a string")
			}
			return &jsonString{r: r}, nil
		}
		if err := skipValue(r, 0); err != nil {
			return nil, err
		}
	}
}

func skipSpace(r *bufio.Reader) error {
	for {
		c, err := r.ReadByte()
		if err != nil {
			return io.ErrUnexpectedEOF
		}
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return r.UnreadByte()
		}
	}
}

// readKey reads a short key string (its opening quote already read).
func readKey(r *bufio.Reader) (string, error) {
	var b []byte
	for len(b) < 256 {
		c, err := r.ReadByte()
		if err != nil {
			return "", io.ErrUnexpectedEOF
		}
		switch c {
		case '"':
			return string(b), nil
		case '\\':
			c2, _ := r.ReadByte()
			b = append(b, '\\', c2)
			continue
		}
		b = append(b, c)
	}
	return "", errors.New("a key longer than 256 bytes")
}

// skipValue skips one JSON value, nested up to 64 levels.
func skipValue(r *bufio.Reader, depth int) error {
	if depth > 64 {
		return errors.New("JSON nested deeper than 64 levels")
	}
	c, err := r.ReadByte()
	if err != nil {
		return io.ErrUnexpectedEOF
	}
	switch c {
	case '"':
		return skipString(r)
	case '{', '[':
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		for {
			if err := skipSpace(r); err != nil {
				return err
			}
			c, err := r.ReadByte()
			if err != nil {
				return io.ErrUnexpectedEOF
			}
			if c == end {
				return nil
			}
			if c == ',' || c == ':' {
				continue
			}
			if err := r.UnreadByte(); err != nil {
				return err
			}
			if err := skipValue(r, depth+1); err != nil {
				return err
			}
		}
	default: // number, true, false, null
		for {
			c, err := r.ReadByte()
			if err != nil {
				return nil
			}
			if c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == ':' {
				return r.UnreadByte()
			}
		}
	}
}

func skipString(r *bufio.Reader) error {
	for {
		c, err := r.ReadByte()
		if err != nil {
			return io.ErrUnexpectedEOF
		}
		if c == '\\' {
			if _, err := r.ReadByte(); err != nil {
				return io.ErrUnexpectedEOF
			}
			continue
		}
		if c == '"' {
			return nil
		}
	}
}

// jsonString streams the unescaped bytes of a JSON string (after its
// opening quote) until its closing quote.
type jsonString struct {
	r    *bufio.Reader
	done bool
	pend []byte
}

func (s *jsonString) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(s.pend) > 0 {
			k := copy(p[n:], s.pend)
			s.pend, n = s.pend[k:], n+k
			continue
		}
		if s.done {
			break
		}
		c, err := s.r.ReadByte()
		if err != nil {
			return n, io.ErrUnexpectedEOF
		}
		switch c {
		case '"':
			s.done = true
		case '\\':
			e, err := s.r.ReadByte()
			if err != nil {
				return n, io.ErrUnexpectedEOF
			}
			switch e {
			case 'n':
				p[n] = '\n'
			case 't':
				p[n] = '\t'
			case 'r':
				p[n] = '\r'
			case 'b':
				p[n] = '\b'
			case 'f':
				p[n] = '\f'
			case 'u':
				var h [4]byte
				if _, err := io.ReadFull(s.r, h[:]); err != nil {
					return n, io.ErrUnexpectedEOF
				}
				var v rune
				for _, x := range h {
					v <<= 4
					switch {
					case x >= '0' && x <= '9':
						v |= rune(x - '0')
					case x >= 'a' && x <= 'f':
						v |= rune(x-'a') + 10
					case x >= 'A' && x <= 'F':
						v |= rune(x-'A') + 10
					}
				}
				var buf [4]byte
				k := utf8.EncodeRune(buf[:], v)
				s.pend = append(s.pend[:0], buf[:k]...)
				continue
			default:
				p[n] = e
			}
			n++
		default:
			p[n] = c
			n++
		}
	}
	if n == 0 && s.done {
		return 0, io.EOF
	}
	return n, nil
}

// HTMLText returns a reader of the trace inside a systrace HTML page: the
// text of its `<script class="trace-data">` elements, or, in the legacy
// page systrace wrote before them, the JavaScript string
// `var linuxPerfData = "…"` (each line ending in `\n\`).
func HTMLText(r *bufio.Reader) (io.Reader, error) {
	const open, legacy = `class="trace-data"`, `var linuxPerfData = "`
	var window []byte
	for {
		c, err := r.ReadByte()
		if err != nil {
			return nil, errors.New("no <script class=\"trace-data\"> (nor a legacy var linuxPerfData) in the page")
		}
		window = append(window, c)
		if len(window) > len(legacy) {
			window = window[1:]
		}
		if bytes.HasSuffix(window, []byte(legacy)) {
			return &jsString{r: &untilScript{r: r}}, nil
		}
		if bytes.HasSuffix(window, []byte(open)) {
			break
		}
	}
	for { // to the end of the opening tag
		c, err := r.ReadByte()
		if err != nil {
			return nil, io.ErrUnexpectedEOF
		}
		if c == '>' {
			break
		}
	}
	return &untilScript{r: r}, nil
}

// jsString decodes a JavaScript string literal's body up to its closing
// quote (or the end of the script): \n, \t, \\, \" and a backslash
// before a newline (a line continuation, which adds nothing).
type jsString struct {
	r    io.Reader
	buf  [1]byte
	done bool
}

func (j *jsString) next() (byte, bool) {
	if _, err := io.ReadFull(j.r, j.buf[:]); err != nil {
		return 0, false
	}
	return j.buf[0], true
}

func (j *jsString) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) && !j.done {
		c, ok := j.next()
		if !ok || c == '"' {
			j.done = true
			break
		}
		if c == '\\' {
			e, ok := j.next()
			if !ok {
				j.done = true
				break
			}
			switch e {
			case '\n':
				continue
			case 'n':
				c = '\n'
			case 't':
				c = '\t'
			default: // \\, \" and anything else: the character itself
				c = e
			}
		}
		p[n] = c
		n++
	}
	if n == 0 && j.done {
		return 0, io.EOF
	}
	return n, nil
}

// untilScript reads up to "</script>".
type untilScript struct {
	r    *bufio.Reader
	done bool
}

func (u *untilScript) Read(p []byte) (int, error) {
	if u.done {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) {
		c, err := u.r.ReadByte()
		if err != nil {
			u.done = true
			break
		}
		if c == '<' {
			if peek, _ := u.r.Peek(8); bytes.Equal(peek, []byte("/script>")) {
				u.done = true
				break
			}
		}
		p[n] = c
		n++
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

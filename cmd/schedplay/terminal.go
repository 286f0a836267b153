package main

import (
	"fmt"
	"io"
	"os"
	"unicode/utf8"
)

// A scenario's names are anyone's text: a share link can carry
// "\x1b]0;title\a" or "\x1b[2J". On a terminal every verb's output goes
// through a terminalWriter, which prints control characters as Go escapes
// ("\x1b") instead of letting the terminal act on them. Output to a file
// or a pipe is left as written (the JSON forms escape them anyway).

// terminalWriter escapes control characters (C0 but tab and newline, DEL,
// C1) and the bidirectional-text controls of what it writes to w.
type terminalWriter struct {
	w       io.Writer
	partial []byte // the start of a UTF-8 sequence cut by the last Write
}

// onTerminal wraps f in a terminalWriter when it is a terminal.
func onTerminal(f *os.File) io.Writer {
	if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
		return &terminalWriter{w: f}
	}
	return f
}

func (t *terminalWriter) Write(p []byte) (int, error) {
	data := append(t.partial, p...)
	t.partial = nil
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 && !utf8.FullRune(data[i:]) {
			t.partial = append([]byte(nil), data[i:]...)
			break
		}
		switch {
		case r == utf8.RuneError && size == 1:
			out = fmt.Appendf(out, `\x%02x`, data[i]) // not UTF-8
		case r < 0x80 && unsafeRune(r):
			out = fmt.Appendf(out, `\x%02x`, r)
		case unsafeRune(r):
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = append(out, data[i:i+size]...)
		}
		i += size
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// unsafeRune reports whether a terminal would act on r rather than show it.
func unsafeRune(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return false
	case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true // bidirectional embeddings, overrides and isolates
	}
	return false
}

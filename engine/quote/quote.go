// Package quote quotes user input in messages without echoing it whole:
// an error about a 2 MB name or key names its first bytes and its length.
package quote

import (
	"fmt"
	"unicode/utf8"
)

// MaxBytes is the most bytes of a piece of user input a message quotes.
const MaxBytes = 48

// Short quotes s in Go syntax (control characters and markup escaped):
// the whole of a short string; the first MaxBytes bytes (cut at a
// character boundary), "…" and the length of a long one.
func Short(s string) string {
	if len(s) <= MaxBytes {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%q… (%d bytes)", Prefix(s, MaxBytes), len(s))
}

// Prefix is s cut to at most n bytes at a character boundary.
func Prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

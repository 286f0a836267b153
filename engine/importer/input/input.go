// Package input is what every importer shares: errors that name the file
// and line they come from, the bounds a reader applies to what it is
// given (file size, line length, CPUs, tasks), and a line reader that
// enforces them.
//
// Importers read untrusted text (a pasted lscpu table, a 100 MB trace, a
// tarball from someone's machine). Every reader is bounded: it refuses an
// input over its size limit, a line over the line limit, a machine over
// MaxCPUs and a trace over MaxTasks, with a sentence naming the limit,
// and keeps memory proportional to what it summarises, never to the file.
package input

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// The bounds of the importers.
const (
	// MaxFileBytes is the largest machine description read (a sysfs file,
	// an lscpu table, an hwloc XML, an rt-app JSON): 16 MiB.
	MaxFileBytes = 16 << 20
	// MaxArchiveBytes is the most a compressed archive may expand to
	// (the bytes decompressed, whether kept or skipped): 1 GiB.
	MaxArchiveBytes = 1 << 30
	// MaxArchiveEntries is the most entries an archive may hold.
	MaxArchiveEntries = 1_000_000
	// MaxKeptBytes is the most an archive reader keeps in memory (the
	// files it needs, each at most MaxFileBytes): 64 MiB.
	MaxKeptBytes = 64 << 20
	// MaxLineBytes is the longest line a text reader accepts: 64 KiB (a
	// cpulist of 4096 CPUs in the worst spelling fits).
	MaxLineBytes = 64 << 10
	// MaxCPUs is the largest machine imported (topo.MaxCPUs).
	MaxCPUs = 4096
	// MaxTasks is the most distinct tasks a trace may show: a trace
	// with more is refused (schedplay replays at most 256 groups; the
	// importer keeps the busiest and folds the rest, see trace).
	MaxTasks = 65536
)

// Error is a problem at a place of an input: File (as the user named it),
// Line (1-based; 0 when the problem is not on one line) and a sentence.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	switch {
	case e.File == "" && e.Line == 0:
		return e.Msg
	case e.Line == 0:
		return e.File + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}

// Errorf returns an *Error at file:line.
func Errorf(file string, line int, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// ErrTooLarge reports an input over a size limit.
var ErrTooLarge = errors.New("input too large")

// ReadAll reads r to the end, refusing more than limit bytes with an
// *Error naming file and the limit.
func ReadAll(file string, r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, Errorf(file, 0, "%v", err)
	}
	if int64(len(b)) > limit {
		return nil, &Error{File: file, Msg: fmt.Sprintf("larger than the limit of %d bytes", limit)}
	}
	return b, nil
}

// Lines reads text line by line with line numbers, refusing a line longer
// than MaxLineBytes. The zero value is not usable; use NewLines.
type Lines struct {
	file string
	sc   *bufio.Scanner
	n    int
	err  error
}

// NewLines reads r, naming file in its errors.
func NewLines(file string, r io.Reader) *Lines {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineBytes)
	return &Lines{file: file, sc: sc}
}

// Next advances to the next line; false at the end or on an error (Err).
func (l *Lines) Next() bool {
	if l.err != nil || !l.sc.Scan() {
		if err := l.sc.Err(); err != nil && l.err == nil {
			if errors.Is(err, bufio.ErrTooLong) {
				l.err = Errorf(l.file, l.n+1, "line longer than the limit of %d bytes", MaxLineBytes)
			} else {
				l.err = Errorf(l.file, l.n+1, "%v", err)
			}
		}
		return false
	}
	l.n++
	return true
}

// Text is the current line without its newline (and without a trailing
// carriage return). The slice is valid until the next call to Next.
func (l *Lines) Text() []byte {
	b := l.sc.Bytes()
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}

// Line is the current line number (1-based).
func (l *Lines) Line() int { return l.n }

// Err is the first error met, or nil at a clean end.
func (l *Lines) Err() error { return l.err }

// Errorf returns an *Error at the current line.
func (l *Lines) Errorf(format string, args ...any) *Error {
	return Errorf(l.file, l.n, format, args...)
}

// File is the file name the reader reports.
func (l *Lines) File() string { return l.file }

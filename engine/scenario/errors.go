package scenario

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"schedplay/engine/budget"
	"schedplay/engine/quote"
)

// Error is one problem in a scenario: the JSON path of the offending field in
// the error-path syntax ("workload.groups[0].program[2].compute", "" for the
// whole document) and a human sentence.
type Error struct {
	Path string `json:"path"`
	Msg  string `json:"message"`
}

func (e *Error) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// ErrorList is a list of *Error, sortable by path (go/scanner style). The
// zero value is an empty list ready to use.
type ErrorList []*Error

// Add appends an error at path.
func (l *ErrorList) Add(path, format string, args ...any) {
	*l = append(*l, &Error{Path: path, Msg: fmt.Sprintf(format, args...)})
}

// AddAll appends every error of o.
func (l *ErrorList) AddAll(o ErrorList) { *l = append(*l, o...) }

func (l ErrorList) Len() int      { return len(l) }
func (l ErrorList) Swap(i, j int) { l[i], l[j] = l[j], l[i] }
func (l ErrorList) Less(i, j int) bool {
	if l[i].Path != l[j].Path {
		return l[i].Path < l[j].Path
	}
	return l[i].Msg < l[j].Msg
}

// Sort sorts the list by path, then message, and drops exact duplicates.
func (l *ErrorList) Sort() {
	sort.Stable(*l)
	out := (*l)[:0]
	for i, e := range *l {
		if i > 0 && *e == *(*l)[i-1] {
			continue
		}
		out = append(out, e)
	}
	*l = out
}

// Error joins the first errors, one per line, with a count of the rest.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i == 10 {
			fmt.Fprintf(&b, "\n(and %d more errors)", len(l)-10)
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns l sorted as an error, or nil when l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	l.Sort()
	return l
}

// Errors returns err as an ErrorList: an ErrorList as is, an *Error or a
// *budget.Error as a one-element list, any other error as one error
// without a path.
func Errors(err error) ErrorList {
	if err == nil {
		return nil
	}
	var l ErrorList
	if errors.As(err, &l) {
		return l
	}
	var e *Error
	if errors.As(err, &e) {
		return ErrorList{e}
	}
	var be *budget.Error
	if errors.As(err, &be) {
		return ErrorList{{Path: be.Path, Msg: be.Msg}}
	}
	return ErrorList{{Msg: err.Error()}}
}

// joinPath appends an object key to a path. A key longer than any field
// name (a garbage key) is cut to its first bytes and "…", so that an error
// path never echoes a long input back.
func joinPath(path, key string) string {
	if len(key) > quote.MaxBytes {
		key = quote.Prefix(key, quote.MaxBytes) + "…"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// indexPath appends an array index to a path.
func indexPath(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"schedplay/engine/quote"
	"schedplay/presets"
)

// Overrides: `--set path=value` in the CLI and the same operation in the API
// and UI. Paths use the error-path syntax ("policy.hz",
// "workload.groups[0].count"). Setting "<section>.preset" swaps that whole
// section; any other path edits the section after its preset chain has been
// expanded, and the section is then stored again as its preset plus the
// difference, so documents (and share links) stay short.

// Override is one path=value edit; Value is JSON.
type Override = presets.Override

// pathElem is one step of a path: an object key or, when Key is "", a list index.
type pathElem struct {
	Key   string
	Index int
}

// maxPathLength bounds a path's length in bytes.
const maxPathLength = 256

// ParseSet parses "path=value". The value is taken as JSON when it parses as
// JSON, else as a string: hz=1000 is a number, preset=v6-on and
// cpus=0-87 are strings, cpus="0" is the string "0".
func ParseSet(s string) (Override, error) {
	path, value, ok := strings.Cut(s, "=")
	if !ok {
		return Override{}, &Error{Msg: fmt.Sprintf("override %s has no '='; write path=value, e.g. policy.hz=1000", quote.Short(s))}
	}
	path = strings.TrimSpace(path)
	if _, err := parsePath(path); err != nil {
		return Override{}, err
	}
	return Override{Path: path, Value: valueJSON(value)}, nil
}

// valueJSON returns v as JSON: itself if it is one JSON value, else a JSON string.
func valueJSON(v string) json.RawMessage {
	t := strings.TrimSpace(v)
	if t != "" && json.Valid([]byte(t)) {
		return json.RawMessage(t)
	}
	return canonicalJSON(v)
}

// parsePath splits a path in the error-path syntax.
func parsePath(path string) ([]pathElem, error) {
	bad := func(why string) error {
		return &Error{Path: path, Msg: "bad override path: " + why + "; write e.g. policy.hz or workload.groups[0].count"}
	}
	if path == "" {
		return nil, bad("empty")
	}
	if len(path) > maxPathLength {
		return nil, &Error{Msg: fmt.Sprintf("override path is %d bytes long; the limit is %d", len(path), maxPathLength)}
	}
	var out []pathElem
	rest := path
	for rest != "" {
		if rest[0] == '[' {
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil, bad("unclosed [")
			}
			n, err := strconv.Atoi(rest[1:end])
			if err != nil || n < 0 || n > MaxTasks || rest[1] == '+' {
				return nil, bad(fmt.Sprintf("index %s is not a list position", quote.Short(rest[1:end])))
			}
			if len(out) == 0 {
				return nil, bad("it starts with an index")
			}
			out = append(out, pathElem{Index: n})
			rest = rest[end+1:]
			if rest != "" && rest[0] == '.' {
				rest = rest[1:]
				if rest == "" || rest[0] == '.' || rest[0] == '[' {
					return nil, bad("empty key")
				}
			} else if rest != "" && rest[0] != '[' {
				return nil, bad("expected . or [ after ]")
			}
			continue
		}
		end := strings.IndexAny(rest, ".[")
		if end < 0 {
			end = len(rest)
		}
		key := rest[:end]
		if key == "" {
			return nil, bad("empty key")
		}
		for _, r := range key {
			if !(r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
				return nil, bad(fmt.Sprintf("key %s has a character other than letters, digits, _ and -", quote.Short(key)))
			}
		}
		out = append(out, pathElem{Key: key})
		rest = rest[end:]
		if rest != "" && rest[0] == '.' {
			rest = rest[1:]
			if rest == "" {
				return nil, bad("it ends with '.'")
			}
		}
	}
	return out, nil
}

// MaxOverrides is the most overrides one Apply takes (a request's "set",
// the CLI's --set flags and a variant's together).
const MaxOverrides = 1024

// Apply returns a copy of s with the overrides applied in order. A top-level
// scenario preset is flattened first. Errors name the override's path.
func Apply(s *Scenario, ps *presets.Set, sets []Override) (*Scenario, error) {
	return ApplyContext(context.Background(), s, ps, sets)
}

// ApplyContext is Apply that stops when ctx is done. Each section is
// expanded once, every override of it is set in the expanded tree, and it
// is stored again as its preset plus the difference at the end: the work
// is linear in the overrides (it was quadratic when every override
// expanded and diffed its section again).
func ApplyContext(ctx context.Context, s *Scenario, ps *presets.Set, sets []Override) (*Scenario, error) {
	if len(sets) == 0 {
		return s, nil
	}
	if len(sets) > MaxOverrides {
		return nil, &Error{Msg: fmt.Sprintf("%d overrides; the limit is %d", len(sets), MaxOverrides)}
	}
	doc, err := s.tree()
	if err != nil {
		return nil, err
	}
	var errs ErrorList
	doc = flattenScenarioPreset(doc, ps, 0, &errs)
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	ap := applier{doc: doc, ps: ps, open: map[string]*openSection{}}
	for _, o := range sets {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := ap.apply(o); err != nil {
			return nil, Errors(err)
		}
	}
	if err := ap.close(); err != nil {
		return nil, err
	}
	return fromTree(doc)
}

// applier applies overrides to a document tree, keeping each section it
// edits expanded (open) until close stores it back.
type applier struct {
	doc  map[string]any
	ps   *presets.Set
	open map[string]*openSection
}

// openSection is a section being edited: its preset chain expanded into
// full, and the preset the document names (nil for none).
type openSection struct {
	full   any
	preset any
}

func (ap *applier) apply(o Override) error {
	path, err := parsePath(o.Path)
	if err != nil {
		return err
	}
	value, err := parseTree(o.Value)
	if err != nil {
		return &Error{Path: o.Path, Msg: "value: " + Errors(err)[0].Msg}
	}
	head := path[0].Key
	switch {
	case head == "schedplay" || head == "preset":
		return &Error{Path: o.Path, Msg: "cannot be overridden"}
	case head == "name":
		if len(path) != 1 {
			return &Error{Path: o.Path, Msg: "name is a string; it has no fields"}
		}
		ap.doc["name"] = value
		return nil
	case head != "machine" && head != "policy" && head != "workload" && head != "run":
		return &Error{Path: o.Path, Msg: fmt.Sprintf("unknown section %s%s", quote.Short(head), suggestKey(head))}
	}
	if len(path) == 1 {
		return &Error{Path: o.Path, Msg: "set a field of the section (or " + head + ".preset), not the whole section"}
	}
	kind := sectionKind(head)
	if len(path) == 2 && path[1].Key == "preset" && kind != "" {
		delete(ap.open, head) // the swap replaces the section and its edits
		ap.doc[head] = map[string]any{"preset": value}
		return nil
	}
	sec, err := ap.section(head, kind)
	if err != nil {
		return err
	}
	sec.full, err = setPath(sec.full, path[1:], value, head)
	return err
}

// section returns section head expanded for editing, opening it first.
func (ap *applier) section(head string, kind presets.Kind) (*openSection, error) {
	if sec, ok := ap.open[head]; ok {
		return sec, nil
	}
	orig, _ := ap.doc[head].(map[string]any)
	var errs ErrorList
	var full any = mergePatch(nil, orig)
	if kind != "" && orig != nil {
		full = expandSection(head, kind, orig, ap.ps, 0, &errs)
		if len(errs) > 0 {
			return nil, errs.Err()
		}
	}
	sec := &openSection{full: cloneTree(full)}
	if name, named := orig["preset"]; named && kind != "" {
		sec.preset = name
	}
	ap.open[head] = sec
	return sec, nil
}

// close stores every open section back into the document: a section that
// names a preset as that preset plus the difference, so documents (and
// share links) stay short.
func (ap *applier) close() error {
	for _, head := range sectionKeys {
		sec, ok := ap.open[head]
		if !ok {
			continue
		}
		full := sec.full
		if sec.preset != nil {
			var errs ErrorList
			base := expandSection(head, sectionKind(head), map[string]any{"preset": sec.preset}, ap.ps, 0, &errs)
			if len(errs) > 0 {
				return errs.Err()
			}
			patch, _ := diffPatch(base, full)
			pm, _ := patch.(map[string]any)
			if pm == nil {
				pm = map[string]any{}
			}
			pm["preset"] = sec.preset
			full = pm
		}
		ap.doc[head] = full
	}
	return nil
}

// setPath sets path in the tree node (reached at prefix) to value and
// returns the new node. Missing objects are created; a list index may be
// at most the list's length (which appends).
func setPath(node any, path []pathElem, value any, prefix string) (any, error) {
	if len(path) == 0 {
		return value, nil
	}
	e := path[0]
	if e.Key != "" {
		here := joinPath(prefix, e.Key)
		m, ok := node.(map[string]any)
		if node == nil {
			m, ok = map[string]any{}, true
		}
		if !ok {
			return nil, &Error{Path: prefix, Msg: fmt.Sprintf("is %s, not an object; cannot set %s in it", typeName(node), quote.Short(e.Key))}
		}
		v, err := setPath(m[e.Key], path[1:], value, here)
		if err != nil {
			return nil, err
		}
		m[e.Key] = v
		return m, nil
	}
	here := indexPath(prefix, e.Index)
	a, ok := node.([]any)
	if !ok {
		return nil, &Error{Path: prefix, Msg: fmt.Sprintf("is %s, not a list; cannot set [%d] in it", typeName(node), e.Index)}
	}
	if e.Index > len(a) {
		return nil, &Error{Path: here, Msg: fmt.Sprintf("the list has %d elements; use an index up to %d", len(a), len(a))}
	}
	if e.Index == len(a) {
		a = append(a, nil)
	}
	v, err := setPath(a[e.Index], path[1:], value, here)
	if err != nil {
		return nil, err
	}
	a[e.Index] = v
	return a, nil
}

// ValueAt returns the value at path (in the override syntax, e.g.
// "workload.groups[0].count") in a JSON tree (maps, lists and scalars as
// encoding/json decodes them into an any); false when the path is not a
// valid path or leads nowhere in the tree.
func ValueAt(tree any, path string) (any, bool) {
	elems, err := parsePath(path)
	if err != nil {
		return nil, false
	}
	for _, e := range elems {
		if e.Key != "" {
			m, ok := tree.(map[string]any)
			if !ok {
				return nil, false
			}
			if tree, ok = m[e.Key]; !ok {
				return nil, false
			}
			continue
		}
		l, ok := tree.([]any)
		if !ok || e.Index >= len(l) {
			return nil, false
		}
		tree = l[e.Index]
	}
	return tree, true
}

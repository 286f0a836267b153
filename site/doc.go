// Package site holds what the page's views share: the scenario document
// (Doc), the preset catalog, share links, the timeline geometry (time
// scale, CPU lanes, pixel runs, hit-testing), number formats and the lstopo
// layout. Each view is a subpackage (playground, compareview, embedview,
// stepview); none imports another. Pure files build natively; DOM and
// canvas code is in *_js.go files. See architecture.md and style.md §5.
package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"schedplay/engine/scenario"
)

// Doc is a scenario document as a JSON tree (map[string]any, []any, string,
// json.Number, bool, nil). It is treated as immutable: every edit returns a
// new Doc that shares unchanged subtrees with the old one.
type Doc map[string]any

// Sections are the scenario's section keys, in display order.
var Sections = []string{"machine", "policy", "workload", "run"}

// ParseDoc decodes a scenario document, keeping numbers exact, with the
// scenario reader's JSON rules and messages (scenario.ParseJSON: errors
// name the line and column).
func ParseDoc(b []byte) (Doc, error) {
	v, err := scenario.ParseJSON(b)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("a scenario must be a JSON object")
	}
	return Doc(m), nil
}

// ParseValue decodes one JSON value (numbers kept exact) as ParseDoc does.
func ParseValue(s string) (any, error) {
	return scenario.ParseJSON([]byte(s))
}

// Canonical is the document's canonical JSON: keys sorted, no spaces.
func (d Doc) Canonical() string {
	if d == nil {
		return "{}"
	}
	b, err := scenario.MarshalTree(map[string]any(d), true)
	if err != nil {
		return "{}"
	}
	return string(b)
}

// Name is the scenario's name ("" when absent).
func (d Doc) Name() string {
	s, _ := d["name"].(string)
	return s
}

// Section returns a section object (nil when absent or not an object).
func (d Doc) Section(name string) map[string]any {
	m, _ := d[name].(map[string]any)
	return m
}

// PathElem is one step of a field path: a key or an index.
type PathElem struct {
	Key   string
	Index int // valid when Key == ""
}

// ParsePath splits "workload.groups[0].count" into its elements.
func ParsePath(p string) ([]PathElem, error) {
	var out []PathElem
	for _, part := range strings.Split(p, ".") {
		key := part
		rest := ""
		if i := strings.IndexByte(part, '['); i >= 0 {
			key, rest = part[:i], part[i:]
		}
		if key == "" && rest == "" {
			return nil, fmt.Errorf("empty element in path %q", p)
		}
		if key != "" {
			out = append(out, PathElem{Key: key})
		}
		for rest != "" {
			j := strings.IndexByte(rest, ']')
			if rest[0] != '[' || j < 0 {
				return nil, fmt.Errorf("bad index in path %q", p)
			}
			n, err := strconv.Atoi(rest[1:j])
			if err != nil || n < 0 {
				return nil, fmt.Errorf("bad index in path %q", p)
			}
			out = append(out, PathElem{Index: n})
			rest = rest[j+1:]
		}
	}
	return out, nil
}

// deleteValue, passed as a value to setIn, removes the key.
type deleteValue struct{}

// Delete is the value that removes a field when set.
var Delete any = deleteValue{}

// setIn returns node with the value at path replaced (copy on write).
func setIn(node any, path []PathElem, v any) (any, error) {
	if len(path) == 0 {
		return v, nil
	}
	e := path[0]
	if e.Key != "" {
		old, _ := node.(map[string]any)
		m := make(map[string]any, len(old)+1)
		for k, x := range old {
			m[k] = x
		}
		if _, del := v.(deleteValue); del && len(path) == 1 {
			delete(m, e.Key)
			return m, nil
		}
		nv, err := setIn(m[e.Key], path[1:], v)
		if err != nil {
			return nil, err
		}
		m[e.Key] = nv
		return m, nil
	}
	old, _ := node.([]any)
	if e.Index > len(old) {
		return nil, fmt.Errorf("index %d out of range (length %d)", e.Index, len(old))
	}
	s := append([]any(nil), old...)
	if _, del := v.(deleteValue); del && len(path) == 1 {
		if e.Index < len(s) {
			s = append(s[:e.Index], s[e.Index+1:]...)
		}
		return s, nil
	}
	if e.Index == len(s) {
		s = append(s, nil)
	}
	nv, err := setIn(s[e.Index], path[1:], v)
	if err != nil {
		return nil, err
	}
	s[e.Index] = nv
	return s, nil
}

// getIn reads the value at path (nil when absent).
func getIn(node any, path []PathElem) any {
	for _, e := range path {
		if e.Key != "" {
			m, ok := node.(map[string]any)
			if !ok {
				return nil
			}
			node = m[e.Key]
			continue
		}
		s, ok := node.([]any)
		if !ok || e.Index >= len(s) {
			return nil
		}
		node = s[e.Index]
	}
	return node
}

// Expand returns the section with its preset expanded and its overrides
// applied on top (top-level keys replace the preset's).
func Expand(sec map[string]any, kind string, cat *Catalog) map[string]any {
	out := map[string]any{}
	if name, ok := sec["preset"].(string); ok && cat != nil {
		if p, ok := cat.Get(kind, name); ok {
			if base, ok := p.Tree().(map[string]any); ok {
				for k, v := range base {
					out[k] = v
				}
			}
		}
	}
	for k, v := range sec {
		if k != "preset" {
			out[k] = v
		}
	}
	return out
}

// Get reads the effective value at a scenario path such as "policy.hz",
// looking through the section's preset.
func (d Doc) Get(path string, cat *Catalog) any {
	els, err := ParsePath(path)
	if err != nil || len(els) == 0 || els[0].Key == "" {
		return nil
	}
	if len(els) == 1 {
		return d[els[0].Key]
	}
	if sec, ok := d[els[0].Key].(map[string]any); ok && isSection(els[0].Key) {
		return getIn(Expand(sec, els[0].Key, cat), els[1:])
	}
	return getIn(map[string]any(d), els)
}

func isSection(k string) bool {
	for _, s := range Sections {
		if s == k {
			return true
		}
	}
	return false
}

// Edit sets the value at a scenario path, following the override rules of
// scenario-v1.md: a "preset" field swaps the whole section; any other field
// edits the section after its preset is expanded and is stored as an
// override of the top-level key it lives under. An override equal to the
// preset's own value is dropped, so links stay short.
func (d Doc) Edit(path string, v any, cat *Catalog) (Doc, error) {
	els, err := ParsePath(path)
	if err != nil {
		return d, err
	}
	if len(els) == 0 || els[0].Key == "" {
		return d, fmt.Errorf("path %q must start with a field name", path)
	}
	root := map[string]any(d)
	if !isSection(els[0].Key) || len(els) == 1 {
		nr, err := setIn(root, els, v)
		if err != nil {
			return d, err
		}
		return Doc(nr.(map[string]any)), nil
	}
	secName := els[0].Key
	if els[1].Key == "preset" && len(els) == 2 {
		nd := d.Clone()
		if _, del := v.(deleteValue); del {
			nd[secName] = Expand(d.Section(secName), secName, cat)
		} else {
			nd[secName] = map[string]any{"preset": v}
		}
		return nd, nil
	}
	if els[1].Key == "" {
		return d, fmt.Errorf("path %q: a section has no index", path)
	}
	sec := d.Section(secName)
	exp := Expand(sec, secName, cat)
	ne, err := setIn(exp, els[1:], v)
	if err != nil {
		return d, fmt.Errorf("%s: %v", path, err)
	}
	top := els[1].Key
	newVal, has := ne.(map[string]any)[top]
	var out map[string]any
	if name, ok := sec["preset"].(string); ok {
		out = map[string]any{}
		for k, x := range sec {
			out[k] = x
		}
		base := Expand(map[string]any{"preset": name}, secName, cat)
		bv, inBase := base[top]
		switch {
		case !has:
			delete(out, top)
		case inBase && jsonEqual(bv, newVal):
			delete(out, top)
		default:
			out[top] = newVal
		}
	} else {
		out = ne.(map[string]any)
	}
	nd := d.Clone()
	nd[secName] = out
	return nd, nil
}

// Clone is a shallow copy of d: its sections are shared, not copied.
func (d Doc) Clone() Doc {
	nd := make(Doc, len(d)+1)
	for k, v := range d {
		nd[k] = v
	}
	return nd
}

func jsonEqual(a, b any) bool {
	x, err1 := scenario.MarshalTree(a, true)
	y, err2 := scenario.MarshalTree(b, true)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// Indent renders a value as indented JSON for an editor field: what
// json.MarshalIndent(v, "", "  ") gives, written by scenario.MarshalTree.
func Indent(v any) string {
	b, err := scenario.MarshalTree(v, true)
	if err != nil {
		return ""
	}
	var out bytes.Buffer
	if json.Indent(&out, b, "", "  ") != nil {
		return ""
	}
	return out.String()
}

// Compact renders a value as one-line JSON.
func Compact(v any) string {
	b, err := scenario.MarshalTree(v, true)
	if err != nil {
		return ""
	}
	return string(b)
}

// IndentShallow renders a value for an editor: a list puts one compact
// element per line (core classes, program steps), anything else indents.
func IndentShallow(v any) string {
	list, ok := v.([]any)
	if !ok {
		return Indent(v)
	}
	if len(list) == 0 {
		return "[]"
	}
	var b strings.Builder
	b.WriteString("[\n")
	for i, x := range list {
		b.WriteString(Compact(x))
		if i < len(list)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("]")
	return b.String()
}

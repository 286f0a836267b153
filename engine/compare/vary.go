package compare

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"schedplay/engine/quote"
	"schedplay/engine/scenario"
)

// MaxVaryValues bounds the values of one vary list.
const MaxVaryValues = 32

// ParseVary splits "path=v1,v2,…". The values are split on top-level
// commas only: a comma inside a JSON list, object or string belongs to its
// value, so `policy.asym_packing=["SMT","MC"],[]` has two values. Each
// value is then read like a --set value (JSON when it parses as JSON, else
// a string). The messages name neither the flag nor the request field;
// callers say which one it was.
func ParseVary(s string) (path string, values []string, err error) {
	path, list, ok := strings.Cut(s, "=")
	path = strings.TrimSpace(path)
	if !ok || strings.TrimSpace(list) == "" {
		return "", nil, fmt.Errorf("%s: write path=v1,v2,… (e.g. workload.groups[0].count=22,44,88)", quote.Short(s))
	}
	if _, err := scenario.ParseSet(path + "=0"); err != nil {
		return "", nil, err
	}
	if values, err = splitValues(list); err != nil {
		return "", nil, err
	}
	if len(values) > MaxVaryValues {
		return "", nil, fmt.Errorf("%d values; the limit is %d", len(values), MaxVaryValues)
	}
	return path, values, nil
}

// splitValues splits list on the commas outside JSON brackets, braces and
// double-quoted strings, trimming the spaces around each value.
func splitValues(list string) ([]string, error) {
	var values, open []string // open: the closers still expected
	inString, escaped, start := false, false, 0
	for i := 0; i < len(list); i++ {
		c := list[i]
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString:
			inString = c != '"'
		case c == '"':
			inString = true
		case c == '[':
			open = append(open, "]")
		case c == '{':
			open = append(open, "}")
		case c == ']' || c == '}':
			if len(open) == 0 || open[len(open)-1] != string(c) {
				return nil, fmt.Errorf("value %s: unexpected %c at byte %d of the list", quote.Short(strings.TrimSpace(list[start:min(i+1, len(list))])), c, i+1)
			}
			open = open[:len(open)-1]
		case c == ',' && len(open) == 0:
			values = append(values, strings.TrimSpace(list[start:i]))
			start = i + 1
		}
	}
	last := strings.TrimSpace(list[start:])
	switch {
	case inString:
		return nil, fmt.Errorf("value %s: unterminated string (a \" without its closing \")", quote.Short(last))
	case len(open) > 0:
		slices.Reverse(open) // the innermost closer first
		return nil, fmt.Errorf("value %s: missing %s", quote.Short(last), strings.Join(open, ""))
	}
	return append(values, last), nil
}

// CheckVary refuses a varied path that would erase what the comparison
// compares: a path the sides' own overrides set (policy.preset when the
// sides are two policies: varying it would run one policy on both sides),
// or a field in which the two sides' resolved scenarios differ (varying
// it gives both sides the same value there). Any other field is varied
// on top of each side, as Resolve applies it: varying policy.hz on two
// policies that share their hz compares the two policies at each hz.
// The message names neither the flag nor the request field.
func (s *Spec) CheckVary() error {
	if s.Vary == "" {
		return nil
	}
	for _, sd := range []Side{s.A, s.B} {
		for _, o := range sd.Set {
			if overlaps(s.Vary, o.Path) {
				return fmt.Errorf("%s: %s; varying %s would give both sides the same %s, so the table would compare nothing",
					s.Vary, s.sidesText(), s.Vary, what(o.Path))
			}
		}
	}
	base := *s
	base.Vary, base.Values = "", nil
	ra, rb, err := base.prepare(context.Background(), "")
	if err != nil {
		return nil // Run reports it with its path
	}
	va, vb := valueAt(ra, s.Vary), valueAt(rb, s.Vary)
	if !bytes.Equal(va, vb) {
		return fmt.Errorf("%s: %s, which differ in this field (A: %s, B: %s); varying it would give both sides the same value and hide that difference",
			s.Vary, s.sidesText(), short(va), short(vb))
	}
	return nil
}

// overlaps reports whether one path is the other or lies under it.
func overlaps(p, q string) bool {
	under := func(x, y string) bool {
		return strings.HasPrefix(x, y) && (len(x) == len(y) || x[len(y)] == '.' || x[len(y)] == '[')
	}
	return under(p, q) || under(q, p)
}

// what names what a side's override sets, for the refusal message.
func what(path string) string {
	if path == "policy.preset" || path == "policy" {
		return "policy"
	}
	return path
}

// sidesText says what the two sides are: two policies, or two labelled
// sets of overrides.
func (s *Spec) sidesText() string {
	pa, okA := policyOf(s.A)
	pb, okB := policyOf(s.B)
	if okA && okB {
		return fmt.Sprintf("the two sides of this comparison are the policies %s (A) and %s (B)", pa, pb)
	}
	return fmt.Sprintf("the two sides of this comparison are %s (A: %s) and %s (B: %s)",
		strconv.Quote(s.A.Label), setText(s.A.Set), strconv.Quote(s.B.Label), setText(s.B.Set))
}

// policyOf returns the policy preset a PolicySide runs.
func policyOf(sd Side) (string, bool) {
	if len(sd.Set) != 1 || sd.Set[0].Path != "policy.preset" {
		return "", false
	}
	var name string
	if json.Unmarshal(sd.Set[0].Value, &name) != nil {
		return "", false
	}
	return name, true
}

func setText(set []scenario.Override) string {
	if len(set) == 0 {
		return "no overrides"
	}
	var parts []string
	for _, o := range set {
		parts = append(parts, o.Path+"="+short(o.Value))
	}
	return strings.Join(parts, ", ")
}

// short is a JSON value for a message, cut to 60 bytes.
func short(v []byte) string {
	if len(v) == 0 {
		return "unset"
	}
	if len(v) > 60 {
		return string(v[:57]) + "..."
	}
	return string(v)
}

// valueAt returns the compact JSON at path ("policy.asym_packing",
// "workload.groups[0].count") of the resolved scenario, nil when the path
// is absent. The resolved scenario's JSON keys are the document's.
func valueAt(r *scenario.Resolved, path string) []byte {
	b, err := json.Marshal(r)
	if err != nil {
		return nil
	}
	var tree any
	if json.Unmarshal(b, &tree) != nil {
		return nil
	}
	v, ok := scenario.ValueAt(tree, path)
	if !ok {
		return nil
	}
	out, _ := json.Marshal(v) // map keys sorted: equal values give equal bytes
	return out
}

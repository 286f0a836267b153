package scenario

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"schedplay/engine/quote"
)

// Section keys of the document, in display order.
var sectionKeys = []string{"machine", "policy", "workload", "run"}

// MaxNameLength is the longest name accepted (bytes): of the scenario, a
// group, a barrier, a channel or a pool (a task is named after its group,
// "NAME/k").
const MaxNameLength = 200

// Decode reads a scenario document strictly: it must be one JSON object with
// only the keys of scenario-v1 (schedplay, name, preset, machine, policy,
// workload, run), a known format version, and objects for sections. The
// fields inside sections are checked by Resolve, after presets are merged.
// Errors are an ErrorList with paths.
func Decode(data []byte) (*Scenario, error) {
	t, err := parseTree(data)
	if err != nil {
		return nil, Errors(err)
	}
	doc, ok := t.(map[string]any)
	if !ok {
		return nil, ErrorList{{Msg: fmt.Sprintf("a scenario must be a JSON object, not %s", typeName(t))}}
	}
	return fromTree(doc)
}

// fromTree builds a Scenario from a parsed document object.
func fromTree(doc map[string]any) (*Scenario, error) {
	var errs ErrorList
	s := &Scenario{}
	if err := checkVersion(doc["schedplay"], &s.Schedplay); err != nil {
		return nil, ErrorList{err}
	}
	for _, k := range sortedKeys(doc) {
		v := doc[k]
		switch k {
		case "schedplay":
		case "name", "preset":
			str, ok := v.(string)
			switch {
			case !ok:
				errs.Add(k, "must be a string, not %s", typeName(v))
			case k == "name":
				if checkName(&errs, k, str) {
					s.Name = str
				}
			default:
				s.Preset = str
			}
		case "machine", "policy", "workload", "run":
			if _, ok := v.(map[string]any); !ok {
				errs.Add(k, "must be an object, not %s", typeName(v))
				continue
			}
			*s.section(k) = canonicalJSON(v)
		default:
			errs.Add(k, "unknown field%s", suggestKey(k))
		}
	}
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	return s, nil
}

func suggestKey(k string) string {
	return suggest(k, append([]string{"schedplay", "name", "preset"}, sectionKeys...))
}

// checkVersion checks the "schedplay" format version.
func checkVersion(v any, out *int) *Error {
	if v == nil {
		return &Error{Path: "schedplay", Msg: fmt.Sprintf("missing format version; add \"schedplay\": %d", Version)}
	}
	num, ok := v.(json.Number)
	if !ok {
		return &Error{Path: "schedplay", Msg: fmt.Sprintf("the format version must be the number %d, not %s", Version, describeValue(v))}
	}
	z, whole := wholeNumber(num)
	if !whole {
		return &Error{Path: "schedplay", Msg: fmt.Sprintf("the format version must be a whole number (the current one is %d), not %s", Version, num)}
	}
	if z == nil || !z.IsInt64() || z.Int64() > math.MaxInt32 || z.Int64() < math.MinInt32 {
		return &Error{Path: "schedplay", Msg: fmt.Sprintf("unknown format version %s; the current version is %d", num, Version)}
	}
	n := int(z.Int64())
	switch {
	case n > Version:
		return &Error{Path: "schedplay", Msg: fmt.Sprintf("this scenario uses format version %d, newer than this schedplay understands (%d); upgrade schedplay to open it", n, Version)}
	case n < 1:
		return &Error{Path: "schedplay", Msg: fmt.Sprintf("unknown format version %d; the current version is %d", n, Version)}
	}
	*out = n
	return nil
}

// describeValue names a JSON tree value for an error message: a string is
// quoted as such (`the string "1"`), so it is not mistaken for a number.
func describeValue(v any) string {
	switch x := v.(type) {
	case string:
		return "the string " + quote.Short(x)
	case bool:
		return fmt.Sprintf("%t", x)
	}
	return typeName(v)
}

// section returns a pointer to the raw section named k.
func (s *Scenario) section(k string) *json.RawMessage {
	switch k {
	case "machine":
		return &s.Machine
	case "policy":
		return &s.Policy
	case "workload":
		return &s.Workload
	case "run":
		return &s.Run
	}
	panic("scenario: unknown section " + k)
}

// tree returns the document as a JSON tree.
func (s *Scenario) tree() (map[string]any, error) {
	v := s.Schedplay
	if v == 0 {
		v = Version
	}
	doc := map[string]any{"schedplay": json.Number(strconv.Itoa(v))}
	if s.Name != "" {
		doc["name"] = s.Name
	}
	if s.Preset != "" {
		doc["preset"] = s.Preset
	}
	var errs ErrorList
	for _, k := range sectionKeys {
		raw := *s.section(k)
		if len(raw) == 0 {
			continue
		}
		t, err := parseTree(raw)
		if err != nil {
			e := Errors(err)[0]
			errs.Add(joinPath(k, e.Path), "%s", e.Msg)
			continue
		}
		doc[k] = t
	}
	return doc, errs.Err()
}

// Encode returns the canonical encoding of s: compact JSON with sorted keys
// (also inside sections), no HTML escaping. Two documents that mean the same
// thing key for key encode to the same bytes.
func Encode(s *Scenario) ([]byte, error) {
	doc, err := s.tree()
	if err != nil {
		return nil, err
	}
	return canonicalJSON(doc), nil
}

// MarshalJSON would be ambiguous with the struct's own form; Canonical is
// the method form of Encode that panics on a Scenario Decode did not build.
func (s *Scenario) Canonical() []byte {
	b, err := Encode(s)
	if err != nil {
		panic(fmt.Sprintf("scenario: Canonical on an undecodable section: %v", err))
	}
	return b
}

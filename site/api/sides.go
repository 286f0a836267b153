package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"schedplay/engine/compare"
	"schedplay/engine/quote"
	"schedplay/engine/scenario"
	"schedplay/presets"
)

// SideRequest is one side of a comparison given as "a" or "b": a label
// and the overrides that make the side, each a "path=value" string or a
// {"path", "value"} object, as the request's "set" takes them.
type SideRequest struct {
	Label string            `json:"label"`
	Set   []json.RawMessage `json:"set"`
}

// sides returns the two sides of a compare request: the "policies" pair,
// the "a" and "b" sides, or else the pair the seed scenario names.
func (s *server) sides(req *Request) (a, b compare.Side, err error) {
	hasA, hasB, hasP := given(req.A), given(req.B), len(req.Policies) > 0
	switch {
	case hasP && (hasA || hasB):
		return a, b, &scenario.Error{Path: "policies", Msg: `"policies" and "a"/"b" are mutually exclusive: name two policy presets in "policies", or give both sides as "a" and "b", not both`}
	case hasP && len(req.Policies) != 2:
		return a, b, &scenario.Error{Path: "policies", Msg: fmt.Sprintf(`name two policy presets, A then B (got %d), e.g. ["mainline", "v6-on"]`, len(req.Policies))}
	case hasP:
		return compare.PolicySide(req.Policies[0]), compare.PolicySide(req.Policies[1]), nil
	case hasA != hasB:
		missing := "b"
		if !hasA {
			missing = "a"
		}
		return a, b, &scenario.Error{Path: missing, Msg: `give both "a" and "b" ({"label": …, "set": […]} each), or name two "policies"`}
	case hasA:
		if a, err = sideOf("a", "A", req.A); err != nil {
			return a, b, err
		}
		b, err = sideOf("b", "B", req.B)
		return a, b, err
	}
	if s.ps != nil {
		if p, ok := s.ps.Get(presets.Scenario, req.preset); ok && len(p.Compare) == 2 {
			// the pair the seed scenario is meant to compare
			return compare.PolicySide(p.Compare[0]), compare.PolicySide(p.Compare[1]), nil
		}
	}
	return a, b, &scenario.Error{Path: "policies", Msg: `this scenario names no pair to compare: name two policy presets (["mainline", "v6-on"]) or give "a" and "b" as {"label": …, "set": […]}`}
}

// given reports whether a request member is present and not null.
func given(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && string(t) != "null"
}

// sideOf reads side field ("a" or "b"); def is its label when it has none.
func sideOf(field, def string, raw json.RawMessage) (compare.Side, error) {
	var sr SideRequest
	if err := decodeStrict(raw, &sr); err != nil {
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te) && te.Field != "":
			return compare.Side{}, typeError(field+"."+te.Field, te)
		case errors.As(err, &te):
			return compare.Side{}, &scenario.Error{Path: field, Msg: `must be an object {"label": …, "set": […]}, not a JSON ` + te.Value}
		case strings.Contains(err.Error(), "unknown field "):
			_, f, _ := strings.Cut(err.Error(), "unknown field ")
			return compare.Side{}, &scenario.Error{Path: field, Msg: "unknown field " + quote.Short(strings.Trim(f, `"`)) + `; a side has "label" and "set"`}
		}
		return compare.Side{}, &scenario.Error{Path: field, Msg: "invalid side: " + strings.TrimPrefix(err.Error(), "json: ")}
	}
	set, err := overrideList(field+".set", sr.Set)
	if err != nil {
		return compare.Side{}, err
	}
	if sr.Label == "" {
		sr.Label = def
	}
	if len(sr.Label) > scenario.MaxNameLength || !utf8.ValidString(sr.Label) {
		return compare.Side{}, &scenario.Error{Path: field + ".label", Msg: fmt.Sprintf("is %d bytes long; the limit is %d", len(sr.Label), scenario.MaxNameLength)}
	}
	return compare.Side{Label: sr.Label, Set: set}, nil
}

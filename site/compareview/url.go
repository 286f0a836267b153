package compareview

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"schedplay/engine/compare"
	"schedplay/engine/scenario"
	"schedplay/presets"
)

// Request is what the address asks the compare view for.
type Request struct {
	// A and B are the policy presets; both empty for ?compare=1 (the seed
	// scenario's own pair).
	A, B string
	// Preset is ?preset=NAME, Share the #s= payload (Share wins).
	Preset, Share string
	// Sweep is ?sweep=path=v1,v2,… to start a sweep at once (optional).
	Sweep string
}

// Wanted reports whether the address opens the compare view: a compare
// parameter, and not the embed view.
func Wanted(search string) bool {
	q, err := url.ParseQuery(strings.TrimPrefix(search, "?"))
	if err != nil {
		return false
	}
	return q.Has("compare") && q.Get("embed") != "1"
}

// ParseURL reads the request from location.search and location.hash.
func ParseURL(search, hash string) (Request, error) {
	q, err := url.ParseQuery(strings.TrimPrefix(search, "?"))
	if err != nil {
		return Request{}, fmt.Errorf("the address's query cannot be read: %v", err)
	}
	r := Request{Preset: q.Get("preset"), Sweep: q.Get("sweep")}
	for _, part := range strings.Split(strings.TrimPrefix(hash, "#"), "&") {
		if v, ok := strings.CutPrefix(part, "s="); ok {
			r.Share = v
		}
	}
	c := strings.TrimSpace(q.Get("compare"))
	switch {
	case c == "1" || c == "":
	case strings.Count(c, ",") == 1:
		a, b, _ := strings.Cut(c, ",")
		r.A, r.B = strings.TrimSpace(a), strings.TrimSpace(b)
		if r.A == "" || r.B == "" {
			return r, fmt.Errorf("?compare=%s: name two policy presets, ?compare=POLICY_A,POLICY_B", c)
		}
	default:
		return r, fmt.Errorf("?compare=%s: name two policy presets, ?compare=POLICY_A,POLICY_B (or ?compare=1 for the scenario's own pair)", c)
	}
	if r.Share == "" && r.Preset == "" {
		return r, errors.New("no scenario: add #s=… (a share link) or ?preset=NAME")
	}
	return r, nil
}

// Load returns the scenario the request names and the two policies to
// compare (the seed scenario's compare pair when the request names none).
func (r Request) Load(ps *presets.Set) (sc *scenario.Scenario, a, b string, err error) {
	if r.Share != "" {
		sc, err = scenario.DecodeShare(r.Share)
	} else {
		sc, err = scenario.FromReference(r.Preset, ps)
	}
	if err != nil {
		return nil, "", "", err
	}
	a, b = r.A, r.B
	if a == "" {
		seed := sc.Preset
		if seed == "" {
			seed = r.Preset
		}
		p, ok := ps.Get(presets.Scenario, seed)
		if !ok || len(p.Compare) != 2 {
			return nil, "", "", fmt.Errorf("?compare=1 needs a seed scenario with its own policy pair; name two policies instead: ?compare=POLICY_A,POLICY_B")
		}
		a, b = p.Compare[0], p.Compare[1]
	}
	for _, name := range []string{a, b} {
		if _, ok := ps.Get(presets.Policy, name); !ok {
			return nil, "", "", &scenario.Error{Path: "compare", Msg: fmt.Sprintf("no policy preset named %q", name)}
		}
	}
	return sc, a, b, nil
}

// PolicySet is the override that makes one side, exactly as POST
// /api/v1/compare makes it (compare.PolicySide): policy.preset = name.
func PolicySet(name string) []scenario.Override { return compare.PolicySide(name).Set }

// Link is the compare view's own address for a scenario share payload.
func Link(base, a, b, share string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	q := u.Query()
	q.Set("compare", a+","+b)
	q.Del("preset")
	q.Del("sweep")
	u.RawQuery = q.Encode()
	u.Fragment = ""
	return u.String() + "#s=" + share
}

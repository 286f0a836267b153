package compareview

import (
	"encoding/json"
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
	// A and B are the policy presets (or "variant:NAME"); both empty for
	// ?compare=1 (the seed scenario's own pair, else DefaultPair).
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

// VariantPrefix marks a side that is a variant of the seed scenario
// rather than a policy: ?compare=variant:NAME1,variant:NAME2.
const VariantPrefix = "variant:"

// Load returns the scenario the request names and the two sides to
// compare: policy presets, variants of the seed scenario ("variant:NAME"),
// or, when the request names none, the seed scenario's own policy pair
// (SeedOf), else the scenario's policy and its counterpart (DefaultPair).
func (r Request) Load(ps *presets.Set) (sc *scenario.Scenario, a, b compare.Side, err error) {
	sc, _, a, b, err = r.load(ps)
	return sc, a, b, err
}

// load is Load that also returns the seed scenario (SeedOf) it matched.
func (r Request) load(ps *presets.Set) (sc *scenario.Scenario, seed presets.Preset, a, b compare.Side, err error) {
	if sc, err = r.Scenario(ps); err != nil {
		return nil, seed, a, b, err
	}
	return r.loadDoc(sc, ps)
}

// Ref is the request's scenario as a reference scenario.FromReference
// (and the API's "scenario" string) reads: its share fragment, else its
// preset name.
func (r Request) Ref() string {
	if r.Share != "" {
		return "s=" + r.Share
	}
	return r.Preset
}

// loadDoc is load for the scenario sc the request names, already decoded.
func (r Request) loadDoc(sc *scenario.Scenario, ps *presets.Set) (_ *scenario.Scenario, seed presets.Preset, a, b compare.Side, err error) {
	seed = SeedOf(sc, r.Preset, ps)
	names := [2]string{r.A, r.B}
	if names[0] == "" {
		names = pairNames(sc, seed, ps)
	}
	var sides [2]compare.Side
	for i, name := range names {
		if sides[i], err = sideOf(name, seed, ps); err != nil {
			return nil, seed, a, b, err
		}
	}
	return sc, seed, sides[0], sides[1], nil
}

// pairNames is the pair a comparison takes when the address names none:
// the seed scenario's own pair, else the scenario's policy against its
// counterpart (DefaultPair).
func pairNames(sc *scenario.Scenario, seed presets.Preset, ps *presets.Set) [2]string {
	if len(seed.Compare) == 2 {
		return [2]string{seed.Compare[0], seed.Compare[1]}
	}
	a, b := DefaultPair(sc, ps)
	return [2]string{a, b}
}

// Scenario is the scenario the request names: the #s= payload, else the
// ?preset= scenario.
func (r Request) Scenario(ps *presets.Set) (*scenario.Scenario, error) {
	if r.Share != "" {
		return scenario.DecodeShare(r.Share)
	}
	return scenario.FromReference(r.Preset, ps)
}

// SeedOf finds the seed scenario a document comes from: the one its
// "preset" names, else the one the address's ?preset= names, else the
// seed scenario whose own name the document carries (the playground
// expands a seed scenario into the document, keeping its name, and names
// a variant "NAME (VARIANT)"), else, for a renamed document, the seed
// scenario whose machine, policy, workload and run sections it still has
// unchanged. The zero Preset when there is none.
func SeedOf(sc *scenario.Scenario, preset string, ps *presets.Set) presets.Preset {
	for _, name := range []string{sc.Preset, preset} {
		if p, ok := ps.Get(presets.Scenario, name); ok && name != "" {
			return p
		}
	}
	var seeds []presets.Preset
	for _, p := range ps.All() {
		if p.Kind == presets.Scenario {
			seeds = append(seeds, p)
		}
	}
	if sc.Name != "" {
		for _, p := range seeds {
			var body struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(p.Body, &body) != nil || body.Name == "" {
				continue
			}
			if body.Name == sc.Name || isVariantName(sc.Name, body.Name, p.Variants) {
				return p
			}
		}
	}
	for _, p := range seeds {
		if seed, err := scenario.Decode(p.Body); err == nil && sameSections(sc, seed) {
			return p
		}
	}
	return presets.Preset{}
}

// isVariantName reports whether name is "SEED (VARIANT)" for one of the
// seed scenario's variants (the playground's name for a variant).
func isVariantName(name, seed string, vs []presets.Variant) bool {
	for _, v := range vs {
		if name == seed+" ("+v.Name+")" {
			return true
		}
	}
	return false
}

// sideOf makes one side: a variant of the seed scenario p, or a policy.
func sideOf(name string, p presets.Preset, ps *presets.Set) (compare.Side, error) {
	if v, ok := strings.CutPrefix(name, VariantPrefix); ok {
		for _, vr := range p.Variants {
			if vr.Name == v {
				return compare.Side{Label: vr.Name, Set: vr.Set}, nil
			}
		}
		var have []string
		for _, vr := range p.Variants {
			have = append(have, vr.Name)
		}
		if len(have) == 0 {
			return compare.Side{}, &scenario.Error{Path: "compare", Msg: fmt.Sprintf("variant %q: the scenario is not a seed scenario with variants", v)}
		}
		return compare.Side{}, &scenario.Error{Path: "compare", Msg: fmt.Sprintf("no variant named %q; the scenario has %s", v, strings.Join(have, ", "))}
	}
	if _, ok := ps.Get(presets.Policy, name); !ok {
		return compare.Side{}, &scenario.Error{Path: "compare", Msg: fmt.Sprintf("no policy preset named %q", name)}
	}
	return compare.PolicySide(name), nil
}

// Link is the compare view's own address for a scenario share payload;
// a and b are the compare parameter's two names (policies, or
// "variant:NAME").
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

// PlaygroundLink is the playground's address for the scenario (share is
// its #s= payload; "" when it could not be read: the playground alone).
func PlaygroundLink(origin, path, share string) string {
	if share == "" {
		return origin + path
	}
	return origin + path + "#s=" + share
}

package playground

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"schedplay/site"
)

// A scenario opened from a seed scenario is named after it; an edit adds
// what changed from the seed to the name ("Vera SGEMM, NVPL-like, 88
// threads — policy v6-on"), so share links and embeds say what they show.
// A name the user typed is never changed: the name follows edits only
// while it is the one autoName gives.

// nameSep separates a seed scenario's name from the changes.
const nameSep = " — "

// maxNameChanges is how many changes a name lists before "+N more";
// maxNameValue is the longest value it quotes.
const (
	maxNameChanges = 3
	maxNameValue   = 24
)

// autoName is the name d gets from the seed scenario it was opened from:
// the seed's name (with its variant), then the changes. ok is false when
// d's name does not start with a seed scenario's name.
func autoName(d site.Doc, cat *site.Catalog) (name string, ok bool) {
	base, origin, ok := originOf(d.Name(), cat)
	if !ok {
		return "", false
	}
	ch := changesFrom(origin, d, cat)
	if len(ch) == 0 {
		return base, true
	}
	if len(ch) > maxNameChanges {
		ch = append(ch[:maxNameChanges], fmt.Sprintf("+%d more", len(ch)-maxNameChanges))
	}
	return base + nameSep + strings.Join(ch, ", "), true
}

// followName renames next after an edit of prev when prev's name is the
// automatic one (the user has not named it).
func followName(prev, next site.Doc, cat *site.Catalog) site.Doc {
	want, ok := autoName(prev, cat)
	if !ok || prev.Name() != want {
		return next
	}
	n, ok := autoName(next, cat)
	if !ok || n == next.Name() {
		return next
	}
	if nd, err := next.Edit("name", n, cat); err == nil {
		return nd
	}
	return next
}

// originOf finds the seed scenario (or one of its variants) whose name
// starts name: its name and its document.
func originOf(name string, cat *site.Catalog) (string, site.Doc, bool) {
	base, _, _ := strings.Cut(name, nameSep)
	if base == "" {
		return "", nil, false
	}
	for _, p := range cat.Of("scenario") {
		d, ok := cat.ScenarioDoc(p.Name)
		if !ok {
			continue
		}
		n := d.Name()
		if base == n {
			return n, d, true
		}
		if !strings.HasPrefix(base, n+" (") {
			continue
		}
		for _, v := range p.Variants {
			if base == n+" ("+v.Name+")" {
				return base, applyVariant(d, cat, p.Name, v.Name), true
			}
		}
	}
	return "", nil, false
}

// changesFrom lists what d changes from origin, section by section in
// display order: a section's other preset ("policy v6-on"), then every
// field whose value differs from the preset it is based on ("cores_per_node
// 44", "groups[0].count 22"; "seed unset" for a removed one).
func changesFrom(origin, d site.Doc, cat *site.Catalog) []string {
	var out []string
	for _, sec := range site.Sections {
		os, ns := origin.Section(sec), d.Section(sec)
		base := site.Expand(os, sec, cat)
		np, _ := ns["preset"].(string)
		op, _ := os["preset"].(string)
		if np != op {
			if np != "" {
				out = append(out, sec+" "+np)
				base = site.Expand(map[string]any{"preset": np}, sec, cat)
			} else {
				out = append(out, sec+" edited")
			}
		}
		was, now := map[string]string{}, map[string]string{}
		flatten(base, "", was)
		flatten(site.Expand(ns, sec, cat), "", now)
		var paths []string
		for p := range now {
			if was[p] != now[p] {
				paths = append(paths, p)
			}
		}
		for p := range was {
			if _, ok := now[p]; !ok {
				paths = append(paths, p)
			}
		}
		sort.Strings(paths)
		// A field with many changed leaves (a reordered class list) is
		// one change: "core_classes edited".
		byTop := map[string]int{}
		for _, p := range paths {
			byTop[topKey(p)]++
		}
		done := map[string]bool{}
		for _, p := range paths {
			top := topKey(p)
			if byTop[top] > 2 {
				if !done[top] {
					done[top] = true
					out = append(out, top+" edited")
				}
				continue
			}
			v, ok := now[p]
			switch {
			case !ok:
				v = "unset"
			case len(v) > maxNameValue:
				v = "edited" // a list ("priorities [0,0,…]") says nothing in a title
			}
			out = append(out, p+" "+v)
		}
	}
	return out
}

// flatten writes the leaves of a JSON tree by path ("groups[0].count");
// a list of scalars is one leaf.
func flatten(v any, path string, out map[string]string) {
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			if k == "preset" && path == "" {
				continue
			}
			flatten(c, join(k), out)
		}
	case []any:
		objects := false
		for _, c := range x {
			if _, ok := c.(map[string]any); ok {
				objects = true
			}
		}
		if !objects {
			out[path] = site.Compact(x)
			return
		}
		for i, c := range x {
			flatten(c, path+"["+strconv.Itoa(i)+"]", out)
		}
	case string:
		out[path] = x
	case json.Number:
		out[path] = x.String()
	default:
		out[path] = site.Compact(x)
	}
}

// topKey is a flattened path's first key ("core_classes[0].name" →
// "core_classes").
func topKey(p string) string {
	if i := strings.IndexAny(p, ".["); i >= 0 {
		return p[:i]
	}
	return p
}

// firstStory is the seed scenario the orientation opens: the first with a
// published figure (else the first).
func firstStory(cat *site.Catalog) string {
	list := cat.Of("scenario")
	for _, p := range list {
		if p.Published != nil {
			return p.Name
		}
	}
	if len(list) > 0 {
		return list[0].Name
	}
	return ""
}

// flipPolicy is the other policy of the scenario's seed pair (its
// "compare" list), else the first other policy preset.
func flipPolicy(d site.Doc, cat *site.Catalog) string {
	cur, _ := d.Section("policy")["preset"].(string)
	if _, origin, ok := originOf(d.Name(), cat); ok {
		for _, p := range cat.Of("scenario") {
			if o, ok := cat.ScenarioDoc(p.Name); ok && o.Name() == origin.Name() && len(p.Compare) == 2 {
				if cur == p.Compare[0] {
					return p.Compare[1]
				}
				return p.Compare[0]
			}
		}
	}
	for _, n := range cat.Names("policy") {
		if n != cur {
			return n
		}
	}
	return ""
}

//go:build js && wasm

package compareview

import (
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"schedplay/engine/compare"
	"schedplay/engine/scenario"
	"schedplay/presets"
	"schedplay/site/viewkit"
)

// The way back to the playground and the choice of the two policies: in
// the head of a comparison, and on its own when the address cannot be
// compared (a bad policy name, a scenario that does not load), so the
// compare view is never a dead end.

// pickers adds two policy selects (every policy preset, and the seed
// scenario's variants when it has some) preset to names, each choice
// labelled with the fair.c generation in effect under it on sc (when
// given), and a button that opens the comparison of the chosen pair for
// the scenario share.
func (v *view) pickers(parent dom.Element, l viewkit.Location, share string, sc *scenario.Scenario, seed presets.Preset, names [2]string) {
	b := v.b
	form := b.El(parent, "div", "sweep-form cmp-pick")
	form.SetID("cmp-pick")
	var sel [2]*dom.HTMLSelectElement
	for i, side := range []string{"A", "B"} {
		lab := b.El(form, "label", "")
		b.Text(lab, "span", "", "Policy "+side+" ")
		s := b.El(lab, "select", "").(*dom.HTMLSelectElement)
		s.SetID("cmp-pick-" + strings.ToLower(side))
		var opts []string
		if v.ps != nil {
			opts = v.ps.Names(presets.Policy)
		}
		for _, vr := range seed.Variants {
			opts = append(opts, VariantPrefix+vr.Name)
		}
		for _, o := range opts {
			label := o
			if side, err := sideOf(o, seed, v.ps); err == nil && sc != nil {
				label = SideLabel(sc, v.ps, compare.Side{Label: o, Set: side.Set})
			}
			e := b.Text(s, "option", "", label)
			e.SetAttribute("value", o)
			if o == names[i] {
				e.SetAttribute("selected", "")
			}
		}
		sel[i] = s
	}
	b.Button(form, "cmp-pick-go", "primary", "Compare these", func() {
		a, bb := sel[0].Value(), sel[1].Value()
		if a == "" || bb == "" {
			return
		}
		js.Global().Get("location").Set("href", Link(l.Origin+l.Path+l.Search, a, bb, share))
	})
}

// recovery follows a failure to open the comparison: a link back to the
// playground with the scenario (when it can be read) and the policy
// pickers.
func (v *view) recovery(l viewkit.Location) {
	if v.ps == nil {
		v.ps, _ = presets.Load()
	}
	b := v.b
	box := b.El(v.root, "section", "cmp-head panel")
	box.SetID("cmp-recover")
	share, seed := "", presets.Preset{}
	var sc *scenario.Scenario
	names := [2]string{v.req.A, v.req.B}
	if v.ps != nil && (v.req.Share != "" || v.req.Preset != "") {
		var err error
		if sc, err = v.req.Scenario(v.ps); err == nil {
			share, _ = scenario.EncodeShare(sc)
			seed = SeedOf(sc, v.req.Preset, v.ps)
			// Preselect the names the address gave where they exist, else
			// the pair ?compare=1 would take.
			def := pairNames(sc, seed, v.ps)
			for i := range names {
				if _, err := sideOf(names[i], seed, v.ps); names[i] == "" || err != nil {
					names[i] = def[i]
				}
			}
		}
	}
	p := b.El(box, "p", "")
	back := b.Link(p, "", PlaygroundLink(l.Origin, l.Path, share), "Back to the playground")
	back.SetID("cmp-playground")
	if share == "" {
		b.Text(p, "span", "muted", " (the scenario could not be read; the playground opens its last one)")
		return
	}
	b.Text(box, "p", "small", "Or choose the two policies to compare:")
	v.pickers(box, l, share, sc, seed, names)
}

//go:build js && wasm

package viewkit

import "honnef.co/go/js/dom/v2"

// ModeLegend adds the mode legend of w's SMT model under parent (nothing
// on a machine without SMT) and returns it.
func (b *B) ModeLegend(parent dom.Element, w ModeWords) dom.HTMLElement {
	leg := b.El(parent, "div", "legend")
	b.FillModeLegend(leg, w)
	return leg
}

// FillModeLegend replaces leg's children with one swatch and name per
// mode of w's model; leg is hidden when there are none.
func (b *B) FillModeLegend(leg dom.HTMLElement, w ModeWords) {
	Clear(leg)
	leg.SetAttribute("data-smt-model", string(w.Model))
	modes := w.Legend()
	if len(modes) == 0 {
		leg.Style().SetProperty("display", "none", "")
		return
	}
	leg.Style().RemoveProperty("display")
	for _, m := range modes {
		sw := b.El(leg, "span", "swatch")
		sw.Style().SetProperty("background", ModeColor(m, Dark()), "")
		b.Text(leg, "span", "", w.Name(m))
	}
}

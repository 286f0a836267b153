//go:build js && wasm

package playground

import "schedplay/site"
import "honnef.co/go/js/dom/v2"

// stepButton adds the playground's "Step" button: the step view
// (site/stepview, ?step=1) on the current scenario, in a new tab; disabled
// with why when step mode would refuse the scenario.
func (a *App) stepButton(b builder, parent dom.Element, why string) {
	st := b.button(parent, "open-step", "", "Step", func() {
		dom.GetWindow().Open("?step=1#"+site.EncodeFragment(a.state.Doc), "_blank", "noopener")
	})
	st.SetAttribute("title", "Advance this scenario one scheduling event at a time and watch the runqueues (machines of up to 64 CPUs), in a new tab")
	if why != "" {
		st.SetAttribute("disabled", "")
		st.SetAttribute("title", why)
		st.SetAttribute("aria-describedby", "why-disabled")
	}
}

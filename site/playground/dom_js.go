//go:build js && wasm

package playground

import (
	"fmt"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"schedplay/site/viewkit"
)

// builder creates elements for one panel and keeps the listeners it adds
// so the panel can release them when it is rebuilt. User text only ever
// goes in through SetTextContent or attribute values, never as HTML.
type builder struct {
	doc   dom.HTMLDocument
	funcs *[]js.Func
}

func (b builder) el(parent dom.Element, tag, class string) dom.HTMLElement {
	e := viewkit.NewElement(b.doc.Underlying(), tag)
	if class != "" {
		e.SetAttribute("class", class)
	}
	if parent != nil {
		parent.AppendChild(e)
	}
	return e
}

func (b builder) text(parent dom.Element, tag, class, text string) dom.HTMLElement {
	e := b.el(parent, tag, class)
	e.SetTextContent(text)
	return e
}

func (b builder) on(e dom.EventTarget, typ string, f func(dom.Event)) {
	*b.funcs = append(*b.funcs, e.AddEventListener(typ, false, guard(f)))
}

// guard keeps a bug in one handler from killing the page: a Go panic in a
// js callback would exit the program, so it is logged and shown instead.
func guard(f func(dom.Event)) func(dom.Event) {
	return func(ev dom.Event) {
		defer func() {
			if r := recover(); r != nil {
				consoleError(fmt.Sprint("schedplay: handler panic: ", r))
				if failed != nil {
					failed(fmt.Sprint(r))
				}
			}
		}()
		f(ev)
	}
}

// failed reports a recovered handler panic on the page (set by New).
var failed func(msg string)

func (b builder) button(parent dom.Element, id, class, label string, f func()) dom.HTMLElement {
	btn := b.text(parent, "button", class, label)
	btn.SetAttribute("type", "button")
	if id != "" {
		btn.SetID(id)
	}
	b.on(btn, "click", func(dom.Event) { f() })
	return btn
}

// update rebuilds a panel when its signature changed, keeping the focus
// on the control with the same id.
func (a *App) update(id, sig string, build func(b builder, el dom.HTMLElement)) {
	p := a.panels[id]
	if p != nil && !isConnected(p.el) {
		p = nil // its parent panel was rebuilt
	}
	if p == nil {
		e := a.doc.GetElementByID(id)
		if e == nil {
			return
		}
		p = &panel{el: e.(dom.HTMLElement)}
		a.panels[id] = p
	}
	if p.sig == sig {
		return
	}
	focused := ""
	if act := a.doc.ActiveElement(); act != nil && p.el.Contains(act) {
		focused = act.ID()
	}
	releaseAll(p.funcs)
	p.funcs = nil
	viewkit.Clear(p.el)
	p.sig = sig
	t0 := nowMs()
	a.focusID = focused
	build(builder{doc: a.doc, funcs: &p.funcs}, p.el)
	a.focusID = ""
	setPerf("build_"+id, nowMs()-t0)
	if focused != "" {
		if e := a.doc.GetElementByID(focused); e != nil {
			if h, ok := e.(dom.HTMLElement); ok {
				h.Focus()
			}
		}
	}
}

//go:build js && wasm

package viewkit

import (
	"syscall/js"

	"honnef.co/go/js/dom/v2"
)

// B builds elements and keeps every listener it adds so the owner can
// release them. User text only goes in through SetTextContent or
// attribute values, never as HTML.
type B struct {
	Doc   dom.HTMLDocument
	funcs []js.Func
}

// NewB returns a builder on the window's document.
func NewB() *B {
	return &B{Doc: dom.GetWindow().Document().(dom.HTMLDocument)}
}

// El creates an element with a class, appended to parent when not nil.
func (b *B) El(parent dom.Element, tag, class string) dom.HTMLElement {
	e := NewElement(b.Doc.Underlying(), tag)
	if class != "" {
		e.SetAttribute("class", class)
	}
	if parent != nil {
		parent.AppendChild(e)
	}
	return e
}

// Text creates an element holding text.
func (b *B) Text(parent dom.Element, tag, class, text string) dom.HTMLElement {
	e := b.El(parent, tag, class)
	e.SetTextContent(text)
	return e
}

// On adds a listener and keeps it for Release.
func (b *B) On(e dom.EventTarget, typ string, f func(dom.Event)) {
	b.funcs = append(b.funcs, e.AddEventListener(typ, false, f))
}

// OnActive adds a listener that may preventDefault (passive: false), for
// wheel and touch handlers.
func (b *B) OnActive(e interface{ Underlying() js.Value }, typ string, f func(dom.Event)) {
	fn := js.FuncOf(func(this js.Value, args []js.Value) any {
		f(dom.WrapEvent(args[0]))
		return nil
	})
	opts := js.Global().Get("Object").New()
	opts.Set("passive", false)
	e.Underlying().Call("addEventListener", typ, fn, opts)
	b.funcs = append(b.funcs, fn)
}

// Button creates a button with an id (may be "") that calls f (when not
// nil) on click.
func (b *B) Button(parent dom.Element, id, class, label string, f func()) dom.HTMLElement {
	btn := b.Text(parent, "button", class, label)
	btn.SetAttribute("type", "button")
	if id != "" {
		btn.SetID(id)
	}
	if f != nil {
		b.On(btn, "click", func(dom.Event) { f() })
	}
	return btn
}

// Link creates an <a> with text.
func (b *B) Link(parent dom.Element, class, href, text string) dom.HTMLElement {
	a := b.Text(parent, "a", class, text)
	a.SetAttribute("href", href)
	return a
}

// Release drops every listener this builder added.
func (b *B) Release() {
	for _, f := range b.funcs {
		f.Release()
	}
	b.funcs = nil
}

// Clear removes every child of e, in one call (dom's FirstChild and
// RemoveChild would wrap each child: see NewElement).
func Clear(e dom.Node) {
	e.Underlying().Set("textContent", "")
}

// EnsureCSS adds <link rel=stylesheet href=views.css> once (the views'
// stylesheet, site/static/views.css, copied next to index.html).
func EnsureCSS() {
	d := dom.GetWindow().Document()
	if d.QuerySelector(`link[data-views-css]`) != nil {
		return
	}
	l := d.CreateElement("link")
	l.SetAttribute("rel", "stylesheet")
	l.SetAttribute("href", "views.css")
	l.SetAttribute("data-views-css", "1")
	d.QuerySelector("head").AppendChild(l)
}

// Root empties #root (the page's loading placeholder) for a view and
// returns it.
func Root() dom.HTMLElement {
	r := dom.GetWindow().Document().GetElementByID("root").(dom.HTMLElement)
	Clear(r)
	return r
}

// Ready marks #root ready (what the browser tests wait for).
func Ready(root dom.HTMLElement) {
	root.SetAttribute("data-ready", "1")
	root.SetAttribute("aria-busy", "false")
}

// Frame runs f in the next animation frame.
func Frame(f func()) {
	var fn js.Func
	fn = js.FuncOf(func(js.Value, []js.Value) any {
		fn.Release()
		f()
		return nil
	})
	js.Global().Call("requestAnimationFrame", fn)
}

// EvFloat reads a numeric event property (clientX, deltaY…).
func EvFloat(ev interface{ Underlying() js.Value }, key string) float64 {
	v := ev.Underlying().Get(key)
	if v.Type() != js.TypeNumber {
		return 0
	}
	return v.Float()
}

// EvBool reads a boolean event property (ctrlKey…).
func EvBool(ev interface{ Underlying() js.Value }, key string) bool {
	return ev.Underlying().Get(key).Truthy()
}

// StartIf mounts a view when the page address asks for it: it reports
// whether wanted(search) held, after calling mount with the address. Each
// view's Start is this with its own Wanted and Mount.
func StartIf(wanted func(search string) bool, mount func(Location)) bool {
	here := Here()
	if !wanted(here.Search) {
		return false
	}
	mount(here)
	return true
}

// Status kinds for SetStatus: the notice style and the data-state tests
// and assistive technology read.
const (
	StatusRunning = "info"
	StatusFailed  = "error"
	StatusDone    = "ok"
)

// SetStatus shows text in a PageHeader status line as kind (StatusRunning,
// StatusFailed or StatusDone).
func SetStatus(el dom.HTMLElement, kind, text string) {
	state := ""
	switch kind {
	case StatusRunning:
		state = "running"
	case StatusFailed:
		state = "failed"
	case StatusDone:
		state = "done"
	}
	el.SetAttribute("class", "cmp-status notice "+kind)
	el.SetAttribute("data-state", state)
	el.SetTextContent(text)
}

// PageHeader builds the standard view header (brand and tagline) on root
// and the status line under it, with id statusID, and returns the status
// element.
func (b *B) PageHeader(root dom.HTMLElement, tagline, statusID string) dom.HTMLElement {
	head := b.El(root, "header", "top")
	brand := b.El(head, "div", "brand")
	b.Text(brand, "h1", "", "schedplay")
	b.Text(brand, "span", "muted tagline", tagline)
	status := b.El(root, "div", "cmp-status notice info")
	status.SetID(statusID)
	status.SetAttribute("role", "status")
	return status
}

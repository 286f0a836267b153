//go:build js && wasm

package viewkit

import "syscall/js"

// Message is one window "message" event.
type Message struct {
	// Origin is event.origin; Data JSON.stringify(event.data) ("" when it
	// cannot be stringified).
	Origin, Data string
	// FromParent is event.source === window.parent.
	FromParent bool
	source     js.Value
}

// Reply posts JSON.parse(body) to the message's source with targetOrigin.
func (m Message) Reply(body []byte, targetOrigin string) {
	if m.source.IsUndefined() || m.source.IsNull() {
		return
	}
	m.source.Call("postMessage", js.Global().Get("JSON").Call("parse", string(body)), targetOrigin)
}

// Framed reports whether the page is inside a frame (window.parent !==
// window).
func Framed() bool {
	return !js.Global().Get("parent").Equal(js.Global().Get("window"))
}

// PostParent posts JSON.parse(body) to window.parent with targetOrigin.
func PostParent(body []byte, targetOrigin string) {
	js.Global().Get("parent").Call("postMessage", js.Global().Get("JSON").Call("parse", string(body)), targetOrigin)
}

// OnMessage calls f for every window "message" event; the returned
// function removes the listener. f runs inside the event: it must not
// block (start a goroutine for work).
func OnMessage(f func(Message)) (remove func()) {
	fn := js.FuncOf(func(this js.Value, args []js.Value) any {
		ev := args[0]
		m := Message{Origin: ev.Get("origin").String(), source: ev.Get("source")}
		m.FromParent = m.source.Equal(js.Global().Get("parent"))
		m.Data = stringify(ev.Get("data"))
		f(m)
		return nil
	})
	js.Global().Call("addEventListener", "message", fn)
	return func() {
		js.Global().Call("removeEventListener", "message", fn)
		fn.Release()
	}
}

// stringify is JSON.stringify(v), "" when it throws (cyclic data) or
// gives undefined.
func stringify(v js.Value) (s string) {
	defer func() {
		if recover() != nil {
			s = ""
		}
	}()
	r := js.Global().Get("JSON").Call("stringify", v)
	if r.Type() != js.TypeString {
		return ""
	}
	return r.String()
}

// InnerHeight is window.innerHeight.
func InnerHeight() float64 { return js.Global().Get("innerHeight").Float() }

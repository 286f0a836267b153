//go:build js && wasm

package playground

import (
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"schedplay/site/viewkit"
)

// This file is the only place raw syscall/js appears: APIs dom/v2 lacks or
// stubs out (Promises, history, storage, clipboard, timing, workers glue).

// The engine bridge lives in viewkit (shared with the compare, embed and
// step views); these names keep the playground's call sites short.

// engineReply is what globalThis.engineFetch resolves to.
type engineReply = viewkit.Reply

// engineFetch sends a request to the engine worker and waits (call it from
// a goroutine, never from an event handler directly).
func engineFetch(method, url, body string) engineReply { return viewkit.Fetch(method, url, body) }

// engineStart posts a request to the engine worker at once (without
// yielding) and returns the pending reply for engineWait.
func engineStart(method, url, body string) js.Value { return viewkit.Start(method, url, body) }

// takeSpeculative returns the reply promise of the quick first run index.mjs
// started for seed link name while the page booted (js.Undefined() when
// there is none, or it was for another name), and forgets it either way.
func takeSpeculative(name string) js.Value {
	return takeBootValue("schedplaySpeculative", "reply", name)
}

// takeFirstFrame returns the promise of the first-frame file's text
// (firstframe.go; "" when there is none) that index.mjs fetches for seed
// link name, js.Undefined() when there is none or it was for another name,
// and forgets it either way.
func takeFirstFrame(name string) js.Value { return takeBootValue("schedplayFirstFrame", "text", name) }

// takeBootValue returns field of the global {name, …} object index.mjs
// left for seed link name (js.Undefined() when there is none, or it was for
// another name) and deletes the global either way.
func takeBootValue(global, field, name string) js.Value {
	g := js.Global()
	v := g.Get(global)
	if v.Type() != js.TypeObject {
		return js.Undefined()
	}
	g.Delete(global)
	if name == "" || v.Get("name").String() != name {
		return js.Undefined()
	}
	return v.Get(field)
}

// engineWait blocks the calling goroutine until the reply arrives.
func engineWait(p js.Value) engineReply { return viewkit.Wait(p) }

// engineCancel stops a running simulation.
func engineCancel() bool { return viewkit.Cancel() }

// await blocks the calling goroutine until the promise settles.
func await(p js.Value) (js.Value, string) { return viewkit.Await(p) }

// nowMs is performance.now().
func nowMs() float64 { return js.Global().Get("performance").Call("now").Float() }

// locationHash is location.hash.
func locationHash() string { return js.Global().Get("location").Get("hash").String() }

// locationSearch is location.search.
func locationSearch() string { return js.Global().Get("location").Get("search").String() }

// locationHref is location.href without the hash.
func locationBase() string {
	l := js.Global().Get("location")
	return l.Get("origin").String() + l.Get("pathname").String() + l.Get("search").String()
}

// historyReplace and historyPush write the URL (the app's only call sites
// are in app_js.go's syncURL).
func historyReplace(url string) {
	js.Global().Get("history").Call("replaceState", nil, "", url)
}

func historyPush(url string) {
	js.Global().Get("history").Call("pushState", nil, "", url)
}

// copyText puts text on the clipboard (falls back to a hidden textarea).
func copyText(text string) bool {
	defer func() { _ = recover() }()
	nav := js.Global().Get("navigator")
	if cb := nav.Get("clipboard"); !cb.IsUndefined() && !cb.IsNull() {
		_, err := await(cb.Call("writeText", text))
		if err == "" {
			return true
		}
	}
	doc := js.Global().Get("document")
	ta := doc.Call("createElement", "textarea")
	ta.Set("value", text)
	doc.Get("body").Call("appendChild", ta)
	ta.Call("select")
	ok := doc.Call("execCommand", "copy").Truthy()
	ta.Call("remove")
	return ok
}

// prefersDark reports the colour scheme.
func prefersDark() bool {
	mm := js.Global().Call("matchMedia", "(prefers-color-scheme: dark)")
	return mm.Get("matches").Truthy()
}

// onSchemeChange calls f when the colour scheme flips.
func onSchemeChange(f func()) js.Func {
	fn := js.FuncOf(func(js.Value, []js.Value) any { f(); return nil })
	js.Global().Call("matchMedia", "(prefers-color-scheme: dark)").Call("addEventListener", "change", fn)
	return fn
}

// requestFrame is requestAnimationFrame with a one-shot Go callback.
func requestFrame(f func(ts float64)) {
	var fn js.Func
	fn = js.FuncOf(func(this js.Value, args []js.Value) any {
		fn.Release()
		ts := 0.0
		if len(args) > 0 {
			ts = args[0].Float()
		}
		f(ts)
		return nil
	})
	js.Global().Call("requestAnimationFrame", fn)
}

// setPerf records a measurement on globalThis.schedplayPerf for tests.
func setPerf(key string, v float64) {
	p := js.Global().Get("schedplayPerf")
	if p.IsUndefined() {
		p = js.Global().Get("Object").New()
		js.Global().Set("schedplayPerf", p)
	}
	p.Set(key, v)
}

// devicePixelRatio of the window.
func devicePixelRatio() float64 {
	r := js.Global().Get("devicePixelRatio")
	if r.Type() != js.TypeNumber || r.Float() <= 0 {
		return 1
	}
	return r.Float()
}

// evFloat reads a numeric event property (clientX, deltaY, touches…).
func evFloat(ev interface{ Underlying() js.Value }, key string) float64 {
	v := ev.Underlying().Get(key)
	if v.Type() != js.TypeNumber {
		return 0
	}
	return v.Float()
}

// evBool reads a boolean event property (ctrlKey, shiftKey…).
func evBool(ev interface{ Underlying() js.Value }, key string) bool {
	return ev.Underlying().Get(key).Truthy()
}

// touchPoints returns the clientX/clientY of the event's touches.
func touchPoints(ev interface{ Underlying() js.Value }) [][2]float64 {
	ts := ev.Underlying().Get("touches")
	if ts.IsUndefined() {
		return nil
	}
	out := make([][2]float64, ts.Length())
	for i := range out {
		t := ts.Index(i)
		out[i] = [2]float64{t.Get("clientX").Float(), t.Get("clientY").Float()}
	}
	return out
}

// addListener attaches a listener with options dom/v2 cannot pass
// (passive: false for wheel and touch handlers that preventDefault).
func addListener(target interface{ Underlying() js.Value }, typ string, f func(dom.Event)) js.Func {
	g := guard(f)
	fn := js.FuncOf(func(this js.Value, args []js.Value) any {
		g(dom.WrapEvent(args[0]))
		return nil
	})
	opts := js.Global().Get("Object").New()
	opts.Set("passive", false)
	target.Underlying().Call("addEventListener", typ, fn, opts)
	return fn
}

// releaseAll releases js.Funcs (listener teardown).
func releaseAll(fs []js.Func) {
	for _, f := range fs {
		f.Release()
	}
}

// jsPerf reads a measurement recorded with setPerf.
func jsPerf(key string) float64 {
	p := js.Global().Get("schedplayPerf")
	if p.IsUndefined() || p.Get(key).Type() != js.TypeNumber {
		return 0
	}
	return p.Get(key).Float()
}

// isConnected reports whether a node is in the document (Node.isConnected).
func isConnected(n interface{ Underlying() js.Value }) bool {
	return n.Underlying().Get("isConnected").Truthy()
}

// textLength is the length of a textarea's value (UTF-16 units,
// HTMLTextAreaElement.textLength) without copying the text into Go.
func textLength(e interface{ Underlying() js.Value }) int {
	return e.Underlying().Get("textLength").Int()
}

// consoleError logs to the browser console.
func consoleError(msg string) { js.Global().Get("console").Call("error", msg) }

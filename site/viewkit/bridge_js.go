//go:build js && wasm

package viewkit

import (
	"errors"
	"fmt"
	"syscall/js"
)

// This file and dom_js.go are the only places raw syscall/js appears in
// these views: APIs dom/v2 lacks (Promises, the engine glue, clipboard,
// Blob downloads, postMessage).

// Fetch sends a request to the engine worker (globalThis.engineFetch of
// index.mjs) and waits for the reply. Call it from a goroutine, never from
// an event handler directly. A simulate or compare request cancels the
// one in flight (index.mjs terminates its worker), so callers issue runs
// one after the other.
func Fetch(method, url, body string) Reply { return Wait(Start(method, url, body)) }

// Start posts a request to the engine worker (globalThis.engineFetch) and
// returns its promise without waiting, so callers can order requests and
// wait later; js.Undefined() when the glue is not loaded.
func Start(method, url, body string) js.Value {
	var b any
	if body != "" {
		b = body
	}
	f := js.Global().Get("engineFetch")
	if f.Type() != js.TypeFunction {
		return js.Undefined()
	}
	return f.Invoke(method, url, b)
}

// Wait blocks the calling goroutine until a Start promise settles.
func Wait(p js.Value) Reply {
	if p.IsUndefined() {
		return Reply{Body: `{"error":{"message":"the engine glue (index.mjs) is not loaded"}}`}
	}
	v, err := Await(p)
	if err != "" {
		return Reply{Body: `{"error":{"message":` + jsonString(err) + `}}`}
	}
	r := Reply{Status: v.Get("status").Int(), Body: v.Get("body").String()}
	if c := v.Get("cancelled"); c.Truthy() {
		r.Cancelled = true
	}
	if ms := v.Get("ms"); ms.Type() == js.TypeNumber {
		r.Ms = ms.Float()
	}
	return r
}

// Warm starts the engine workers if they are not started yet
// (globalThis.engineWarm; a page without it starts them itself).
func Warm() {
	if f := js.Global().Get("engineWarm"); f.Type() == js.TypeFunction {
		f.Invoke()
	}
}

// Cancel stops the running simulate/compare request by terminating its
// worker (globalThis.engineCancel); the request resolves as cancelled.
// It reports whether a run was stopped.
func Cancel() bool {
	f := js.Global().Get("engineCancel")
	if f.Type() != js.TypeFunction {
		return false
	}
	return f.Invoke().Truthy()
}

// Await blocks the calling goroutine until the promise settles and returns
// its value, or the rejection's text.
func Await(p js.Value) (js.Value, string) {
	done := make(chan struct{})
	var val js.Value
	var errText string
	ok := js.FuncOf(func(this js.Value, args []js.Value) any {
		if len(args) > 0 {
			val = args[0]
		}
		close(done)
		return nil
	})
	fail := js.FuncOf(func(this js.Value, args []js.Value) any {
		errText = "failed"
		if len(args) > 0 {
			errText = args[0].Call("toString").String()
		}
		close(done)
		return nil
	})
	p.Call("then", ok, fail)
	<-done
	ok.Release()
	fail.Release()
	return val, errText
}

func jsonString(s string) string {
	return js.Global().Get("JSON").Call("stringify", s).String()
}

// CopyText puts text on the clipboard: navigator.clipboard.writeText when
// the page is a secure context and the permission is granted, else a
// hidden textarea and document.execCommand("copy"). It returns how it
// copied ("clipboard", "execCommand") or "" when both failed. Call it from
// a goroutine.
func CopyText(text string) (how string) {
	defer func() {
		if recover() != nil {
			how = ""
		}
	}()
	nav := js.Global().Get("navigator")
	if cb := nav.Get("clipboard"); js.Global().Get("isSecureContext").Truthy() && !cb.IsUndefined() && !cb.IsNull() {
		if _, err := Await(cb.Call("writeText", text)); err == "" {
			return "clipboard"
		}
	}
	doc := js.Global().Get("document")
	ta := doc.Call("createElement", "textarea")
	ta.Set("value", text)
	ta.Call("setAttribute", "readonly", "")
	ta.Get("style").Set("position", "fixed")
	ta.Get("style").Set("left", "-9999px")
	doc.Get("body").Call("appendChild", ta)
	ta.Call("select")
	ok := doc.Call("execCommand", "copy").Truthy()
	ta.Call("remove")
	if ok {
		return "execCommand"
	}
	return ""
}

// Download saves data as a file: a Blob, an object URL and a temporary
// <a download> clicked once; the URL is revoked a little later.
func Download(name, mime string, data []byte) {
	u8 := js.Global().Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(u8, data)
	opts := js.Global().Get("Object").New()
	opts.Set("type", mime)
	blob := js.Global().Get("Blob").New(js.Global().Get("Array").Call("of", u8), opts)
	urlAPI := js.Global().Get("URL")
	href := urlAPI.Call("createObjectURL", blob)
	doc := js.Global().Get("document")
	a := doc.Call("createElement", "a")
	a.Set("href", href)
	a.Set("download", name)
	a.Get("style").Set("display", "none")
	doc.Get("body").Call("appendChild", a)
	a.Call("click")
	a.Call("remove")
	var revoke js.Func
	revoke = js.FuncOf(func(js.Value, []js.Value) any {
		urlAPI.Call("revokeObjectURL", href)
		revoke.Release()
		return nil
	})
	js.Global().Call("setTimeout", revoke, 60000)
}

// Location is the page address's parts.
type Location struct{ Origin, Path, Search, Hash string }

// Here returns the page's location.
func Here() Location {
	l := js.Global().Get("location")
	return Location{l.Get("origin").String(), l.Get("pathname").String(), l.Get("search").String(), l.Get("hash").String()}
}

// Base is origin + path + search (no hash).
func (l Location) Base() string { return l.Origin + l.Path + l.Search }

// Dark reports whether the system colour scheme is dark.
func Dark() bool {
	return js.Global().Call("matchMedia", "(prefers-color-scheme: dark)").Get("matches").Truthy()
}

// DevicePixelRatio of the window (1 when unknown).
func DevicePixelRatio() float64 {
	r := js.Global().Get("devicePixelRatio")
	if r.Type() != js.TypeNumber || r.Float() <= 0 {
		return 1
	}
	return r.Float()
}

// NowMs is performance.now().
func NowMs() float64 { return js.Global().Get("performance").Call("now").Float() }

// SetGlobal records v on globalThis.schedplayViews[key] (for tests and the
// console).
func SetGlobal(key string, v any) {
	o := js.Global().Get("schedplayViews")
	if o.IsUndefined() {
		o = js.Global().Get("Object").New()
		js.Global().Set("schedplayViews", o)
	}
	o.Set(key, v)
}

// FetchText GETs a same-site file (fetch) and returns its text; call it
// from a goroutine.
func FetchText(url string) (string, error) {
	resp, err := Await(js.Global().Call("fetch", url))
	if err != "" {
		return "", errors.New(err)
	}
	if !resp.Get("ok").Truthy() {
		return "", fmt.Errorf("%s: HTTP %d", url, resp.Get("status").Int())
	}
	text, err := Await(resp.Call("text"))
	if err != "" {
		return "", errors.New(err)
	}
	return text.String(), nil
}

// Resolve asks the engine worker to decode and validate a scenario (POST
// /api/v1/validate with body: a document, or ValidateBody of a link or
// preset name): the worker builds its topology and checks the browser's
// budget, so none of it runs on the page's main thread. Call it from a
// goroutine.
func Resolve(body string) (Validated, error) {
	return DecodeValidated(Fetch("POST", "/api/v1/validate", body))
}

// StartLink lets the browser run its pending tasks (and paint) before the
// calling goroutine goes on, so what follows runs in a task of its own,
// and marks LinkMark on the performance timeline. Call it from a
// goroutine.
func StartLink() {
	Yield()
	js.Global().Get("performance").Call("mark", LinkMark)
}

// EndLink marks LinkDoneMark: the view has the engine's answer on its link
// and goes on to draw.
func EndLink() { js.Global().Get("performance").Call("mark", LinkDoneMark) }

// Yield lets the browser run its pending tasks (and paint) before the
// calling goroutine goes on: what follows runs in a task of its own. Call
// it from a goroutine, never from an event handler.
func Yield() {
	done := make(chan struct{})
	f := js.FuncOf(func(js.Value, []js.Value) any {
		close(done)
		return nil
	})
	js.Global().Call("setTimeout", f, 0)
	<-done
	f.Release()
}

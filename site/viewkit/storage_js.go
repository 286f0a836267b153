//go:build js && wasm

package viewkit

import "syscall/js"

// StorageGet reads localStorage, guarded: embeds and private modes may
// have no storage or throw on access ("" then).
func StorageGet(key string) (v string) {
	defer func() {
		if recover() != nil {
			v = ""
		}
	}()
	ls := js.Global().Get("localStorage")
	if ls.IsUndefined() || ls.IsNull() {
		return ""
	}
	x := ls.Call("getItem", key)
	if x.IsNull() || x.IsUndefined() {
		return ""
	}
	return x.String()
}

// StorageSet writes localStorage, ignoring every failure.
func StorageSet(key, val string) {
	defer func() { _ = recover() }()
	ls := js.Global().Get("localStorage")
	if ls.IsUndefined() || ls.IsNull() {
		return
	}
	ls.Call("setItem", key, val)
}

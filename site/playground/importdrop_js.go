//go:build js && wasm

package playground

import (
	"encoding/json"
	"net/url"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"schedplay/site/viewkit"
)

// importZone is the machine editor's drop and paste target: a file
// (lscpu output, hwloc XML, a sysfs tarball from `schedplay collect`, a
// sched-domains dump, rt-app JSON, a trace) dropped or pasted on it, or
// chosen with its button, goes to the import worker; the scenario it
// gives replaces the machine (or, for a workload, the scenario).
func (a *App) importZone(b builder, parent dom.Element) {
	zone := b.el(parent, "div", "import-zone")
	zone.SetID("import-zone")
	zone.SetAttribute("tabindex", "0")
	zone.SetAttribute("role", "button")
	zone.SetAttribute("aria-label", "Import a machine or a workload: drop or paste a file here")
	b.text(zone, "strong", "", "Import: ")
	b.text(zone, "span", "", "drop or paste lscpu output, hwloc XML, a sysfs tarball (schedplay collect), a sched-domains dump, rt-app JSON or a trace here, or ")
	input := b.el(zone, "input", "").(*dom.HTMLInputElement)
	input.SetAttribute("type", "file")
	input.SetID("import-file")
	input.SetAttribute("aria-label", "choose a file to import")
	b.on(zone, "dragover", func(ev dom.Event) {
		ev.PreventDefault()
		zone.Class().Add("over")
	})
	b.on(zone, "dragleave", func(dom.Event) { zone.Class().Remove("over") })
	b.on(zone, "drop", func(ev dom.Event) {
		ev.PreventDefault()
		zone.Class().Remove("over")
		files := ev.Underlying().Get("dataTransfer").Get("files")
		if files.Get("length").Int() > 0 {
			a.importFile(files.Index(0))
		}
	})
	b.on(input, "change", func(dom.Event) {
		files := input.Underlying().Get("files")
		if files.Get("length").Int() > 0 {
			a.importFile(files.Index(0))
		}
	})
	b.on(zone, "paste", func(ev dom.Event) {
		cd := ev.Underlying().Get("clipboardData")
		if cd.IsUndefined() || cd.IsNull() {
			return
		}
		ev.PreventDefault()
		if files := cd.Get("files"); files.Get("length").Int() > 0 {
			a.importFile(files.Index(0))
			return
		}
		text := cd.Call("getData", "text/plain").String()
		if text == "" {
			return
		}
		bytes := js.Global().Get("TextEncoder").New().Call("encode", text)
		a.importBytes("pasted text", bytes)
	})
}

// importFile reads a File's bytes and imports them.
func (a *App) importFile(f js.Value) {
	name := f.Get("name").String()
	go func() {
		buf, err := viewkit.Await(f.Call("arrayBuffer"))
		if err != "" {
			a.dispatch(SetNotice{Notice: ImportError(name, 0, err)})
			return
		}
		a.importBytes(name, js.Global().Get("Uint8Array").New(buf))
	}()
}

// importBytes sends bytes (a Uint8Array) to the import worker and loads
// the scenario it replies with. A workload runs on the current machine.
func (a *App) importBytes(name string, bytes js.Value) {
	f := js.Global().Get("importFetch")
	if f.Type() != js.TypeFunction {
		a.dispatch(SetNotice{Notice: ImportError(name, 0, "the page's import glue (index.mjs) is not loaded")})
		return
	}
	q := ""
	if m := a.state.Doc.Section("machine"); m != nil {
		if b, err := marshalCompact(m); err == nil {
			q = "&machine=" + url.QueryEscape(b)
		}
	}
	go func() {
		a.dispatch(SetNotice{Notice: Notice{Kind: "info", Text: "Importing " + name + "…"}})
		v, err := viewkit.Await(f.Invoke(name, bytes, q))
		if err != "" {
			a.dispatch(SetNotice{Notice: ImportError(name, 0, err)})
			return
		}
		status, body := v.Get("status").Int(), v.Get("body").String()
		if status != 200 {
			a.dispatch(SetNotice{Notice: ImportError(name, status, body)})
			return
		}
		var rep ImportReply
		if err := unmarshal(body, &rep); err != nil {
			a.dispatch(SetNotice{Notice: ImportError(name, status, err.Error())})
			return
		}
		doc, notice, derr := ImportedDoc(a.state.Doc, rep)
		if derr != nil {
			a.dispatch(SetNotice{Notice: ImportError(name, status, derr.Error())})
			return
		}
		a.dispatch(LoadDoc{Doc: doc, Notice: notice})
	}()
}

// marshalCompact is v as compact JSON.
func marshalCompact(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

// unmarshal decodes a reply body.
func unmarshal(body string, v any) error { return json.Unmarshal([]byte(body), v) }

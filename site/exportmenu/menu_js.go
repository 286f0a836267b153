//go:build js && wasm

package exportmenu

import (
	"honnef.co/go/js/dom/v2"

	"schedplay/presets"
	"schedplay/site/viewkit"
)

// Menu is a mounted export component: one download button per Kind and a
// notes area (rt-app's unmapped features, errors).
type Menu struct {
	b     *viewkit.B
	box   dom.HTMLElement
	notes dom.HTMLElement
	get   func() Source
	ps    *presets.Set
}

// Mount adds the export buttons under container. get returns the current
// scenario and result when a button is pressed (it runs in a goroutine, not
// in the click handler). idPrefix makes the buttons' ids unique on the
// page: "<prefix>-<kind>" (e.g. "export-perfetto"); the notes area is
// "<prefix>-notes".
func Mount(container dom.Element, idPrefix string, get func() Source) *Menu {
	viewkit.EnsureCSS()
	m := &Menu{b: viewkit.NewB(), get: get}
	m.box = m.b.El(container, "div", "export-menu")
	m.box.SetID(idPrefix)
	m.b.Text(m.box, "span", "export-title", "Export")
	for _, k := range Kinds {
		k := k
		btn := m.b.Button(m.box, idPrefix+"-"+string(k), "export-btn", k.Label(), func() { go m.download(k) })
		btn.SetAttribute("data-kind", string(k))
	}
	m.notes = m.b.El(m.box, "div", "export-notes")
	m.notes.SetID(idPrefix + "-notes")
	m.notes.SetAttribute("role", "status")
	return m
}

// Release drops the menu's listeners and removes it.
func (m *Menu) Release() {
	m.b.Release()
	m.box.ParentNode().RemoveChild(m.box)
}

// download builds one export and saves it, showing notes or the error.
func (m *Menu) download(k Kind) {
	if m.ps == nil {
		ps, err := presets.Load()
		if err != nil {
			m.show(k, "error", []string{"presets: " + err.Error()})
			return
		}
		m.ps = ps
	}
	f, err := Build(k, m.get(), m.ps)
	if err != nil {
		m.show(k, "error", []string{err.Error()})
		return
	}
	viewkit.Download(f.Name, f.MIME, f.Data)
	switch {
	case k == RTApp && len(f.Notes) > 0:
		m.show(k, "notes", append([]string{"Saved " + f.Name + ". What does not map onto rt-app:"}, f.Notes...))
	case k == RTApp:
		m.show(k, "ok", []string{"Saved " + f.Name + ". The workload maps onto rt-app exactly."})
	case k == Perfetto:
		m.show(k, "ok", []string{"Saved " + f.Name + ": open it in https://ui.perfetto.dev (native CPU tracks)."})
	default:
		m.show(k, "ok", []string{"Saved " + f.Name + "."})
	}
}

func (m *Menu) show(k Kind, kind string, lines []string) {
	viewkit.Clear(m.notes)
	m.notes.SetAttribute("data-kind", string(k))
	m.notes.SetAttribute("data-state", kind)
	m.notes.SetAttribute("class", "export-notes "+kind)
	if len(lines) == 0 {
		return
	}
	m.b.Text(m.notes, "p", "", lines[0])
	if len(lines) > 1 {
		ul := m.b.El(m.notes, "ul", "")
		for _, l := range lines[1:] {
			m.b.Text(ul, "li", "", l)
		}
	}
}

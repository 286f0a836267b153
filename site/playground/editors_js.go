//go:build js && wasm

package playground

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"honnef.co/go/js/dom/v2"

	"schedplay/engine/scenario"
	"schedplay/site"
)

func (a *App) renderEditor() {
	s := a.state
	tab := s.View.Tab
	if tab == TabMachine && a.deferTopology() {
		// A large machine's editor (core classes, per-CPU priorities)
		// takes the main thread for a few hundred ms on a first visit:
		// like the machine drawing, it is built once the first result
		// is drawn (docs/speed.md).
		a.update("editor", "deferred", func(b builder, el dom.HTMLElement) {
			b.text(el, "p", "muted", "the machine's fields follow the first result…")
		})
		return
	}
	sec := tab
	if tab == TabJSON {
		sec = ""
	}
	sig := fmt.Sprintf("%s|%p|%s|%v|%v|%d", tab, s.Catalog, site.Compact(s.Doc[sec]), s.Issues, s.Drafts, s.View.Group)
	if tab == TabWorkload {
		sig += s.Doc.Canonical()
	}
	if tab == TabJSON {
		// The JSON text is rebuilt when the scenario changes elsewhere
		// (a field, Undo), not while the user types it: what it applied
		// is its own, and its messages are a panel of their own.
		doc := s.Doc.Canonical()
		if doc == a.jsonOwn {
			doc = a.jsonShown // the text already says it
		}
		a.jsonShown = doc
		sig = fmt.Sprintf("%s|%p|%s", tab, s.Catalog, doc)
	}
	a.update("editor", sig, func(b builder, el dom.HTMLElement) {
		a.shown = a.shown[:0]
		if tab != TabJSON {
			defer func() { a.otherIssues(b, el, tab) }()
		}
		switch tab {
		case TabMachine:
			a.importZone(b, el) // importdrop_js.go
			a.presetPicker(b, el, "machine")
			a.fields(b, el, MachineFields, "")
		case TabPolicy:
			a.presetPicker(b, el, "policy")
			gt := a.generationPicker(b, el)
			a.fields(b, el, PolicyFields, "")
			a.featureFields(b, el, gt)
		case TabWorkload:
			a.presetPicker(b, el, "workload")
			a.groupsEditor(b, el)
			a.fields(b, el, []Field{{Path: "workload.housekeeping", Label: "housekeeping", Kernel: "per-CPU kernel noise", Kind: "json", Help: `{"period":"4ms","run":"20us"}`}}, "")
		case TabRun:
			a.fields(b, el, RunFields, "")
		case TabJSON:
			a.jsonEditor(b, el)
		}
	})
	if tab == TabJSON {
		a.jsonStatus()
	}
}

// presetPicker is the section's preset select (with a description).
func (a *App) presetPicker(b builder, parent dom.Element, kind string) {
	s := a.state
	row := b.el(parent, "div", "field preset")
	lab := b.text(row, "label", "", kind+" preset")
	sel := b.el(row, "select", "").(*dom.HTMLSelectElement)
	id := "preset-" + kind
	sel.SetID(id)
	lab.SetAttribute("for", id)
	cur, _ := s.Doc.Section(kind)["preset"].(string)
	opt := b.text(sel, "option", "", "(none: fields below)")
	opt.SetAttribute("value", "")
	found := cur == ""
	for _, p := range s.Catalog.Of(kind) {
		o := b.text(sel, "option", "", p.Name)
		o.SetAttribute("value", p.Name)
		if p.Name == cur {
			o.SetAttribute("selected", "")
			found = true
		}
	}
	if !found {
		o := b.text(sel, "option", "", cur+" (unknown)")
		o.SetAttribute("value", cur)
		o.SetAttribute("selected", "")
	}
	b.on(sel, "change", func(dom.Event) {
		if v := sel.Value(); v != "" {
			a.dispatch(SelectPreset{Kind: kind, Name: v})
		} else {
			a.dispatch(EditField{Path: kind + ".preset", Value: site.Delete})
		}
	})
	if p, ok := s.Catalog.Get(kind, cur); ok {
		b.text(parent, "p", "muted desc", p.Description)
	}
	if s.Catalog == nil && s.CatalogErr == "" {
		b.text(parent, "p", "muted", "loading presets…")
	}
	a.issues(b, parent, kind+".preset")
}

// generationPicker is the policy's "fair.c generation" select
// (policy.generation) with the chosen generation's description and, on
// expanding, what each generation sets beside what is in effect (the
// policy's own features marked as overrides). It returns the table.
func (a *App) generationPicker(b builder, parent dom.Element) GenerationTable {
	s := a.state
	const path = "policy.generation"
	id := FieldID(path)
	cur, opts := generationChoice(s.Doc, s.Catalog)
	row := b.el(parent, "div", "field select generation")
	lab := b.el(row, "label", "")
	lab.SetAttribute("for", id)
	b.text(lab, "span", "label", "fair.c generation")
	b.text(lab, "code", "kernel", "feature flags and function forms (presets/generation)")
	sel := b.el(row, "select", "").(*dom.HTMLSelectElement)
	sel.SetID(id)
	a.shown = append(a.shown, path)
	if len(s.IssuesUnder(path)) > 0 {
		sel.SetAttribute("aria-invalid", "true")
		sel.SetAttribute("aria-describedby", id+"-issue")
	}
	desc := ""
	for _, o := range opts {
		e := b.text(sel, "option", "", o.Label)
		e.SetAttribute("value", o.Value)
		if o.Description != "" {
			e.SetAttribute("title", o.Description)
		}
		if o.Value == cur {
			e.SetAttribute("selected", "")
			desc = o.Description
		}
	}
	b.on(sel, "change", func(dom.Event) {
		if v := sel.Value(); v != "" {
			a.dispatch(EditField{Path: path, Value: v})
		} else {
			a.dispatch(EditField{Path: path, Value: site.Delete})
		}
	})
	a.issues(b, row, path)
	if desc != "" {
		b.text(parent, "p", "muted desc", desc).SetID("generation-desc")
	}
	t := generationTable(s.Doc, s.Catalog)
	if len(t.Names) == 0 {
		return t
	}
	det := b.el(parent, "details", "generation-flags").(*dom.HTMLDetailsElement)
	det.SetID("generation-flags")
	det.SetOpen(a.genFlagsOpen)
	b.on(det, "toggle", func(dom.Event) { a.genFlagsOpen = det.Open() })
	b.text(det, "summary", "", "What each generation sets")
	tbl := b.el(det, "table", "gen-table")
	hr := b.el(b.el(tbl, "thead", ""), "tr", "")
	b.text(hr, "th", "", "switch")
	for _, n := range t.Names {
		th := b.text(hr, "th", "", n)
		if p, ok := s.Catalog.Get("generation", n); ok {
			th.SetAttribute("title", p.Description)
		}
		if n == t.Current {
			th.Class().Add("cur")
		}
	}
	b.text(hr, "th", "", "in effect")
	body := b.el(tbl, "tbody", "")
	for _, form := range []bool{true, false} {
		group := "function forms"
		if !form {
			group = "feature flags (sched_feat)"
		}
		first := true
		for _, r := range t.Rows {
			if r.Form != form {
				continue
			}
			if first {
				th := b.text(b.el(body, "tr", "group"), "th", "", group)
				th.SetAttribute("colspan", strconv.Itoa(len(t.Names)+2))
				first = false
			}
			tr := b.el(body, "tr", "")
			tr.SetAttribute("data-switch", r.Name)
			if r.Differs {
				tr.Class().Add("differs")
			}
			name := b.el(tr, "th", "")
			b.text(name, "span", "", r.Name)
			if r.Kernel != "" {
				b.text(name, "code", "kernel", r.Kernel)
			}
			for i, v := range r.Values {
				td := b.text(tr, "td", "", v)
				if t.Names[i] == t.Current {
					td.Class().Add("cur")
				}
			}
			eff := b.text(tr, "td", "effect", r.Effect)
			if r.Overridden {
				eff.Class().Add("overridden")
				b.text(eff, "span", "ovr", " overridden")
				eff.SetAttribute("title", "policy.features sets it; "+t.Current+" sets "+r.Values[slices.Index(t.Names, t.Current)])
			}
		}
	}
	return t
}

// featureFields are the policy.features controls: each default names the
// generation's value, and a feature the policy overrides says so.
func (a *App) featureFields(b builder, parent dom.Element, t GenerationTable) {
	s := a.state
	fs := b.el(parent, "fieldset", "features")
	b.text(fs, "legend", "", "Scheduler features (sched_feat) and function forms")
	feats, _ := s.Catalog.GenerationFeatures(t.Current)
	rows := map[string]GenerationRow{}
	for _, r := range t.Rows {
		rows[r.Name] = r
	}
	for _, f := range Features {
		fld := Field{Path: "policy.features." + f.Name, Label: f.Name, Kernel: f.Kernel, Kind: "tristate",
			Help: generationDefault(t.Current, feats, f.Name)}
		if f.Name == "PELT" {
			fld.Kind, fld.Options = "select", []string{"modern", "legacy2018"}
		}
		if r := rows[f.Name]; r.Overridden {
			if fld.Kernel != "" {
				fld.Kernel += " · "
			}
			fld.Kernel += "overrides " + t.Current + " (" + r.Values[slices.Index(t.Names, t.Current)] + ")"
		}
		a.field(b, fs, fld)
	}
}

// fields renders controls; prefix is prepended to each Path.
func (a *App) fields(b builder, parent dom.Element, fs []Field, prefix string) {
	for _, f := range fs {
		f.Path = prefix + f.Path
		a.field(b, parent, f)
	}
}

func (a *App) field(b builder, parent dom.Element, f Field) {
	s := a.state
	v := s.Doc.Get(f.Path, s.Catalog)
	id := FieldID(f.Path)
	row := b.el(parent, "div", "field "+f.Kind)
	lab := b.el(row, "label", "")
	lab.SetAttribute("for", id)
	b.text(lab, "span", "label", f.Label)
	if f.Kernel != "" {
		b.text(lab, "code", "kernel", f.Kernel)
	}
	draft, hasDraft := s.Drafts[f.Path]
	invalid := len(s.IssuesUnder(f.Path)) > 0
	a.shown = append(a.shown, f.Path)
	mark := func(e dom.Element) {
		e.SetID(id)
		if invalid {
			e.SetAttribute("aria-invalid", "true")
			e.SetAttribute("aria-describedby", id+"-issue")
		}
	}
	switch f.Kind {
	case "int", "float", "text", "duration":
		in := b.el(row, "input", "").(*dom.HTMLInputElement)
		mark(in)
		in.SetAttribute("type", "text")
		if f.Kind == "int" || f.Kind == "float" {
			in.SetAttribute("inputmode", "decimal")
		}
		if f.Help != "" {
			in.SetAttribute("placeholder", f.Help)
		}
		switch {
		case hasDraft:
			in.SetValue(draft)
		case v != nil:
			in.SetValue(scalarText(v))
		}
		asString := f.Kind == "text" || f.Kind == "duration"
		b.on(in, "change", func(dom.Event) {
			t := in.Value()
			if t == "" {
				a.dispatch(EditField{Path: f.Path, Value: site.Delete})
				return
			}
			a.dispatch(EditText{Path: f.Path, Text: t, AsString: asString, Scalar: !asString})
		})
	case "select":
		sel := b.el(row, "select", "").(*dom.HTMLSelectElement)
		mark(sel)
		cur := scalarText(v)
		def := "(default)"
		if f.Help != "" {
			def = f.Help
		}
		o := b.text(sel, "option", "", def)
		o.SetAttribute("value", "")
		for _, opt := range f.Options {
			o := b.text(sel, "option", "", opt)
			o.SetAttribute("value", opt)
			if opt == cur {
				o.SetAttribute("selected", "")
			}
		}
		b.on(sel, "change", func(dom.Event) {
			t := sel.Value()
			switch {
			case t == "":
				a.dispatch(EditField{Path: f.Path, Value: site.Delete})
			case f.Path == "machine.threads_per_core":
				n, _ := strconv.Atoi(t)
				a.dispatch(EditField{Path: f.Path, Value: n})
			default:
				a.dispatch(EditField{Path: f.Path, Value: t})
			}
		})
	case "bool":
		in := b.el(row, "input", "").(*dom.HTMLInputElement)
		mark(in)
		in.SetAttribute("type", "checkbox")
		in.SetChecked(v == true)
		b.on(in, "change", func(dom.Event) { a.dispatch(EditField{Path: f.Path, Value: in.Checked()}) })
	case "tristate":
		sel := b.el(row, "select", "").(*dom.HTMLSelectElement)
		mark(sel)
		def := "kernel default"
		if f.Help != "" {
			def = f.Help
		}
		for _, o := range []struct{ v, l string }{{"", def}, {"true", "on"}, {"false", "off"}} {
			e := b.text(sel, "option", "", o.l)
			e.SetAttribute("value", o.v)
			if (o.v == "true" && v == true) || (o.v == "false" && v == false) || (o.v == "" && v == nil) {
				e.SetAttribute("selected", "")
			}
		}
		b.on(sel, "change", func(dom.Event) {
			switch sel.Value() {
			case "true":
				a.dispatch(EditField{Path: f.Path, Value: true})
			case "false":
				a.dispatch(EditField{Path: f.Path, Value: false})
			default:
				a.dispatch(EditField{Path: f.Path, Value: site.Delete})
			}
		})
	case "levels":
		a.levelsField(b, row, f, v, id)
	case "classes":
		a.classesField(b, row, f, v, id)
	case "yield":
		a.yieldField(b, row, f, v, id)
	case "boost":
		a.boostField(b, row, f, v, id)
	case "priorities":
		a.prioritiesField(b, row, f, v, id)
	case "json":
		ta := b.el(row, "textarea", "").(*dom.HTMLTextAreaElement)
		mark(ta)
		ta.SetAttribute("spellcheck", "false")
		if f.Help != "" {
			ta.SetAttribute("placeholder", f.Help)
		}
		text := ""
		switch {
		case hasDraft:
			text = draft
		case v != nil:
			text = site.IndentShallow(v)
		}
		ta.SetValue(text)
		lines := 1
		for _, c := range text {
			if c == '\n' {
				lines++
			}
		}
		ta.SetAttribute("rows", strconv.Itoa(min(max(lines, 2), 14)))
		b.on(ta, "change", func(dom.Event) {
			t := ta.Value()
			if t == "" {
				a.dispatch(EditField{Path: f.Path, Value: site.Delete})
				return
			}
			a.dispatch(EditText{Path: f.Path, Text: t})
		})
	}
	a.issues(b, row, f.Path)
}

// levelsField edits asym_packing: "arch default" or an explicit level list.
func (a *App) levelsField(b builder, row dom.Element, f Field, v any, id string) {
	list, explicit := v.([]any)
	box := b.el(row, "div", "levels")
	box.SetID(id)
	box.SetAttribute("role", "group")
	def := b.el(box, "label", "check")
	dcb := b.el(def, "input", "").(*dom.HTMLInputElement)
	dcb.SetID(id + "-default")
	dcb.SetAttribute("type", "checkbox")
	dcb.SetChecked(!explicit)
	b.text(def, "span", "", "arch default")
	b.on(dcb, "change", func(dom.Event) {
		if dcb.Checked() {
			a.dispatch(EditField{Path: f.Path, Value: site.Delete})
		} else {
			a.dispatch(EditField{Path: f.Path, Value: []any{}})
		}
	})
	has := map[string]bool{}
	for _, x := range list {
		if s, ok := x.(string); ok {
			has[s] = true
		}
	}
	for _, lv := range Levels {
		l := b.el(box, "label", "check")
		cb := b.el(l, "input", "").(*dom.HTMLInputElement)
		cb.SetID(id + "-" + lv)
		cb.SetAttribute("type", "checkbox")
		cb.SetChecked(has[lv])
		if !explicit {
			cb.SetAttribute("disabled", "")
		}
		b.text(l, "span", "", lv)
		level := lv
		b.on(cb, "change", func(dom.Event) {
			var out []any
			for _, x := range Levels {
				if (x == level && cb.Checked()) || (x != level && has[x]) {
					out = append(out, x)
				}
			}
			if out == nil {
				out = []any{}
			}
			a.dispatch(EditField{Path: f.Path, Value: out})
		})
	}
}

// otherIssues lists the tab's issues that no control on it shows: unknown
// fields, a whole section's problems, another workload group's fields (on
// the JSON tab: every issue). Each links to where it can be fixed.
func (a *App) otherIssues(b builder, parent dom.Element, tab string) {
	var rest []Issue
	for _, is := range a.state.Issues {
		if tab != TabJSON && sectionOf(is.Path) != tab {
			continue
		}
		covered := false
		for _, p := range a.shown {
			if under(is.Path, p) {
				covered = true
				break
			}
		}
		if !covered {
			rest = append(rest, is)
		}
	}
	if len(rest) == 0 {
		return
	}
	box := b.el(parent, "div", "issue other-issues")
	box.SetID("issues-" + tab)
	for _, x := range rest {
		label := x.Message
		if x.Path != "" {
			label = x.Path + ": " + x.Message
		}
		path := x.Path
		btn := b.button(b.el(box, "p", ""), "", "link issue-link", label, func() { a.goToField(path) })
		btn.SetAttribute("data-path", path)
	}
}

func (a *App) issues(b builder, parent dom.Element, path string) {
	is := a.state.IssuesUnder(path)
	if len(is) == 0 {
		return
	}
	box := b.el(parent, "div", "issue")
	box.SetID(FieldID(path) + "-issue")
	for _, x := range is {
		line := x.Message
		if x.Path != path && x.Path != "" {
			line = x.Path + ": " + x.Message
		}
		b.text(box, "p", "", line)
	}
}

// groupsEditor edits the workload's task groups.
func (a *App) groupsEditor(b builder, parent dom.Element) {
	s := a.state
	groups, _ := s.Doc.Get("workload.groups", s.Catalog).([]any)
	fs := b.el(parent, "fieldset", "groups")
	b.text(fs, "legend", "", "Task groups")
	bar := b.el(fs, "div", "group-tabs")
	bar.SetAttribute("role", "tablist")
	for i, g := range groups {
		name := fmt.Sprintf("group %d", i)
		if m, ok := g.(map[string]any); ok {
			if n, ok := m["name"].(string); ok && n != "" {
				name = n
			}
		}
		idx := i
		btn := b.button(bar, fmt.Sprintf("group-%d", i), "chip", name, func() { a.dispatch(SelectGroup{Index: idx}) })
		btn.SetAttribute("role", "tab")
		btn.SetAttribute("aria-selected", strconv.FormatBool(i == s.View.Group))
	}
	b.button(bar, "group-add", "chip add", "+ group", func() {
		a.dispatch(EditField{Path: fmt.Sprintf("workload.groups[%d]", len(groups)),
			Value: map[string]any{"name": fmt.Sprintf("g%d", len(groups)), "count": 1, "program": []any{map[string]any{"compute": "10ms"}}}})
		a.dispatch(SelectGroup{Index: len(groups)})
	})
	if len(groups) == 0 {
		b.text(fs, "p", "muted", "No task groups.")
		return
	}
	g := s.View.Group
	if g >= len(groups) {
		g = 0
	}
	prefix := fmt.Sprintf("workload.groups[%d].", g)
	a.fields(b, fs, GroupFields, prefix)
	b.button(fs, "group-remove", "link danger", "Remove this group", func() {
		a.dispatch(EditField{Path: fmt.Sprintf("workload.groups[%d]", g), Value: site.Delete})
		a.dispatch(SelectGroup{Index: 0})
	})
}

// jsonEditor shows and edits the whole scenario document, in sync both
// ways: an edit anywhere else rewrites the text; the text, once it pauses
// (or on Apply), becomes the scenario when it parses (else it stays, with
// the parser's line and column).
func (a *App) jsonEditor(b builder, parent dom.Element) {
	s := a.state
	b.text(parent, "p", "muted", "The scenario as JSON (scenario format v1): it follows every edit, and what you type here applies once you pause. Presets stay by name.")
	ta := b.el(parent, "textarea", "json-doc").(*dom.HTMLTextAreaElement)
	ta.SetID("f-json")
	ta.SetAttribute("spellcheck", "false")
	ta.SetAttribute("rows", "22")
	text, hasDraft := s.Drafts[DocPath]
	if !hasDraft {
		text = site.Indent(map[string]any(s.Doc))
	}
	ta.SetValue(text)
	a.shown = append(a.shown, DocPath)
	b.on(ta, "input", func(dom.Event) {
		a.jsonSeq++
		seq := a.jsonSeq
		a.spawn(func() {
			time.Sleep(jsonPauseMs * time.Millisecond)
			if a.jsonSeq == seq {
				a.applyJSON(ta)
			}
		})
	})
	status := b.el(parent, "div", "")
	status.SetID("json-status")
	b.button(parent, "json-apply", "primary", "Apply", func() {
		a.jsonSeq++ // a pending pause-apply is this one
		a.applyJSON(ta)
	})
	resolved := b.el(parent, "details", "")
	resolved.SetID("json-resolved")
}

// jsonPauseMs is how long the JSON text must rest before it applies.
const jsonPauseMs = 600

// applyJSON makes the JSON tab's text the scenario (EditDoc): refused at
// once when it is over the size limit, kept as a draft when it does not
// parse.
func (a *App) applyJSON(ta *dom.HTMLTextAreaElement) {
	if n := textLength(ta); n > scenario.MaxDocumentSize {
		// Refused before the text is even copied into Go or parsed,
		// so the page stays responsive.
		a.dispatch(SetNotice{Notice: Notice{Kind: "error", Text: fmt.Sprintf(
			"This scenario is %d characters long; the limit is %d bytes. Nothing was changed.", n, scenario.MaxDocumentSize)}})
		return
	}
	a.dispatch(EditDoc{Text: ta.Value()})
	if _, bad := a.state.Drafts[DocPath]; !bad {
		a.jsonOwn = a.state.Doc.Canonical()
	}
}

// jsonStatus fills the JSON tab's message panel (the parse error, every
// issue) and its expanded sections, apart from the text.
func (a *App) jsonStatus() {
	s := a.state
	_, bad := s.Drafts[DocPath]
	if ta := a.doc.GetElementByID("f-json"); ta != nil {
		if bad {
			ta.SetAttribute("aria-invalid", "true")
			ta.SetAttribute("aria-describedby", "f-json-issue")
		} else {
			ta.RemoveAttribute("aria-invalid")
			ta.RemoveAttribute("aria-describedby")
		}
	}
	a.update("json-status", fmt.Sprint(s.Issues, bad), func(b builder, el dom.HTMLElement) {
		a.issues(b, el, DocPath)
		a.shown = append(a.shown[:0], DocPath)
		a.otherIssues(b, el, TabJSON)
	})
	a.update("json-resolved", fmt.Sprintf("%p|%s", s.Catalog, s.Doc.Canonical()), func(b builder, el dom.HTMLElement) {
		b.text(el, "summary", "", "Effective sections (presets expanded)")
		exp := map[string]any{}
		for _, sec := range site.Sections {
			exp[sec] = site.Expand(s.Doc.Section(sec), sec, s.Catalog)
		}
		b.text(el, "pre", "", site.Indent(exp))
	})
}

// scalarText renders a JSON scalar for an input field.
func scalarText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	}
	return site.Compact(v)
}

//go:build js && wasm

package playground

import (
	"fmt"
	"strconv"
	"strings"

	"honnef.co/go/js/dom/v2"

	"schedplay/engine/embed"
	"schedplay/site"
	"schedplay/site/exportmenu"
	"schedplay/site/viewkit"
)

// buildSkeleton lays out the page's fixed regions once; panels fill them.
func (a *App) buildSkeleton() {
	viewkit.Clear(a.root)
	b := builder{doc: a.doc, funcs: &a.global}
	hdr := b.el(a.root, "header", "top")
	brand := b.el(hdr, "div", "brand")
	b.text(brand, "h1", "", "schedplay")
	b.text(brand, "span", "muted tagline", "what the Linux scheduler does on SMT and asymmetric CPUs")
	b.el(hdr, "div", "toolbar").SetID("toolbar")
	note := b.el(a.root, "div", "")
	note.SetID("notice")
	note.SetAttribute("role", "alert")
	main := b.el(a.root, "div", "main")
	side := b.el(main, "aside", "side")
	side.SetAttribute("aria-label", "scenario")
	g := b.el(side, "section", "gallery")
	g.SetID("gallery")
	g.SetAttribute("aria-label", "seed scenarios")
	tabs := b.el(side, "div", "tabs")
	tabs.SetID("tabs")
	tabs.SetAttribute("role", "tablist")
	ed := b.el(side, "section", "editor")
	ed.SetID("editor")
	ed.SetAttribute("role", "tabpanel")
	topoEl := b.el(side, "section", "topology")
	topoEl.SetID("topology")
	content := b.el(main, "div", "content")
	dlg := b.el(content, "section", "")
	dlg.SetID("embed-dialog")
	or := b.el(content, "section", "")
	or.SetID("orientation")
	fig := b.el(content, "section", "figures")
	fig.SetID("figures")
	fig.SetAttribute("aria-live", "polite")
	a.tl = newTimelineView(a, b, content)
	ch := b.el(content, "section", "charts")
	ch.SetID("charts")
	exp := b.el(content, "section", "exports")
	exportmenu.Mount(exp, "export", func() exportmenu.Source {
		return exportmenu.Source{Scenario: []byte(a.state.Run.ResultDoc), Result: a.state.Run.Result}
	})
}

// render writes the DOM and canvas from State. It never changes State.
func (a *App) render() {
	t0 := nowMs()
	defer func() { setPerf("renderMs", nowMs()-t0) }()
	a.renderToolbar()
	a.renderNotice()
	a.renderOrientation()
	a.renderEmbedDialog()
	a.renderGallery()
	a.renderTabs()
	a.renderEditor()
	a.renderTopology()
	a.renderFigures()
	a.renderCharts()
	a.tl.draw()
	a.renders++
	for _, ch := range a.drawWaiters {
		close(ch)
	}
	a.drawWaiters = a.drawWaiters[:0]
	if a.renders == 1 {
		a.root.SetAttribute("data-ready", "1")
		a.root.SetAttribute("aria-busy", "false")
	}
	if s := a.state.Run; s.Status == StatusRunning && s.Provisional > 0 && s.Result != nil && !a.gotPreview {
		a.gotPreview = true
		setPerf("firstPreviewMs", nowMs())
		setPerf("previewRenderMs", nowMs()-t0)
		a.scheduleRender() // the deferred machine drawing (deferTopology)
		a.warmEngine()
	}
	if s := a.state.Run; a.editAt > 0 && !a.editDrawn && s.Result != nil && s.ResultDoc == a.state.Doc.Canonical() {
		// knob → first redrawn timeline (repetition 0 on a large machine)
		a.editDrawn = true
		setPerf("knobToFirstDrawMs", nowMs()-a.editAt)
	}
	if s := a.state.Run; s.Status == StatusDone && s.Result != nil {
		if !a.gotRes {
			a.gotRes = true
			setPerf("firstResultMs", nowMs())
			a.scheduleRender()
			a.warmEngine()
		}
		if a.editAt > 0 && s.ResultDoc == a.state.Doc.Canonical() {
			setPerf("replyToDrawnMs", nowMs()-jsPerf("replyAt"))
			setPerf("knobToRedrawMs", nowMs()-a.editAt)
			a.editAt = 0
		}
	}
}

func (a *App) renderToolbar() {
	s := a.state
	cpus, cpuErr := a.cpus()
	stepWhy, stepLong := stepRefusal(cpus, cpuErr)
	sig := fmt.Sprint(s.Doc.Name(), s.Live, s.Run.Status == StatusRunning, stepWhy, len(s.Past), len(s.Future), a.embedOpen)
	a.update("toolbar", sig, func(b builder, el dom.HTMLElement) {
		lab := b.el(el, "label", "name-field")
		b.text(lab, "span", "visually-hidden", "Scenario name")
		in := b.el(lab, "input", "").(*dom.HTMLInputElement)
		in.SetID("f-name")
		in.SetAttribute("type", "text")
		in.SetAttribute("placeholder", "scenario name")
		in.SetAttribute("maxlength", "200")
		in.SetValue(s.Doc.Name())
		b.on(in, "change", func(dom.Event) { a.dispatch(EditText{Path: "name", Text: in.Value(), AsString: true}) })

		undo := b.button(el, "undo", "icon", "↶", func() { a.dispatch(Undo{}) })
		undo.SetAttribute("aria-label", "Undo the last edit (Ctrl-Z)")
		undo.SetAttribute("title", "Undo the last edit (Ctrl-Z)")
		if len(s.Past) == 0 {
			undo.SetAttribute("disabled", "")
		}
		redo := b.button(el, "redo", "icon", "↷", func() { a.dispatch(Redo{}) })
		redo.SetAttribute("aria-label", "Redo (Ctrl-Shift-Z)")
		redo.SetAttribute("title", "Redo (Ctrl-Shift-Z)")
		if len(s.Future) == 0 {
			redo.SetAttribute("disabled", "")
		}
		run := b.button(el, "run", "primary", "Run", func() { a.run() })
		run.SetAttribute("title", "Run the scenario")
		cancel := b.button(el, "cancel", "", "Cancel", func() { a.cancel() })
		if s.Run.Status != StatusRunning {
			cancel.SetAttribute("disabled", "")
		}
		live := b.el(el, "label", "check")
		cb := b.el(live, "input", "").(*dom.HTMLInputElement)
		cb.SetID("live")
		cb.SetAttribute("type", "checkbox")
		cb.SetChecked(s.Live)
		b.on(cb, "change", func(dom.Event) { a.dispatch(SetLive{On: cb.Checked()}) })
		b.text(live, "span", "", "live")
		live.SetAttribute("title", "Re-run on every edit (a large machine shows its first repetition at once, then refines)")
		b.button(el, "copy-link", "", "Copy link", func() {
			a.spawn(func() {
				ok := copyText(locationBase() + "#" + site.EncodeFragment(a.state.Doc))
				msg := "Link copied."
				if !ok {
					msg = "Could not copy; the address bar holds the link."
				}
				a.dispatch(SetNotice{Notice: Notice{Kind: "info", Text: msg}})
			})
		})
		b.button(el, "copy-embed", "", "Embed", func() {
			a.embedOpen = !a.embedOpen
			a.scheduleRender()
			a.focusAfterRender("embed-width")
		}).SetAttribute("aria-expanded", fmt.Sprint(a.embedOpen))
		cmp := b.button(el, "open-compare", "", "Compare", a.openCompare)
		cmp.SetAttribute("title", "Compare this scenario under two policies in a new tab: its seed scenario's pair, else its own policy against a counterpart (docs/compare.md)")
		a.stepButton(b, el, stepLong) // step_js.go
		st := b.el(el, "div", "status")
		st.SetID("status")
		st.SetAttribute("aria-live", "polite")
		if stepWhy != "" {
			// The reason of the disabled control, shown (not only in a
			// tooltip).
			why := b.el(el, "p", "muted why-disabled")
			why.SetID("why-disabled")
			b.text(why, "span", "", "Step is off: "+stepWhy+". ")
		}
	})
	a.update("status", fmt.Sprint(s.Run.Status, s.Run.ElapsedMs, s.Run.Provisional), func(b builder, st dom.HTMLElement) {
		switch s.Run.Status {
		case StatusRunning:
			bar := b.el(st, "div", "progress")
			bar.SetAttribute("role", "progressbar")
			bar.SetAttribute("aria-label", "simulating")
			b.el(bar, "div", "progress-fill")
			msg := "simulating…"
			if s.Run.ElapsedMs >= 500 {
				msg = fmt.Sprintf("simulating… %.1f s", s.Run.ElapsedMs/1000)
			}
			if n := s.Run.Provisional; n > 0 && s.Run.Result != nil {
				msg = fmt.Sprintf("provisional: 1 of %d repetitions shown — refining… %.1f s", n, s.Run.ElapsedMs/1000)
			}
			b.text(st, "span", "", msg)
		case StatusStale:
			b.text(st, "span", "stale", "scenario changed — Run to update")
		case StatusFailed:
			b.text(st, "span", "bad", "not run")
		case StatusDone:
			b.text(st, "span", "ok", "up to date · "+strconv.FormatFloat(s.Run.ElapsedMs, 'f', 0, 64)+" ms")
		}
	})
}

func (a *App) renderNotice() {
	n := a.state.Notice
	a.update("notice", n.Kind+"\x00"+n.Text+"\x00"+n.Detail, func(b builder, el dom.HTMLElement) {
		if n.Text == "" {
			el.SetAttribute("class", "")
			return
		}
		el.SetAttribute("class", "notice "+n.Kind)
		b.text(el, "span", "notice-text", n.Text)
		if n.Detail != "" {
			d := b.text(el, "code", "notice-detail", n.Detail)
			d.SetID("notice-detail")
		}
		b.button(el, "notice-close", "link", "Dismiss", func() { a.dispatch(SetNotice{}) })
	})
}

func (a *App) renderGallery() {
	s := a.state
	sig := fmt.Sprintf("%p|%s|%s", s.Catalog, s.CatalogErr, s.Doc.Name())
	if a.awaitingFirstPicture() {
		// The list of seed scenarios follows the first result (the next
		// frame): on a first visit it took a twentieth of the main
		// thread's time before the first figures (docs/speed.md).
		sig = "deferred"
	}
	a.update("gallery", sig, func(b builder, el dom.HTMLElement) {
		b.text(el, "h2", "", "Scenarios")
		if sig == "deferred" {
			b.text(el, "p", "muted", "listed after the first result…")
			return
		}
		if s.CatalogErr != "" {
			b.text(el, "p", "issue", "Presets could not be loaded: "+s.CatalogErr)
			return
		}
		if s.Catalog == nil {
			b.text(el, "p", "muted", "loading presets…")
			return
		}
		list := b.el(el, "ul", "cards")
		base, _, _ := strings.Cut(s.Doc.Name(), nameSep) // an edited seed is still current
		for _, p := range s.Catalog.Of("scenario") {
			li := b.el(list, "li", "")
			name := p.Name
			card := b.el(li, "button", "card")
			card.SetAttribute("type", "button")
			card.SetID("sc-" + name)
			card.SetAttribute("data-scenario", name)
			if d, ok := p.Tree().(map[string]any); ok && d["name"] == base {
				card.Class().Add("current")
				card.SetAttribute("aria-current", "true")
			}
			b.text(card, "span", "card-name", name)
			if p.Story != "" {
				b.text(card, "span", "card-story", p.Story)
			} else {
				b.text(card, "span", "card-story", p.Description)
			}
			b.on(card, "click", func(dom.Event) { a.dispatch(SelectScenario{Name: name}) })
			src := b.el(li, "p", "card-source muted small")
			src.SetAttribute("data-scenario", name)
			if pub := p.Published; pub != nil {
				b.text(src, "span", "", "Published: "+pub.Figure+" — ")
				if pub.URL != "" {
					l := b.text(src, "a", "", pub.Source)
					l.SetAttribute("href", pub.URL)
					l.SetAttribute("target", "_blank")
					l.SetAttribute("rel", "noopener")
				} else {
					b.text(src, "span", "", pub.Source)
				}
			} else {
				b.text(src, "span", "", "No published figure: it shows the mechanism (docs/model.md).")
			}
			if len(p.Variants) > 0 {
				vs := b.el(li, "div", "variants")
				for _, v := range p.Variants {
					vn := v.Name
					b.button(vs, "", "chip", vn, func() { a.dispatch(SelectScenario{Name: name, Variant: vn}) })
				}
			}
		}
	})
}

// openCompare opens the compare view of the current scenario in a new tab.
func (a *App) openCompare() {
	dom.GetWindow().Open("?compare=1#"+site.EncodeFragment(a.state.Doc), "_blank", "noopener")
}

// showPanel shows a panel that comes and goes (the orientation, the Embed
// dialog) with its class, or hides it without one; it returns on.
func showPanel(el dom.HTMLElement, class string, on bool) bool {
	if !on {
		el.SetAttribute("class", "")
		el.SetAttribute("hidden", "")
		return false
	}
	el.RemoveAttribute("hidden")
	el.SetAttribute("class", class)
	return true
}

// renderOrientation is the dismissible one-screen orientation of a first
// visit: what the page is, three things to try, and where the kernel map
// and the guide are.
func (a *App) renderOrientation() {
	a.update("orientation", fmt.Sprintf("%v|%p", a.orient, a.state.Catalog), func(b builder, el dom.HTMLElement) {
		if !showPanel(el, "orientation", a.orient) {
			return
		}
		el.SetAttribute("aria-labelledby", "orient-title")
		b.text(el, "h2", "", "What this page is").SetID("orient-title")
		b.text(el, "p", "", "schedplay simulates what the Linux fair scheduler does on SMT and asymmetric CPUs — "+
			"wake-up placement, load balancing, asym packing, misfit — with the kernel's own algorithms, in your browser. "+
			"You choose a machine, a scheduler policy and a workload; it shows the figures, a per-CPU timeline, and why each task went where it did.")
		b.text(el, "p", "", "Three things to try:")
		ol := b.el(el, "ol", "orient-steps")
		li := b.el(ol, "li", "")
		b.button(li, "orient-story", "link", "Open a seed story", func() {
			a.dispatch(SelectScenario{Name: firstStory(a.state.Catalog)})
		})
		b.text(li, "span", "", " — a published result (Vera SGEMM, the v6 series) re-run here.")
		li = b.el(ol, "li", "")
		b.button(li, "orient-flip", "link", "Flip the policy", func() {
			if p := flipPolicy(a.state.Doc, a.state.Catalog); p != "" {
				a.dispatch(SelectPreset{Kind: "policy", Name: p})
			}
		})
		b.text(li, "span", "", " — the same run under the other policy of its pair; the figures and the timeline follow.")
		li = b.el(ol, "li", "")
		b.button(li, "orient-compare", "link", "Compare", a.openCompare)
		b.text(li, "span", "", " — both policies over the same seeds, with the first decision where they part.")
		more := b.el(el, "p", "muted small")
		b.text(more, "span", "", "Click any slice of the timeline for the kernel functions behind it; they link to the ")
		km := b.text(more, "a", "", "kernel map")
		km.SetAttribute("href", "docs/KERNEL-MAP.md")
		km.SetAttribute("target", "_blank")
		km.SetAttribute("rel", "noopener")
		b.text(more, "span", "", " (where each mechanism lives in Linux). The ")
		g := b.text(more, "a", "", "guide")
		g.SetAttribute("href", "guide/")
		b.text(more, "span", "", " explains the mechanisms with live examples.")
		b.button(el, "orient-close", "primary", "Got it", func() {
			viewkit.StorageSet(orientKey, "1")
			a.orient = false
			a.scheduleRender()
		})
	})
}

// renderEmbedDialog is the Embed dialog: the iframe snippet of the current
// scenario with its size and options (embed.SnippetWith), updated as they
// change, a Copy button and a link to the embed itself.
func (a *App) renderEmbedDialog() {
	sig := "closed" // the scenario is read only while the dialog shows it
	if a.embedOpen {
		sig = "open|" + a.state.Doc.Canonical()
	}
	a.update("embed-dialog", sig, func(b builder, el dom.HTMLElement) {
		if !showPanel(el, "embed-dialog", a.embedOpen) {
			return
		}
		el.SetAttribute("role", "dialog")
		el.SetAttribute("aria-label", "Embed this scenario")
		b.text(el, "h2", "", "Embed this scenario in a page")
		opts := b.el(el, "div", "embed-opts")
		num := func(id, label, val string) *dom.HTMLInputElement {
			l := b.el(opts, "label", "")
			b.text(l, "span", "", label+" ")
			in := b.el(l, "input", "").(*dom.HTMLInputElement)
			in.SetID(id)
			in.SetAttribute("type", "text")
			in.SetAttribute("size", "6")
			in.SetValue(val)
			return in
		}
		w := num("embed-width", "width (px or %)", "800")
		h := num("embed-height", "height (px)", "460")
		rl := b.el(opts, "label", "check")
		run := b.el(rl, "input", "").(*dom.HTMLInputElement)
		run.SetID("embed-run")
		run.SetAttribute("type", "checkbox")
		run.SetChecked(true)
		b.text(rl, "span", "", " run on load")
		pl := b.el(opts, "label", "")
		b.text(pl, "span", "", "only messages from ")
		parent := b.el(pl, "input", "").(*dom.HTMLInputElement)
		parent.SetID("embed-parent")
		parent.SetAttribute("type", "text")
		parent.SetAttribute("placeholder", "https://docs.example.org (any)")
		out := b.el(el, "textarea", "embed-snippet").(*dom.HTMLTextAreaElement)
		out.SetID("embed-snippet")
		out.SetAttribute("readonly", "")
		out.SetAttribute("rows", "4")
		out.SetAttribute("aria-label", "the iframe code")
		errp := b.el(el, "p", "issue")
		errp.SetID("embed-error")
		base, _, _ := strings.Cut(locationBase(), "?")
		frag := site.EncodeFragment(a.state.Doc)
		name := a.state.Doc.Name()
		update := func() {
			snip, err := embed.SnippetWith(base, frag, name, embed.SnippetOptions{Width: strings.TrimSpace(w.Value()),
				Height: strings.TrimSpace(h.Value()), NoRun: !run.Checked(), Parent: strings.TrimSpace(parent.Value())})
			if err != nil {
				errp.SetTextContent(err.Error())
				return
			}
			errp.SetTextContent("")
			out.SetValue(snip)
		}
		for _, in := range []dom.Element{w, h, run, parent} {
			b.on(in, "input", func(dom.Event) { update() })
			b.on(in, "change", func(dom.Event) { update() })
		}
		update()
		bar := b.el(el, "div", "embed-bar")
		b.button(bar, "embed-copy", "primary", "Copy", func() {
			snip := out.Value()
			a.spawn(func() {
				msg := "Embed snippet copied: paste it into a documentation page (docs/embed.md says how to drive it)."
				if !copyText(snip) {
					msg = "Could not copy the embed snippet; select it in the box and copy it."
				}
				a.dispatch(SetNotice{Notice: Notice{Kind: "info", Text: msg}})
			})
		})
		if src, err := embed.EmbedURL(base, frag); err == nil {
			l := b.text(bar, "a", "", "open the embed")
			l.SetID("embed-open-link")
			l.SetAttribute("href", src)
			l.SetAttribute("target", "_blank")
			l.SetAttribute("rel", "noopener")
		}
		b.button(bar, "embed-close", "link", "Close", func() {
			a.embedOpen = false
			a.scheduleRender()
		})
	})
}

var tabNames = []struct{ id, label string }{
	{TabMachine, "Machine"}, {TabPolicy, "Policy"}, {TabWorkload, "Workload"}, {TabRun, "Run"}, {TabJSON, "JSON"},
}

func (a *App) renderTabs() {
	cur := a.state.View.Tab
	// Each tab says how many issues it shows (the JSON tab shows all).
	count := map[string]int{TabJSON: len(a.state.Issues)}
	for _, is := range a.state.Issues {
		if sec := sectionOf(is.Path); sec != TabJSON {
			count[sec]++
		}
	}
	a.update("tabs", fmt.Sprint(cur, count), func(b builder, el dom.HTMLElement) {
		for i, t := range tabNames {
			id := t.id
			btn := b.button(el, "tab-"+id, "tab", t.label, func() { a.dispatch(SetTab{Tab: id}) })
			if n := count[id]; n > 0 {
				badge := b.text(btn, "span", "tab-issues", strconv.Itoa(n))
				badge.SetAttribute("aria-hidden", "true")
				btn.SetAttribute("aria-label", t.label+" ("+problems(n)+")")
				btn.SetAttribute("data-issues", strconv.Itoa(n))
			}
			btn.SetAttribute("role", "tab")
			btn.SetAttribute("aria-selected", strconv.FormatBool(id == cur))
			if id != cur {
				btn.SetAttribute("tabindex", "-1")
			}
			idx := i
			b.on(btn, "keydown", func(ev dom.Event) {
				k := ev.(*dom.KeyboardEvent).Key()
				n := len(tabNames)
				switch k {
				case "ArrowRight":
					a.dispatch(SetTab{Tab: tabNames[(idx+1)%n].id})
				case "ArrowLeft":
					a.dispatch(SetTab{Tab: tabNames[(idx+n-1)%n].id})
				default:
					return
				}
				ev.PreventDefault()
				a.focusAfterRender("tab-" + a.state.View.Tab)
			})
		}
	})
}

// goToField shows the control of path (its tab, its workload group) and
// focuses it, or the nearest control above it (a step of a program is
// edited in the program's field).
func (a *App) goToField(path string) {
	tab := sectionOf(path)
	if path == DocPath {
		tab = TabJSON
	}
	if g, ok := groupIndex(path); ok {
		a.dispatch(SelectGroup{Index: g})
	}
	a.dispatch(SetTab{Tab: tab})
	requestFrame(func(float64) {
		requestFrame(func(float64) {
			for p := path; p != ""; p = parentPath(p) {
				if e := a.doc.GetElementByID(FieldID(p)); e != nil {
					if h, ok := e.(dom.HTMLElement); ok {
						h.Focus()
						h.Underlying().Call("scrollIntoView", map[string]any{"block": "center"})
						return
					}
				}
			}
		})
	})
}

// focusAfterRender moves focus to an element once the next frame is drawn.
func (a *App) focusAfterRender(id string) {
	requestFrame(func(float64) {
		requestFrame(func(float64) {
			if e := a.doc.GetElementByID(id); e != nil {
				if h, ok := e.(dom.HTMLElement); ok {
					h.Focus()
				}
			}
		})
	})
}

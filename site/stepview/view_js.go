//go:build js && wasm

package stepview

import (
	"fmt"

	"honnef.co/go/js/dom/v2"

	"schedplay/engine/explain"
	"schedplay/engine/sim"
	"schedplay/site"
	"schedplay/site/viewkit"
	"schedplay/site/viewkit/canvastl"
)

// view is the mounted step page.
type view struct {
	b       *viewkit.B
	root    dom.HTMLElement
	status  dom.HTMLElement
	req     Request
	doc     []byte // the scenario document every replay sends
	share   string
	base    string
	cpus    []site.LaneCPU
	n       int // events shown
	busy    bool
	done    bool
	rows    []RQRow // the previous step's runqueues (change highlight)
	tl      *canvastl.Timeline
	t0, t1  int64
	end     int64
	buttons map[string]dom.HTMLElement
	// sections
	counter, eventBox, kernelBox, rqBox, llcBox, recentBox, link dom.HTMLElement
	pathB                                                        *viewkit.B // listeners of the event section's links
	kernelMap                                                    viewkit.KernelMap
}

// Start mounts the step view when the page address asks for it
// (?step=1) and reports whether it did. wasm/ui/main.go calls it before
// building the playground.
func Start() bool { return viewkit.StartIf(Wanted, Mount) }

// Mount builds the step view on #root for the address l and loads the
// scenario's start (requests run in a goroutine).
func Mount(l viewkit.Location) {
	viewkit.EnsureCSS()
	v := &view{b: viewkit.NewB(), root: viewkit.Root(), base: l.Origin + l.Path, buttons: map[string]dom.HTMLElement{}}
	v.root.SetAttribute("class", "cmp-page step-page")
	v.status = v.b.PageHeader(v.root, "step mode: one scheduling event at a time", "step-status")
	viewkit.Ready(v.root)
	req, err := ParseURL(l.Search, l.Hash)
	if err != nil {
		v.fail(err.Error())
		return
	}
	v.req = req
	go v.load()
}

func (v *view) say(text string)  { viewkit.SetStatus(v.status, viewkit.StatusRunning, text) }
func (v *view) fail(text string) { viewkit.SetStatus(v.status, viewkit.StatusFailed, text) }

// load resolves the scenario, refuses a machine too large to show, lays
// the page out and replays the requested number of events.
func (v *view) load() {
	// The engine worker decodes and validates the link (and refuses it
	// at once when it is over the browser's budget), not the page's main
	// thread.
	v.say("Reading the scenario…")
	viewkit.StartLink()
	got, err := viewkit.Resolve(viewkit.ValidateBody(v.req.Ref()))
	viewkit.EndLink()
	viewkit.Yield() // the drawing in a task of its own
	if err != nil {
		v.fail("This scenario cannot be opened: " + err.Error())
		return
	}
	r := got.Resolved
	if _, err := MachineCPUs(r); err != nil {
		v.fail(err.Error())
		return
	}
	if v.cpus, err = site.MachineCPUs(r.Machine); err != nil {
		v.fail(err.Error())
		return
	}
	v.doc, v.share = got.Canonical, got.Share
	name := r.Name
	if name == "" {
		name = got.Doc.Preset
	}
	v.layout(name)
	v.goTo(v.req.Steps)
}

// layout adds the controls and the empty sections.
func (v *view) layout(name string) {
	b := v.b
	top := b.El(v.root, "section", "panel cmp-head")
	h := b.Text(top, "h2", "", name)
	h.SetID("step-scenario")
	b.Text(top, "p", "muted small", "Every step replays the scenario from the start (repetition 0, its seed) up to the next event the scheduler acts on, so Back is exact. Events a later one superseded are skipped.")
	ctl := b.El(top, "div", "step-ctl")
	for _, c := range []struct{ id, label, action, title string }{
		{"step-reset", "Reset", "reset", "Back to the start (no event yet)"},
		{"step-back", "Back", "back", "One event back (replays N−1 events)"},
		{"step-next", "Step", "step", "Run the next scheduling event"},
		{"step-10", "Step ×10", "step10", "Run the next ten events"},
	} {
		action := c.action
		btn := b.Button(ctl, c.id, "", c.label, func() { go v.act(action) })
		btn.SetAttribute("title", c.title)
		v.buttons[action] = btn
	}
	v.buttons["step"].SetAttribute("class", "primary")
	v.counter = b.El(ctl, "span", "step-counter")
	v.counter.SetID("step-counter")
	v.counter.SetAttribute("aria-live", "polite")
	v.link = b.Link(ctl, "small", "#", "Link to this step")
	v.link.SetID("step-link")
	pg := b.Link(ctl, "small", v.base+"#s="+v.share, "Open in the playground")
	pg.SetID("step-playground")

	v.eventBox = b.El(v.root, "section", "panel step-event")
	v.eventBox.SetID("step-event")
	grid := b.El(v.root, "div", "step-grid")
	v.rqBox = b.El(grid, "section", "panel step-rq")
	v.rqBox.SetID("step-runqueues")
	side := b.El(grid, "div", "step-side")
	v.llcBox = b.El(side, "section", "panel step-llc")
	v.llcBox.SetID("step-llcs")
	v.recentBox = b.El(side, "section", "panel step-recent")
	v.recentBox.SetID("step-recent")
	tlBox := b.El(v.root, "section", "panel step-tl")
	th := b.El(tlBox, "div", "cmp-row-head")
	b.Text(th, "h2", "", "What ran so far")
	tc := b.El(th, "div", "tl-ctl")
	b.Button(tc, "step-zoom-in", "", "+", func() { v.tl.ZoomIn() }).SetAttribute("aria-label", "zoom in")
	b.Button(tc, "step-zoom-out", "", "−", func() { v.tl.ZoomOut() }).SetAttribute("aria-label", "zoom out")
	b.Button(tc, "step-zoom-reset", "", "all", func() { v.tl.Reset() })
	v.tl = canvastl.NewTimeline(b, tlBox, "step-timeline", "Timeline of the events so far", 260)
	v.tl.OnWindow = func(t0, t1 int64) { v.t0, v.t1 = t0, t1; viewkit.Frame(v.draw) }
	b.Text(tlBox, "p", "muted small", "The line marks the last event, on its CPU when it has one.")
	b.On(dom.GetWindow(), "resize", func(dom.Event) { viewkit.Frame(v.draw) })
	b.On(dom.GetWindow().Document(), "keydown", func(ev dom.Event) {
		if t := ev.Target(); t != nil && (t.TagName() == "INPUT" || t.TagName() == "TEXTAREA") {
			return
		}
		switch ev.(*dom.KeyboardEvent).Key() {
		case "n", "ArrowDown":
			go v.act("step")
		case "b", "ArrowUp":
			go v.act("back")
		default:
			return
		}
		ev.PreventDefault()
	})
}

// act runs a control's action unless a replay is in flight.
func (v *view) act(action string) {
	if v.busy || action == "step" && v.done || action == "step10" && v.done {
		return
	}
	v.goTo(Next(v.n, action))
}

// goTo replays n events and shows the state after them.
func (v *view) goTo(n int) {
	v.busy = true
	for _, b := range v.buttons {
		b.SetAttribute("disabled", "")
	}
	v.say(fmt.Sprintf("Replaying %d events…", n))
	r := viewkit.Fetch("POST", "/api/v1/step", Body(v.doc, n))
	v.busy = false
	if !r.OK() {
		v.fail("The step failed: " + r.ErrorText())
		v.enable()
		return
	}
	reply, err := DecodeReply(r.Body)
	if err != nil {
		v.fail("the engine's reply could not be read: " + err.Error())
		v.enable()
		return
	}
	v.n, v.done = int(reply.Events), reply.Done
	v.render(reply)
	v.enable()
	msg := fmt.Sprintf("Replayed %d events in %.0f ms.", v.n, r.Ms)
	if v.done {
		msg += " The run has ended."
	}
	viewkit.SetStatus(v.status, viewkit.StatusDone, msg)
}

// enable sets the buttons for the current position.
func (v *view) enable() {
	for action, b := range v.buttons {
		off := (action == "back" || action == "reset") && v.n == 0 || (action == "step" || action == "step10") && v.done
		if off {
			b.SetAttribute("disabled", "")
		} else {
			b.RemoveAttribute("disabled")
		}
	}
}

// render shows a reply.
func (v *view) render(r *sim.StepReply) {
	v.counter.SetTextContent(fmt.Sprintf("event %d · t = %s", r.Events, explain.FormatNs(r.Now)))
	v.counter.SetAttribute("data-events", fmt.Sprint(r.Events))
	v.counter.SetAttribute("data-now", fmt.Sprint(r.Now))
	v.link.SetAttribute("href", Link(v.base, v.n, v.share))
	var tasks []sim.TaskInfo
	if r.Timeline != nil {
		tasks = r.Timeline.Tasks
	}
	v.renderEvent(r, tasks)
	v.renderRunqueues(r)
	v.renderSide(r)
	v.tl.SetData(r.Timeline, v.cpus)
	v.end = max(r.Now, 1000)
	v.t0, v.t1 = 0, v.end
	v.tl.Markers = nil
	if r.Event != nil {
		v.tl.Markers = []canvastl.Marker{{At: r.Now, CPU: r.Event.CPU, Label: r.Event.Kind}}
	}
	viewkit.Frame(v.draw)
}

func (v *view) draw() {
	v.tl.SetWindow(v.t0, v.t1, v.end)
	v.tl.Draw()
}

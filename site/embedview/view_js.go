//go:build js && wasm

package embedview

import (
	"encoding/json"
	"errors"
	"math"

	"honnef.co/go/js/dom/v2"

	"schedplay/engine/embed"
	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/presets"
	"schedplay/site"
	"schedplay/site/viewkit"
	"schedplay/site/viewkit/canvastl"
)

// view is the mounted embed page. It keeps its scenario in memory only.
type view struct {
	b      *viewkit.B
	root   dom.HTMLElement
	title  dom.HTMLElement
	link   dom.HTMLElement
	status dom.HTMLElement
	figs   dom.HTMLElement
	tl     *canvastl.Timeline
	params Params
	loc    viewkit.Location
	ps     *presets.Set
	sc     *scenario.Scenario
	rname  string // the resolved scenario's name
	doc    []byte
	share  string
	cpus   []site.LaneCPU
	words  viewkit.ModeWords // the machine's mode wording (SMT model)
	res    *sim.Result
	t0, t1 int64
	// runSeq numbers runs: only the latest one updates the view (an older
	// one is cancelled by the engine glue and answered with an error).
	runSeq int
}

// Start mounts the embed view when the address has ?embed=1 and reports
// whether it did. wasm/ui/main.go calls it first, before the playground
// (which reads localStorage) is built.
func Start() bool { return viewkit.StartIf(Wanted, Mount) }

// Mount builds the embed view on #root for the address l: decode the
// scenario, listen for messages, post schedplay:ready, run unless run=0.
func Mount(l viewkit.Location) {
	viewkit.EnsureCSS()
	v := &view{b: viewkit.NewB(), root: viewkit.Root(), params: ParseParams(l.Search, l.Hash), loc: l}
	v.root.SetAttribute("class", "embed-page")
	b := v.b
	head := b.El(v.root, "header", "embed-head")
	v.title = b.Text(head, "h1", "embed-title", "schedplay")
	v.title.SetID("embed-title")
	v.link = b.Link(head, "embed-open", l.Origin+l.Path, "Open in playground ↗")
	v.link.SetID("embed-open")
	v.link.SetAttribute("target", "_blank")
	v.link.SetAttribute("rel", "noopener")
	v.figs = b.El(v.root, "dl", "embed-figs")
	v.figs.SetID("figures")
	v.status = b.El(v.root, "div", "embed-status small muted")
	v.status.SetID("embed-status")
	v.status.SetAttribute("role", "status")
	h := math.Max(120, viewkit.InnerHeight()-120)
	v.tl = canvastl.NewTimeline(b, v.root, "timeline", "Per-CPU timeline", h)
	v.tl.OnWindow = func(t0, t1 int64) { v.t0, v.t1 = t0, t1; viewkit.Frame(v.draw) }
	b.On(dom.GetWindow(), "resize", func(dom.Event) {
		v.tl.SetMaxHeight(math.Max(120, viewkit.InnerHeight()-120))
		viewkit.Frame(v.draw)
	})
	viewkit.Ready(v.root)
	ps, err := presets.Load()
	if err != nil {
		v.fail("presets: " + err.Error())
		return
	}
	v.ps = ps
	v.say("Reading the scenario…")
	go func() { // the engine worker decodes and validates the link
		viewkit.StartLink()
		loadErr := v.loadInitial()
		viewkit.EndLink()
		viewkit.Yield() // the drawing in a task of its own
		if viewkit.Framed() {
			viewkit.OnMessage(v.onMessage)
			viewkit.PostParent(embed.Ready(v.name()), embed.ReadyTarget(v.params.Parent))
		}
		if loadErr != nil {
			v.fail("This embed's scenario could not be read: " + loadErr.Error())
			return
		}
		if !v.params.NoRun {
			v.startRun(nil, nil)
		} else {
			v.say("Not run yet (run=0): waiting for the host page.")
		}
	}()
}

// loadInitial reads the scenario from #s= or ?preset=: the engine worker
// decodes, validates and checks it (viewkit.Resolve), not the page's main
// thread.
func (v *view) loadInitial() error {
	switch {
	case v.params.Share != "":
		return v.validate(viewkit.ValidateBody("s=" + v.params.Share))
	case v.params.Preset != "":
		return v.validate(viewkit.ValidateBody(v.params.Preset))
	}
	return errors.New("the address has neither #s=… nor ?preset=NAME")
}

// setScenario validates sc (resolving every preset, as the API does) and
// makes it current; on error the old scenario stays. It waits for the
// engine worker: call it from a goroutine.
func (v *view) setScenario(sc *scenario.Scenario) error {
	doc, err := scenario.Encode(sc)
	if err != nil {
		return err
	}
	return v.validate(string(doc))
}

// validate has the engine worker validate a validate request's body and
// makes its scenario current.
func (v *view) validate(body string) error {
	got, err := viewkit.Resolve(body)
	if err != nil {
		return err
	}
	r := got.Resolved
	cpus, err := site.MachineCPUs(r.Machine)
	if err != nil {
		return &scenario.Error{Path: "machine", Msg: err.Error()}
	}
	v.sc, v.doc, v.share, v.cpus, v.rname = got.Doc, got.Canonical, got.Share, cpus, r.Name
	v.words = viewkit.WordsFor(r.Machine)
	v.title.SetTextContent(v.name())
	v.link.SetAttribute("href", v.playgroundLink())
	return nil
}

func (v *view) name() string {
	if v.sc == nil {
		return ""
	}
	if v.rname != "" {
		return v.rname
	}
	return v.sc.Preset
}

func (v *view) playgroundLink() string {
	u, err := embed.PlaygroundURL(v.loc.Base(), "s="+v.share)
	if err != nil {
		return v.loc.Origin + v.loc.Path
	}
	return u
}

func (v *view) say(text string) {
	v.status.SetAttribute("class", "embed-status small muted")
	v.status.SetTextContent(text)
}

func (v *view) fail(text string) {
	v.status.SetAttribute("class", "embed-status small notice error")
	v.status.SetAttribute("data-state", "failed")
	v.status.SetTextContent(text)
}

// onMessage handles one window message (inside the event: no blocking).
func (v *view) onMessage(m viewkit.Message) {
	if !m.FromParent || !embed.OriginAllowed(m.Origin, v.params.Parent) || m.Data == "" {
		return
	}
	msg, err := embed.ParseMessage([]byte(m.Data))
	if errors.Is(err, embed.ErrNotOurs) || isReply(msg.Type) {
		return
	}
	target := embed.ReplyTarget(m.Origin)
	if err != nil {
		m.Reply(embed.Error(msg.ID, err), target)
		return
	}
	switch msg.Type {
	case embed.TypePing:
		m.Reply(embed.Ready(v.name()), target)
	case embed.TypeSet:
		go func() { // the engine worker validates it: not inside the event
			sc, err := msg.ScenarioDoc(v.ps)
			if err == nil {
				err = v.setScenario(sc)
			}
			if err != nil {
				m.Reply(embed.Error(msg.ID, err), target)
				return
			}
			m.Reply(embed.Ack(msg.ID, v.name(), v.playgroundLink()), target)
			if msg.Run {
				v.startRun(msg.ID, func(b []byte) { m.Reply(b, target) })
			}
		}()
	case embed.TypeRun:
		if v.sc == nil {
			m.Reply(embed.Error(msg.ID, errors.New("there is no scenario to run; send schedplay:set first")), target)
			return
		}
		v.startRun(msg.ID, func(b []byte) { m.Reply(b, target) })
	}
}

// startRun simulates the current scenario with its timeline; reply (nil
// for the run on load) receives progress and the result or error. A run
// in flight is cancelled by the engine glue and answered with an error.
func (v *view) startRun(id json.RawMessage, reply func([]byte)) {
	v.runSeq++
	seq := v.runSeq
	doc := v.doc
	v.say("Running…")
	v.figs.SetAttribute("data-status", "running")
	if reply != nil {
		reply(embed.Progress(id, 0))
	}
	go func() {
		r := viewkit.Fetch("POST", "/api/v1/simulate", viewkit.SimulateBody(doc, nil, true))
		var res *sim.Result
		var err error
		switch {
		case r.Cancelled:
			err = errors.New("cancelled by a newer run")
		case !r.OK():
			err = r.Errors()
		default:
			res, err = viewkit.DecodeResult(r.Body)
		}
		if err != nil {
			if reply != nil {
				reply(embed.Error(id, err))
			}
			if seq == v.runSeq {
				v.figs.SetAttribute("data-status", "failed")
				v.fail("The run failed: " + err.Error())
			}
			return
		}
		if reply != nil {
			reply(embed.Progress(id, 1))
			reply(embed.Result(id, res, v.playgroundLink()))
		}
		if seq == v.runSeq {
			v.show(res)
		}
	}()
}

// show renders a result: figures and the timeline.
func (v *view) show(res *sim.Result) {
	v.res = res
	b := v.b
	viewkit.Clear(v.figs)
	for _, f := range Figures(res, v.words.SMT()) {
		d := b.El(v.figs, "div", "fig")
		d.SetID(f.ID)
		b.Text(d, "dt", "", f.Label)
		b.Text(d, "dd", "", f.Value)
	}
	v.figs.SetAttribute("data-status", "done")
	for _, w := range res.Warnings {
		b.Text(v.figs, "p", "small warn", "warning: "+w)
	}
	v.say("")
	v.tl.SetData(res.Timeline, v.cpus)
	v.tl.SetWords(v.words)
	v.t0, v.t1 = 0, 0
	if res.Timeline != nil {
		v.t1 = res.Timeline.EndNs
	}
	viewkit.Frame(v.draw)
}

func (v *view) draw() {
	if v.res == nil || v.res.Timeline == nil {
		return
	}
	v.tl.SetWindow(v.t0, v.t1, v.res.Timeline.EndNs)
	v.tl.Draw()
}

//go:build js && wasm

package compareview

import (
	"encoding/json"
	"fmt"

	"honnef.co/go/js/dom/v2"

	"schedplay/engine/compare"
	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/engine/topo"
	"schedplay/presets"
	"schedplay/site"
	"schedplay/site/exportmenu"
	"schedplay/site/viewkit"
	"schedplay/site/viewkit/canvastl"
)

// view is the mounted compare page.
type view struct {
	b      *viewkit.B
	root   dom.HTMLElement
	status dom.HTMLElement
	ps     *presets.Set
	req    Request
	sc     *scenario.Scenario
	seed   presets.Preset // the seed scenario sc matched (SeedOf), if any
	doc    []byte         // the scenario document both sides start from
	// sides are A and B (a policy or a variant); pa and pb their labels,
	// genLabels the labels with the fair.c generation in effect on each
	// (SideLabel), names their names in the address ("variant:NAME" for a
	// variant).
	sides     [2]compare.Side
	names     [2]string
	pa, pb    string
	genLabels [2]string
	cpus      []site.LaneCPU
	cores     [][]topo.CPU // each core's CPUs
	cancel    dom.HTMLElement
	// resolved is side A's resolved scenario (the machine is the same for
	// both sides: a side changes the policy or, for a variant, the
	// workload).
	resolved *scenario.Resolved
	res      [2]*sim.Result
	table    *compare.Table
	text     string
	tls      [2]*canvastl.Timeline
	t0, t1   int64
	end      int64
	// sections filled as replies arrive
	tableBox, tlBox, divBox, deltaBox, exportBox dom.HTMLElement
	sw                                           *sweep
	kernelBox                                    dom.HTMLElement
	kernelMap                                    viewkit.KernelMap // docs/KERNEL-MAP.md, once fetched
}

// Start mounts the compare view when the page address asks for it
// (?compare=…) and reports whether it did. wasm/ui/main.go calls it before
// building the playground.
func Start() bool { return viewkit.StartIf(Wanted, Mount) }

// Mount builds the compare view on #root for the address l and starts
// loading (runs happen in a goroutine).
func Mount(l viewkit.Location) {
	viewkit.EnsureCSS()
	v := &view{b: viewkit.NewB(), root: viewkit.Root()}
	v.root.SetAttribute("class", "cmp-page")
	v.status = v.b.PageHeader(v.root, "compare two policies over the same seeds", "cmp-status")
	// Any job of the page can be cancelled (issue 17): the comparison and
	// its timelines are the engine's runs, stopped by replacing its worker.
	v.cancel = v.b.Button(v.root.QuerySelector("header.top"), "cmp-cancel", "", "Cancel", func() { viewkit.Cancel() })
	v.cancel.SetAttribute("hidden", "")
	viewkit.Ready(v.root)
	req, err := ParseURL(l.Search, l.Hash)
	v.req = req
	if err != nil {
		v.fail(err.Error())
		v.recovery(l)
		return
	}
	go v.load(l)
}

func (v *view) say(text string)  { viewkit.SetStatus(v.status, viewkit.StatusRunning, text) }
func (v *view) fail(text string) { viewkit.SetStatus(v.status, viewkit.StatusFailed, text) }

// load resolves the scenario, then runs the comparison and both timelines
// one request after the other (a run request cancels the one in flight).
func (v *view) load(l viewkit.Location) {
	ps, err := presets.Load()
	if err != nil {
		v.fail("presets: " + err.Error())
		return
	}
	v.ps = ps
	// The engine worker decodes and validates the link first (its
	// topology is built there, the browser's budget checked), never the
	// page's main thread: a link over the budget is refused at once.
	viewkit.StartLink()
	got, err := viewkit.Resolve(viewkit.ValidateBody(v.req.Ref()))
	viewkit.EndLink()
	viewkit.Yield() // the drawing in a task of its own
	if err != nil {
		v.fail("This comparison cannot be opened: " + err.Error())
		v.recovery(l)
		return
	}
	sc, seed, a, b, err := v.req.loadDoc(got.Doc, ps)
	if err != nil {
		v.fail("This comparison cannot be opened: " + err.Error())
		v.recovery(l)
		return
	}
	v.sc, v.seed, v.sides, v.pa, v.pb = sc, seed, [2]compare.Side{a, b}, a.Label, b.Label
	v.genLabels = [2]string{SideLabel(sc, ps, a), SideLabel(sc, ps, b)}
	v.names = [2]string{v.req.A, v.req.B}
	if v.names[0] == "" {
		v.names = [2]string{a.Label, b.Label} // the seed scenario's pair, or DefaultPair
	}
	if v.doc, err = scenario.Encode(sc); err != nil {
		v.fail(err.Error())
		return
	}
	if err := v.resolveMachine(got.Resolved); err != nil {
		v.fail("The scenario does not resolve: " + err.Error())
		v.recovery(l)
		return
	}
	v.header(l)
	v.cancel.RemoveAttribute("hidden")
	defer v.cancel.SetAttribute("hidden", "")
	v.say(fmt.Sprintf("Comparing %s and %s over the same seeds…", v.pa, v.pb))
	r := viewkit.Fetch("POST", "/api/v1/compare", viewkit.CompareBody(v.doc, a, b, ""))
	if !r.OK() {
		v.fail("The comparison failed: " + r.ErrorText())
		return
	}
	var reply struct {
		Table *compare.Table `json:"table"`
		Text  string         `json:"text"`
	}
	if err := json.Unmarshal([]byte(r.Body), &reply); err != nil || reply.Table == nil {
		v.fail(fmt.Sprintf("the comparison's reply could not be read: %v", err))
		return
	}
	v.table, v.text = reply.Table, reply.Text
	v.renderTable()
	for i, side := range v.sides {
		name := side.Label
		v.say(fmt.Sprintf("Recording the timeline of %s (repetition 0)…", name))
		r := viewkit.Fetch("POST", "/api/v1/simulate", viewkit.SimulateBody(v.doc, side.Set, true))
		if !r.OK() {
			v.fail(fmt.Sprintf("The run of %s failed: %s", name, r.ErrorText()))
			return
		}
		res, err := viewkit.DecodeResult(r.Body)
		if err != nil {
			v.fail("the engine's reply could not be read: " + err.Error())
			return
		}
		v.res[i] = res
	}
	v.renderTimelines()
	v.renderDivergence()
	v.renderDeltas()
	v.renderExports()
	v.sw.enable(true)
	viewkit.SetStatus(v.status, viewkit.StatusDone, fmt.Sprintf("Done: %d repetitions of each policy, seeds %s.", v.table.Reps, seedText(v.table.Seeds)))
	if v.req.Sweep != "" {
		v.sw.startFromURL(v.req.Sweep)
	}
}

// resolveMachine numbers the machine's CPUs (lanes) and its cores' CPUs
// (for the deltas) from the scenario the engine worker resolved: the
// machine is the same for both sides (a side changes the policy or the
// workload).
func (v *view) resolveMachine(r *scenario.Resolved) error {
	v.resolved = r
	v.cores = CoreCPUs(r.Machine)
	var err error
	v.cpus, err = site.MachineCPUs(r.Machine)
	return err
}

func seedText(s []uint64) string {
	switch len(s) {
	case 0:
		return "–"
	case 1:
		return fmt.Sprint(s[0])
	}
	return fmt.Sprintf("%d–%d", s[0], s[len(s)-1])
}

// header adds the title, the policies and the links, then the empty
// sections in page order.
func (v *view) header(l viewkit.Location) {
	b := v.b
	top := b.El(v.root, "section", "cmp-head panel")
	name := v.resolved.Name
	if name == "" {
		name = v.sc.Preset
	}
	h := b.Text(top, "h2", "", name)
	h.SetID("cmp-scenario")
	p := b.El(top, "p", "")
	// Each side with the fair.c generation in effect on it.
	b.Text(p, "span", "side-a-text", "A = "+v.genLabels[0]).SetID("cmp-side-a")
	b.Text(p, "span", "", "  vs  ")
	b.Text(p, "span", "side-b-text", "B = "+v.genLabels[1]).SetID("cmp-side-b")
	share, err := scenario.EncodeShare(v.sc)
	links := b.El(top, "p", "small")
	pg := b.Link(links, "", PlaygroundLink(l.Origin, l.Path, share), "Open the scenario in the playground")
	pg.SetID("cmp-playground")
	if err == nil {
		b.Text(links, "span", "muted", " · ")
		self := b.Link(links, "", Link(l.Origin+l.Path+l.Search, v.names[0], v.names[1], share), "Link to this comparison")
		self.SetID("cmp-link")
		v.pickers(top, l, share, v.sc, v.seed, v.names)
	}
	v.tableBox = b.El(v.root, "section", "panel cmp-table-box")
	v.tableBox.SetID("cmp-table-box")
	v.tlBox = b.El(v.root, "section", "panel cmp-timelines")
	v.tlBox.SetID("cmp-timelines")
	v.divBox = b.El(v.root, "section", "panel cmp-divergence")
	v.divBox.SetID("divergence")
	v.deltaBox = b.El(v.root, "section", "panel cmp-deltas")
	v.deltaBox.SetID("deltas")
	v.sw = newSweep(v, b.El(v.root, "section", "panel cmp-sweep"))
	v.exportBox = b.El(v.root, "section", "panel cmp-exports")
	v.exportBox.SetID("cmp-exports")
	for _, s := range []dom.HTMLElement{v.tableBox, v.tlBox, v.divBox, v.deltaBox} {
		b.Text(s, "p", "muted small", "waiting for the runs…")
	}
}

// renderExports mounts an export menu per side.
func (v *view) renderExports() {
	viewkit.Clear(v.exportBox)
	v.b.Text(v.exportBox, "h2", "", "Export")
	for i, side := range v.sides {
		i, side, name := i, side, side.Label
		row := v.b.El(v.exportBox, "div", "cmp-export-row")
		v.b.Text(row, "span", []string{"side-a-text", "side-b-text"}[i], []string{"A", "B"}[i]+" = "+v.genLabels[i])
		exportmenu.Mount(row, []string{"export-a", "export-b"}[i], func() exportmenu.Source {
			doc := v.doc
			if sc, err := scenario.Apply(v.sc, v.ps, side.Set); err == nil {
				if b, err := scenario.Encode(sc); err == nil {
					doc = b
				}
			}
			return exportmenu.Source{Scenario: doc, Result: v.res[i], Suffix: "-" + exportmenu.FileBase(name)}
		})
	}
}

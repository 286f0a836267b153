//go:build js && wasm

package playground

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"syscall/js"
	"time"

	"honnef.co/go/js/dom/v2"

	"schedplay/engine/sim"
	"schedplay/engine/topo"
	"schedplay/site"
	"schedplay/site/viewkit"
)

// storageKey holds the last scenario across reloads; orientKey says the
// first-visit orientation was dismissed.
const (
	storageKey = "schedplay.last-scenario"
	orientKey  = "schedplay.oriented"
)

// App owns the page: the State, the DOM panels and the engine requests.
// Event handlers only dispatch actions; rendering never mutates State.
type App struct {
	state  State
	doc    dom.HTMLDocument
	root   dom.HTMLElement
	panels map[string]*panel
	queued bool
	dark   bool
	tl     *timelineView
	global []js.Func
	runSeq int
	urlDoc string // canonical scenario the URL currently shows
	editAt float64
	// editDrawn says the first picture of the edit at editAt (repetition
	// 0 on a large machine, else the result) is drawn.
	editDrawn bool
	gotRes    bool
	// gotPreview: a provisional (repetition 0) result was drawn once.
	gotPreview bool
	// chartsHeld is the result whose charts were held back one frame
	// (renderCharts).
	chartsHeld *sim.Result
	renders    int
	// entryPreset is ?preset=NAME from the address the page opened with,
	// opened once the catalog arrives.
	entryPreset string
	// the topology views the engine worker built (topologyView), for
	// the current machine and policy, and the PE the drawing highlights
	topo  topoCache
	peSel int
	// the machine and its CPUs (machine()), by machine section
	machineVal topo.Machine
	cpusKey    string
	cpusVal    []site.LaneCPU
	cpusErr    error

	// genFlagsOpen keeps the policy editor's "What each generation sets"
	// expanded across its re-renders.
	genFlagsOpen bool
	// policySumKey is the scenario (and policySumCat the catalog) whose
	// policy summary (policySum) the figures header shows.
	policySumKey, policySum string
	policySumCat            *site.Catalog

	// draftsSaved is the drafts JSON last written to draftsKey.
	draftsSaved string

	// specName is the seed link whose quick first run index.mjs started
	// while the page booted (until the first run adopts or drops it).
	specName string
	// holdUntil (ms) defers renders while a re-run that is likely to
	// answer within renderHoldMs is pending, so the page draws once, with
	// the result, instead of a "running" frame first; held says a render
	// waits for the release.
	holdUntil float64
	held      bool
	// urlDirty says an edit's URL write (replaceState) waits for the
	// held render.
	urlDirty bool
	// scenarioHeld is the scenario saveScenario holds back until the
	// page's first result is drawn.
	scenarioHeld string
	// liveEdit says the run being started re-runs an edit (EditField,
	// EditText) of the scenario whose finished result the page shows.
	liveEdit bool
	// jsonOwn is the scenario the JSON tab's text last applied (the text
	// is not rebuilt for it); jsonSeq counts its keystrokes.
	// embedOpen shows the Embed dialog.
	embedOpen bool
	// orient shows the first-visit orientation (until dismissed).
	orient    bool
	jsonOwn   string
	jsonSeq   int
	jsonShown string // the scenario the JSON text was last built from
	// shown lists the field paths the editor panel's last build showed
	// (its issues are at those fields; the rest are listed below them).
	shown []string
	// drawWaiters are closed after the next render (nextDrawn).
	drawWaiters []chan struct{}
	// warmed says the engine workers were asked to start (warmEngine).
	warmed bool
	// focusID is, while update builds a panel, the id of the element
	// that had the focus in it (a sliced build builds its row at once).
	focusID string
}

// renderHoldMs bounds how long a re-run holds the page's renders.
const renderHoldMs = 120

// panel is a region of the page rebuilt only when its signature changes.
type panel struct {
	el    dom.HTMLElement
	sig   string
	funcs []js.Func
}

// New builds the app on the #root element.
func New() *App {
	d := dom.GetWindow().Document().(dom.HTMLDocument)
	a := &App{
		state:  NewState(),
		doc:    d,
		root:   d.GetElementByID("root").(dom.HTMLElement),
		panels: map[string]*panel{},
		dark:   prefersDark(),
	}
	failed = func(msg string) {
		a.dispatch(SetNotice{Notice: Notice{Kind: "error", Text: "Something went wrong in the page (" + msg + "); please report it with the link."}})
	}
	a.buildSkeleton()
	a.global = append(a.global, onSchemeChange(func() { a.dark = prefersDark(); a.tl.dirty = true; a.scheduleRender() }))
	a.global = append(a.global, dom.GetWindow().AddEventListener("popstate", false, func(dom.Event) { a.loadFromURL(false) }))
	a.global = append(a.global, dom.GetWindow().AddEventListener("resize", false, func(dom.Event) { a.tl.dirty = true; a.scheduleRender() }))
	a.global = append(a.global, dom.GetWindow().AddEventListener("keydown", false, guard(a.onUndoKey)))
	return a
}

// Start loads the scenario named by the URL (or the last one, or the
// default) with the embedded presets and runs the first simulation.
func (a *App) Start() {
	if !strings.HasPrefix(locationHash(), "#s=") {
		a.entryPreset = queryParam("preset")
	}
	// The orientation is for a first visit to the page itself: never on a
	// shared scenario (#s=, ?preset=) nor once dismissed.
	a.orient = !strings.HasPrefix(locationHash(), "#s=") && a.entryPreset == "" && viewkit.StorageGet(orientKey) == ""
	a.loadCatalog()
	a.loadFromURL(true)
}

// Release drops every listener (teardown).
func (a *App) Release() {
	releaseAll(a.global)
	for _, p := range a.panels {
		releaseAll(p.funcs)
	}
	a.tl.release()
}

// dispatch is the only way State changes: reduce, re-run the engine if the
// scenario changed, write the URL if it changed, schedule a render.
func (a *App) dispatch(act Action) {
	switch act.(type) {
	case Zoom, Hover, ScrollRows, SetAllRows, SelectCPU, SetTab, SelectGroup, SetNotice, SetLive, Tick,
		FindTasks, JumpCPU, SetExplained,
		RunStarted, RunPartial, RunDone, RunFailed, Validated, CatalogLoaded:
		// View, run-status and catalog actions: they never change the
		// scenario or URL (the catalog arrives at boot, before the
		// address is read: writing it then would lose a shared link).
		a.state = Reduce(a.state, act)
		a.scheduleRender()
		return
	}
	before := a.state.Doc.Canonical()
	shown := a.state.Run.Status == StatusDone
	a.state = Reduce(a.state, act)
	after := a.state.Doc.Canonical()
	changed := before != after
	a.saveDrafts()
	if changed {
		switch act.(type) {
		case EditField, EditText, EditDoc, SelectPreset:
			a.editAt = nowMs()
			a.editDrawn = false
			a.liveEdit = shown
		}
		defer func() { a.liveEdit = false }()
		if ld, ok := act.(LoadDoc); !ok || !ld.Fallback {
			defer a.saveScenario(after)
		}
		_, cpuErr := a.cpus()
		switch act.(type) {
		case SelectScenario, LoadDoc:
			a.run() // an explicit choice always shows its result
		case RestoreRun:
			if a.state.Run.ResultDoc != after {
				a.run() // its result was not kept
			}
		default:
			// Live re-runs every machine (issue 13): a large one shows its
			// first repetition first (ProvisionalDoc), the next edit
			// cancels a run still going (engineFetch replaces its worker),
			// and a scenario over the browser's budget is refused by the
			// engine with its reason.
			if a.state.Live || (cpuErr != nil && a.state.Catalog != nil) {
				a.run() // (a machine too large to run is refused at once, with the reason)
			} else {
				// Not re-run: ask the engine to check the edit so problems
				// show at their fields now (a run reports them itself).
				a.spawn(func() { a.validate(after) })
			}
		}
	}
	if a.entryPreset == "" && (changed || a.urlDoc != after) {
		_, push := act.(SelectScenario)
		if _, p := act.(SelectPreset); p {
			push = true
		}
		if a.holdUntil > 0 && !push {
			// Encoding the link takes the main thread for a while: write
			// an edit's link after the re-run's result is drawn (a
			// discrete choice gets its history entry at once).
			a.urlDirty = true
		} else {
			a.urlDirty = false
			a.syncURL(push)
		}
	}
	a.scheduleRender()
}

// onUndoKey: Ctrl-Z (⌘Z) undoes the last edit of the scenario, Ctrl-Shift-Z
// or Ctrl-Y redoes it; inside a text box the browser's own undo of its text
// applies instead.
func (a *App) onUndoKey(ev dom.Event) {
	if !evBool(ev, "ctrlKey") && !evBool(ev, "metaKey") {
		return
	}
	if t := ev.Target(); t != nil {
		switch t.TagName() {
		case "INPUT", "TEXTAREA":
			if ty := t.GetAttribute("type"); ty != "checkbox" && ty != "radio" {
				return
			}
		}
	}
	key := ev.(*dom.KeyboardEvent).Key()
	switch {
	case (key == "z" || key == "Z") && evBool(ev, "shiftKey"), key == "y":
		a.dispatch(Redo{})
	case key == "z":
		a.dispatch(Undo{})
	default:
		return
	}
	ev.PreventDefault()
}

// syncURL writes #s= for the current scenario: pushState for discrete
// choices (gallery, presets) so back/forward restore them, replaceState for
// edits. This is the only place the app writes history.
func (a *App) syncURL(push bool) {
	c := a.state.Doc.Canonical()
	if c == a.urlDoc {
		return
	}
	u := locationBase()
	if i := strings.Index(u, "?"); i >= 0 {
		// ?preset= was only the entry point; the fragment now says it all.
		q, _ := url.ParseQuery(u[i+1:])
		q.Del("preset")
		u = u[:i]
		if enc := q.Encode(); enc != "" {
			u += "?" + enc
		}
	}
	u += "#" + site.EncodeFragment(a.state.Doc)
	if push && a.urlDoc != "" {
		historyPush(u)
	} else {
		historyReplace(u)
	}
	a.urlDoc = c
}

// loadFromURL reads #s= (or ?preset=, or localStorage, or the default):
// the link is decoded here (bounded by the share link's limits) and run by
// the engine worker, which validates it, builds its topology and refuses
// it at once when it is over the browser's budget.
func (a *App) loadFromURL(first bool) {
	defer viewkit.EndLink() // the page then draws, in a frame of its own
	hash := locationHash()
	d, ok, err := site.DecodeFragment(hash)
	switch {
	case ok && err == nil:
		a.urlDoc = d.Canonical()
		a.dispatch(LoadDoc{Doc: d})
	case ok:
		a.urlDoc = ""
		a.dispatch(LoadDoc{Doc: site.DefaultDoc(), Fallback: true, Notice: Notice{Kind: "error",
			Text: "This link's scenario could not be read (" + err.Error() + "); showing the default scenario instead (your saved scenario is kept).", Detail: hash}})
	case first && a.entryPreset != "":
		name := a.entryPreset
		a.entryPreset = ""
		if c := a.state.Catalog; c != nil {
			if _, ok := c.ScenarioDoc(name); ok {
				a.specName = name                      // its first run may be under way already
				a.dispatch(SelectScenario{Name: name}) // runs it
				break
			}
		}
		a.dispatch(LoadDoc{Doc: site.DefaultDoc(), Fallback: true, Notice: Notice{Kind: "error", Text: "There is no scenario preset named “" + name + "”; showing the default scenario."}})
	case first:
		if last := viewkit.StorageGet(storageKey); last != "" {
			if d, err := site.ParseDoc([]byte(last)); err == nil {
				a.dispatch(LoadDoc{Doc: d})
				break
			}
		}
		a.dispatch(LoadDoc{Doc: site.DefaultDoc()})
	default:
		a.dispatch(LoadDoc{Doc: site.DefaultDoc()})
	}
	a.restoreDrafts()
	if first && a.state.Run.Status == StatusIdle {
		a.run()
	}
}

// draftsKey holds the editors' texts that do not parse yet (State.Drafts)
// with the scenario they were typed on, so that they survive a reload.
const draftsKey = "schedplay.drafts"

// savedDrafts is draftsKey's JSON.
type savedDrafts struct {
	Doc    string            `json:"doc"`
	Drafts map[string]string `json:"drafts"`
}

// saveDrafts writes the editors' unparsed texts when they changed (and
// removes them once none is left).
func (a *App) saveDrafts() {
	var text string
	if len(a.state.Drafts) > 0 {
		b, _ := json.Marshal(savedDrafts{Doc: a.state.Doc.Canonical(), Drafts: a.state.Drafts})
		text = string(b)
	}
	if text != a.draftsSaved {
		a.draftsSaved = text
		viewkit.StorageSet(draftsKey, text)
	}
}

// restoreDrafts puts back the unparsed editor texts saved for the scenario
// now shown (a reload, the same link), each with its parse error; texts
// typed on another scenario are left alone.
func (a *App) restoreDrafts() {
	var saved savedDrafts
	if json.Unmarshal([]byte(viewkit.StorageGet(draftsKey)), &saved) != nil || len(saved.Drafts) == 0 ||
		saved.Doc != a.state.Doc.Canonical() {
		return
	}
	paths := make([]string, 0, len(saved.Drafts))
	for p := range saved.Drafts {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if p == DocPath {
			a.dispatch(EditDoc{Text: saved.Drafts[p]})
		} else {
			a.dispatch(EditText{Path: p, Text: saved.Drafts[p]})
		}
	}
}

func queryParam(k string) string {
	q, _ := url.ParseQuery(strings.TrimPrefix(locationSearch(), "?"))
	return q.Get(k)
}

// loadCatalog reads the presets. They are embedded in the page's own
// wasm (the presets package, built from the same commit as the engine, so
// the same list GET /api/v1/presets returns): a seed link's run starts as
// soon as the page has booted, without a round trip to the engine first.
func (a *App) loadCatalog() {
	t0 := nowMs()
	c, err := site.EmbeddedCatalog()
	if err != nil {
		a.dispatch(CatalogLoaded{Err: err.Error()})
		return
	}
	setPerf("catalogMs", nowMs()-t0)
	a.dispatch(CatalogLoaded{Catalog: c})
}

// stepRefusal says briefly why the Step button cannot open this scenario
// ("" when it can), and at length (the step view's own message): the step
// view's rule, site.StepRefusal.
func stepRefusal(cpus []site.LaneCPU, err error) (short, long string) {
	if err != nil {
		return "step mode needs a valid machine", "step mode needs a valid machine: see the machine's problems"
	}
	if e := site.StepRefusal(len(cpus)); e != nil {
		return fmt.Sprintf("step mode shows machines of up to %d CPUs", site.MaxStepCPUs), e.Error()
	}
	return "", ""
}

// run starts a simulation of the current scenario; a running one is
// cancelled by the engine glue (the worker is replaced).
func (a *App) run() {
	m, cpus, cpuErr := a.machine()
	if cpuErr != nil && a.state.Catalog != nil {
		// The page cannot lay this machine out: the engine's validator
		// (the CLI's, in the worker) says why, every problem at its field.
		a.runSeq++
		seq, doc := a.runSeq, a.state.Doc.Canonical()
		a.dispatch(RunStarted{Seq: seq})
		a.spawn(func() { a.refuse(seq, doc, cpuErr) })
		return
	}
	small := isSmall(cpus, cpuErr)
	words := viewkit.WordsFor(m)
	a.runSeq++
	seq := a.runSeq
	doc := a.state.Doc.Canonical()
	t0 := nowMs()
	if a.liveEdit && a.gotRes && small {
		// Only an edit of a shown result: a choice, a retry after a
		// failure or a cancel shows "running" at once.
		a.holdRenders(t0 + renderHoldMs)
	}
	a.dispatch(RunStarted{Seq: seq})
	setPerf("runStartAt", t0)
	if a.editAt > 0 {
		setPerf("editToPostMs", t0-a.editAt)
	}
	// A large scenario with several repetitions shows repetition 0 first,
	// without its decision records (progressive refinement); the full run
	// then brings every repetition and repetition 0's decisions. Small ones
	// keep the one-request live path.
	body, reps, provisional := firstRequest(a.state, small)
	// A seed link's first run may be answered already: by the precomputed
	// first frame index.mjs fetches (firstframe.go), or else by the quick
	// first run index.mjs started while the page booted, when the first run
	// is provisional.
	frame := takeFirstFrame(a.specName)
	spec := ""
	if provisional {
		spec = a.specName
	}
	a.specName = ""
	pending := takeSpeculative(spec) // undefined (and dropped) unless it matches
	if pending.IsUndefined() && frame.IsUndefined() {
		// Post now, before the URL and storage work of this dispatch.
		pending = engineStart("POST", "/api/v1/simulate", body)
	} else if !pending.IsUndefined() {
		setPerf("speculative", 1)
	}
	// firstReply waits for this run's first reply: the first frame when it
	// answers exactly this request, else the engine's.
	firstReply := func() engineReply {
		if !frame.IsUndefined() {
			text, _ := await(frame)
			if reply, ok := firstFrameReply(text.String(), body); ok {
				setPerf("firstFrame", 1)
				return engineReply{Status: 200, Body: reply}
			}
			if text.String() != "" || pending.IsUndefined() {
				// A first frame of another request: index.mjs did not start
				// a quick run (its promise resolves to null).
				pending = engineStart("POST", "/api/v1/simulate", body)
			}
		}
		return engineWait(pending)
	}
	a.spawn(func() { a.tick(seq, t0) })
	a.spawn(func() {
		if provisional {
			r := firstReply()
			if r.Cancelled || a.runSeq != seq { // replaced by a newer run or a cancel
				a.dispatch(RunFailed{Seq: seq, Cancelled: true})
				return
			}
			setPerf("provEngineMs", r.Ms)
			setPerf("provBytes", float64(len(r.Body)))
			setPerf("provReplyAt", nowMs())
			if r.Status == 200 {
				t1 := nowMs()
				res, err := decodeResult(r.Body)
				setPerf("provDecodeMs", nowMs()-t1)
				if err == nil {
					setPerf("provisionalAt", nowMs())
					drawn := a.nextDrawn()
					a.dispatch(RunPartial{Seq: seq, Result: res, Doc: doc, Of: reps, CPUs: cpus, Words: words})
					// The full run starts once the first picture is on
					// screen: a worker running it beside the page's
					// decode and drawing took the cores the drawing
					// needed (two on a small computer), and the first
					// picture came later by more than the full run gains.
					waitPainted(drawn)
					if a.runSeq != seq || a.state.Run.Seq != seq || a.state.Run.Status != StatusRunning {
						return // replaced by a newer run, or cancelled meanwhile
					}
				}
			}
			pending = engineStart("POST", "/api/v1/simulate", simulateBody(doc)) // it reports its own errors
			setPerf("fullPostAt", nowMs())
			frame = js.Undefined()
		}
		r := firstReply()
		setPerf("roundTripMs", nowMs()-t0)
		defer a.releaseRenders()
		if r.Cancelled {
			a.dispatch(RunFailed{Seq: seq, Cancelled: true})
			return
		}
		if r.Status != 200 {
			e := apiError(r)
			issues := apiIssues(r)
			if len(issues) > 0 && a.state.Doc.Canonical() == doc {
				a.dispatch(Validated{Issues: issues})
			}
			a.dispatch(RunFailed{Seq: seq, Message: e.Message, Path: e.Path, Invalid: r.Status == 400 && len(issues) > 0})
			return
		}
		setPerf("engineMs", r.Ms)
		setPerf("replyBytes", float64(len(r.Body)))
		t1 := nowMs()
		res, err := decodeResult(r.Body)
		setPerf("decodeMs", nowMs()-t1)
		if err != nil {
			a.dispatch(RunFailed{Seq: seq, Message: "the engine's reply could not be read: " + err.Error()})
			return
		}
		setPerf("replyAt", nowMs())
		a.dispatch(RunDone{Seq: seq, Result: res, Doc: doc, ElapsedMs: nowMs() - t0, CPUs: cpus, Words: words})
	})
}

// refuse ends run seq of a machine the page cannot lay out (cpuErr) with
// the validator's issues; only if the validator accepts the scenario does
// the page's own reason show.
func (a *App) refuse(seq int, doc string, cpuErr error) {
	r := engineFetch("POST", "/api/v1/validate", doc)
	if a.runSeq != seq {
		return
	}
	issues := apiIssues(r)
	if len(issues) == 0 {
		a.dispatch(RunFailed{Seq: seq, Message: "Not run: " + cpuErr.Error(), Path: "machine"})
		return
	}
	if a.state.Doc.Canonical() == doc {
		a.dispatch(Validated{Issues: issues})
	}
	a.dispatch(RunFailed{Seq: seq, Message: issues[0].Message, Path: issues[0].Path, Invalid: true})
}

// tick shows the elapsed time of a long run (the engine reports no
// progress of its own) until request seq ends.
func (a *App) tick(seq int, t0 float64) {
	for {
		time.Sleep(250 * time.Millisecond)
		if a.state.Run.Seq != seq || a.state.Run.Status != StatusRunning {
			return
		}
		a.dispatch(Tick{Seq: seq, Ms: nowMs() - t0})
	}
}

// cancel stops the running simulation (or, between a large machine's
// first picture and its full run, the full run it was about to start).
func (a *App) cancel() {
	if engineCancel() || a.state.Run.Status == StatusRunning {
		a.dispatch(RunFailed{Seq: a.state.Run.Seq, Message: "Cancelled."})
	}
}

// apiIssue is the API's error body {"error": {"message", "path"}}.
type apiIssue struct {
	Message string `json:"message"`
	Path    string `json:"path"`
}

func apiError(r engineReply) apiIssue {
	var e struct {
		Error  json.RawMessage `json:"error"`
		Errors []apiIssue      `json:"errors"`
	}
	if err := json.Unmarshal([]byte(r.Body), &e); err == nil {
		var one apiIssue
		if json.Unmarshal(e.Error, &one) == nil && one.Message != "" {
			return one
		}
		var s string
		if json.Unmarshal(e.Error, &s) == nil && s != "" {
			return apiIssue{Message: s}
		}
		if len(e.Errors) > 0 {
			return e.Errors[0]
		}
	}
	msg := strings.TrimSpace(r.Body)
	if len(msg) > 300 {
		msg = msg[:300] + "…"
	}
	if msg == "" {
		msg = "the engine did not answer"
	}
	return apiIssue{Message: msg}
}

// validate asks POST /api/v1/validate about a scenario and shows the
// issues at their fields.
func (a *App) validate(doc string) {
	r := engineFetch("POST", "/api/v1/validate", doc)
	if a.state.Doc.Canonical() != doc {
		return // edited again meanwhile
	}
	a.dispatch(Validated{Issues: apiIssues(r)})
}

// apiIssues lists the located errors of an API reply (none for a 200).
func apiIssues(r engineReply) []Issue {
	if r.Status == 200 {
		return nil
	}
	var body struct {
		Errors []apiIssue `json:"errors"`
	}
	_ = json.Unmarshal([]byte(r.Body), &body)
	list := body.Errors
	if len(list) == 0 {
		list = append(list, apiError(r))
	}
	issues := make([]Issue, 0, len(list))
	for _, x := range list {
		issues = append(issues, Issue{Path: x.Path, Message: x.Message})
	}
	return issues
}

// spawn runs f on its own goroutine; a panic there is shown on the page
// instead of ending the Go program (and with it the page).
func (a *App) spawn(f func()) {
	go func() {
		defer func() {
			if r := recover(); r != nil {
				consoleError(fmt.Sprint("schedplay: panic: ", r))
				failed(fmt.Sprint(r))
			}
		}()
		f()
	}()
}

// holdRenders defers renders until the pending run answers or until the
// deadline (ms), whichever comes first.
func (a *App) holdRenders(until float64) {
	a.holdUntil = until
	a.spawn(func() {
		time.Sleep(time.Duration((until - nowMs()) * float64(time.Millisecond)))
		if a.holdUntil == until {
			a.releaseRenders()
		}
	})
}

// releaseRenders ends a hold and draws what was held back (the held URL
// write follows the render).
func (a *App) releaseRenders() {
	a.holdUntil = 0
	if a.held {
		a.held = false
		a.scheduleRender()
	} else if a.flushDue() && !a.queued {
		a.flushURLSoon()
	}
}

// saveScenario keeps the scenario for the next visit (storageKey); until
// the page's first result is drawn the write waits with the link's
// (flushURLSoon).
func (a *App) saveScenario(doc string) {
	if a.awaitingFirstPicture() {
		a.scenarioHeld = doc
		return
	}
	a.scenarioHeld = ""
	viewkit.StorageSet(storageKey, doc)
}

// flushDue says a held link or saved scenario may be written now.
func (a *App) flushDue() bool {
	return (a.urlDirty || a.scenarioHeld != "") && a.holdUntil == 0 && !a.awaitingFirstPicture()
}

// noPictureYet says a run is going and the page has drawn no result yet:
// a large machine's editor and drawing wait (deferTopology).
func (a *App) noPictureYet() bool {
	return !a.gotPreview && !a.gotRes && a.state.Run.Status == StatusRunning
}

// awaitingFirstPicture says the run the page started at boot is going and
// no result has been drawn yet: until then the saved scenario and the
// scenario list wait for the frame after the first result (docs/speed.md).
// A run the user starts before it (a story opened from the orientation)
// gets them at once.
func (a *App) awaitingFirstPicture() bool {
	return a.noPictureYet() && a.state.Run.Seq == 1
}

// flushURLSoon writes a held URL and saved scenario in a task of its own,
// after the frame being drawn is on screen (viewkit.Yield: a Go timer
// could fire on any earlier resume of the program, before the paint).
func (a *App) flushURLSoon() {
	a.spawn(func() {
		viewkit.Yield()
		if !a.flushDue() {
			return
		}
		if doc := a.scenarioHeld; doc != "" {
			a.scenarioHeld = ""
			viewkit.StorageSet(storageKey, doc)
		}
		if a.urlDirty {
			a.urlDirty = false
			a.syncURL(false)
		}
	})
}

// warmEngine starts the engine workers (index.mjs's engineWarm) once the
// page's first result is on screen, if they are not started yet: a seed
// link drawing its precomputed first frame starts them only then.
func (a *App) warmEngine() {
	if a.warmed {
		return
	}
	a.warmed = true
	a.spawn(func() {
		viewkit.Yield() // after this frame's paint
		viewkit.Warm()
	})
}

// nextDrawn returns a channel closed once the next render has run.
func (a *App) nextDrawn() chan struct{} {
	ch := make(chan struct{})
	a.drawWaiters = append(a.drawWaiters, ch)
	return ch
}

// waitPainted waits until the render drawn (nextDrawn) closes has run and
// the browser has put it on screen (viewkit.Yield: a timer task follows
// the frame's paint). A hidden page draws no frames: a second bounds it.
func waitPainted(drawn chan struct{}) {
	select {
	case <-drawn:
	case <-time.After(time.Second):
	}
	viewkit.Yield()
}

// scheduleRender coalesces render requests into one animation frame.
func (a *App) scheduleRender() {
	if a.queued {
		return
	}
	if a.holdUntil > 0 {
		a.held = true
		return
	}
	a.queued = true
	requestFrame(func(float64) {
		a.queued = false
		defer func() {
			if r := recover(); r != nil {
				consoleError(fmt.Sprint("schedplay: render panic: ", r))
				failed(fmt.Sprint(r))
			}
		}()
		a.render()
		if a.flushDue() {
			a.flushURLSoon()
		}
	})
}

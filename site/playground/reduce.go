package playground

import (
	"reflect"

	"schedplay/engine/sim"
	"schedplay/site"
	"schedplay/site/viewkit"
)

// Action is anything dispatched to Reduce.
type Action interface{ isAction() }

// CatalogLoaded stores the presets listed by the API.
type CatalogLoaded struct {
	Catalog *site.Catalog
	Err     string
}

// LoadDoc replaces the scenario (share link, history, localStorage, gallery).
type LoadDoc struct {
	Doc    site.Doc
	Notice Notice
	// Fallback marks the default shown in place of what the address asked
	// for (a broken link, an unknown preset): it is never saved over the
	// scenario the user has in localStorage.
	Fallback bool
}

// SelectScenario opens a seed scenario preset; Variant (optional) applies one
// of its variants.
type SelectScenario struct{ Name, Variant string }

// SelectPreset swaps one section for a named preset.
type SelectPreset struct{ Kind, Name string }

// EditField sets a scenario path to a value (Delete removes it).
type EditField struct {
	Path  string
	Value any
}

// EditText is an editor's raw text for a path. AsString stores it as a
// string; Scalar (a number box) stores the JSON value it spells, else the
// text as a string, as the CLI's --set does, so the validator names the
// problem at the field and the text stays in the scenario; otherwise (a
// JSON editor) text that does not parse is kept as a draft with the
// parser's message (line and column).
type EditText struct {
	Path     string
	Text     string
	AsString bool
	Scalar   bool
}

// EditDoc is the JSON tab's text for the whole scenario: loaded when it
// parses, else kept as a draft with the parser's message (line, column).
type EditDoc struct{ Text string }

// SetTab switches the editor tab.
type SetTab struct{ Tab string }

// SelectGroup picks the workload group shown in the editor.
type SelectGroup struct{ Index int }

// RunStarted marks a new simulation request.
type RunStarted struct{ Seq int }

// RunDone delivers a result for request Seq.
type RunDone struct {
	Seq       int
	Result    *sim.Result
	Doc       string
	ElapsedMs float64
	// CPUs is the machine's CPU placement when the run started (lane layout).
	CPUs []site.LaneCPU
	// Words names the machine's core modes when the run started.
	Words viewkit.ModeWords
}

// RunPartial delivers request Seq's provisional result: repetition 0 of
// the Of repetitions still running (progressive refinement).
type RunPartial struct {
	Seq    int
	Result *sim.Result
	Doc    string
	Of     int
	CPUs   []site.LaneCPU
	Words  viewkit.ModeWords
}

// RunFailed reports a failed request (Path is the field the error names).
// Invalid says the validator refused the scenario: its issues (Validated)
// are the reason, and the header lists them as they change.
type RunFailed struct {
	Seq       int
	Message   string
	Path      string
	Cancelled bool
	Invalid   bool
}

// Validated delivers POST /api/v1/validate's issues.
type Validated struct{ Issues []Issue }

// Zoom sets the visible time window.
type Zoom struct{ T0, T1 int64 }

// Hover records the pointer over the timeline (On false = left it).
type Hover struct {
	X, Y float64
	On   bool
}

// SetAllRows toggles one row per CPU.
type SetAllRows struct{ On bool }

// ScrollRows sets the timeline's vertical offset.
type ScrollRows struct{ Y float64 }

// SelectCPU picks the CPU whose sched-domain chain the topology view shows.
type SelectCPU struct{ CPU int }

// Tick updates the elapsed time of the running request Seq.
type Tick struct {
	Seq int
	Ms  float64
}

// FindTasks highlights the slices of the tasks whose name contains Query
// ("" clears it).
type FindTasks struct{ Query string }

// JumpCPU shows one row per CPU scrolled to CPU's row (ScrollY: the
// timeline computes it from its layout) and outlines it.
type JumpCPU struct {
	CPU     int
	ScrollY float64
}

// SetExplained records the slice the explain panel shows (On false: the
// panel closed).
type SetExplained struct{ Explained Explained }

// Undo goes back to the scenario before the last edit; Redo forward again.
type Undo struct{}
type Redo struct{}

// RestoreRun shows an earlier run of the history again: its scenario and
// its result, without running it again.
type RestoreRun struct{ Index int }

// SetLive toggles live re-runs.
type SetLive struct{ On bool }

// SetNotice shows or clears (zero Notice) the page notice.
type SetNotice struct{ Notice Notice }

func (CatalogLoaded) isAction()  {}
func (LoadDoc) isAction()        {}
func (SelectScenario) isAction() {}
func (SelectPreset) isAction()   {}
func (EditField) isAction()      {}
func (EditText) isAction()       {}
func (EditDoc) isAction()        {}
func (SetTab) isAction()         {}
func (SelectGroup) isAction()    {}
func (RunStarted) isAction()     {}
func (RunDone) isAction()        {}
func (RunFailed) isAction()      {}
func (RunPartial) isAction()     {}
func (Validated) isAction()      {}
func (Zoom) isAction()           {}
func (Hover) isAction()          {}
func (SetAllRows) isAction()     {}
func (ScrollRows) isAction()     {}
func (SetLive) isAction()        {}
func (Tick) isAction()           {}
func (SelectCPU) isAction()      {}
func (SetNotice) isAction()      {}
func (FindTasks) isAction()      {}
func (Undo) isAction()           {}
func (Redo) isAction()           {}
func (RestoreRun) isAction()     {}
func (JumpCPU) isAction()        {}
func (SetExplained) isAction()   {}

// Reduce is the page's only state transition. It is pure. An edit of the
// scenario (undoable) keeps the scenario before it for Undo.
func Reduce(s State, a Action) State {
	prev := s.Doc
	s = reduce(s, a)
	switch a.(type) {
	case EditField, EditText, EditDoc, SelectPreset, SelectScenario, RestoreRun:
		if !sameDoc(prev, s.Doc) {
			s.Past = pushDoc(s.Past, prev)
			s.Future = nil
		}
	}
	return s
}

// maxUndo bounds the undo (and redo) history.
const maxUndo = 50

// maxHistory bounds the short history of finished runs; keptResults of
// them keep their result.
const (
	maxHistory  = 6
	keptResults = 3
)

func pushDoc(list []site.Doc, d site.Doc) []site.Doc {
	out := append(append([]site.Doc(nil), list...), d)
	if len(out) > maxUndo {
		out = out[len(out)-maxUndo:]
	}
	return out
}

// stepDoc moves one step through the edit history: the last document of
// from becomes the scenario, and the scenario goes onto to.
func stepDoc(s *State, from, to []site.Doc) ([]site.Doc, []site.Doc) {
	n := len(from)
	if n == 0 {
		return from, to
	}
	to = pushDoc(to, s.Doc)
	*s = withDoc(*s, from[n-1])
	s.Drafts = nil
	return from[: n-1 : n-1], to
}

// sameDoc says whether two documents are the same value (documents are
// immutable: an edit makes a new map).
func sameDoc(a, b site.Doc) bool {
	if reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer() && len(a) == len(b) {
		return true
	}
	return a.Canonical() == b.Canonical()
}

func reduce(s State, a Action) State {
	switch a := a.(type) {
	case CatalogLoaded:
		s.Catalog, s.CatalogErr = a.Catalog, a.Err
	case LoadDoc:
		s = withDoc(s, expandScenarioPreset(a.Doc, s.Catalog))
		s.Notice = a.Notice
		s.Drafts = nil
	case SelectScenario:
		d, ok := s.Catalog.ScenarioDoc(a.Name)
		if !ok {
			s.Notice = Notice{Kind: "error", Text: "unknown scenario preset " + a.Name}
			return s
		}
		if a.Variant != "" {
			d = applyVariant(d, s.Catalog, a.Name, a.Variant)
		}
		s = withDoc(s, d)
		s.Notice = Notice{}
		s.Drafts = nil
	case SelectPreset:
		d, err := s.Doc.Edit(a.Kind+".preset", a.Name, s.Catalog)
		if err == nil {
			s = withDoc(s, followName(s.Doc, d, s.Catalog))
			s.Drafts = dropDrafts(s.Drafts, a.Kind)
		}
	case EditField:
		d, err := s.Doc.Edit(a.Path, a.Value, s.Catalog)
		if err != nil {
			s.Issues = setIssue(s.Issues, a.Path, err.Error())
			return s
		}
		if a.Path != "name" {
			d = followName(s.Doc, d, s.Catalog)
		}
		s = withDoc(s, d)
		s.Issues = setIssue(s.Issues, a.Path, "")
		s.Drafts = dropDraft(s.Drafts, a.Path)
	case EditText:
		var v any = a.Text
		if !a.AsString {
			pv, err := site.ParseValue(a.Text)
			switch {
			case err == nil:
				v = pv
			case !a.Scalar:
				s.Drafts = setDraft(s.Drafts, a.Path, a.Text)
				s.Issues = setIssue(s.Issues, a.Path, err.Error())
				return s
			}
		}
		return reduce(s, EditField{Path: a.Path, Value: v})
	case EditDoc:
		d, err := site.ParseDoc([]byte(a.Text))
		if err != nil {
			s.Drafts = setDraft(s.Drafts, DocPath, a.Text)
			s.Issues = setIssue(s.Issues, DocPath, err.Error())
			return s
		}
		s = withDoc(s, expandScenarioPreset(d, s.Catalog))
		s.Drafts = nil
	case SetTab:
		s.View.Tab = a.Tab
	case SelectGroup:
		s.View.Group = a.Index
	case RunStarted:
		s.Run.Seq = a.Seq
		s.Run.Status = StatusRunning
		s.Run.ElapsedMs = 0
		s.Run.Err, s.Run.ErrPath = "", ""
		s.Run.Invalid = false
		s.Run.Provisional = 0
	case RunPartial:
		if a.Seq != s.Run.Seq || s.Run.Status != StatusRunning || a.Doc != s.Doc.Canonical() {
			return s
		}
		s.Run.Result = a.Result
		s.Run.ResultDoc = a.Doc
		s.Run.CPUs = a.CPUs
		s.Run.Words = a.Words
		s.Run.Provisional = a.Of
		s.View.T0, s.View.T1 = 0, 0
		s.View.Explained = Explained{}
	case RunDone:
		if a.Seq != s.Run.Seq {
			return s
		}
		// The provisional repetition 0 has the same timeline: keep its zoom.
		refined := s.Run.Provisional > 0 && s.Run.ResultDoc == a.Doc
		s.Run.Provisional = 0
		s.Run.Status = StatusDone
		s.Run.Result = a.Result
		s.Run.ResultDoc = a.Doc
		s.Run.CPUs = a.CPUs
		s.Run.Words = a.Words
		s.Run.ElapsedMs = a.ElapsedMs
		s.Run.Err, s.Run.ErrPath = "", ""
		s.History = recordRun(s.History, a, s.Catalog)
		if !refined {
			s.View.T0, s.View.T1 = 0, 0
		}
		s.View.Explained = Explained{}
		if a.Doc != s.Doc.Canonical() {
			s.Run.Status = StatusStale
		}
	case RunFailed:
		if a.Seq != s.Run.Seq || a.Cancelled {
			return s
		}
		s.Run.Status = StatusFailed
		s.Run.Provisional = 0
		s.Run.Err, s.Run.ErrPath = a.Message, a.Path
		s.Run.Invalid = a.Invalid
		if a.Path != "" && !a.Invalid {
			s.Issues = setIssue(s.Issues, a.Path, a.Message)
		}
	case Validated:
		// The validator's list replaces every earlier issue but the
		// drafts' (text that never reached the scenario).
		issues := append([]Issue(nil), a.Issues...)
		for _, is := range s.Issues {
			if _, draft := s.Drafts[is.Path]; draft {
				issues = append(issues, is)
			}
		}
		s.Issues = issues
		if s.Run.Status == StatusFailed && s.Run.Invalid && len(a.Issues) == 0 {
			// Refused as invalid, now valid: nothing failed any more.
			s.Run.Err, s.Run.ErrPath, s.Run.Invalid = "", "", false
			s.Run.Status = StatusIdle
			if s.Run.Result != nil {
				s.Run.Status = StatusStale
			}
		}
	case Zoom:
		s.View.T0, s.View.T1 = a.T0, a.T1
	case Hover:
		s.View.HoverX, s.View.HoverY, s.View.Hovering = a.X, a.Y, a.On
	case SetAllRows:
		s.View.AllRows = a.On
		s.View.ScrollY = 0
		if !a.On {
			s.View.Marked = false
		}
	case FindTasks:
		s.View.Find = a.Query
	case JumpCPU:
		s.View.AllRows = true
		s.View.ScrollY = max(a.ScrollY, 0)
		s.View.MarkCPU, s.View.Marked = a.CPU, true
	case SetExplained:
		s.View.Explained = a.Explained
	case Undo:
		s.Past, s.Future = stepDoc(&s, s.Past, s.Future)
	case Redo:
		s.Future, s.Past = stepDoc(&s, s.Future, s.Past)
	case RestoreRun:
		if a.Index < 0 || a.Index >= len(s.History) {
			return s
		}
		h := s.History[a.Index]
		s = withDoc(s, h.Doc)
		s.Drafts = nil
		if h.Result != nil { // else the page runs it again
			s.Run = RunState{Seq: s.Run.Seq, Status: StatusDone, Result: h.Result, ResultDoc: h.Doc.Canonical(), CPUs: h.CPUs, Words: h.Words}
			s.View.T0, s.View.T1 = 0, 0
			s.View.Explained = Explained{}
		}
	case ScrollRows:
		s.View.ScrollY = a.Y
		if s.View.ScrollY < 0 {
			s.View.ScrollY = 0
		}
	case Tick:
		if a.Seq == s.Run.Seq && s.Run.Status == StatusRunning {
			s.Run.ElapsedMs = a.Ms
		}
	case SelectCPU:
		s.View.TopoCPU = a.CPU
	case SetLive:
		s.Live = a.On
	case SetNotice:
		s.Notice = a.Notice
	}
	return s
}

// withDoc installs a new scenario; a shown result becomes stale.
func withDoc(s State, d site.Doc) State {
	s.Doc = d
	s.Issues = nil
	if s.Run.Result != nil && s.Run.ResultDoc != d.Canonical() {
		s.Run.Status = StatusStale
	} else if s.Run.Result != nil {
		s.Run.Status = StatusDone
	}
	if g := groupsLen(s); s.View.Group >= g {
		s.View.Group = 0
	}
	return s
}

// expandScenarioPreset turns {"schedplay":1,"preset":NAME,…} (a scenario
// naming a seed scenario, as `schedplay share` writes for ?preset= links)
// into that scenario's document with the other keys on top, so the
// editors can show it. Unknown names are left for the engine to report.
func expandScenarioPreset(d site.Doc, cat *site.Catalog) site.Doc {
	name, ok := d["preset"].(string)
	if !ok {
		return d
	}
	base, ok := cat.ScenarioDoc(name)
	if !ok {
		return d
	}
	out := base.Clone()
	for k, v := range d {
		if k != "preset" {
			out[k] = v
		}
	}
	return out
}

func groupsLen(s State) int {
	g, _ := s.Doc.Get("workload.groups", s.Catalog).([]any)
	return len(g)
}

func applyVariant(d site.Doc, cat *site.Catalog, scen, variant string) site.Doc {
	p, _ := cat.Get("scenario", scen)
	for _, v := range p.Variants {
		if v.Name != variant {
			continue
		}
		for _, o := range v.Set {
			val, err := site.ParseValue(string(o.Value))
			if err != nil {
				continue
			}
			if nd, err := d.Edit(o.Path, val, cat); err == nil {
				d = nd
			}
		}
		if n := d.Name(); n != "" {
			d, _ = d.Edit("name", n+" ("+variant+")", cat)
		}
	}
	return d
}

func setIssue(is []Issue, path, msg string) []Issue {
	out := make([]Issue, 0, len(is)+1)
	for _, x := range is {
		if x.Path != path {
			out = append(out, x)
		}
	}
	if msg != "" {
		out = append(out, Issue{Path: path, Message: msg})
	}
	return out
}

func setDraft(m map[string]string, path, text string) map[string]string {
	out := make(map[string]string, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	out[path] = text
	return out
}

func dropDraft(m map[string]string, path string) map[string]string {
	if _, ok := m[path]; !ok {
		return m
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if k != path {
			out[k] = v
		}
	}
	return out
}

func dropDrafts(m map[string]string, section string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		if len(k) <= len(section) || k[:len(section)+1] != section+"." {
			out[k] = v
		}
	}
	return out
}

// recordRun adds a finished run to the history (the latest last; a run of
// the scenario already there replaces it).
func recordRun(h []RunRecord, a RunDone, cat *site.Catalog) []RunRecord {
	d, err := site.ParseDoc([]byte(a.Doc))
	if err != nil || a.Result == nil {
		return h
	}
	rec := RunRecord{Doc: d, Name: d.Name(), Headline: site.Headline(a.Result).Value, Result: a.Result, CPUs: a.CPUs, Words: a.Words}
	out := make([]RunRecord, 0, len(h)+1)
	for _, r := range h {
		if r.Doc.Canonical() != a.Doc {
			out = append(out, r)
		}
	}
	out = append(out, rec)
	if len(out) > maxHistory {
		out = out[len(out)-maxHistory:]
	}
	// Only the latest results are kept (a large machine's timeline is
	// tens of MB); older entries run again when chosen.
	for i := range len(out) - keptResults {
		out[i].Result, out[i].CPUs = nil, nil
	}
	return out
}

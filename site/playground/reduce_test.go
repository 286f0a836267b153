package playground

import (
	"strings"
	"testing"

	"schedplay/engine/sim"
	"schedplay/site"
)

func TestReduceFlow(t *testing.T) {
	s := NewState()
	s = Reduce(s, CatalogLoaded{Catalog: testCatalog(t)})
	s = Reduce(s, SelectScenario{Name: "demo", Variant: "8 threads"})
	if got := site.Compact(s.Doc.Get("workload.groups[0].count", s.Catalog)); got != "8" {
		t.Errorf("variant count = %s", got)
	}
	if s.Doc.Name() != "Demo (8 threads)" {
		t.Errorf("name = %q", s.Doc.Name())
	}
	s = Reduce(s, RunStarted{Seq: 1})
	res := &sim.Result{Unit: "work/s"}
	s = Reduce(s, RunDone{Seq: 1, Result: res, Doc: s.Doc.Canonical()})
	if s.Run.Status != StatusDone || s.Run.Result != res {
		t.Fatalf("run = %+v", s.Run)
	}
	// A stale reply is dropped.
	s2 := Reduce(s, RunStarted{Seq: 2})
	s2 = Reduce(s2, RunDone{Seq: 1, Result: &sim.Result{}})
	if s2.Run.Status != StatusRunning {
		t.Errorf("stale reply changed status to %q", s2.Run.Status)
	}
	// An edit makes the shown result stale.
	s = Reduce(s, EditText{Path: "run.seed", Text: "7"})
	if s.Run.Status != StatusStale || site.Compact(s.Doc.Get("run.seed", s.Catalog)) != "7" {
		t.Errorf("after edit: status %q seed %v", s.Run.Status, s.Doc.Get("run.seed", s.Catalog))
	}
	// Bad JSON keeps the draft and names the field.
	before := s.Doc.Canonical()
	s = Reduce(s, EditText{Path: "workload.groups[0].program", Text: `[{"compute": }]`})
	if s.Doc.Canonical() != before || s.Drafts["workload.groups[0].program"] == "" || s.IssueAt("workload.groups[0].program") == "" {
		t.Errorf("bad JSON: drafts %v issues %v", s.Drafts, s.Issues)
	}
	s = Reduce(s, EditText{Path: "workload.groups[0].program", Text: `[{"compute":"2ms"}]`})
	if len(s.Drafts) != 0 || s.IssueAt("workload.groups[0].program") != "" {
		t.Errorf("good JSON kept draft/issue: %v %v", s.Drafts, s.Issues)
	}
	// Failures name their field; cancellations are silent.
	s = Reduce(s, RunStarted{Seq: 3})
	s = Reduce(s, RunFailed{Seq: 3, Cancelled: true})
	if s.Run.Status != StatusRunning {
		t.Errorf("cancel changed status to %q", s.Run.Status)
	}
	s = Reduce(s, Tick{Seq: 2, Ms: 900})
	if s.Run.ElapsedMs == 900 {
		t.Error("a tick of an older request changed the elapsed time")
	}
	s = Reduce(s, Tick{Seq: 3, Ms: 1200})
	if s.Run.ElapsedMs != 1200 {
		t.Errorf("elapsed = %v after a tick", s.Run.ElapsedMs)
	}
	s = Reduce(s, RunFailed{Seq: 3, Message: "hz must be > 0", Path: "policy.hz"})
	if s.Run.Status != StatusFailed || s.IssueAt("policy.hz") == "" {
		t.Errorf("failure: %+v %v", s.Run, s.Issues)
	}
}

func TestLoadDocExpandsScenarioPreset(t *testing.T) {
	s := Reduce(NewState(), CatalogLoaded{Catalog: testCatalog(t)})
	d, _ := site.ParseDoc([]byte(`{"schedplay":1,"preset":"demo","run":{"seed":9}}`))
	s = Reduce(s, LoadDoc{Doc: d})
	if _, has := s.Doc["preset"]; has || s.Doc.Name() != "Demo" || site.Compact(s.Doc.Get("run.seed", s.Catalog)) != "9" {
		t.Errorf("expanded doc = %s", s.Doc.Canonical())
	}
	if got := site.Compact(s.Doc.Get("machine.cores_per_node", s.Catalog)); got != "8" {
		t.Errorf("machine not reachable through the expanded doc: %s", got)
	}
	unknown, _ := site.ParseDoc([]byte(`{"schedplay":1,"preset":"nope"}`))
	if s2 := Reduce(s, LoadDoc{Doc: unknown}); s2.Doc["preset"] != "nope" {
		t.Errorf("an unknown preset was dropped: %s", s2.Doc.Canonical())
	}
}

// A number box stores the JSON value its text spells, else the text as a
// string (as `schedplay --set` does), so the validator names the problem
// and nothing typed is lost; a JSON editor keeps unparsable text as a
// draft with the parser's line and column.
func TestEditTextScalarAndJSON(t *testing.T) {
	s := Reduce(NewState(), CatalogLoaded{Catalog: testCatalog(t)})
	s = Reduce(s, SelectScenario{Name: "demo"})
	s = Reduce(s, EditText{Path: "run.seed", Text: "4.5", Scalar: true})
	if got := site.Compact(s.Doc.Get("run.seed", s.Catalog)); got != "4.5" {
		t.Errorf("seed 4.5 stored as %s", got)
	}
	s = Reduce(s, EditText{Path: "run.seed", Text: "12abc", Scalar: true})
	if got := site.Compact(s.Doc.Get("run.seed", s.Catalog)); got != `"12abc"` || len(s.Drafts) != 0 || len(s.Issues) != 0 {
		t.Errorf("seed 12abc: stored %s, drafts %v, issues %v (the validator reports it)", got, s.Drafts, s.Issues)
	}
	s = Reduce(s, EditText{Path: "workload.groups[0].program", Text: "[\n {\"compute\": }]"})
	msg := s.IssueAt("workload.groups[0].program")
	if !strings.Contains(msg, "line 2, column") || strings.Contains(msg, "not valid JSON") {
		t.Errorf("program parse error %q lacks its line and column", msg)
	}
	s = Reduce(s, EditDoc{Text: "{\"schedplay\": 1,\n  \"name\": x}"})
	if msg := s.IssueAt(DocPath); !strings.Contains(msg, "line 2, column 11") {
		t.Errorf("document parse error %q lacks its line and column", msg)
	}
	if s.Drafts[DocPath] == "" || !strings.HasPrefix(s.Doc.Name(), "Demo") {
		t.Errorf("a bad document replaced the scenario or lost its text: drafts %v name %q", s.Drafts, s.Doc.Name())
	}
	s = Reduce(s, EditDoc{Text: `{"schedplay":1,"preset":"demo","name":"Mine"}`})
	if s.Doc.Name() != "Mine" || s.IssueAt(DocPath) != "" || len(s.Drafts) != 0 {
		t.Errorf("a good document: name %q issues %v drafts %v", s.Doc.Name(), s.Issues, s.Drafts)
	}
}

// A run refused by the validator shows the issues as they are now: a new
// validation replaces them, and once the scenario is valid nothing has
// failed any more.
func TestValidatedReplacesRefusal(t *testing.T) {
	s := Reduce(NewState(), CatalogLoaded{Catalog: testCatalog(t)})
	s = Reduce(s, SelectScenario{Name: "demo"})
	s = Reduce(s, RunStarted{Seq: 1})
	s = Reduce(s, Validated{Issues: []Issue{{Path: "machine.cores_per_node", Message: "0 is out of range; want 1..4096"}}})
	s = Reduce(s, RunFailed{Seq: 1, Message: "0 is out of range; want 1..4096", Path: "machine.cores_per_node", Invalid: true})
	if s.Run.Status != StatusFailed || !s.Run.Invalid || len(s.Issues) != 1 {
		t.Fatalf("refusal: %+v issues %v", s.Run, s.Issues)
	}
	s = Reduce(s, Validated{Issues: []Issue{{Path: "policy.hz", Message: "must be > 0"}}})
	if len(s.Issues) != 1 || s.Issues[0].Path != "policy.hz" || s.Run.Status != StatusFailed {
		t.Errorf("a new validation kept old issues: %v (%s)", s.Issues, s.Run.Status)
	}
	s = Reduce(s, Validated{})
	if s.Run.Status != StatusIdle || s.Run.Invalid || s.Run.Err != "" || len(s.Issues) != 0 {
		t.Errorf("valid again: %+v issues %v", s.Run, s.Issues)
	}
	// A failure that is not the validator's keeps its own message.
	s = Reduce(s, RunStarted{Seq: 2})
	s = Reduce(s, RunFailed{Seq: 2, Message: "the engine did not answer"})
	s = Reduce(s, Validated{})
	if s.Run.Status != StatusFailed || s.Run.Err == "" {
		t.Errorf("an engine failure was cleared by a validation: %+v", s.Run)
	}
}

func TestSectionOfAndParentPath(t *testing.T) {
	for _, c := range []struct{ path, sec, parent string }{
		{"machine.bogus", TabMachine, "machine"},
		{"workload.groups[1].program[0].compute", TabWorkload, "workload.groups[1].program[0]"},
		{"name", TabJSON, ""},
		{DocPath, TabJSON, ""},
		{"", TabJSON, ""},
	} {
		if got := sectionOf(c.path); got != c.sec {
			t.Errorf("sectionOf(%q) = %q, want %q", c.path, got, c.sec)
		}
		if got := parentPath(c.path); got != c.parent {
			t.Errorf("parentPath(%q) = %q, want %q", c.path, got, c.parent)
		}
	}
	if g, ok := groupIndex("workload.groups[12].count"); !ok || g != 12 {
		t.Errorf("groupIndex = %d %v", g, ok)
	}
	if _, ok := groupIndex("workload.housekeeping"); ok {
		t.Error("groupIndex of a non-group path")
	}
}

// Issue 16, bug 5: the name of a scenario opened from a seed follows its
// edits ("Demo — policy v6-on"), so share links and embeds say what
// changed; a name the user typed stays.
func TestNameFollowsEdits(t *testing.T) {
	s := Reduce(NewState(), CatalogLoaded{Catalog: testCatalog(t)})
	s = Reduce(s, SelectScenario{Name: "demo"})
	s = Reduce(s, SelectPreset{Kind: "policy", Name: "v6-on"})
	if got := s.Doc.Name(); got != "Demo — policy v6-on" {
		t.Errorf("after policy v6-on: %q", got)
	}
	s = Reduce(s, EditText{Path: "run.seed", Text: "7", Scalar: true})
	if got := s.Doc.Name(); got != "Demo — policy v6-on, seed 7" {
		t.Errorf("after seed 7: %q", got)
	}
	s = Reduce(s, EditText{Path: "workload.groups[0].count", Text: "6", Scalar: true})
	s = Reduce(s, EditText{Path: "machine.cores_per_node", Text: "4", Scalar: true})
	if got := s.Doc.Name(); got != "Demo — cores_per_node 4, policy v6-on, groups[0].count 6, +1 more" {
		t.Errorf("four changes: %q", got)
	}
	// Back to the seed's values: back to its name.
	s = Reduce(s, SelectScenario{Name: "demo"})
	s = Reduce(s, EditText{Path: "run.seed", Text: "7", Scalar: true})
	s = Reduce(s, EditText{Path: "run.seed", Text: "1", Scalar: true})
	if got := s.Doc.Name(); got != "Demo" {
		t.Errorf("edited back: %q", got)
	}
	// A variant is the base; the user's own name is kept.
	s = Reduce(s, SelectScenario{Name: "demo", Variant: "8 threads"})
	s = Reduce(s, SelectPreset{Kind: "policy", Name: "v6-on"})
	if got := s.Doc.Name(); got != "Demo (8 threads) — policy v6-on" {
		t.Errorf("variant: %q", got)
	}
	s = Reduce(s, EditText{Path: "name", Text: "my run", AsString: true})
	s = Reduce(s, EditText{Path: "run.seed", Text: "9", Scalar: true})
	if got := s.Doc.Name(); got != "my run" {
		t.Errorf("the user's name changed to %q", got)
	}
}

// Undo/redo walk the scenario's edits; a run history keeps finished runs
// to show again without running.
func TestUndoRedoAndRunHistory(t *testing.T) {
	s := Reduce(NewState(), CatalogLoaded{Catalog: testCatalog(t)})
	s = Reduce(s, SelectScenario{Name: "demo"})
	seed0 := s.Doc.Canonical()
	s = Reduce(s, EditText{Path: "run.seed", Text: "7", Scalar: true})
	s = Reduce(s, SelectPreset{Kind: "policy", Name: "v6-on"})
	s = Reduce(s, EditText{Path: "run.seed", Text: "7", Scalar: true}) // no change: nothing to undo
	if len(s.Past) != 3 {
		t.Fatalf("%d undo steps after 3 changes", len(s.Past))
	}
	s = Reduce(s, Undo{})
	if got := s.Doc.Section("policy")["preset"]; got != "mainline" {
		t.Errorf("undo the policy: %v", got)
	}
	s = Reduce(s, Undo{})
	if s.Doc.Canonical() != seed0 {
		t.Errorf("two undos: %s", s.Doc.Canonical())
	}
	s = Reduce(s, Redo{})
	if got := site.Compact(s.Doc.Get("run.seed", s.Catalog)); got != "7" {
		t.Errorf("redo the seed: %s", got)
	}
	s = Reduce(s, EditText{Path: "run.seed", Text: "8", Scalar: true})
	if len(s.Future) != 0 {
		t.Error("an edit after undo kept the redo steps")
	}
	// Runs: a finished run is recorded once per scenario; RestoreRun shows
	// it again, result included.
	for i, seed := range []string{"1", "2", "3", "4", "5", "6", "7"} {
		s = Reduce(s, EditText{Path: "run.seed", Text: seed, Scalar: true})
		s = Reduce(s, RunStarted{Seq: 10 + i})
		s = Reduce(s, RunDone{Seq: 10 + i, Result: &sim.Result{Unit: "work/s"}, Doc: s.Doc.Canonical()})
	}
	if len(s.History) != maxHistory || s.History[0].Result != nil || s.History[maxHistory-1].Result == nil {
		t.Fatalf("history %d runs, oldest result %v", len(s.History), s.History[0].Result)
	}
	want := s.History[maxHistory-2]
	s = Reduce(s, RestoreRun{Index: maxHistory - 2})
	if s.Doc.Canonical() != want.Doc.Canonical() || s.Run.Result != want.Result || s.Run.Status != StatusDone {
		t.Errorf("restore: doc %s status %s", s.Doc.Canonical(), s.Run.Status)
	}
	s = Reduce(s, Undo{})
	if got := site.Compact(s.Doc.Get("run.seed", s.Catalog)); got != "7" {
		t.Errorf("undo a restore: seed %s", got)
	}
}

func TestNameSummarisesAReorder(t *testing.T) {
	s := Reduce(NewState(), CatalogLoaded{Catalog: testCatalog(t)})
	s = Reduce(s, SelectScenario{Name: "demo"})
	groups, _ := s.Doc.Get("workload.groups", s.Catalog).([]any)
	two := appendItem(groups, map[string]any{"name": "other", "count": 2, "program": []any{map[string]any{"compute": "1ms"}}})
	s = Reduce(s, EditField{Path: "workload.groups", Value: two})
	s = Reduce(s, EditField{Path: "workload.groups", Value: moveItem(two, 0, 1)})
	if got := s.Doc.Name(); got != "Demo — groups edited" {
		t.Errorf("after a reorder: %q", got)
	}
}

// The orientation's "open a seed story" opens one with a published figure
// when the catalog has one; "flip the policy" takes the seed's pair.
func TestOrientationChoices(t *testing.T) {
	cat, err := site.EmbeddedCatalog()
	if err != nil {
		t.Fatal(err)
	}
	name := firstStory(cat)
	p, _ := cat.Get("scenario", name)
	if p.Published == nil {
		t.Errorf("firstStory = %q, which has no published figure", name)
	}
	d, _ := cat.ScenarioDoc("vera-sgemm-nvpl")
	if got := flipPolicy(d, cat); got != "v6-on" {
		t.Errorf("flip vera-sgemm-nvpl (mainline) = %q, want v6-on", got)
	}
	on, _ := d.Edit("policy.preset", "v6-on", cat)
	on = followName(d, on, cat)
	if got := flipPolicy(on, cat); got != "mainline" {
		t.Errorf("flip back = %q (name %q)", got, on.Name())
	}
}

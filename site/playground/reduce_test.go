package playground

import (
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

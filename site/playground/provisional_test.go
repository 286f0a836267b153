package playground

import (
	"testing"

	"schedplay/engine/sim"
	"schedplay/site"
)

func TestProvisionalDoc(t *testing.T) {
	cat := testCatalog(t)
	s := Reduce(Reduce(NewState(), CatalogLoaded{Catalog: cat}), SelectScenario{Name: "demo"})
	first, reps, ok := ProvisionalDoc(s.Doc, cat)
	if !ok || reps != 2 {
		t.Fatalf("demo (reps 2): ok %v reps %d", ok, reps)
	}
	if got := site.Compact(first.Get("run.reps", cat)); got != "1" {
		t.Errorf("first run.reps = %s, want 1", got)
	}
	if got := site.Compact(first.Get("run.seed", cat)); got != site.Compact(s.Doc.Get("run.seed", cat)) {
		t.Errorf("first run.seed = %s, want the full run's", got)
	}
	if got := site.Compact(s.Doc.Get("run.reps", cat)); got != "2" {
		t.Errorf("ProvisionalDoc changed the scenario: reps %s", got)
	}
	one, err := s.Doc.Edit("run.reps", 1, cat)
	if err != nil {
		t.Fatal(err)
	}
	if _, reps, ok := ProvisionalDoc(one, cat); ok || reps != 1 {
		t.Errorf("reps 1: ok %v reps %d", ok, reps)
	}
	if n := RunReps(site.Doc{"run": map[string]any{}}, cat); n != 1 {
		t.Errorf("unset reps = %d, want 1", n)
	}
}

func TestReduceProvisional(t *testing.T) {
	cat := testCatalog(t)
	s := Reduce(Reduce(NewState(), CatalogLoaded{Catalog: cat}), SelectScenario{Name: "demo"})
	doc := s.Doc.Canonical()
	s = Reduce(s, RunStarted{Seq: 1})
	rep0 := &sim.Result{Unit: "rep0"}
	s = Reduce(s, RunPartial{Seq: 1, Result: rep0, Doc: doc, Of: 2})
	if s.Run.Status != StatusRunning || s.Run.Result != rep0 || s.Run.Provisional != 2 {
		t.Fatalf("after RunPartial: %+v", s.Run)
	}
	s = Reduce(s, Zoom{T0: 10, T1: 20})
	full := &sim.Result{Unit: "full"}
	s = Reduce(s, RunDone{Seq: 1, Result: full, Doc: doc})
	if s.Run.Status != StatusDone || s.Run.Result != full || s.Run.Provisional != 0 {
		t.Fatalf("after RunDone: %+v", s.Run)
	}
	if s.View.T0 != 10 || s.View.T1 != 20 {
		t.Errorf("refinement lost the zoom: %d..%d", s.View.T0, s.View.T1)
	}
	// A provisional reply of an older request is dropped.
	s = Reduce(s, RunStarted{Seq: 2})
	s = Reduce(s, RunPartial{Seq: 1, Result: rep0, Doc: doc, Of: 2})
	if s.Run.Result != full || s.Run.Provisional != 0 {
		t.Errorf("older RunPartial applied: %+v", s.Run)
	}
	// A new run clears the provisional mark; a failure does too.
	s = Reduce(s, RunPartial{Seq: 2, Result: rep0, Doc: doc, Of: 2})
	s = Reduce(s, RunStarted{Seq: 3})
	if s.Run.Provisional != 0 {
		t.Errorf("RunStarted kept Provisional %d", s.Run.Provisional)
	}
	s = Reduce(s, RunPartial{Seq: 3, Result: rep0, Doc: doc, Of: 2})
	s = Reduce(s, RunFailed{Seq: 3, Message: "boom"})
	if s.Run.Status != StatusFailed || s.Run.Provisional != 0 {
		t.Errorf("after failure: %+v", s.Run)
	}
	// Without a provisional step a result resets the zoom as before.
	s = Reduce(s, RunStarted{Seq: 4})
	s = Reduce(s, Zoom{T0: 10, T1: 20})
	s = Reduce(s, RunDone{Seq: 4, Result: full, Doc: doc})
	if s.View.T0 != 0 || s.View.T1 != 0 {
		t.Errorf("plain RunDone kept the zoom %d..%d", s.View.T0, s.View.T1)
	}
}

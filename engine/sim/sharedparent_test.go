package sim

import (
	"fmt"
	"testing"
)

// TestSharedParentForksFromOneCPU: under workload.shared_parent every
// task of every group is forked (WF_FORK) from group 0's parent CPU, once;
// without it the groups' parents are drawn apart (the same seed).
func TestSharedParentForksFromOneCPU(t *testing.T) {
	doc := func(shared string) string {
		return `{"schedplay": 1, "machine": {"preset": "x86-smt"}, "policy": {"preset": "mainline"}, "workload": {` + shared + `"groups": [` +
			`{"name": "a", "count": 3, "program": [{"compute": "1ms"}]}, {"name": "b", "count": 3, "program": [{"compute": "1ms"}]},` +
			`{"name": "c", "count": 3, "program": [{"compute": "1ms"}]}, {"name": "late", "count": 2, "start": "2ms", "program": [{"compute": "1ms"}]}]},` +
			`"run": {"duration": "10ms", "seed": 11, "reps": 1}}`
	}
	forks := func(d string) (from map[int]bool, n int) {
		res := mustRun(t, resolveJSON(t, d), Options{Timeline: true})
		from = map[int]bool{}
		for _, dec := range res.Timeline.Decisions {
			if dec.Kind == "fork" {
				from[dec.From] = true
				n++
			}
		}
		return from, n
	}
	shared, n := forks(doc(`"shared_parent": true, `))
	if len(shared) != 1 || n != 11 {
		t.Errorf("shared parent: %d forks from CPUs %v; want 11 from one CPU", n, shared)
	}
	apart, n := forks(doc(""))
	if len(apart) < 2 || n != 11 {
		t.Errorf("a parent per group: %d forks from CPUs %v; want 11 from more than one CPU", n, apart)
	}
}

// TestSharedParentStaysForTheGroupsThatStartTogether: group 0's fork
// event forks every group that starts with it, the parent on its CPU
// throughout; the later groups' own events then leave every CPU as it is
// (no second arrival and departure of the parent, which would take the
// CPU through idle and sched_balance_newidle()).
func TestSharedParentStaysForTheGroupsThatStartTogether(t *testing.T) {
	s := simOf(t, `{"schedplay": 1, "machine": {"preset": "x86-smt"}, "policy": {"preset": "mainline"}, "workload": {"shared_parent": true, "groups": [`+
		`{"name": "a", "count": 2, "program": [{"compute": "1ms"}]}, {"name": "b", "count": 2, "program": [{"compute": "1ms"}]},`+
		`{"name": "late", "count": 1, "start": "1ms", "program": [{"compute": "1ms"}]}]}, "run": {"duration": "5ms", "reps": 1}}`)
	s.forkGroup(0)
	for _, p := range s.tasks {
		if want := p.group == 2; (p.state == taskNew) != want {
			t.Errorf("after group 0's fork event, task %s new = %v; want %v", p.name, p.state == taskNew, want)
		}
	}
	before := fmt.Sprintf("%+v", s.cpus)
	s.parent.group = -7 // the parent that forked groups 0 and 1 has left
	s.forkGroup(1)
	if after := fmt.Sprintf("%+v", s.cpus); after != before || s.parent.group != -7 {
		t.Error("group 1's fork event brought a parent back (or changed the CPUs); group 0's parent forked it")
	}
}

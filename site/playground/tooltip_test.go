package playground

import (
	"strings"
	"testing"

	"schedplay/engine/sim"
	"schedplay/engine/topo"
	"schedplay/site"
	"schedplay/site/viewkit"
)

func TestTooltipExplainsPlacement(t *testing.T) {
	cpus, _ := site.MachineCPUs(topo.Machine{Nodes: 1, CoresPerNode: 2, ThreadsPerCore: 2, Numbering: topo.SiblingMajor})
	l := site.LayoutLanes(cpus, 300, false)
	tl := &sim.Timeline{
		Tasks: []sim.TaskInfo{{Name: "sgemm/0", PID: 1000}},
		Runs:  [][]sim.Interval{{{Task: 0, Start: 100, End: 900, Decision: 0}}, nil, nil, nil},
		Modes: [][]sim.ModeInterval{{{Mode: sim.ModeST, Start: 100, End: 900}}, nil},
		Decisions: []sim.Decision{{At: 100, Task: 0, Kind: "wakeup", From: 2, To: 0,
			Path: []string{"select_task_rq_fair", "select_idle_smt_cpu → cpu 0"}}},
	}
	s := site.TimeScale{T0: 0, T1: 1000, Left: 0, Right: 1000}
	h := site.HitTest(l, s, tl, 500, l.Rows[0].Y+1)
	lines := tooltipLines(h, l, tl, cpus, viewkit.ModeWords{})
	joined := strings.Join(lines, "\n")
	for _, want := range []string{"sgemm/0 (pid 1000)", "CPU 0 · core 0 · PE0", "ST (full resources)", "placed by wakeup", "select_idle_smt_cpu → cpu 0"} {
		if !strings.Contains(joined, want) {
			t.Errorf("tooltip lacks %q:\n%s", want, joined)
		}
	}
	// CPU 2 is core 0's PE1 under sibling-major numbering: idle.
	h = site.HitTest(l, s, tl, 500, l.Rows[1].Y+1)
	if lines := tooltipLines(h, l, tl, cpus, viewkit.ModeWords{}); len(lines) != 2 || !strings.Contains(lines[0], "CPU 2 · core 0 · PE1") {
		t.Errorf("idle PE1 tooltip = %q", lines)
	}
	seen := map[string]bool{}
	for _, m := range []sim.Mode{sim.ModeIdle, sim.ModeST, sim.ModeSMT, sim.ModePartitioned, sim.ModeSwitching} {
		c := modeColor(m, false)
		if seen[c] {
			t.Errorf("mode %d shares colour %s", m, c)
		}
		seen[c] = true
	}
}

// The tooltip and row labels follow the machine's SMT model: folding
// (POWER7) names the SMT level, a one-thread machine names no PE or mode.
func TestTooltipModeWords(t *testing.T) {
	p7 := topo.Machine{Nodes: 1, CoresPerNode: 1, ThreadsPerCore: 4, SMT: topo.SMTModel{Model: topo.SMTFolding}}
	cpus, _ := site.MachineCPUs(p7)
	l := site.LayoutLanes(cpus, 300, false)
	tl := &sim.Timeline{
		Tasks: []sim.TaskInfo{{Name: "a"}, {Name: "b"}},
		Runs:  [][]sim.Interval{{{Task: 0, Start: 0, End: 900, Decision: -1}}, nil, {{Task: 1, Start: 0, End: 900, Decision: -1}}, nil},
		Modes: [][]sim.ModeInterval{{{Mode: sim.ModeSMT, Start: 0, End: 900}}},
	}
	s := site.TimeScale{T0: 0, T1: 1000, Left: 0, Right: 1000}
	h := site.HitTest(l, s, tl, 500, l.Rows[0].Y+1)
	joined := strings.Join(tooltipLines(h, l, tl, cpus, viewkit.WordsFor(p7)), "\n")
	if !strings.Contains(joined, "core SMT4") || strings.Contains(joined, "partitioned") {
		t.Errorf("POWER7 tooltip (threads 0 and 2 busy) should say SMT4:\n%s", joined)
	}
	one := topo.Machine{Nodes: 1, CoresPerNode: 2, ThreadsPerCore: 1}
	cpus, _ = site.MachineCPUs(one)
	l = site.LayoutLanes(cpus, 300, false)
	for _, r := range l.Rows {
		if strings.Contains(viewkit.ShortLabel(r.Label), "PE") {
			t.Errorf("one-thread core row labelled %q", viewkit.ShortLabel(r.Label))
		}
	}
	tl = &sim.Timeline{
		Tasks: []sim.TaskInfo{{Name: "a"}},
		Runs:  [][]sim.Interval{{{Task: 0, Start: 0, End: 900, Decision: -1}}, nil},
		Modes: [][]sim.ModeInterval{{{Mode: sim.ModeST, Start: 0, End: 900}}, nil},
	}
	h = site.HitTest(l, s, tl, 500, l.Rows[0].Y+1)
	joined = strings.Join(tooltipLines(h, l, tl, cpus, viewkit.WordsFor(one)), "\n")
	if strings.Contains(joined, "PE") || strings.Contains(joined, "ST") || !strings.Contains(joined, "CPU 0 · core 0") {
		t.Errorf("no-SMT tooltip names a PE or mode:\n%s", joined)
	}
}

func TestTaskGroups(t *testing.T) {
	tl := &sim.Timeline{Tasks: []sim.TaskInfo{{Name: "sgemm/0"}, {Name: "sgemm/1"}, {Name: "noise", Group: 1}, {Name: "sgemm/2"}}}
	g := taskGroups(tl)
	if len(g) != 2 || g[0].name != "sgemm" || len(g[0].tasks) != 3 || g[1].name != "noise" || g[1].tasks[0] != 2 {
		t.Errorf("taskGroups = %+v", g)
	}
}

// The tooltip's task line says the task's policy and priority as chrt and
// nice set them, from the timeline's prio and policy.
func TestTooltipSchedText(t *testing.T) {
	for _, c := range []struct {
		ti   sim.TaskInfo
		want string
	}{
		{sim.TaskInfo{Prio: 120}, ""},
		{sim.TaskInfo{Prio: 125}, " · nice 5"},
		{sim.TaskInfo{Prio: 0, Policy: "SCHED_FIFO"}, " · SCHED_FIFO 99"},
		{sim.TaskInfo{Prio: 4, Policy: "SCHED_RR"}, " · SCHED_RR 95"},
		{sim.TaskInfo{Prio: 117, Policy: "SCHED_BATCH"}, " · SCHED_BATCH · nice -3"},
		{sim.TaskInfo{Prio: 120, Policy: "SCHED_IDLE"}, " · SCHED_IDLE"},
		{sim.TaskInfo{}, ""}, // a timeline written before prio
	} {
		if got := schedText(c.ti); got != c.want {
			t.Errorf("schedText(prio %d, %q) = %q; want %q", c.ti.Prio, c.ti.Policy, got, c.want)
		}
	}
}

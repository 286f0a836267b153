package explain

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"

	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/presets"
)

// githubSlug is GitHub's heading anchor: lower case, punctuation other than
// '-' and '_' dropped, spaces turned into '-'.
func githubSlug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		}
	}
	return b.String()
}

// kernelMapAnchors reads docs/KERNEL-MAP.md's heading anchors.
func kernelMapAnchors(t *testing.T) map[string]bool {
	t.Helper()
	raw, err := os.ReadFile("../../docs/KERNEL-MAP.md")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, line := range strings.Split(string(raw), "\n") {
		if h, ok := strings.CutPrefix(line, "#"); ok {
			out[githubSlug(strings.TrimSpace(strings.TrimLeft(h, "#")))] = true
		}
	}
	return out
}

func TestEveryLinkedFuncIsInKernelMap(t *testing.T) {
	anchors := kernelMapAnchors(t)
	funcs := LinkedFuncs()
	if len(funcs) < 20 {
		t.Fatalf("only %d linked functions", len(funcs))
	}
	for _, f := range funcs {
		if !anchors[Anchor(f)] {
			t.Errorf("%s: no heading with anchor #%s in docs/KERNEL-MAP.md", f, Anchor(f))
		}
	}
	for kind, entry := range entryPaths {
		for _, f := range entry {
			if !anchors[Anchor(f)] {
				t.Errorf("entry path of %s: %s has no KERNEL-MAP heading", kind, f)
			}
		}
	}
}

func TestDescribe(t *testing.T) {
	d := sim.Decision{At: 1_234_600, Task: 1, Kind: "wakeup", From: 0, To: 4, Path: []string{
		"select_task_rq_fair", "wake_affine → prev 0", "select_idle_sibling: nothing idle → target 0",
		"find_src_rq → cpu 3", "nr_cpus_allowed == 1 → cpu 2", "select_idle_smt_cpu → cpu 4",
	}}
	tasks := []sim.TaskInfo{{Name: "a"}, {Name: "<b>", PID: 7}}
	lines := Describe(d, tasks)
	if got := lines[0].Text(); got != "<b> (pid 7) woken at 1.235 ms: cpu 0 → cpu 4" {
		t.Errorf("headline %q", got)
	}
	if got := lines[1].Text(); got != "try_to_wake_up() → select_task_rq_fair()" {
		t.Errorf("entry %q", got)
	}
	want := []struct{ fn, rest string }{
		{"select_task_rq_fair", ""}, {"wake_affine", " → prev 0"}, {"select_idle_sibling", ": nothing idle → target 0"},
		{"sched_balance_find_src_rq", " → cpu 3"}, {"", "nr_cpus_allowed == 1 → cpu 2"}, {"select_idle_smt_cpu", " → cpu 4"},
	}
	for i, w := range want {
		l := lines[2+i]
		if l.Text() != d.Path[i] {
			t.Errorf("step %d text %q, want %q", i, l.Text(), d.Path[i])
		}
		if l[0].Func != w.fn || w.fn != "" && l[0].Anchor != w.fn {
			t.Errorf("step %d: first segment %+v, want func %q", i, l[0], w.fn)
		}
	}
	// select_idle_smt is a prefix of select_idle_smt_cpu: the longest name wins.
	if l := DescribeStep("select_idle_smt_cpu → cpu 1"); l[0].Func != "select_idle_smt_cpu" {
		t.Errorf("prefix confusion: %+v", l)
	}
	if l := Describe(sim.Decision{Kind: "periodic", From: 2, To: 2, Task: 9}, nil); l[0].Text() != "task 9 moved by periodic load balancing at 0 ns: stays on cpu 2" {
		t.Errorf("no tasks: %q", l[0].Text())
	}
	// A group's parent is no task of the timeline: its exec is named as
	// such, not as a task index, and links sched_exec().
	ex := Describe(sim.Decision{Kind: "exec", Task: -1, From: 100, To: 12, Path: []string{"sched_exec: group 0's parent, exec'ed on cpu 100"}}, tasks)
	if got := ex[0].Text(); got != "the parent (no task of the timeline) exec'ed at 0 ns: cpu 100 → cpu 12" {
		t.Errorf("exec headline %q", got)
	}
	if got := ex[1].Text(); got != "sched_exec() → select_task_rq_fair()" || ex[2][0].Func != "sched_exec" {
		t.Errorf("exec entry %q, first step %+v", got, ex[2][0])
	}
}

// stepHead matches a step that starts like a function name.
var stepHead = regexp.MustCompile(`^([a-z_][a-z0-9_]*)(\(|:| →|$)`)

// TestSimulatorVocabulary runs the simulator and checks that every path
// step starting like a function call is linked: a step the simulator adds
// with a new kernel function name fails here until it is mapped.
func TestSimulatorVocabulary(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	plain := map[string]bool{"nr_cpus_allowed": true}
	seen := map[string]bool{}
	for _, doc := range []string{
		`{"schedplay":1,"machine":{"preset":"hikey960"},"workload":{"preset":"sysbench-cpu"},"run":{"duration":"200ms","reps":1}}`,
		`{"schedplay":1,"machine":{"preset":"x86-smt"},"workload":{"preset":"sched-messaging"},"run":{"duration":"20ms","reps":1}}`,
		`{"schedplay":1,"preset":"hikey960-short-sysbench","policy":{"preset":"misfit"},"run":{"duration":"50ms","reps":1}}`,
		`{"schedplay":1,"preset":"hikey960-short-sysbench","policy":{"preset":"dynamiq-asym-packing"},"run":{"duration":"50ms","reps":1}}`,
	} {
		sc, err := scenario.Decode([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		r, err := scenario.Resolve(sc, ps)
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(context.Background(), r, sim.Options{Timeline: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range res.Timeline.Decisions {
			for _, step := range d.Path {
				m := stepHead.FindStringSubmatch(step)
				if m == nil || plain[m[1]] {
					continue
				}
				seen[m[1]] = true
				if l := DescribeStep(step); l[0].Func == "" {
					t.Errorf("step %q: %s is not linked", step, m[1])
				}
			}
		}
	}
	t.Logf("function names seen: %v", seen)
	for _, f := range []string{"select_task_rq_fair", "select_idle_sibling", "sched_balance_rq", "need_active_balance", "active_load_balance_cpu_stop"} {
		if !seen[f] {
			t.Errorf("no decision path named %s: the scenarios no longer cover it", f)
		}
	}
	if len(seen) < 3 {
		t.Errorf("only %d function names seen in decision paths: %v", len(seen), seen)
	}
}

package explain

import (
	"fmt"
	"sort"
	"strings"

	"schedplay/engine/sim"
)

// Segment is a piece of a described decision: plain text, or a kernel
// function name (Func, as fair.c spells it) with Anchor, the fragment of
// its entry in docs/KERNEL-MAP.md ("docs/KERNEL-MAP.md#" + Anchor).
type Segment struct {
	Text   string `json:"text"`
	Func   string `json:"func,omitempty"`
	Anchor string `json:"anchor,omitempty"`
}

// Line is one line of a description.
type Line []Segment

// kernelFuncs maps the names a decision path may start a step with to the
// kernel function they stand for. Keys are the spelling the simulator
// writes (the short balance names "find_src_group" stand for the 6.10+
// sched_balance_* names).
var kernelFuncs = map[string]string{
	"try_to_wake_up":               "try_to_wake_up",
	"ttwu_runnable":                "ttwu_runnable",
	"wake_up_new_task":             "wake_up_new_task",
	"sched_exec":                   "sched_exec",
	"select_task_rq_fair":          "select_task_rq_fair",
	"wake_affine":                  "wake_affine",
	"wake_affine_idle":             "wake_affine_idle",
	"wake_affine_weight":           "wake_affine_weight",
	"select_idle_sibling":          "select_idle_sibling",
	"select_idle_capacity":         "select_idle_capacity",
	"select_idle_smt":              "select_idle_smt",
	"select_idle_cpu":              "select_idle_cpu",
	"select_idle_core":             "select_idle_core",
	"select_idle_smt_cpu":          "select_idle_smt_cpu",
	"sched_balance_find_dst_group": "sched_balance_find_dst_group",
	"sched_balance_trigger":        "sched_balance_trigger",
	"sched_balance_domains":        "sched_balance_domains",
	"sched_balance_newidle":        "sched_balance_newidle",
	"nohz_idle_balance":            "nohz_idle_balance",
	"_nohz_idle_balance":           "nohz_idle_balance",
	"nohz_balancer_kick":           "nohz_balancer_kick",
	"find_new_ilb":                 "find_new_ilb",
	"sched_balance_rq":             "sched_balance_rq",
	"find_src_group":               "sched_balance_find_src_group",
	"sched_balance_find_src_group": "sched_balance_find_src_group",
	"update_sd_lb_stats":           "update_sd_lb_stats",
	"calculate_imbalance":          "calculate_imbalance",
	"find_src_rq":                  "sched_balance_find_src_rq",
	"sched_balance_find_src_rq":    "sched_balance_find_src_rq",
	"detach_tasks":                 "detach_tasks",
	"can_migrate_task":             "can_migrate_task",
	"need_active_balance":          "need_active_balance",
	"active_load_balance_cpu_stop": "active_load_balance_cpu_stop",
	"update_misfit_status":         "update_misfit_status",
	"sched_asym":                   "sched_asym",
}

// entryPaths are the kernel entry points of each decision kind, outermost
// first: the calls that led to the recorded path.
var entryPaths = map[string][]string{
	"wakeup":   {"try_to_wake_up", "select_task_rq_fair"},
	"fork":     {"wake_up_new_task", "select_task_rq_fair"},
	"exec":     {"sched_exec", "select_task_rq_fair"},
	"periodic": {"sched_balance_trigger", "sched_balance_domains", "sched_balance_rq"},
	"newidle":  {"sched_balance_newidle", "sched_balance_rq"},
	"nohz":     {"nohz_idle_balance", "sched_balance_domains", "sched_balance_rq"},
	"active":   {"need_active_balance", "active_load_balance_cpu_stop"},
	"misfit":   {"update_misfit_status", "need_active_balance", "active_load_balance_cpu_stop"},
	"asym":     {"sched_asym", "need_active_balance", "active_load_balance_cpu_stop"},
}

// kindText is the first words of a decision's headline.
var kindText = map[string]string{
	"wakeup":   "woken",
	"fork":     "forked",
	"exec":     "exec'ed",
	"periodic": "moved by periodic load balancing",
	"newidle":  "pulled by a newly idle CPU",
	"nohz":     "moved by nohz idle balancing",
	"active":   "pushed by active balancing",
	"misfit":   "pushed as a misfit task",
	"asym":     "pushed by asym packing",
}

// LinkedFuncs returns every kernel function name Describe can link, each
// once, sorted; their anchors exist in docs/KERNEL-MAP.md (a test checks).
func LinkedFuncs() []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range kernelFuncs {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// Describe renders a decision in kernel vocabulary. The first line is the
// headline (task, kind, time, CPUs); the second the kernel entry path of the
// decision's kind; then one line per recorded path step. Kernel function
// names become linked segments. tasks names the task (Timeline.Tasks); it
// may be nil.
func Describe(d sim.Decision, tasks []sim.TaskInfo) []Line {
	name := fmt.Sprintf("task %d", d.Task)
	if d.Kind == "exec" {
		name = "the parent (no task of the timeline)"
	} else if d.Task >= 0 && d.Task < len(tasks) {
		ti := tasks[d.Task]
		name = fmt.Sprintf("%s (pid %d)", ti.Name, ti.PID)
	}
	what := kindText[d.Kind]
	if what == "" {
		what = d.Kind
	}
	head := fmt.Sprintf("%s %s at %s: cpu %d → cpu %d", name, what, FormatNs(d.At), d.From, d.To)
	if d.From == d.To {
		head = fmt.Sprintf("%s %s at %s: stays on cpu %d", name, what, FormatNs(d.At), d.To)
	}
	lines := []Line{{{Text: head}}}
	if entry := entryPaths[d.Kind]; len(entry) > 0 {
		var l Line
		for i, f := range entry {
			if i > 0 {
				l = append(l, Segment{Text: " → "})
			}
			l = append(l, funcSegment(f, f+"()"))
		}
		lines = append(lines, l)
	}
	for _, step := range d.Path {
		lines = append(lines, DescribeStep(step))
	}
	return lines
}

// DescribeStep splits one path step ("select_idle_sibling: prev 3 idle")
// into a linked function name and the rest. A step that does not start with
// a known kernel function is one plain segment.
func DescribeStep(step string) Line {
	n := 0
	for n < len(step) && (step[n] == '_' || step[n] >= 'a' && step[n] <= 'z' || n > 0 && step[n] >= '0' && step[n] <= '9') {
		n++
	}
	f, ok := kernelFuncs[step[:n]]
	if n == 0 || !ok {
		return Line{{Text: step}}
	}
	l := Line{funcSegment(f, step[:n])}
	if rest := step[n:]; rest != "" {
		l = append(l, Segment{Text: rest})
	}
	return l
}

// funcSegment links a kernel function, shown as text.
func funcSegment(f, text string) Segment {
	return Segment{Text: text, Func: f, Anchor: Anchor(f)}
}

// Anchor is the docs/KERNEL-MAP.md fragment of kernel function f: the
// GitHub slug of its heading "### `f()`", i.e. f itself in lower case.
func Anchor(f string) string { return strings.ToLower(f) }

// FormatNs prints a time in the largest unit that keeps it readable
// ("1.234 ms", "2.5 s", "750 µs", "12 ns").
func FormatNs(ns int64) string {
	a := ns
	if a < 0 {
		a = -a
	}
	switch {
	case a >= 1e9:
		return trimFloat(float64(ns)/1e9) + " s"
	case a >= 1e6:
		return trimFloat(float64(ns)/1e6) + " ms"
	case a >= 1e3:
		return trimFloat(float64(ns)/1e3) + " µs"
	}
	return fmt.Sprintf("%d ns", ns)
}

// trimFloat prints v with up to three decimals and no trailing zeros.
func trimFloat(v float64) string {
	s := fmt.Sprintf("%.3f", v)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// Text joins a line's segments as plain text (for copy, tooltips, tests).
func (l Line) Text() string {
	var b strings.Builder
	for _, s := range l {
		b.WriteString(s.Text)
	}
	return b.String()
}

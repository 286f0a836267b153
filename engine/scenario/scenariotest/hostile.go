package scenariotest

import (
	"fmt"
	"strings"
)

// The hostile corpus of issue 17: valid (or nearly valid) documents of a
// few kilobytes that used to buy minutes of CPU and gigabytes of memory.
// Every row is re-run by the tests of the layer it attacks (scenario
// budgets, the API, the CLI, the browser), which assert that it is now
// refused at once or bounded.

// NUMA64 is 64 nodes × 64 cores (4096 CPUs) with a symmetric 64×64
// distances matrix holding 244 distinct remote distances (11…254), and an
// idle workload: 244 NUMA levels before the fix (a 19 KB document).
func NUMA64() string {
	return `{"schedplay": 1, "name": "numa64", "machine": {"nodes": 64, "cores_per_node": 64, "threads_per_core": 1, "distances": ` +
		numaDistances(64, 244) + `}, "workload": {"groups": []}, "run": {"duration": "10ms"}}`
}

// numaDistances is an n×n symmetric matrix with 10 on the diagonal and
// distinct remote values cycling through 11 … 10+distinct.
func numaDistances(n, distinct int) string {
	d := make([][]int, n)
	for i := range d {
		d[i] = make([]int, n)
		d[i][i] = 10
	}
	k := 0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			v := 11 + k%distinct
			k++
			d[i][j], d[j][i] = v, v
		}
	}
	rows := make([]string, n)
	for i, row := range d {
		cells := make([]string, n)
		for j, v := range row {
			cells[j] = fmt.Sprint(v)
		}
		rows[i] = "[" + strings.Join(cells, ",") + "]"
	}
	return "[" + strings.Join(rows, ",") + "]"
}

// LongNames is a simulate request: one group of 16,384 tasks whose name is
// 60 KB, with the "runs" timeline (each task's name is in the reply).
func LongNames() string {
	return `{"scenario": {"schedplay": 1, "machine": {"preset": "x86-smt"}, "workload": {"groups": [{"name": "` +
		strings.Repeat("n", 60<<10) + `", "count": 16384, "program": [{"compute": "1ms"}]}]}, "run": {"duration": "10ms"}}, "timeline": "runs"}`
}

// ManySets is a simulate request of n appends to workload.groups through
// "set" (16,384 in the audit: 1.48 MB).
func ManySets(n int) string {
	var b strings.Builder
	b.WriteString(`{"scenario": {"schedplay": 1, "machine": {"preset": "x86-smt"}, "workload": {"groups": []}}, "set": [`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"path": "workload.groups[%d]", "value": {"name": "g", "count": 1, "program": [{"compute": "1ms"}]}}`, i)
	}
	b.WriteString("]}")
	return b.String()
}

// CompareVary32 is a compare request varying run.seed over 32 values on the
// 4096-CPU NUMA64 machine, with a small workload whose runs are each under
// 4096 events (so a per-4096-events deadline check never fires).
func CompareVary32() string {
	vals := make([]string, 32)
	for i := range vals {
		vals[i] = fmt.Sprint(i + 1)
	}
	doc := strings.Replace(NUMA64(), `"workload": {"groups": []}`, `"workload": {"groups": [{"name": "w", "count": 1, "program": [{"compute": "1us"}]}]}`, 1)
	return `{"scenario": ` + doc + `, "a": {"label": "A", "set": []}, "b": {"label": "B", "set": ["policy.hz=1000"]}, "vary": "run.seed=` + strings.Join(vals, ",") + `"}`
}

// PingPong is one CPU with zero latencies and a two-task ping-pong of
// loops iterations, reps repetitions (9.9 M × 4 in the audit): every
// wake-up latency is a sample.
func PingPong(loops, reps int) string {
	ping := fmt.Sprintf(`{"name": "ping", "count": 1, "program": [{"repeat": %d, "do": [{"send": "ab"}, {"recv": "ba"}]}]}`, loops)
	pong := fmt.Sprintf(`{"name": "pong", "count": 1, "program": [{"repeat": %d, "do": [{"recv": "ab"}, {"send": "ba"}]}]}`, loops)
	return fmt.Sprintf(`{"schedplay": 1, "name": "ping-pong", "machine": {"nodes": 1, "cores_per_node": 1, "threads_per_core": 1, `+
		`"latency": {"wakeup": "0s", "ipi": "0s", "idle_exit": "0s", "context_switch": "0s", "process_switch": "0s"}}, `+
		`"workload": {"groups": [%s, %s]}, "run": {"duration": "60s", "reps": %d}}`, ping, pong, reps)
}

// TerminalEscape is a scenario whose name and group name hold terminal
// control sequences (a window-title OSC and a colour CSI).
func TerminalEscape() string {
	return `{"schedplay": 1, "name": "\u001b]0;pwned\u0007\u001b[31mred", "machine": {"preset": "x86-smt"}, ` +
		`"workload": {"groups": [{"name": "g\u001b[2J", "count": 1, "program": [{"compute": "1ms"}]}]}, "run": {"duration": "10ms"}}`
}

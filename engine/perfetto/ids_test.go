package perfetto

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"schedplay/engine/scenario/scenariotest"
	"schedplay/engine/sim"
)

// traceOf simulates a scenario document (repetition 0 with its timeline)
// and writes its trace as `schedplay run --trace` does.
func traceOf(t *testing.T, doc string) []byte {
	t.Helper()
	r := scenariotest.Resolve(t, doc)
	r.Run.Reps = 1
	res, err := sim.Run(context.Background(), r, sim.Options{Timeline: true})
	if err != nil {
		t.Fatal(err)
	}
	var opt Options
	for _, g := range r.Workload.Groups {
		opt.Processes = append(opt.Processes, g.Process)
	}
	var b bytes.Buffer
	if err := Write(&b, res, opt); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// ftraceLine is one parsed systrace line: the task whose context it is in
// (comm-pid (tgid)), its CPU, timestamp, event and key=value arguments.
type ftraceLine struct {
	comm      string
	pid, tgid int // tgid 0 for "-----"
	cpu       int
	ts        string
	event     string
	args      map[string]string
}

var ftraceRE = regexp.MustCompile(`^\s*(.+)-(\d+)\s+\(\s*(\d+|-----)\) \[(\d+)\] \S{4}\s+(\d+\.\d{9}): (\w+): (.*)$`)

// parseTrace reads the systrace text of a written trace the way Perfetto's
// systrace line tokenizer and parser split it.
func parseTrace(t *testing.T, data []byte) (*Trace, []ftraceLine) {
	t.Helper()
	var tr Trace
	if err := json.Unmarshal(data, &tr); err != nil {
		t.Fatal(err)
	}
	var out []ftraceLine
	for _, l := range strings.Split(strings.TrimSpace(tr.SystemTraceEvents), "\n") {
		if strings.HasPrefix(l, "#") {
			continue
		}
		m := ftraceRE.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("unparsable line %q", l)
		}
		fl := ftraceLine{comm: m[1], ts: m[5], event: m[6], args: map[string]string{}}
		fl.pid, _ = strconv.Atoi(m[2])
		fl.tgid, _ = strconv.Atoi(m[3])
		fl.cpu, _ = strconv.Atoi(m[4])
		for _, tok := range strings.Fields(m[7]) {
			if k, v, ok := strings.Cut(tok, "="); ok {
				fl.args[k] = v
			}
		}
		out = append(out, fl)
	}
	return &tr, out
}

// The trace gives every thread its own pid (ftrace's pid is the thread
// id) and the threads of one group one tgid (the column Perfetto groups
// threads into processes by), named after the group; a group of processes
// has a tgid per task. The same scenario and seed write the same bytes.
func TestTraceThreadIDsAndProcesses(t *testing.T) {
	doc := `{"schedplay":1,"machine":{"preset":"x86-smt"},"policy":{"preset":"mainline"},
		"workload":{"groups":[
			{"name":"w","count":4,"program":[{"repeat":3,"do":[{"compute":"1ms"},{"sleep":"500us"}]}]},
			{"name":"p","count":2,"process":true,"program":[{"repeat":3,"do":[{"compute":"1ms"},{"sleep":"500us"}]}]}]},
		"run":{"duration":"20ms","seed":3}}`
	data := traceOf(t, doc)
	if again := traceOf(t, doc); !bytes.Equal(data, again) {
		t.Fatal("two traces of the same scenario and seed differ")
	}
	tr, lines := parseTrace(t, data)
	pidOf := map[string]int{} // comm → pid, from the sched_switch arguments
	tgidOf := map[int]int{}   // pid → tgid, from the lines' task column
	for _, l := range lines {
		if l.event == "sched_switch" {
			pid, _ := strconv.Atoi(l.args["next_pid"])
			if c := l.args["next_comm"]; pid != 0 {
				if old, ok := pidOf[c]; ok && old != pid {
					t.Errorf("%s has pids %d and %d", c, old, pid)
				}
				pidOf[c] = pid
			}
		}
		if l.pid != 0 {
			if old, ok := tgidOf[l.pid]; ok && old != l.tgid {
				t.Errorf("pid %d has tgids %d and %d", l.pid, old, l.tgid)
			}
			tgidOf[l.pid] = l.tgid
		}
	}
	threads := map[int]bool{}
	for _, c := range []string{"w/0", "w/1", "w/2", "w/3"} {
		pid, ok := pidOf[c]
		if !ok {
			t.Fatalf("%s never runs in the trace", c)
		}
		threads[pid] = true
		if tgidOf[pid] != pidOf["w/0"] {
			t.Errorf("%s (pid %d): tgid %d, want w/0's pid %d", c, pid, tgidOf[pid], pidOf["w/0"])
		}
	}
	if len(threads) != 4 {
		t.Errorf("the 4 threads of w have %d distinct pids: %v", len(threads), pidOf)
	}
	for _, c := range []string{"p/0", "p/1"} {
		pid := pidOf[c]
		if pid == 0 || threads[pid] || tgidOf[pid] != pid {
			t.Errorf("process %s: pid %d tgid %d, want a pid of its own and tgid = pid", c, pid, tgidOf[pid])
		}
	}
	if pidOf["p/0"] == pidOf["p/1"] {
		t.Errorf("p/0 and p/1 share pid %d", pidOf["p/0"])
	}
	named := map[int]any{}
	tracks := 0
	for _, e := range tr.TraceEvents {
		if e.Ph == "M" && e.Name == "process_name" {
			named[e.PID] = e.Args["name"]
		}
		// Perfetto keys threads by tid across the JSON events and the
		// ftrace text: a JSON track must not claim a task's tid (or tid 0,
		// the idle task) for another process.
		if tg, isTask := tgidOf[e.TID]; e.TID == 0 || isTask && e.PID != tg {
			t.Errorf("JSON event %s puts tid %d in process %d", e.Name, e.TID, e.PID)
		}
		if e.Ph == "X" {
			tracks++
		}
	}
	if tracks == 0 {
		t.Error("no core mode slices to check")
	}
	if named[pidOf["w/0"]] != "w" || named[pidOf["p/1"]] != "p" {
		t.Errorf("process names %v, want w for tgid %d and p for %d", named, pidOf["w/0"], pidOf["p/1"])
	}
}

// sched_switch's prev_state says what the kernel would: a task switched
// out while runnable — preempted at the tick by the other hog on its CPU,
// or pushed to another CPU by misfit/active balance — is R; a task that
// blocks is S; an exiting thread is X, an exiting group leader Z.
func TestTracePrevState(t *testing.T) {
	states := func(lines []ftraceLine, comm string) map[string]int {
		n := map[string]int{}
		for _, l := range lines {
			if l.event == "sched_switch" && l.args["prev_comm"] == comm {
				n[l.args["prev_state"]]++
			}
		}
		return n
	}
	_, lines := parseTrace(t, traceOf(t, `{"schedplay":1,"machine":{"preset":"hikey960"},"policy":{"preset":"mainline"},
		"workload":{"groups":[
			{"name":"hog","count":2,"cpus":"3","program":[{"compute":"30ms"}]},
			{"name":"short","count":2,"cpus":"5","program":[{"compute":"2ms"}]},
			{"name":"nap","count":1,"cpus":"6","program":[{"repeat":4,"do":[{"compute":"1ms"},{"sleep":"1ms"}]},{"compute":"1ms"}]}]},
		"run":{"duration":"20ms","until":"duration","seed":1}}`))
	for _, c := range []struct {
		comm string
		want map[string]int
	}{
		{"hog/0", nil}, {"hog/1", nil}, // checked below: only R
		{"short/0", map[string]int{"R": 0, "Z": 1}},
		{"short/1", map[string]int{"R": 0, "X": 1}},
		{"nap/0", map[string]int{"S": 4, "Z": 1}},
	} {
		got := states(lines, c.comm)
		if c.want == nil {
			if got["R"] < 2 || len(got) != 1 {
				t.Errorf("%s switched out with %v, want only R (preempted by the other hog)", c.comm, got)
			}
			continue
		}
		for s, n := range c.want {
			if s != "R" && got[s] != n {
				t.Errorf("%s switched out with %v, want %d × %s", c.comm, got, n, s)
			}
		}
		if _, isR := c.want["R"]; !isR && got["R"] > 0 {
			t.Errorf("%s switched out runnable: %v", c.comm, got)
		}
	}

	// hikey960-short-sysbench: misfit pushes the running sysbench thread
	// off a little CPU (at 24.006 ms with seed 1): its switch out is R.
	_, lines = parseTrace(t, traceOf(t, `{"schedplay":1,"preset":"hikey960-short-sysbench"}`))
	pushed := 0
	for i, l := range lines {
		if l.event != "sched_migrate_task" {
			continue
		}
		for _, s := range lines[:i] {
			if s.event == "sched_switch" && s.ts == l.ts && strconv.Itoa(s.cpu) == l.args["orig_cpu"] && s.args["prev_pid"] == l.args["pid"] {
				pushed++
				if s.args["prev_state"] != "R" {
					t.Errorf("%s pushed at %s off cpu %d: prev_state=%s, want R", s.args["prev_comm"], s.ts, s.cpu, s.args["prev_state"])
				}
			}
		}
	}
	if pushed == 0 {
		t.Fatal("no running task was pushed in hikey960-short-sysbench")
	}
}

// A comm is at most 15 bytes of valid UTF-8 and keeps the "/N" that tells
// a group's threads apart.
func TestComm(t *testing.T) {
	for in, want := range map[string]string{
		"w/0":                       "w/0",
		"sgemm 0":                   "sgemm_0",
		"a=b/1":                     "a_b/1",
		"":                          "task",
		"a-very-long-group-name/87": "a-very-long-/87",
		"exactly-15-byte":           "exactly-15-byte",
		"no-index-and-far-too-long": "no-index-and-fa",
		"ééééééééé/3":               "éééééé/3",
	} {
		got := comm(in)
		if got != want || len(got) > 15 || !utf8.ValidString(got) {
			t.Errorf("comm(%q) = %q, want %q", in, got, want)
		}
	}
}

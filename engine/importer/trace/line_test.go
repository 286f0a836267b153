package trace

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

// TestParseLine: the line forms of cat trace, systrace and trace-cmd
// report, with comm holding spaces and dashes.
func TestParseLine(t *testing.T) {
	for _, tc := range []struct {
		in         string
		comm       string
		pid, cpu   int
		irq        bool
		ts         int64
		kind       kind
		payloadHas string
	}{
		{"          <idle>-0     (-----) [000] d.h2     0.001050000: sched_waking: comm=waker/0 pid=1 prio=120 target_cpu=000",
			"<idle>", 0, 0, true, 1050000, kWaking, "comm=waker/0"},
		{"kworker/u17:1-959   (  959) [006] d..3   538.064659: sched_switch: prev_comm=kworker/u17:1 prev_pid=959 prev_prio=100 prev_state=S ==> next_comm=swapper/6 next_pid=0 next_prio=120",
			"kworker/u17:1", 959, 6, false, 538064659000, kSwitch, "prev_pid=959"},
		{"           <...>-19427 [000]  6550.018664: sched_wakeup_new:      comm=shutils pid=19428 prio=120 success=1 target_cpu=2",
			"<...>", 19427, 0, false, 6550018664000, kWakeupNew, "pid=19428"},
		{"  Binder thread-x-2-1977  [003] d...  3742.555155: sched_wakeup: comm=bash pid=1240 prio=120 target_cpu=003",
			"Binder thread-x-2", 1977, 3, false, 3742555155000, kWakeup, "pid=1240"},
		{"   bash-42 [001] dNs5. 13916.281769: cpu_idle: state=1 cpu_id=1", "bash", 42, 1, true, 13916281769000, kOther, "state=1"},
		// perf script (perf sched record): "comm tid" or "comm pid/tid",
		// no flags, the event named with its subsystem.
		{"            perf 32495 [000] 36243.570514:       sched:sched_waking: comm=migration/0 pid=18 prio=0 target_cpu=000",
			"perf", 32495, 0, false, 36243570514000, kWaking, "comm=migration/0"},
		{"     migration/0    18 [000] 36243.570527: sched:sched_migrate_task: comm=perf pid=32495 prio=120 orig_cpu=0 dest_cpu=1",
			"migration/0", 18, 0, false, 36243570527000, kOther, "dest_cpu=1"},
		{"  memfd:sealed-91  7/9 [001] 1.000001: sched:sched_switch: prev_comm=x prev_pid=9 prev_prio=120 prev_state=S ==> next_comm=y next_pid=0 next_prio=120",
			"memfd:sealed-91", 9, 1, false, 1000001000, kSwitch, "prev_pid=9"},
	} {
		var l line
		if err := parseLine([]byte(tc.in), &l); err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if string(l.comm) != tc.comm || l.pid != tc.pid || l.cpu != tc.cpu || l.irq != tc.irq || l.ts != tc.ts || l.kind != tc.kind || !strings.Contains(string(l.payload), tc.payloadHas) {
			t.Errorf("%q: %q %d [%d] irq=%v %d kind %d %q", tc.in, l.comm, l.pid, l.cpu, l.irq, l.ts, l.kind, l.payload)
		}
	}
	for _, bad := range []string{"", "hello world", "x-1 [0a0] 1.0: e:", "x-1 [000] 1: e: y", "nopid [000] 1.000: sched_switch: x"} {
		var l line
		if err := parseLine([]byte(bad), &l); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// TestPayloads: key=value and trace-cmd's plugin forms; raw numeric states.
func TestPayloads(t *testing.T) {
	var s switchEvent
	if err := parseSwitch([]byte("prev_comm=Binder thread prev_pid=7 prev_prio=120 prev_state=R+ ==> next_comm=a b next_pid=8 next_prio=100"), &s); err != nil ||
		string(s.prevComm) != "Binder thread" || s.prevPid != 7 || s.prevState != stRunnable || string(s.nextComm) != "a b" || s.nextPid != 8 || s.nextPrio != 100 {
		t.Errorf("key=value switch: %+v %v", s, err)
	}
	if err := parseSwitch([]byte("swapper/0:0 [120] R ==> trace-cmd:1234 [120]"), &s); err != nil || s.prevPid != 0 || s.nextPid != 1234 || string(s.nextComm) != "trace-cmd" {
		t.Errorf("plugin switch: %+v %v", s, err)
	}
	for st, want := range map[string]state{"S": stBlocked, "D": stBlocked, "R": stRunnable, "R+": stRunnable, "X": stDead, "Z": stDead, "0": stRunnable, "1": stBlocked, "2": stBlocked, "64": stBlocked, "1024": stRunnable, "16": stDead} {
		if got := parseState([]byte(st)); got != want {
			t.Errorf("prev_state=%s: %d; want %d", st, got, want)
		}
	}
	var w wakeEvent
	if err := parseWake([]byte("trace-cmd:1234 [120] success=1 CPU:002"), &w); err != nil || w.pid != 1234 || w.target != 2 {
		t.Errorf("plugin wakeup: %+v %v", w, err)
	}
	if err := parseSwitch([]byte("prev_comm=a prev_pid=x"), &s); err == nil {
		t.Error("a broken switch parsed")
	}
}

// TestStrictAndSkips: a malformed line is skipped and counted, or refused
// with its line number under Strict; headers and stack lines are not
// malformed.
func TestStrictAndSkips(t *testing.T) {
	text := "# tracer: nop\nversion = 6\nCPU 3 is empty\n" +
		"  a-1 [000] d..2 1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a next_pid=1 next_prio=120\n" +
		" => __schedule+0x1\n" +
		"  a-1 [000] d..2 1.000100: sched_switch: prev_comm=a prev_pid=oops\n" +
		"garbage line\n" +
		"  a-1 [000] d..2 1.000200: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
	tr, err := Read(strings.NewReader(text), Options{File: "t.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if tr.skipped != 2 || !strings.HasPrefix(tr.firstSkip, "line 6: sched_switch") {
		t.Errorf("skipped %d, first %q; want 2, line 6", tr.skipped, tr.firstSkip)
	}
	if got := tr.Stats()[0].CPUTime; got != 200000 {
		t.Errorf("cpu time %d; want 200000", got)
	}
	_, err = Read(strings.NewReader(text), Options{File: "t.txt", Strict: true})
	if err == nil || !strings.HasPrefix(err.Error(), "t.txt:6: sched_switch: malformed payload (--strict)") {
		t.Errorf("strict: %v", err)
	}
}

// TestSources: ftrace text inside a Chrome JSON string (escapes decoded
// as it streams) and inside a systrace HTML page.
func TestSources(t *testing.T) {
	// lines reads what src finds in doc, its lines joined by "|".
	lines := func(src func(*bufio.Reader) (io.Reader, error), doc string) string {
		t.Helper()
		r, err := src(bufio.NewReader(strings.NewReader(doc)))
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			b.WriteString(sc.Text() + "|")
		}
		return b.String()
	}
	js := `{"traceEvents":[{"a":"b\"}","c":[1,{"d":null}]}],"systemTraceEvents":"# tracer: nop\nline \"one\"\ttwo\u00e9\n","displayTimeUnit":"ns"}`
	if got := lines(ChromeText, js); got != "# tracer: nop|line \"one\"\ttwoé|" {
		t.Errorf("chrome text %q", got)
	}
	if _, err := ChromeText(bufio.NewReader(strings.NewReader(`{"traceEvents":[]}`))); err == nil || !strings.Contains(err.Error(), "systemTraceEvents") {
		t.Errorf("no systemTraceEvents: %v", err)
	}
	page := "<!DOCTYPE html><html><script>x</script>\n<script class=\"trace-data\" type=\"application/text\">\n# tracer: nop\nA\n</script><script class=\"trace-data\">{}</script></html>"
	if got := lines(HTMLText, page); got != "|# tracer: nop|A|" {
		t.Errorf("html text %q", got)
	}
	// The legacy page: a JavaScript string, each line ending in \n\.
	legacy := "<html><body><script>\n  var linuxPerfData = \"\\\n# tracer: nop\\n\\\n  a-1 [000] \\\"x\\\"\\n\\\n\";\n</script></body></html>"
	if got := lines(HTMLText, legacy); got != "# tracer: nop|  a-1 [000] \"x\"|" {
		t.Errorf("legacy html text %q", got)
	}
}

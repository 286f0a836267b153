package importer_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"schedplay/engine/importer"
	"schedplay/engine/importer/trace"
	"schedplay/engine/perfetto"
	"schedplay/engine/scenario"
	"schedplay/engine/scenario/scenariotest"
	"schedplay/engine/sim"
	"schedplay/presets"
)

// traceOf runs repetition 0 of r and returns its ftrace text.
func traceOf(t *testing.T, r *scenario.Resolved) string {
	t.Helper()
	r.Run.Reps = 1
	res, err := sim.Run(context.Background(), r, sim.Options{Timeline: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Timeline.Truncated {
		t.Fatal("timeline truncated: shorten the run")
	}
	return perfetto.Systrace(res.Timeline)
}

// groupFidelity is one replayed group against the tasks it replays.
type groupFidelity struct {
	name                 string
	origCPU, replayCPU   int64
	origWork, replayWork float64
	origWake, replayWake int64
}

// replayFidelity traces doc, imports the trace with the same machine and
// policy, runs the replay with the same seed, traces it, and compares
// each group's CPU time and wake-ups with those of the tasks it replays.
func replayFidelity(t *testing.T, doc, machine, policy string) ([]groupFidelity, *importer.Result) {
	t.Helper()
	ps, _ := presets.Load()
	orig := scenariotest.Resolve(t, doc)
	text := traceOf(t, orig)
	res, err := importer.Import("t.txt", strings.NewReader(text), importer.Options{Presets: ps, Machine: []byte(machine), Policy: []byte(policy)})
	if err != nil {
		t.Fatal(err)
	}
	rep := resolve(t, res)
	rep.Run.Seed = orig.Run.Seed
	text2 := traceOf(t, rep)
	var speeds []float64
	for _, c := range build(t, rep.Machine).CPUs {
		speeds = append(speeds, c.Speed)
	}
	tr2, err := trace.Read(strings.NewReader(text2), trace.Options{File: "replay", Speed: speeds})
	if err != nil {
		t.Fatal(err)
	}
	byPID := map[int]trace.TaskStat{}
	for _, s := range res.Trace.Stats() {
		byPID[s.PID] = s
	}
	replayed := map[int]trace.TaskStat{}
	for _, s := range tr2.Stats() {
		replayed[s.PID] = s
	}
	var out []groupFidelity
	pid := 1
	for gi, g := range rep.Workload.Groups {
		f := groupFidelity{name: g.Name}
		for _, p := range res.Replay.Groups[gi] {
			f.origCPU += byPID[p].CPUTime
			f.origWork += byPID[p].Work
			f.origWake += byPID[p].Wakeups
		}
		for k := 0; k < g.Count; k++ {
			f.replayCPU += replayed[pid].CPUTime
			f.replayWork += replayed[pid].Work
			f.replayWake += replayed[pid].Wakeups
			pid++
		}
		out = append(out, f)
	}
	return out, res
}

func (f groupFidelity) String() string {
	return fmt.Sprintf("%-10s cpu %8.3fms → %8.3fms (%+5.1f%%)  work %8.3fms → %8.3fms (%+5.1f%%)  wake-ups %5d → %5d (%+5.1f%%)", f.name,
		float64(f.origCPU)/1e6, float64(f.replayCPU)/1e6, pct(f.replayCPU, f.origCPU),
		f.origWork/1e6, f.replayWork/1e6, pct(int64(f.replayWork), int64(f.origWork)),
		f.origWake, f.replayWake, pct(f.replayWake, f.origWake))
}

// Tolerances of the replay (docs/import.md): CPU time (work on machines
// whose CPUs differ in speed) within 10% or 50µs, the per-activation
// switch and wake-up costs being modelled again; wake-ups within 10% or 2.
const (
	tolPct    = 10.0
	tolTimeNs = 50_000
	tolWakes  = 2
)

// within reports |got-want| within pct% of want or abs.
func within(got, want, pctTol, abs float64) bool {
	d := math.Abs(got - want)
	return d <= abs || d <= pctTol/100*math.Abs(want)
}

func pct(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a-b) / float64(b)
}

// TestReplayFidelity: a trace of a run replayed on the same machine and
// policy gives each task the CPU time and wake-up count it had, within
// the tolerances above. On hikey960, whose CPUs differ in speed, where
// the replay places a task changes its CPU time but not its work, so the
// work is compared there.
func TestReplayFidelity(t *testing.T) {
	flat := `{"nodes":1,"cores_per_node":8,"threads_per_core":1}`
	for _, tc := range []struct {
		name, doc, machine string
		byWork             bool
		// knownMiss names a group whose wake-up count the replay does not
		// keep, and why (docs/import.md, "What a replay loses").
		knownMiss, why string
	}{
		{"ping-pong", `{"schedplay":1,"machine":` + flat + `,"workload":{"groups":[
			{"name":"ping","count":1,"program":[{"repeat":400,"do":[{"compute":"30us"},{"send":"a"},{"recv":"b"}]}]},
			{"name":"pong","count":1,"program":[{"repeat":400,"do":[{"recv":"a"},{"compute":"50us"},{"send":"b"}]}]}]},
			"run":{"duration":"200ms","seed":3}}`, flat, false, "", ""},
		{"timers and load", `{"schedplay":1,"machine":` + flat + `,"workload":{"groups":[
			{"name":"tick","count":2,"program":[{"periodic":{"every":"2ms","do":[{"compute":"150us"}]}}]},
			{"name":"batch","count":12,"program":[{"repeat":40,"do":[{"compute":"2ms","jitter":0.5},{"sleep":"1ms"}]}]}]},
			"run":{"duration":"200ms","seed":5,"until":"duration"}}`, flat, false, "", ""},
		{"pipeline", `{"schedplay":1,"machine":` + flat + `,"workload":{"groups":[
			{"name":"src","count":1,"program":[{"repeat":300,"do":[{"compute":"100us"},{"send":"s1"},{"sleep":"200us"}]}]},
			{"name":"mid","count":1,"program":[{"repeat":300,"do":[{"recv":"s1"},{"compute":"150us"},{"send":"s2"}]}]},
			{"name":"sink","count":1,"program":[{"repeat":300,"do":[{"recv":"s2"},{"compute":"80us"}]}]}]},
			"run":{"duration":"300ms","seed":4}}`, flat, false, "", ""},
		{"barrier", `{"schedplay":1,"machine":` + flat + `,"workload":{"groups":[
			{"name":"omp","count":6,"program":[{"repeat":200,"do":[{"compute":"400us","jitter":0.3},{"barrier":"b"}]}]}]},
			"run":{"duration":"300ms","seed":2}}`, flat, false, "", ""},
		{"futex wake", `{"schedplay":1,"machine":{"preset":"hikey960"},"workload":{"preset":"futex-wake"},
			"run":{"duration":"200ms","seed":1}}`, `{"preset":"hikey960"}`, true,
			"waker/0", "it collects 8 replies and sleeps only for the last; a trace shows the one wake-up, so the replay waits for one reply and finds it already there"},
		{"big.LITTLE load", `{"schedplay":1,"machine":{"preset":"hikey960"},"workload":{"groups":[
			{"name":"tick","count":2,"program":[{"periodic":{"every":"2ms","do":[{"compute":"150us"}]}}]},
			{"name":"batch","count":3,"program":[{"repeat":40,"do":[{"compute":"2ms","jitter":0.5},{"sleep":"1ms"}]}]}]},
			"run":{"duration":"200ms","seed":5,"until":"duration"}}`, `{"preset":"hikey960"}`, true, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, res := replayFidelity(t, tc.doc, tc.machine, `{"preset":"mainline"}`)
			for _, f := range fs {
				t.Log(f)
				if tc.byWork {
					if !within(f.replayWork, f.origWork, tolPct, tolTimeNs) {
						t.Errorf("%s: work off by %.1f%%", f.name, pct(int64(f.replayWork), int64(f.origWork)))
					}
				} else if !within(float64(f.replayCPU), float64(f.origCPU), tolPct, tolTimeNs) {
					t.Errorf("%s: CPU time off by %.1f%%", f.name, pct(f.replayCPU, f.origCPU))
				}
				if f.name == tc.knownMiss {
					t.Logf("%s: wake-ups not checked: %s", f.name, tc.why)
					continue
				}
				if !within(float64(f.replayWake), float64(f.origWake), tolPct, tolWakes) {
					t.Errorf("%s: wake-ups off by %.1f%%", f.name, pct(f.replayWake, f.origWake))
				}
			}
			t.Logf("notes: %q", res.Notes)
		})
	}
}

// TestRealTraces: public traces import into a bounded, valid replay.
func TestRealTraces(t *testing.T) {
	// An Android phone's systrace (8 CPUs, 2517 lines: surfaceflinger,
	// binder threads, kworkers, real-time sugov threads), gzipped.
	res, r := importFile(t, "trace/surfaceflinger.systrace.txt.gz", importer.Options{})
	if res.Format != importer.FormatFtrace || r.Machine.NumCPUs() != 8 {
		t.Errorf("format %s, %d CPUs", res.Format, r.Machine.NumCPUs())
	}
	if n := res.Trace.Events(); n < 1000 {
		t.Errorf("%d scheduling events; want the trace's ~1100 sched_switch and sched_wakeup lines", n)
	}
	if g := len(r.Workload.Groups); g < 10 || g > trace.MaxGroups+1 {
		t.Errorf("%d groups", g)
	}
	for _, want := range []string{"real-time tasks", "per-CPU kernel threads"} {
		if !hasNote(res, want) {
			t.Errorf("notes lack %q: %q", want, res.Notes)
		}
	}
	rt := 0
	for _, g := range r.Workload.Groups {
		if g.Policy == scenario.PolicyFIFO && g.RTPriority >= 1 && g.RTPriority <= 99 {
			rt++
		}
	}
	if rt == 0 {
		t.Errorf("no SCHED_FIFO group for the trace's real-time tasks")
	}
	// A systrace page of the old form (var linuxPerfData = "…").
	res, r = importFile(t, "trace/legacy-systrace.html", importer.Options{})
	if res.Format != importer.FormatFtrace || res.Trace.Events() != 5 || r.Machine.NumCPUs() != 8 {
		t.Errorf("legacy systrace: format %s, %d events, %d CPUs; want ftrace, its 5 sched_switch/sched_wakeup lines, 8", res.Format, res.Trace.Events(), r.Machine.NumCPUs())
	}
	// ftrace text with no scheduling event (ext4's events: a digit in
	// the event name), and one whose scheduling events show no task.
	for _, tc := range []struct{ file, want string }{
		{"trace/ext4-events.txt", "no sched_switch or sched_waking events: record"},
		{"trace/no-task.txt", "show no task running or being woken: nothing to replay"},
	} {
		if _, err := importPath(t, tc.file, importer.Options{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v; want %q", tc.file, err, tc.want)
		}
	}
	// perf sched record, then perf script: "comm tid", no flags,
	// "sched:sched_switch". Its pipe pair replays as a ping-pong.
	res, _ = importFile(t, "trace/perf-sched-script.txt.gz", importer.Options{})
	if res.Trace.Events() < 200 || !strings.Contains(string(res.Scenario), `"send"`) || !hasNote(res, "without the irq-flags column") {
		t.Errorf("perf script: %d events, sends %v, notes %q; want its 224 events, a ping-pong, the irq-flags note",
			res.Trace.Events(), strings.Contains(string(res.Scenario), `"send"`), res.Notes)
	}
	// A trace-cmd report (no tgid column, no flags, "<...>" comms).
	res, _ = importFile(t, "trace/trace-cmd-report.txt", importer.Options{})
	if res.Trace.Events() != 4 {
		t.Errorf("trace-cmd report: %d events; want its 4 wake-ups", res.Trace.Events())
	}
}

// TestTraceWithoutSchedWaking: perf bench sched pipe traced on a 6.18
// kernel. With sched_wakeup alone, each cross-CPU wake-up is traced in
// the IPI on the woken task's CPU (TTWU_QUEUE), with no waker: the
// import says so and what to record. With sched_waking the two tasks
// replay as a ping-pong of sends and recvs.
func TestTraceWithoutSchedWaking(t *testing.T) {
	res, _ := importFile(t, "trace/pipe-sched_wakeup.txt.gz", importer.Options{})
	if !hasNote(res, "no sched_waking") || !hasNote(res, "record sched:sched_waking") {
		t.Errorf("sched_wakeup-only trace: notes %q do not say the wakers are unknown", res.Notes)
	}
	sends := func(res *importer.Result) int { return strings.Count(string(res.Scenario), `"send"`) }
	if n := sends(res); n != 0 {
		t.Errorf("sched_wakeup-only trace: %d sends; its wakers are unknown", n)
	}
	res, _ = importFile(t, "trace/pipe-sched_waking.txt.gz", importer.Options{})
	if hasNote(res, "no sched_waking") {
		t.Errorf("sched_waking trace: notes %q", res.Notes)
	}
	if n := sends(res); n == 0 {
		t.Errorf("sched_waking trace: no sends; the pipe's tasks wake each other")
	}
}

// TestPeriodicNeedsBurstsShorterThanThePeriod: a task woken by timer
// interrupts every 100 µs replays as periodic, unless its mean burst
// outlasts the period (here a 5 ms burst before the timer wake-ups),
// which no period gives.
func TestPeriodicNeedsBurstsShorterThanThePeriod(t *testing.T) {
	ps, _ := presets.Load()
	ftrace := func(longFirst bool) string {
		var b strings.Builder
		at := 1_000_000 // µs
		line := func(task, flags, event string) {
			fmt.Fprintf(&b, "%16s [000] %s %d.%06d: %s\n", task, flags, at/1_000_000, at%1_000_000, event)
		}
		run := func(us int) {
			line("<idle>-0", "d..2.", "sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=t next_pid=100 next_prio=120")
			at += us
			line("t-100", "d..2.", "sched_switch: prev_comm=t prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120")
		}
		first := 5
		if longFirst {
			first = 5000
		}
		run(first)
		for i := 0; i < 20; i++ {
			at += 100 - 5
			line("<idle>-0", "d.h2.", "sched_wakeup: comm=t pid=100 prio=120 target_cpu=000")
			run(5)
		}
		return b.String()
	}
	for _, tc := range []struct {
		longFirst, periodic bool
	}{{false, true}, {true, false}} {
		res, err := importer.Import("t.txt", strings.NewReader(ftrace(tc.longFirst)), importer.Options{Presets: ps})
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(res.Scenario), `"periodic"`); got != tc.periodic {
			t.Errorf("long first burst %v: periodic %v; want %v\n%s", tc.longFirst, got, tc.periodic, res.Scenario)
		}
	}
}

// TestPinNeedsEvidence: a task that ran on one CPU only is pinned in the
// replay when it waited for that CPU while another was idle (an
// affinity mask at work), not when its CPU was idle whenever it woke
// (the scheduler keeps an idle prev by itself).
func TestPinNeedsEvidence(t *testing.T) {
	ps, _ := presets.Load()
	flat := `{"nodes":1,"cores_per_node":2,"threads_per_core":1}`
	// A trace shows a CPU idle once it switches to the idle task: blip
	// runs once on CPU 1 so that its trace has a line there.
	hog := `{"name":"blip","count":1,"cpus":"1","program":[{"compute":"10us"}]},
		{"name":"hog","count":1,"cpus":"0","program":[{"repeat":60,"do":[{"compute":"3ms"},{"sleep":"1ms"}]}]},`
	for _, tc := range []struct {
		name, others, pCPUs string
		pinned              bool
	}{
		{"bound beside a hog", hog, `"cpus":"0",`, true},
		// Alone, it stays on its CPU over 300 runs, mask or not.
		{"alone, free", "", "", false},
		{"alone, bound", "", `"cpus":"1",`, false},
	} {
		doc := `{"schedplay":1,"machine":` + flat + `,"workload":{"groups":[` + tc.others + `
			{"name":"p","count":1,` + tc.pCPUs + `"program":[{"repeat":300,"do":[{"compute":"100us"},{"sleep":"500us"}]}]}]},
			"run":{"duration":"200ms","seed":1}}`
		text := traceOf(t, scenariotest.Resolve(t, doc))
		res, err := importer.Import("t.txt", strings.NewReader(text), importer.Options{Presets: ps, Machine: []byte(flat)})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, g := range resolve(t, res).Workload.Groups {
			if g.Name == "p/0" { // the task's name in schedplay's trace
				found = true
				if got := g.CPUs != ""; got != tc.pinned {
					t.Errorf("%s: p pinned %v (cpus %q); want %v; notes %q", tc.name, got, g.CPUs, tc.pinned, res.Notes)
				}
			}
		}
		if !found {
			t.Errorf("%s: no group p/0 in the replay", tc.name)
		}
	}
}

// TestBarrierFamilies: a family's fan-outs make it a barrier only when
// they wake most of its sleeping members, as a release does: perf bench
// sched messaging's senders wake their receivers and leave the rest
// asleep, so a real trace of it is not a barrier, where a real libgomp
// barrier is, its main thread included under the name it execs to. And
// a barrier of more tasks than MaxGroups stays one group: the NVPL
// seed's 88 threads.
func TestBarrierFamilies(t *testing.T) {
	res, r := importFile(t, "trace/messaging-g1.txt.gz", importer.Options{})
	if hasNote(res, "meeting at a barrier") {
		t.Errorf("messaging replayed as a barrier: %q", res.Notes)
	}
	if len(r.Workload.Groups) < 20 {
		t.Errorf("messaging: %d groups; want its 40 tasks kept apart", len(r.Workload.Groups))
	}
	// libgomp's barrier, 4 threads: the main thread, named bash until
	// its exec, is one of them.
	res, r = importFile(t, "trace/openmp-barrier.txt.gz", importer.Options{})
	if !hasNote(res, "tasks omp* wake one another in fan-outs: replayed as one group of 4") {
		var gs []string
		for _, g := range r.Workload.Groups {
			gs = append(gs, fmt.Sprintf("%s×%d", g.Name, g.Count))
		}
		t.Errorf("OpenMP: groups %v, notes %q; want one barrier group of its 4 threads", gs, res.Notes)
	}
	ps, _ := presets.Load()
	nvpl := scenariotest.Resolve(t, `{"schedplay":1,"preset":"vera-sgemm-nvpl","run":{"reps":1,"duration":"300ms","warmup":"0s"}}`)
	text := traceOf(t, nvpl)
	res, err := importer.Import("t.txt", strings.NewReader(text), importer.Options{Presets: ps, Machine: []byte(`{"preset":"vera"}`)})
	if err != nil {
		t.Fatal(err)
	}
	r = resolve(t, res)
	if len(r.Workload.Groups) != 1 || r.Workload.Groups[0].Count != 88 || !hasNote(res, "one group of 88 meeting at a barrier") {
		var gs []string
		for _, g := range r.Workload.Groups {
			gs = append(gs, fmt.Sprintf("%s×%d", g.Name, g.Count))
		}
		t.Errorf("NVPL: groups %v, notes %q; want one barrier group of 88", gs, res.Notes)
	}
}

// TestChromeJSONRoundTrip: our own Perfetto export (Chrome JSON with the
// ftrace text in systemTraceEvents) imports to the same replay as the
// ftrace text it carries.
func TestChromeJSONRoundTrip(t *testing.T) {
	ps, _ := presets.Load()
	r := scenariotest.Resolve(t, `{"schedplay":1,"preset":"hikey960-short-sysbench","run":{"reps":1}}`)
	res, err := sim.Run(context.Background(), r, sim.Options{Timeline: true})
	if err != nil {
		t.Fatal(err)
	}
	var js strings.Builder
	if err := perfetto.Write(&js, res, perfetto.Options{}); err != nil {
		t.Fatal(err)
	}
	machine := []byte(`{"preset":"hikey960"}`)
	fromJSON, err := importer.Import("t.json", strings.NewReader(js.String()), importer.Options{Presets: ps, Machine: machine})
	if err != nil {
		t.Fatal(err)
	}
	fromText, err := importer.Import("t.txt", strings.NewReader(perfetto.Systrace(res.Timeline)), importer.Options{Presets: ps, Machine: machine})
	if err != nil {
		t.Fatal(err)
	}
	if fromJSON.Format != importer.FormatChrome {
		t.Errorf("format %s", fromJSON.Format)
	}
	a, b := strings.Replace(string(fromJSON.Scenario), "t.json", "X", 1), strings.Replace(string(fromText.Scenario), "t.txt", "X", 1)
	if a != b {
		t.Errorf("Chrome JSON import\n%s\ndiffers from the text's\n%s", a, b)
	}
}

// TestReplayBounded: a trace of many tasks gives at most MaxGroups + 1
// groups and at most 960 steps (the replay's own bound, under the
// scenario's), the busiest replayed one by one.
func TestReplayBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("# tracer: nop\n")
	ts := int64(0)
	for round := 0; round < 30; round++ {
		for pid := 1; pid <= 200; pid++ {
			fmt.Fprintf(&b, "  t%d-%d [%03d] d..2 %d.%09d: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=t%d next_pid=%d next_prio=120\n", pid, pid, pid%8, ts/1e9, ts%1e9, pid, pid)
			ts += int64(pid) * 100
			fmt.Fprintf(&b, "  t%d-%d [%03d] d..2 %d.%09d: sched_switch: prev_comm=t%d prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n", pid, pid, pid%8, ts/1e9, ts%1e9, pid, pid)
			fmt.Fprintf(&b, "  <idle>-0 [%03d] d.h2 %d.%09d: sched_waking: comm=t%d pid=%d prio=120 target_cpu=000\n", pid%8, ts/1e9, ts%1e9+50, pid, pid)
			ts += 1000
		}
	}
	ps, _ := presets.Load()
	res, err := importer.Import("many.txt", strings.NewReader(b.String()), importer.Options{Presets: ps})
	if err != nil {
		t.Fatal(err)
	}
	rep := resolve(t, res)
	if g := len(rep.Workload.Groups); g != trace.MaxGroups+1 || rep.Workload.Groups[g-1].Name != "others" {
		t.Errorf("%d groups, the last %q; want %d with the folded \"others\"", g, rep.Workload.Groups[g-1].Name, trace.MaxGroups+1)
	}
	steps := 0
	var count func([]scenario.Step)
	count = func(ss []scenario.Step) {
		for _, s := range ss {
			steps++
			count(s.Do)
			if s.Periodic != nil {
				count(s.Periodic.Do)
			}
		}
	}
	for _, g := range rep.Workload.Groups {
		count(g.Program)
	}
	if steps > 960 {
		t.Errorf("%d steps", steps)
	}
	if !hasNote(res, "136 tasks beyond the 64 busiest") {
		t.Errorf("notes %q", res.Notes)
	}
}

package rtapp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"schedplay/engine/scenario"
	"schedplay/engine/scenario/scenariotest"
	"schedplay/presets"
)

// resolveDoc resolves a scenario document against the embedded presets.
func resolveDoc(t *testing.T, doc string) *scenario.Resolved {
	t.Helper()
	return scenariotest.Resolve(t, doc)
}

// lossy reports, independently of the converter, whether a workload uses
// anything rt-app cannot express.
func lossy(r *scenario.Resolved) bool {
	w := r.Workload
	if len(w.Groups) == 0 || w.Housekeeping != nil || int64(r.Run.Duration)%1e9 != 0 {
		return true
	}
	var walk func([]scenario.Step) bool
	walk = func(steps []scenario.Step) bool {
		for _, s := range steps {
			if s.Jitter != 0 || s.Spin > 0 || s.Sync || s.Poll || s.Capacity > 0 || s.Pool != "" {
				return true
			}
			if s.Compute != nil && int64(*s.Compute)%1000 != 0 || s.Sleep != nil && int64(*s.Sleep)%1000 != 0 {
				return true
			}
			if s.Periodic != nil && s.Periodic.SkipMissed {
				return true
			}
			if walk(s.Do) || s.Periodic != nil && walk(s.Periodic.Do) {
				return true
			}
		}
		return false
	}
	for _, g := range w.Groups {
		if g.Process || walk(g.Program) {
			return true
		}
	}
	return false
}

// rtappEvents are rt-app's event key prefixes (rt-app_parse_config.c).
var rtappEvents = []string{"run", "sleep", "timer", "barrier", "sem_post", "sem_wait", "suspend", "resume", "signal", "wait"}

// TestEveryWorkloadPreset converts every workload preset: valid JSON, the
// tasks/global skeleton, only rt-app event keys, and notes exactly when the
// workload uses something rt-app cannot express.
func TestEveryWorkloadPreset(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	names := ps.Names(presets.Workload)
	if len(names) < 5 {
		t.Fatalf("only %d workload presets", len(names))
	}
	faithful := 0
	for _, name := range names {
		r := resolveDoc(t, `{"schedplay":1,"machine":{"preset":"vera"},"workload":{"preset":"`+name+`"},"run":{"duration":"2s"}}`)
		out, notes, err := JSON(r)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !json.Valid(out) {
			t.Fatalf("%s: invalid JSON:\n%s", name, out)
		}
		var doc struct {
			Tasks  map[string]map[string]json.RawMessage `json:"tasks"`
			Global map[string]any                        `json:"global"`
		}
		if err := json.Unmarshal(out, &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if doc.Global["duration"] != 2.0 || doc.Global["default_policy"] != "SCHED_OTHER" {
			t.Errorf("%s: global = %v", name, doc.Global)
		}
		objects := 0
		for _, g := range r.Workload.Groups {
			if g.Pin == scenario.PinEach || scenario.UsesInstance(g.Program) {
				objects += g.Count // one thread object per pinned task, or per task whose channels are its own
			} else {
				objects++
			}
		}
		if len(doc.Tasks) != objects {
			t.Errorf("%s: %d tasks for %d groups (%d thread objects)", name, len(doc.Tasks), len(r.Workload.Groups), objects)
		}
		for tn, task := range doc.Tasks {
			checkTask(t, name+"/"+tn, task)
		}
		if want := lossy(r); want != (len(notes) > 0) {
			t.Errorf("%s: lossy=%v but notes=%q", name, want, notes)
		}
		if len(notes) == 0 {
			faithful++
		}
	}
	if faithful == 0 || faithful == len(names) {
		t.Errorf("%d of %d presets faithful: the test does not discriminate", faithful, len(names))
	}
}

// checkTask checks one thread object: an instance count, a loop, and
// phases whose keys are "loop" or rt-app events.
func checkTask(t *testing.T, where string, task map[string]json.RawMessage) {
	t.Helper()
	for _, k := range []string{"instance", "loop", "phases"} {
		if _, ok := task[k]; !ok {
			t.Errorf("%s: no %q", where, k)
		}
	}
	var phases map[string]map[string]json.RawMessage
	if err := json.Unmarshal(task["phases"], &phases); err != nil {
		t.Fatalf("%s: phases: %v", where, err)
	}
	if len(phases) == 0 {
		t.Errorf("%s: no phases", where)
	}
	for pn, ph := range phases {
		for k := range ph {
			if k != "loop" && !isEvent(k) {
				t.Errorf("%s/%s: %q is not an rt-app event", where, pn, k)
			}
		}
	}
}

func isEvent(k string) bool {
	for _, e := range rtappEvents {
		if strings.HasPrefix(k, e) {
			return true
		}
	}
	return false
}

// convertWorkload converts an inline workload on a small machine.
func convertWorkload(t *testing.T, workload string) (string, []string) {
	t.Helper()
	r := resolveDoc(t, `{"schedplay":1,"machine":{"preset":"hikey960"},"workload":`+workload+`,"run":{"duration":"1s"}}`)
	out, notes, err := JSON(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(out), notes
}

// compact strips the indentation so tests can match fragments.
func compact(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestEventOrderAndLoops(t *testing.T) {
	out, notes := convertWorkload(t, `{"groups":[{"name":"w","count":3,"cpus":"0-2","nice":5,"start":"2ms","program":[
		{"compute":"5ms"},{"sleep":"1ms"},
		{"repeat":4,"do":[{"compute":"1ms"},{"send":"c","wake":2}]},
		{"recv":"c"}]}]}`)
	if len(notes) != 0 {
		t.Errorf("notes %q for a faithful workload", notes)
	}
	got := compact(t, out)
	want := `{"tasks":{"w":{"instance":3,"cpus":[0,1,2],"priority":5,"delay":2000,"loop":1,"phases":{` +
		`"p0":{"loop":1,"run0":5000,"sleep1":1000},` +
		`"p1":{"loop":4,"run0":1000,"sem_post1":"c","sem_post2":"c"},` +
		`"p2":{"loop":1,"sem_wait0":"c"}}}}`
	if !strings.HasPrefix(got, want) {
		t.Errorf("got\n%s\nwant prefix\n%s", got, want)
	}
}

func TestBarrierNamesPerPlace(t *testing.T) {
	// rt-app counts barrier users per reference, so the two places of
	// barrier "b" (and the unrolled copies) need distinct names.
	out, _ := convertWorkload(t, `{"groups":[{"name":"g","count":2,"program":[
		{"repeat":2,"do":[{"repeat":3,"do":[{"compute":"1ms"},{"barrier":"b"}]},{"barrier":"b"}]},
		{"sleep":"1ms"}]}]}`)
	got := compact(t, out)
	for _, w := range []string{`"barrier1":"g_b"`, `"barrier0":"g_b_2"`, `"barrier1":"g_b_3"`, `"barrier0":"g_b_4"`} {
		if !strings.Contains(got, w) {
			t.Errorf("missing %s in %s", w, got)
		}
	}
	if strings.Count(got, `"g_b"`) != 1 {
		t.Errorf("barrier name g_b used more than once: %s", got)
	}
}

func TestPeriodicTimer(t *testing.T) {
	out, notes := convertWorkload(t, `{"groups":[{"name":"cyc","count":1,"program":[{"periodic":{"every":"1ms","do":[{"compute":"20us"}]}}]}]}`)
	if len(notes) != 0 {
		t.Errorf("notes %q", notes)
	}
	got := compact(t, out)
	want := `"p0":{"loop":1000,"timer0":{"mode":"absolute","period":1000,"ref":"unique_cyc_1"},"run1":20}`
	if !strings.Contains(got, want) {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

func TestNotes(t *testing.T) {
	cases := []struct {
		workload string
		want     string
	}{
		{`{"groups":[{"name":"s","count":4,"program":[{"pool":"req","total":10,"do":[{"compute":"1ms"}]}]}]}`, "loop of 3 per thread"},
		{`{"groups":[{"name":"a","count":1,"program":[{"compute":"1ms","jitter":0.1}]}]}`, "jitter"},
		{`{"groups":[{"name":"a","count":2,"program":[{"barrier":"x","spin":"5us"}]}]}`, "spins 5us"},
		{`{"groups":[{"name":"a","count":1,"program":[{"send":"p","sync":true}]},{"name":"b","count":1,"program":[{"recv":"p"}]}]}`, "WF_SYNC"},
		{`{"groups":[{"name":"a","count":1,"program":[{"send":"p","capacity":4}]},{"name":"b","count":1,"program":[{"recv":"p"}]}]}`, "capacity 4"},
		{`{"groups":[{"name":"a","count":1,"process":true,"program":[{"sleep":"1ms"}]}]}`, "one process"},
		{`{"groups":[{"name":"a","count":1,"slice":"1ms","program":[{"sleep":"1ms"}]}]}`, "SCHED_OTHER custom slice"},
		{`{"groups":[{"name":"a","count":1,"program":[{"compute":"1500ns"}]}]}`, "rounded to 2 µs"},
		{`{"groups":[{"name":"a","count":1,"program":[{"sleep":"1ms"}]},{"name":"b","count":1,"program":[{"sleep":"1ms"}]}]}`, "programs of their own"},
		{`{"groups":[]}`, "no tasks"},
	}
	for _, c := range cases {
		_, notes := convertWorkload(t, c.workload)
		if !strings.Contains(strings.Join(notes, "\n"), c.want) {
			t.Errorf("%s: notes %q lack %q", c.workload, notes, c.want)
		}
	}
}

func TestNestedFallback(t *testing.T) {
	// 100 × (2 phases) is beyond the unroll budget: inner loops multiply.
	out, notes := convertWorkload(t, `{"groups":[{"name":"n","count":1,"program":[{"sleep":"1ms"},
		{"repeat":100,"do":[{"repeat":5,"do":[{"compute":"1ms"}]},{"sleep":"1ms"}]}]}]}`)
	if len(notes) != 1 || !strings.Contains(notes[0], "repeat 100") {
		t.Errorf("notes %q", notes)
	}
	got := compact(t, out)
	if !strings.Contains(got, `"p1":{"loop":500,"run0":1000}`) || !strings.Contains(got, `"p2":{"loop":100,"sleep0":1000}`) {
		t.Errorf("got %s", got)
	}
}

func TestDeterministic(t *testing.T) {
	r := resolveDoc(t, `{"schedplay":1,"machine":{"preset":"vera"},"workload":{"preset":"sched-messaging"}}`)
	a, na, _ := JSON(r)
	b, nb, _ := JSON(r)
	if !bytes.Equal(a, b) || strings.Join(na, "|") != strings.Join(nb, "|") {
		t.Error("two conversions differ")
	}
}

// TestPinEach: perf bench futex's waiter i on CPU i mod ncpus becomes one
// thread object per waiter, each with its own single CPU.
func TestPinEach(t *testing.T) {
	out, notes := convertWorkload(t, `{"shared_parent":true,"groups":[{"name":"waiter","count":5,"cpus":"2-5","pin":"each","program":[{"recv":"futex"}]},
		{"name":"waker","count":1,"program":[{"send":"futex","wake":5}]}]}`)
	if len(notes) != 0 {
		t.Errorf("notes %q for a faithful workload", notes)
	}
	got := compact(t, out)
	for k, cpu := range []int{2, 3, 4, 5, 2} {
		w := fmt.Sprintf(`"waiter_%d":{"instance":1,"cpus":[%d],`, k, cpu)
		if !strings.Contains(got, w) {
			t.Errorf("missing %s in %s", w, got)
		}
	}
	if !strings.Contains(got, `"waker":{"instance":1,"loop"`) {
		t.Errorf("waker not a plain thread object: %s", got)
	}
}

// TestInstanceChannelsExportPerTask: a group whose channel names hold
// {i} becomes one thread object per task, each with its own resource
// names (sem_wait "ch<k>"), its barrier under one shared name so that
// rt-app still counts every task at it, and under pin each its own CPU.
func TestInstanceChannelsExportPerTask(t *testing.T) {
	out, notes := convertWorkload(t, `{"shared_parent":true,"groups":[{"name":"rx","count":3,"cpus":"4-5","pin":"each","program":[{"repeat":10,"do":[{"recv":"ch{i}"},{"barrier":"b"}]}]},
		{"name":"tx","count":1,"program":[{"repeat":10,"do":[{"send":"ch0"},{"send":"ch1"},{"send":"ch2"}]}]}]}`)
	if len(notes) != 0 {
		t.Errorf("notes %q for a faithful workload", notes)
	}
	got := compact(t, out)
	for k, cpu := range []int{4, 5, 4} {
		for _, w := range []string{fmt.Sprintf(`"rx_%d":{"instance":1,"cpus":[%d],`, k, cpu), fmt.Sprintf(`"sem_wait0":"ch%d","barrier1":"rx_b"`, k)} {
			if !strings.Contains(got, w) {
				t.Errorf("missing %s in %s", w, got)
			}
		}
	}
	if strings.Contains(got, "{i}") || strings.Count(got, `"barrier1":"rx_b"`) != 3 || strings.Contains(got, "rx_b_2") {
		t.Errorf("want every task's sem_wait expanded and one barrier name for the three tasks: %s", got)
	}
}

// TestInstanceChannelOfALoneTask: a {i} group of one task reads channel
// 0, in the export as in the engine.
func TestInstanceChannelOfALoneTask(t *testing.T) {
	out, _ := convertWorkload(t, `{"shared_parent":true,"groups":[{"name":"rx","count":1,"program":[{"recv":"ch{i}"}]},{"name":"tx","count":1,"program":[{"send":"ch0"}]}]}`)
	if got := compact(t, out); !strings.Contains(got, `"sem_wait0":"ch0"`) || strings.Contains(got, "{i}") {
		t.Errorf("want the lone receiver's sem_wait on ch0: %s", got)
	}
}

// TestInstanceChannelsSharePools: the tasks of a {i} group, exported one
// thread object each, still share the group's pool: each loops
// ceil(total/count), as the threads of a plain group do.
func TestInstanceChannelsSharePools(t *testing.T) {
	out, notes := convertWorkload(t, `{"shared_parent":true,"groups":[{"name":"rx","count":4,"program":[{"recv":"ch{i}"},{"pool":"req","total":10,"do":[{"compute":"1ms"}]}]},
		{"name":"tx","count":1,"program":[{"send":"ch0"},{"send":"ch1"},{"send":"ch2"},{"send":"ch3"}]}]}`)
	if len(notes) != 1 || !strings.Contains(notes[0], "loop of 3 per thread") {
		t.Errorf("notes %q; want the pool shared by the 4 tasks (a loop of 3 per thread)", notes)
	}
	if got := compact(t, out); strings.Count(got, `"instance":1,`) != 5 {
		t.Errorf("want 5 single-instance thread objects: %s", got)
	}
}

// TestTimedSectionExportsItsBody: a timed section does not change what a
// task does, so the export of a workload with timed sections (nested, in a
// loop, in a periodic step, around the whole program) is byte for byte the
// export of the same workload without them, and adds no note.
func TestTimedSectionExportsItsBody(t *testing.T) {
	timed := `{"shared_parent":true,"groups":[{"name":"waker","count":1,"program":[{"timed":"all","do":[{"repeat":10,"do":[{"sleep":"1ms"},
		{"timed":"wake loop","do":[{"repeat":8,"do":[{"send":"futex","wake":1}]}]},
		{"repeat":8,"do":[{"recv":"done"}]}]}]}]},
		{"name":"waiter","count":8,"cpus":"0-7","pin":"each","program":[{"repeat":10,"do":[{"recv":"futex"},{"timed":"reply","do":[{"send":"done"},{"compute":"5us"}]}]}]},
		{"name":"cyc","count":1,"program":[{"periodic":{"every":"1ms","count":5,"do":[{"timed":"work","do":[{"compute":"20us"}]}]}}]}]}`
	plain := `{"shared_parent":true,"groups":[{"name":"waker","count":1,"program":[{"repeat":10,"do":[{"sleep":"1ms"},
		{"repeat":8,"do":[{"send":"futex","wake":1}]},
		{"repeat":8,"do":[{"recv":"done"}]}]}]},
		{"name":"waiter","count":8,"cpus":"0-7","pin":"each","program":[{"repeat":10,"do":[{"recv":"futex"},{"send":"done"},{"compute":"5us"}]}]},
		{"name":"cyc","count":1,"program":[{"periodic":{"every":"1ms","count":5,"do":[{"compute":"20us"}]}}]}]}`
	got, gotNotes := convertWorkload(t, timed)
	want, wantNotes := convertWorkload(t, plain)
	if got != want {
		t.Errorf("timed sections changed the export:\n%s\nwant\n%s", got, want)
	}
	if strings.Join(gotNotes, "|") != strings.Join(wantNotes, "|") || len(gotNotes) != 0 {
		t.Errorf("notes %q, want %q", gotNotes, wantNotes)
	}
	if !strings.Contains(compact(t, got), `"loop":8,"sem_post0":"futex"`) {
		t.Errorf("the wake loop is missing from the export: %s", got)
	}
}

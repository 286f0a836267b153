package importer_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	exportrtapp "schedplay/engine/export/rtapp"
	"schedplay/engine/importer"
	"schedplay/engine/scenario"
	"schedplay/engine/scenario/scenariotest"
	"schedplay/presets"
)

// TestRTAppRoundTrip: every workload preset exported to rt-app JSON and
// imported back exports to the same bytes, and where the export was
// faithful (no notes) the workload imported is the one exported.
func TestRTAppRoundTrip(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	machine := []byte(`{"preset": "vera"}`)
	roundTrip := func(t *testing.T, in []byte) (*scenario.Resolved, []byte) {
		t.Helper()
		res, err := importer.Import("u.json", bytes.NewReader(in), importer.Options{Presets: ps, Machine: machine})
		if err != nil {
			t.Fatalf("%v\n%s", err, in)
		}
		back := resolve(t, res)
		out, _, err := exportrtapp.JSON(back)
		if err != nil {
			t.Fatal(err)
		}
		return back, out
	}
	faithful := 0
	for _, name := range ps.Names(presets.Workload) {
		t.Run(name, func(t *testing.T) {
			r := scenariotest.Resolve(t, `{"schedplay":1,"machine":{"preset":"vera"},"workload":{"preset":"`+name+`"},"run":{"duration":"2s"}}`)
			first, notes, err := exportrtapp.JSON(r)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Workload.Groups) == 0 {
				_, err := importer.Import("u.json", bytes.NewReader(first), importer.Options{Presets: ps, Machine: machine})
				if err == nil || !strings.Contains(err.Error(), "no \"tasks\"") {
					t.Errorf("a use case of no thread: %v", err)
				}
				return
			}
			back, second := roundTrip(t, first)
			if len(notes) == 0 {
				faithful++
				if !bytes.Equal(first, second) {
					t.Errorf("exported again differs:\n%s\nfirst:\n%s", second, first)
				}
				a, _ := jsonOf(pinnedEverywhere(measured(r.Workload.Groups), "0-351"))
				b, _ := jsonOf(back.Workload.Groups)
				if a != b {
					t.Errorf("faithful export imported to another workload:\n%s\nwant\n%s", b, a)
				}
				return
			}
			// A lossy export (notes) loses the same once: export ∘ import
			// is then a fixed point.
			if _, third := roundTrip(t, second); !bytes.Equal(second, third) {
				t.Errorf("export ∘ import is not a fixed point:\n%s\nthen\n%s", second, third)
			}
		})
	}
	if faithful < 3 {
		t.Errorf("only %d presets export faithfully: the test compares little", faithful)
	}
}

// pinnedEverywhere gives a "pin": "each" group with no cpus the machine's
// every CPU (all, Vera's 0-351), the list that pins its tasks: the export
// writes each task's CPU, so the import names them.
func pinnedEverywhere(groups []scenario.Group, all string) []scenario.Group {
	out := slices.Clone(groups)
	for i := range out {
		if out[i].Pin == scenario.PinEach && out[i].CPUs == "" {
			out[i].CPUs = all
		}
	}
	return out
}

// measured is groups as the export sees them: timed sections (a
// measurement, not behaviour) replaced by their bodies, "wake": 1
// written as the default.
func measured(groups []scenario.Group) []scenario.Group {
	var flat func([]scenario.Step) []scenario.Step
	flat = func(steps []scenario.Step) []scenario.Step {
		var out []scenario.Step
		for _, st := range steps {
			if st.Timed != "" {
				out = append(out, flat(st.Do)...)
				continue
			}
			if st.Wake == 1 {
				st.Wake = 0
			}
			st.Do = flat(st.Do)
			if st.Periodic != nil {
				pd := *st.Periodic
				pd.Do = flat(pd.Do)
				st.Periodic = &pd
			}
			out = append(out, st)
		}
		return out
	}
	out := slices.Clone(groups)
	for i := range out {
		out[i].Program = flat(out[i].Program)
	}
	return out
}

// TestRTAppExamples: rt-app's own examples (workgen syntax: comments,
// repeated keys, trailing commas) import, and what schedplay does not
// model is reported; the threads are one process forked by one parent
// (workload.shared_parent).
func TestRTAppExamples(t *testing.T) {
	for _, tc := range []struct {
		file   string
		groups int
		notes  []string
	}{
		{"rtapp/example5.json", 2, []string{"mutexes (lock/unlock) are not modelled", "resume/suspend have no memory", "timer \"tick\" is shared"}},
		{"rtapp/browser-short.json", 9, []string{"resume/suspend have no memory", "loops until the run ends (loop -1) (thread BrowserSub1, BrowserSub2,"}},
		{"rtapp/mp3-short.json", 5, []string{"a relative timer runs as an absolute one", "timer \"tick\" is shared"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			res, r := importFile(t, tc.file, importer.Options{})
			if got := len(r.Workload.Groups); got != tc.groups {
				t.Errorf("%d groups; want %d", got, tc.groups)
			}
			// rt-app's main thread creates them all: one parent, one mm
			if !r.Workload.SharedParent {
				t.Errorf("workload.shared_parent false; rt-app's threads are one process's")
			}
			for _, n := range tc.notes {
				if !hasNote(res, n) {
					t.Errorf("no note mentioning %q in %q", n, res.Notes)
				}
			}
		})
	}
}

// TestRTAppThreadOfDroppedEventsLeftOut: a thread whose events are all
// dropped (lock/unlock) is left out with a note; the others are imported.
func TestRTAppThreadOfDroppedEventsLeftOut(t *testing.T) {
	ps, _ := presets.Load()
	doc := `{"tasks": {"a": {"loop": -1, "run": 1000}, "b": {"loop": -1, "lock": "m", "unlock": "m"}}}`
	res, err := importer.Import("u.json", strings.NewReader(doc), importer.Options{Presets: ps, Machine: []byte(`{"preset": "hikey960"}`)})
	if err != nil {
		t.Fatal(err)
	}
	if sc := string(res.Scenario); !strings.Contains(sc, `"name":"a"`) || strings.Contains(sc, `"name":"b"`) {
		t.Errorf("want thread a and not b:\n%s", sc)
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), `thread "b" is left out: none of its events is modelled`) {
		t.Errorf("notes lack the left-out thread:\n%s", strings.Join(res.Notes, "\n"))
	}
}

// TestRTAppErrors: bad use cases are refused at their line.
func TestRTAppErrors(t *testing.T) {
	ps, _ := presets.Load()
	for _, tc := range []struct{ doc, want string }{
		{"{\n \"tasks\": {\n  \"t\": {\"run\": -5}\n }\n}", "u.json:3: thread \"t\": run must be a number of µs ≥ 0"},
		{"{\n \"tasks\": {\n  \"t\": {\"instance\": 1.5, \"run\": 5}\n }\n}", "u.json:3: thread \"t\": instance must be a whole number"},
		{"{\n \"tasks\": {\n  \"t\": {\"run\": 5,\n", "u.json:"},
		{"{\"tasks\": {\"t\": {\"cpus\": [0, 99], \"run\": 5}}}", "cpus"},
		// rt-app exits on a phase without events ("No events found").
		{"{\"tasks\": {\"t\": {\"loop\": -1, \"phases\": {\"p1\": {\"run\": 5},\n \"p2\": {\"loop\": 3}}}}}", "u.json:2: thread \"t\", phase \"p2\", has no event"},
		{"{\"tasks\": {\"t\": {\"exec\": 5000, \"period\": 5000}}}", "u.json:1: thread \"t\" has no event"},
		{"{\"tasks\": {\"t\": {\"exec\": 5000, \"period\": 5000}}}", "exec is rt-app's old grammar"},
		// rt-app's legacy grammar (merge/thread0.json): lock_order reads
		// as a lock event, which is dropped; a loop of nothing is refused
		// here, not turned into billions of zero-time steps.
		{"{\"tasks\": {\"t\": {\"exec\": 5000, \"lock_order\": [\"m0\"]}}}", "no thread has an event schedplay models: this is rt-app's old grammar"},
		{"{\"tasks\": {\"t\": {\"lock\": \"m\", \"unlock\": \"m\"}}}", "no thread has an event schedplay models (lock, unlock"},
	} {
		_, err := importer.Import("u.json", strings.NewReader(tc.doc), importer.Options{Presets: ps, Machine: []byte(`{"preset": "hikey960"}`)})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v; want %q", tc.doc, err, tc.want)
		}
	}
}

// TestRTAppTaskSeriesMerge: thread objects NAME_0 … NAME_n-1 whose phases
// differ only in the channel task k names with k (the export of a group
// whose tasks read their own channels, {i}) import as one group of n
// tasks with {i}, pinned each when each object has its own CPU; a series
// whose names do not follow one template stays thread objects of its own.
func TestRTAppTaskSeriesMerge(t *testing.T) {
	ps, _ := presets.Load()
	for _, tc := range []struct{ doc, want, not string }{
		{`{"tasks": {"r_0": {"loop": 3, "sem_wait": "g0r0"}, "r_1": {"loop": 3, "sem_wait": "g0r1"}, "r_2": {"loop": 3, "sem_wait": "g0r2"}}}`,
			`{"count":3,"name":"r","program":[{"do":[{"recv":"g0r{i}"}],"repeat":3}]}`, `"r_1"`},
		{`{"tasks": {"h_0": {"cpus": [0], "loop": 5, "sem_post": "f0"}, "h_1": {"cpus": [1], "loop": 5, "sem_post": "f1"}}}`,
			`{"count":2,"cpus":"0-1","name":"h","pin":"each","program":[{"do":[{"ipc":"futex","send":"f{i}"}],"repeat":5}]}`, `"h_1"`},
		{`{"tasks": {"r_0": {"loop": 3, "sem_wait": "a"}, "r_1": {"loop": 3, "sem_wait": "b"}}}`, `"name":"r_1"`, `"name":"r",`},
		{`{"tasks": {"r_0": {"loop": 3, "sem_wait": "x0"}, "r_1": {"loop": 3, "sem_wait": "x1"}, "r_2": {"loop": 3, "sem_wait": "x9"}}}`, `"name":"r_2"`, `"count":3`},
	} {
		res, err := importer.Import("u.json", strings.NewReader(tc.doc), importer.Options{Presets: ps, Machine: []byte(`{"preset": "hikey960"}`)})
		if err != nil {
			t.Fatalf("%s: %v", tc.doc, err)
		}
		if sc := string(res.Scenario); !strings.Contains(sc, tc.want) || strings.Contains(sc, tc.not) {
			t.Errorf("%s:\nimported as %s\nwant %s and not %s", tc.doc, sc, tc.want, tc.not)
		}
	}
}

// TestRTAppRealTimePolicy: an rt-app thread with policy SCHED_FIFO or
// SCHED_RR and a priority imports as a group of that policy with that
// rt_priority (rt-app's priority is the sched_priority of an RT thread),
// and exports back as the same object.
func TestRTAppRealTimePolicy(t *testing.T) {
	ps, _ := presets.Load()
	for _, c := range []struct{ policy, want string }{{"SCHED_FIFO", `"policy":"fifo","rt_priority":95`}, {"SCHED_RR", `"policy":"rr","rt_priority":95`}} {
		doc := `{"global": {"duration": 1}, "tasks": {"c": {"policy": "` + c.policy + `", "priority": 95, "loop": 3, "run": 100, "sleep": 900}}}`
		res, err := importer.Import("u.json", strings.NewReader(doc), importer.Options{Presets: ps, Machine: []byte(`{"preset": "hikey960"}`)})
		if err != nil {
			t.Fatal(err)
		}
		if sc := string(res.Scenario); !strings.Contains(strings.ReplaceAll(sc, `,"program":[{"do":[{"compute":"100us"},{"sleep":"900us"}],"repeat":3}]`, ""), c.want) || len(res.Notes) != 0 {
			t.Errorf("%s: imported as %s, notes %q; want %s and no note", c.policy, sc, res.Notes, c.want)
		}
		back := resolve(t, res)
		out, _, err := exportrtapp.JSON(back)
		if err != nil {
			t.Fatal(err)
		}
		if s := string(out); !strings.Contains(s, `"policy": "`+c.policy+`"`) || !strings.Contains(s, `"priority": 95`) {
			t.Errorf("%s: exported as\n%s", c.policy, s)
		}
	}
}

// TestRTAppBatchAndIdlePolicy: SCHED_BATCH imports as policy "batch" with
// its priority as nice, SCHED_IDLE as policy "idle" without it (a note
// says the nice value is ignored), and both export back with their
// policy.
func TestRTAppBatchAndIdlePolicy(t *testing.T) {
	ps, _ := presets.Load()
	for _, c := range []struct {
		policy, want, prio string
		notes              int
	}{{"SCHED_BATCH", `"nice":5,"policy":"batch"`, `"priority": 5`, 0}, {"SCHED_IDLE", `"policy":"idle"`, "", 1}} {
		doc := `{"global": {"duration": 1}, "tasks": {"c": {"policy": "` + c.policy + `", "priority": 5, "loop": 3, "run": 100, "sleep": 900}}}`
		res, err := importer.Import("u.json", strings.NewReader(doc), importer.Options{Presets: ps, Machine: []byte(`{"preset": "hikey960"}`)})
		if err != nil {
			t.Fatal(err)
		}
		if sc := string(res.Scenario); !strings.Contains(sc, c.want) || strings.Contains(c.want, "idle") && strings.Contains(sc, `"nice"`) || len(res.Notes) != c.notes {
			t.Errorf("%s: imported as %s, notes %q; want %s and %d notes", c.policy, sc, res.Notes, c.want, c.notes)
		}
		out, _, err := exportrtapp.JSON(resolve(t, res))
		if err != nil {
			t.Fatal(err)
		}
		if s := string(out); !strings.Contains(s, `"policy": "`+c.policy+`"`) || c.prio != "" && !strings.Contains(s, c.prio) {
			t.Errorf("%s: exported as\n%s", c.policy, s)
		}
	}
}

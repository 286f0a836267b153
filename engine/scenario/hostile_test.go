package scenario

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"strings"
	"testing"

	"schedplay/presets"
)

// deflateB64 deflates data and encodes it as a share payload.
func deflateB64(data []byte) string {
	var z bytes.Buffer
	w, _ := flate.NewWriter(&z, flate.BestCompression)
	w.Write(data)
	w.Close()
	return base64.RawURLEncoding.EncodeToString(z.Bytes())
}

// nestedRepeats is a program nested n repeats deep.
func nestedRepeats(n int) string {
	s := `{"compute": "1ms"}`
	for i := 0; i < n; i++ {
		s = `{"repeat": 2, "do": [` + s + `]}`
	}
	return s
}

const okMachine = `"machine": {"preset": "smt4"}`

func doc(workload string, extra ...string) string {
	parts := append([]string{`"schedplay": 1`, okMachine, `"workload": ` + workload}, extra...)
	return "{" + strings.Join(parts, ", ") + "}"
}

func group(fields string) string {
	return `{"groups": [{"name": "g", "count": 2, ` + fields + `}]}`
}

// TestHostileDocuments feeds documents built to break the decoder, the
// resolver or the validator; each must fail with its own error at its path.
func TestHostileDocuments(t *testing.T) {
	ps := testPresets(t)
	prog := `"program": [{"compute": "1ms"}]`
	runRejectCases(t, ps, []rejectCase{
		{"not JSON", `{"schedplay": 1,`, "", []string{"invalid JSON", "ends early"}},
		{"not an object", `[1, 2]`, "", []string{"must be a JSON object"}},
		{"trailing data", `{"schedplay": 1} {}`, "", []string{"after the JSON value"}},
		{"duplicate key", `{"schedplay": 1, "name": "a", "name": "b"}`, "name", []string{"duplicate key"}},
		{"deep nesting", `{"schedplay": 1, "run": ` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`, "run" + strings.Repeat("[0]", 63), []string{"nested deeper than 64"}},
		{"missing version", `{"machine": {}}`, "schedplay", []string{"missing format version"}},
		{"future version", `{"schedplay": 2, "machine": {"whatever": 1}}`, "schedplay", []string{"version 2", "upgrade schedplay"}},
		{"version zero", `{"schedplay": 0}`, "schedplay", []string{"unknown format version 0"}},
		{"version string", `{"schedplay": "1"}`, "schedplay", []string{`must be the number 1, not the string "1"`}},
		{"unknown top-level", `{"schedplay": 1, "machnie": {}}`, "machnie", []string{"unknown field", `"machine"`}},
		{"section not object", `{"schedplay": 1, "run": 5}`, "run", []string{"must be an object"}},
		{"unknown section field", doc(`{"preset": "spin"}`, `"policy": {"hzz": 100}`), "policy.hzz", []string{"unknown field", `"hz"`}},
		{"unknown field after merge", `{"schedplay": 1, "machine": {"preset": "smt4", "smt": {"hold": "1ms", "holdd": "2ms"}}, "workload": {"preset": "spin"}}`, "machine.smt.holdd", []string{"unknown field"}},
		{"unknown step field", doc(group(`"program": [{"compute": "1ms", "jiter": 0.1}]`)), "workload.groups[0].program[0].jiter", []string{"unknown field", `"jitter"`}},
		{"case-folded key", doc(`{"preset": "spin"}`, `"run": {"Duration": "1s"}`), "run.Duration", []string{"unknown field", `"duration"`}},
		{"unknown preset", doc(`{"preset": "nope"}`), "workload.preset", []string{`unknown workload preset "nope"`, "spin"}},
		{"preset cycle", doc(`{"preset": "spin"}`, `"policy": {"preset": "loop-a"}`), "policy.preset", []string{"more than 8 levels"}},
		{"preset not string", doc(`{"preset": 5}`), "workload.preset", []string{"must be a preset name"}},
		{"bad preset body", `{"schedplay": 1, "machine": {"preset": "bad"}, "workload": {"preset": "spin"}}`, "machine.threads_per_core", []string{"want 1, 2, 4 or 8"}},
		{"million tasks", doc(`{"groups": [{"name": "g", "count": 1000000, ` + prog + `}]}`), "workload.groups[0].count", []string{"1000000 tasks exceed the limit of 16384"}},
		{"too many tasks in total", doc(`{"groups": [{"name": "a", "count": 10000, ` + prog + `}, {"name": "b", "count": 10000, ` + prog + `}]}`), "workload.groups", []string{"20000 tasks in total"}},
		{"negative duration", doc(group(`"program": [{"compute": "-5ms"}]`)), "workload.groups[0].program[0].compute", []string{"negative"}},
		{"NaN duration", doc(group(`"program": [{"sleep": "NaNms"}]`)), "workload.groups[0].program[0].sleep", []string{"not a finite duration"}},
		{"Inf duration", doc(group(prog), `"run": {"duration": "Infs"}`), "run.duration", []string{"not a finite duration"}},
		{"numeric duration", doc(group(prog), `"run": {"duration": 5}`), "run.duration", []string{"duration string with a unit"}},
		{"unitless duration", doc(group(prog), `"run": {"duration": "5"}`), "run.duration", []string{"no unit"}},
		{"warmup eats the run", doc(group(prog), `"run": {"duration": "1s", "warmup": "1s"}`), "run.warmup", []string{"leaves nothing"}},
		{"long duration", doc(group(prog), `"run": {"duration": "61s"}`), "run.duration", []string{"limit of 60s"}},
		{"reps 0 is default, 101 too many", doc(group(prog), `"run": {"reps": 101}`), "run.reps", []string{"101 is out of range"}},
		{"negative reps", doc(group(prog), `"run": {"reps": -1}`), "run.reps", []string{"-1 is out of range"}},
		{"cost variation too wide", `{"schedplay": 1, "machine": {"preset": "smt4", "latency": {"variation": 3}}, "workload": {"preset": "spin"}}`, "machine.latency.variation", []string{"3 is out of range"}},
		{"negative cost variation", `{"schedplay": 1, "machine": {"preset": "smt4", "latency": {"variation": -0.1}}, "workload": {"preset": "spin"}}`, "machine.latency.variation", []string{"out of range"}},
		{"no device vectors", `{"schedplay": 1, "machine": {"preset": "smt4", "device_irqs": {"vectors": 0, "period": "1ms", "run": "5us"}}, "workload": {"preset": "spin"}}`, "machine.device_irqs.vectors", []string{"want 1..4096"}},
		{"device vector storm", `{"schedplay": 1, "machine": {"preset": "smt4", "device_irqs": {"vectors": 4, "period": "1us", "run": "0s"}}, "workload": {"preset": "spin"}}`, "machine.device_irqs.period", []string{"at least 10us"}},
		{"device handler as long as its period", `{"schedplay": 1, "machine": {"preset": "smt4", "device_irqs": {"vectors": 4, "period": "1ms", "run": "1ms"}}, "workload": {"preset": "spin"}}`, "machine.device_irqs.run", []string{"not shorter"}},
		{"line distance at local", `{"schedplay": 1, "machine": {"preset": "smt4", "latency": {"cacheline": {"numa_distance": 10}}}, "workload": {"preset": "spin"}}`, "machine.latency.cacheline.numa_distance", []string{"want 0", "11..254"}},
		{"line distance past the SLIT's range", `{"schedplay": 1, "machine": {"preset": "smt4", "latency": {"cacheline": {"numa_distance": 255}}}, "workload": {"preset": "spin"}}`, "machine.latency.cacheline.numa_distance", []string{"255"}},
		{"fractional count", doc(`{"groups": [{"name": "g", "count": 2.5, ` + prog + `}]}`), "workload.groups[0].count", []string{"whole number"}},
		{"huge integer", doc(`{"groups": [{"name": "g", "count": 99999999999999999999, ` + prog + `}]}`), "workload.groups[0].count", []string{"out of range"}},
		{"negative seed", doc(group(prog), `"run": {"seed": -1}`), "run.seed", []string{"whole number between 0"}},
		{"null field", doc(group(prog), `"run": {"reps": 1, "seed": [null]}`), "run.seed", []string{"must be a whole number"}},
		{"deeply nested repeats", doc(group(`"program": [` + nestedRepeats(12) + `]`)), "workload.groups[0].program[0].do[0].do[0].do[0].do[0].do[0].do[0].do[0].do", []string{"more than 8 levels"}},
		{"too many steps", doc(group(`"program": [` + strings.TrimSuffix(strings.Repeat(`{"compute": "1us"},`, 2100), ",") + `]`)), "workload.groups", []string{"steps in total", "limit is 2048"}},
		{"event bomb", doc(group(`"program": [{"repeat": 1000000000, "do": [{"send": "x"}]}]`)), "workload.groups[0]", []string{"6 billion simulator events", "above the serve budget"}},
		{"event budget scales with CPUs", `{"schedplay": 1, "machine": {"nodes": 4, "cores_per_node": 512, "threads_per_core": 2}, "workload": {"groups": [{"name": "w", "count": 16384, "program": [{"repeat": 1000, "do": [{"compute": "1ms"}, {"sleep": "1ms"}]}]}]}, "run": {"duration": "10s"}}`, "workload.groups[0]", []string{"92.2 million simulator events", "budget of 51.1 million on 4096 CPUs"}},
		{"event budget over all reps", doc(group(`"program": [{"repeat": 1000000, "do": [{"compute": "1us"}]}]`), `"run": {"duration": "60s", "reps": 100}`), "run.reps", []string{"needs about 612 million simulator events in all", "budget of 395 million"}},
		{"efficiency above 1", doc(`{"preset": "spin", "efficiency": 1.5}`), "workload.efficiency", []string{"1.5 is out of range"}},
		{"huge cpulist", doc(group(prog + `, "cpus": "` + strings.Repeat("0,", 40000) + `0"`)), "workload.groups[0].cpus", []string{"limit is 65536"}},
		{"cpulist beyond machine", doc(group(prog + `, "cpus": "0-4095"`)), "workload.groups[0].cpus", []string{"CPU 4095 does not exist", "0-7"}},
		{"cpulist garbage", doc(group(prog + `, "cpus": "<b>0</b>"`)), "workload.groups[0].cpus", []string{"not a CPU number"}},
		{"two kinds in a step", doc(group(`"program": [{"compute": "1ms", "sleep": "1ms"}]`)), "workload.groups[0].program[0]", []string{"sets both compute and sleep"}},
		{"empty step", doc(group(`"program": [{}]`)), "workload.groups[0].program[0]", []string{"does nothing"}},
		{"option on wrong kind", doc(group(`"program": [{"sleep": "1ms", "jitter": 0.5}]`)), "workload.groups[0].program[0].jitter", []string{"only applies to compute"}},
		{"empty program", doc(group(`"program": []`)), "workload.groups[0].program", []string{"is empty"}},
		{"too many CPUs", `{"schedplay": 1, "machine": {"nodes": 64, "cores_per_node": 64, "threads_per_core": 8}, "workload": {"preset": "spin"}}`, "machine", []string{"32768 CPUs", "4096"}},
		{"bad enum", `{"schedplay": 1, "machine": {"preset": "smt4", "numbering": "<i>x</i>"}, "workload": {"preset": "spin"}}`, "machine.numbering", []string{`unknown numbering "<i>x</i>"`}},
		{"yield length", `{"schedplay": 1, "machine": {"preset": "smt4", "smt": {"yield": [1]}}, "workload": {"preset": "spin"}}`, "machine.smt.yield", []string{"1 values for 2 threads"}},
		{"boost pair", `{"schedplay": 1, "machine": {"preset": "smt4", "boost": [[0, 1, 2]]}, "workload": {"preset": "spin"}}`, "machine.boost[0]", []string{"list of 2 values"}},
		{"arch priority without priorities", doc(group(prog), `"policy": {"priority": "arch"}`), "policy.priority", []string{"needs machine.priorities"}},
		{"missing workload", `{"schedplay": 1, ` + okMachine + `}`, "workload", []string{"missing"}},
		{"HTML name too long", `{"schedplay": 1, "name": "` + strings.Repeat("<p>", 100) + `"}`, "name", []string{"limit is 200"}},
		// issue 17: names are bounded and never rewritten
		{"group name too long", doc(`{"groups": [{"name": "` + strings.Repeat("n", 60<<10) + `", "count": 1, ` + prog + `}]}`), "workload.groups[0].name", []string{"61440 bytes long; the limit is 200"}},
		{"channel name too long", doc(group(`"program": [{"send": "` + strings.Repeat("c", 201) + `"}]`)), "workload.groups[0].program[0].send", []string{"201 bytes long"}},
		{"name not UTF-8", "{\"schedplay\": 1, \"name\": \"a\xffb\"}", "", []string{"invalid UTF-8 at line 1, column 28"}},
		{"lone surrogate", `{"schedplay": 1, "name": "a\ud800b"}`, "", []string{"half of a UTF-16 surrogate pair"}},
		{"low surrogate first", `{"schedplay": 1, "name": "\udc00\ud800"}`, "", []string{"half of a UTF-16 surrogate pair"}},
	})
}

// TestErrorsQuoteAShortPrefix: however long the input, an error names a
// short prefix of it (its paths too), never the whole.
func TestErrorsQuoteAShortPrefix(t *testing.T) {
	ps := testPresets(t)
	long := strings.Repeat("x", 2<<20)
	for _, d := range []string{
		`{"schedplay": 1, "` + long + `": 1}`,
		doc(group(`"program": [{"compute": "1ms"}], "` + long + `": 1`)),
		doc(`{"preset": "` + long + `"}`),
		doc(group(`"program": [{"compute": "` + long + `"}]`)),
		doc(group(`"program": [{"compute": "1ms"}], "pin": "` + long + `"`)),
		doc(group(`"program": [{"compute": "1ms"}], "cpus": "` + strings.Repeat("9", 60000) + `"`)),
		`{"schedplay": 1, "machine": {"preset": "smt4", "numbering": "` + long + `"}, "workload": {"preset": "spin"}}`,
		`{"schedplay": 1, "name": "` + long + `"}`,
	} {
		s, err := Decode([]byte(d))
		if err == nil {
			_, err = Resolve(s, ps)
		}
		if err == nil {
			t.Fatalf("accepted a document of %d bytes", len(d))
		}
		for _, e := range Errors(err) {
			if len(e.Path) > 200 || len(e.Msg) > 400 {
				t.Errorf("error of %d + %d bytes for a %d-byte input: %.120s", len(e.Path), len(e.Msg), len(d), e.Error())
			}
		}
	}
	if _, err := ParseSet(long); err == nil || len(err.Error()) > 400 {
		t.Errorf("ParseSet of a long override: %d-byte error", len(err.Error()))
	}
	if _, err := FromReference(long[:60000], ps); err == nil || len(err.Error()) > 400 {
		t.Errorf("FromReference of a long name: %d-byte error", len(err.Error()))
	}
}

// rejectCase is a document that must fail to decode or resolve with an
// error at path whose message contains every one of frags.
type rejectCase struct {
	name, doc, path string
	frags           []string
}

// runRejectCases runs each case as a subtest.
func runRejectCases(t *testing.T, ps *presets.Set, cases []rejectCase) {
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Decode([]byte(tt.doc))
			if err == nil {
				_, err = Resolve(s, ps)
			}
			if err == nil {
				t.Fatalf("accepted; want an error at %q containing %q", tt.path, tt.frags)
			}
			if !errorsContain(err, tt.path, tt.frags...) {
				t.Errorf("got errors:\n%v\nwant one at %q containing %q", err, tt.path, tt.frags)
			}
		})
	}
}

// TestHostileShareLinks: damaged, truncated and malicious links.
func TestHostileShareLinks(t *testing.T) {
	ps := testPresets(t)
	good, err := EncodeShare(mustDecode(t, `{"schedplay": 1, "preset": "demo"}`))
	if err != nil {
		t.Fatal(err)
	}
	bomb := deflateB64(bytes.Repeat([]byte(" "), 8<<20))
	for _, tt := range []struct{ name, link, frag string }{
		{"truncated base64", "#s=" + good[:len(good)-1], "cut off"},
		{"truncated deflate", "#s=" + good[:len(good)/2], "cut off"},
		{"not base64", "#s=!!!!" + good, "damaged"},
		{"not deflate", "#s=" + base64.RawURLEncoding.EncodeToString([]byte("hello world, not deflate")), "damaged"},
		{"deflate bomb", "https://x.test/#s=" + bomb, "inflates to more than 1048576 bytes"},
		{"huge link", "#s=" + strings.Repeat("A", 200000), "limit"},
		{"empty payload", "#s=", "no #s= fragment"},
		{"no scenario", "https://x.test/?embed=1", "not a schedplay link"},
		{"unknown preset", "https://x.test/?preset=nope", `unknown scenario preset "nope"`},
		{"valid deflate, invalid JSON", "#s=" + deflateB64([]byte(`{"schedplay": 1, "name": <script>`)), "invalid JSON"},
		{"valid JSON, future version", "#s=" + deflateB64([]byte(`{"schedplay": 9}`)), "upgrade schedplay"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeShareURL(tt.link, ps)
			if err == nil || !strings.Contains(err.Error(), tt.frag) {
				t.Errorf("DecodeShareURL(%.60q) = %v; want an error containing %q", tt.link, err, tt.frag)
			}
		})
	}
	s, err := DecodeShareURL("http://127.0.0.1:8080/?preset=demo", ps)
	if err != nil || s.Preset != "demo" {
		t.Errorf("preset link: %v %+v", err, s)
	}
	s, err = DecodeShareURL(good+"==", ps) // bare payload is not a link
	if err == nil {
		t.Errorf("a bare payload without s= decoded: %+v", s)
	}
	if _, err := DecodeShare(good + "=="); err != nil {
		t.Errorf("padding must be tolerated: %v", err)
	}
}

func TestErrorListSortedByPath(t *testing.T) {
	ps := testPresets(t)
	s := mustDecode(t, doc(group(`"program": [{"compute": "1ms", "sleep": "1ms"}], "nice": 40`), `"run": {"reps": 0, "duration": "70s"}`, `"policy": {"hz": 1}`))
	_, err := Resolve(s, ps)
	l := Errors(err)
	if len(l) < 4 {
		t.Fatalf("want every error at once, got %v", err)
	}
	for i := 1; i < len(l); i++ {
		if l[i-1].Path > l[i].Path {
			t.Errorf("errors not sorted by path: %q before %q", l[i-1].Path, l[i].Path)
		}
	}
}

// TestStrictAndSemanticErrorsTogether: a section that fails to decode does
// not hide the semantic errors of the others.
func TestStrictAndSemanticErrorsTogether(t *testing.T) {
	ps := testPresets(t)
	s := mustDecode(t, doc(group(`"program": [{"compute": "1ms"}], "nice": 99`), `"policy": {"hzz": 1}`, `"run": {"reps": 500}`))
	_, err := Resolve(s, ps)
	for _, want := range []struct{ path, frag string }{
		{"policy.hzz", "unknown field"},
		{"run.reps", "500 is out of range"},
		{"workload.groups[0].nice", "99 is out of range"},
	} {
		if !errorsContain(err, want.path, want.frag) {
			t.Errorf("want %s: %s among\n%v", want.path, want.frag, err)
		}
	}
}

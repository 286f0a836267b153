package main

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"schedplay/engine/scenario"
	"schedplay/presets"
	"schedplay/site/api"
)

// small is a quick scenario for the verb tests.
const small = `{"schedplay": 1, "name": "small <test>", "machine": {"nodes": 1, "cores_per_node": 2, "threads_per_core": 2},
 "policy": {"preset": "mainline"},
 "workload": {"groups": [{"name": "w", "count": 3, "program": [{"repeat": 5, "do": [{"compute": "1ms"}, {"sleep": "200us"}]}]}]},
 "run": {"duration": "50ms", "seed": 4, "reps": 2}}`

func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func deflateLink(doc string) string {
	var z bytes.Buffer
	w, _ := flate.NewWriter(&z, 9)
	w.Write([]byte(doc))
	w.Close()
	return base64.RawURLEncoding.EncodeToString(z.Bytes())
}

func run(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := mainWith(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestVerbExitCodesAndOutput(t *testing.T) {
	file := writeFile(t, "small.json", small)
	bad := writeFile(t, "bad.json", `{"schedplay": 1, "machine": {"nodes": 1, "cores_per_node": 2, "threads_per_core": 3}, "workload": {"groups": [{"name": "w", "count": 1000000, "program": [{"compute": "1ms", "sleep": "1ms"}]}]}}`)
	neg := writeFile(t, "neg.json", `{"schedplay": 1, "machine": {"nodes": 1, "cores_per_node": 2}, "workload": {"groups": [{"name": "w", "count": 1, "program": [{"compute": "-1ms"}]}]}}`)
	future := "https://x/#s=" + deflateLink(`{"schedplay": 2, "machine": {"qubits": 5}}`)
	for _, tt := range []struct {
		name   string
		stdin  string
		args   []string
		code   int
		out    []string
		errOut []string
	}{
		{"validate ok", "", []string{"validate", file}, exitOK, []string{`ok: "small <test>": 4 CPUs, 3 tasks, 2 repetitions of up to 50ms`}, nil},
		{"validate stdin", small, []string{"validate", "-"}, exitOK, []string{"ok:"}, nil},
		{"validate link on stdin", "https://x/?preset=vera-sgemm-nvpl\n", []string{"validate", "-"}, exitOK, []string{"ok:", "352 CPUs"}, nil},
		{"validate garbage on stdin", "hello", []string{"validate", "-"}, exitInvalid, nil, []string{`"hello" is neither a scenario preset nor a share link`}},
		{"validate every error", "", []string{"validate", bad}, exitInvalid, nil, []string{
			"schedplay validate: machine.threads_per_core: 3 is not a hardware thread count",
			"workload.groups[0].count: 1000000 tasks exceed the limit of 16384",
			"workload.groups[0].program[0]: sets both compute and sleep"}},
		{"validate type error", "", []string{"validate", neg}, exitInvalid, nil, []string{`workload.groups[0].program[0].compute: "-1ms" is negative`}},
		{"validate --json invalid", "", []string{"validate", "--json", bad}, exitInvalid, []string{`"valid":false`, `"path":"machine.threads_per_core"`}, nil},
		{"validate with --set error", "", []string{"validate", file, "--set", "policy.hzz=3"}, exitInvalid, nil, []string{"policy.hzz: unknown field"}},
		{"validate bad --set", "", []string{"validate", file, "--set", "policy.hz"}, exitUsage, nil, []string{"has no '='"}},
		{"validate unknown name", "", []string{"validate", "no-such-scenario"}, exitInvalid, nil, []string{`"no-such-scenario" is neither a scenario preset nor a share link`}},
		{"validate missing file", "", []string{"validate", "missing.json"}, exitFailed, nil, []string{"missing.json: no such file"}},
		{"validate future link", "", []string{"validate", future}, exitInvalid, nil, []string{"schedplay validate: schedplay: this scenario uses format version 2", "upgrade schedplay"}},
		{"validate cut link", "", []string{"validate", future[:len(future)-3]}, exitInvalid, nil, []string{"cut off"}},
		{"validate no args", "", []string{"validate"}, exitUsage, nil, []string{"usage: schedplay validate"}},
		{"validate -h", "", []string{"validate", "-h"}, exitOK, []string{"usage: schedplay validate"}, nil},
		{"run summary", "", []string{"run", file, "--reps", "2"}, exitOK, []string{"small <test>", "2 repetition(s), seeds 4-5", "Throughput", "Mode transitions", "Migrations", "Context switches"}, nil},
		{"run invalid", "", []string{"run", bad}, exitInvalid, nil, []string{"machine.threads_per_core"}},
		{"run unknown flag", "", []string{"run", file, "--bogus"}, exitUsage, nil, []string{"flag provided but not defined: -bogus"}},
		{"compare table", "", []string{"compare", file, "--policy", "mainline", "--policy", "v6-on", "--reps", "2"}, exitOK, []string{"A = mainline, B = v6-on; 2 repetitions each (seeds 4-5)", "Metric", "Average throughput", "Difference"}, nil},
		{"compare vary", "", []string{"compare", file, "--policy", "mainline", "--policy", "none", "--vary", "workload.groups[0].count=1,2", "--json"}, exitOK, []string{`"vary":"workload.groups[0].count"`, `"value":"2"`}, nil},
		{"compare one policy", "", []string{"compare", file, "--policy", "mainline"}, exitUsage, nil, []string{"exactly two --policy"}},
		{"compare the seed pair by default", "", []string{"compare", "vera-sgemm-nvpl", "--reps", "2", "--set", "run.duration=100ms", "--set", "run.warmup=10ms"}, exitOK, []string{"A = mainline, B = v6-on; 2 repetitions each (seeds 1-2)"}, nil},
		{"compare no pair", "", []string{"compare", file}, exitUsage, nil, []string{"names no pair"}},
		{"compare the seed pair", "", []string{"compare", "vera-sgemm-nvpl", "--reps", "2", "--set", "run.duration=100ms", "--variant", "x"}, exitInvalid, nil, []string{"variant: scenario vera-sgemm-nvpl has no variants"}},
		{"run a workload that computes nothing", "", []string{"run", "vera-futex", "--reps", "1"}, exitOK, []string{"Throughput         none (the workload computes nothing", "Wake-up latency    p50 ", "Timed wake loop"}, nil},
		{"run a variant", "", []string{"run", "vera-thread-scaling", "--variant", "22 threads", "--reps", "1", "--set", "run.duration=50ms", "--set", "run.warmup=10ms"}, exitOK, []string{"Throughput"}, nil},
		{"validate a variant", "", []string{"validate", "vera-thread-scaling", "--variant", "22 threads"}, exitOK, []string{"22 tasks"}, nil},
		{"unknown variant", "", []string{"validate", "vera-thread-scaling", "--variant", "7 threads"}, exitInvalid, nil, []string{`has no variant "7 threads"; it has "22 threads"`}},
		{"variant without preset", "", []string{"validate", file, "--variant", "x"}, exitInvalid, nil, []string{"--variant needs a seed scenario preset"}},
		{"compare unknown policy", "", []string{"compare", file, "--policy", "mainline", "--policy", "nope"}, exitInvalid, nil, []string{`policy.preset: unknown policy preset "nope"`}},
		{"compare bad vary", "", []string{"compare", file, "--policy", "mainline", "--policy", "none", "--vary", "run.reps"}, exitUsage, nil, []string{"--vary"}},
		{"share", "", []string{"share", file, "--base", "http://127.0.0.1:8080/"}, exitOK, []string{"http://127.0.0.1:8080/#s="}, nil},
		{"share invalid", "", []string{"share", bad}, exitInvalid, nil, []string{"machine.threads_per_core"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := run(t, tt.stdin, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d; want %d\nstdout: %s\nstderr: %s", code, tt.code, out, errOut)
			}
			for _, f := range tt.out {
				if !strings.Contains(out, f) {
					t.Errorf("stdout lacks %q:\n%s", f, out)
				}
			}
			for _, f := range tt.errOut {
				if !strings.Contains(errOut, f) {
					t.Errorf("stderr lacks %q:\n%s", f, errOut)
				}
			}
		})
	}
}

// TestRunJSONEqualsAPI: `run --json` prints the bytes POST /api/v1/simulate replies.
func TestRunJSONEqualsAPI(t *testing.T) {
	file := writeFile(t, "small.json", small)
	code, cli, errOut := run(t, "", "run", "--json", file)
	if code != exitOK {
		t.Fatalf("run --json: %d %s", code, errOut)
	}
	ps, _ := presets.Load()
	rec := httptest.NewRecorder()
	api.New(ps).ServeHTTP(rec, httptest.NewRequest("POST", "/api/v1/simulate", strings.NewReader(small)))
	if rec.Code != 200 {
		t.Fatalf("api: %d %s", rec.Code, rec.Body)
	}
	if rec.Body.String() != cli {
		t.Errorf("CLI and API differ:\n%s\n%s", cli, rec.Body)
	}
}

func TestRunTraceAndShareRoundTrip(t *testing.T) {
	file := writeFile(t, "small.json", small)
	trace := filepath.Join(t.TempDir(), "t.json")
	if code, _, errOut := run(t, "", "run", file, "--trace", trace, "--reps", "1"); code != exitOK {
		t.Fatalf("run --trace: %s", errOut)
	}
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	var tr struct {
		TraceEvents       []json.RawMessage `json:"traceEvents"`
		SystemTraceEvents string            `json:"systemTraceEvents"`
	}
	if err := json.Unmarshal(data, &tr); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tr.SystemTraceEvents, "# tracer: nop") || !strings.Contains(tr.SystemTraceEvents, ": sched_switch: prev_comm=") || len(tr.TraceEvents) == 0 {
		t.Errorf("trace lacks systrace text or events: %.300s", data)
	}
	_, link, _ := run(t, "", "share", file)
	code, out, errOut := run(t, "", "validate", strings.TrimSpace(link))
	if code != exitOK || !strings.Contains(out, `"small <test>"`) {
		t.Errorf("validate of the share link: %d %s %s", code, out, errOut)
	}
	s1, _ := scenario.Decode([]byte(small))
	s2, err := scenario.FromReference(strings.TrimSpace(link), nil)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := scenario.Encode(s1)
	b, _ := scenario.Encode(s2)
	if !bytes.Equal(a, b) {
		t.Errorf("share link changed the scenario:\n%s\n%s", a, b)
	}
}

func TestServeHandler(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "build"), 0o755)
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<html>hi</html>"), 0o644)
	os.WriteFile(filepath.Join(dir, "build", "app.wasm"), []byte("\x00asm-raw"), 0o644)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("\x00asm-raw"))
	zw.Close()
	os.WriteFile(filepath.Join(dir, "build", "app.wasm.gz"), gz.Bytes(), 0o644)
	// The server never decodes a sibling: any bytes stand for brotli.
	br := []byte("brotli-bytes")
	os.WriteFile(filepath.Join(dir, "build", "app.wasm.br"), br, 0o644)
	os.WriteFile(filepath.Join(dir, "build", "worker.mjs"), []byte("export default {}"), 0o644)
	ps, _ := presets.Load()
	h := serveHandler(ps, dir, serveConfig{slots: 1, queue: 1})
	for _, tt := range []struct {
		method, url, accept string
		status              int
		ctype, encoding     string
		body                string
	}{
		{"GET", "/", "", 200, "text/html; charset=utf-8", "", "<html>hi</html>"},
		{"GET", "/build/app.wasm", "", 200, "application/wasm", "", "\x00asm-raw"},
		{"GET", "/build/app.wasm", "gzip, br", 200, "application/wasm", "br", ""},
		{"GET", "/build/app.wasm", "gzip, deflate, br, zstd", 200, "application/wasm", "br", ""},
		{"GET", "/build/app.wasm", "gzip", 200, "application/wasm", "gzip", ""},
		{"GET", "/build/app.wasm", "br;q=0, gzip", 200, "application/wasm", "gzip", ""},
		{"GET", "/build/app.wasm", "gzip;q=0", 200, "application/wasm", "", "\x00asm-raw"},
		{"GET", "/build/worker.mjs", "gzip", 200, "text/javascript; charset=utf-8", "", "export default {}"},
		{"GET", "/api/v1/presets", "", 200, "application/json; charset=utf-8", "", ""},
		{"POST", "/api/v1/validate", "", 200, "application/json; charset=utf-8", "", ""},
		{"GET", "/missing.js", "", 404, "", "", ""},
		{"POST", "/index.html", "", 405, "", "", ""},
	} {
		body := ""
		if tt.method == "POST" && strings.HasPrefix(tt.url, "/api/") {
			body = small
		}
		req := httptest.NewRequest(tt.method, tt.url, strings.NewReader(body))
		if tt.accept != "" {
			req.Header.Set("Accept-Encoding", tt.accept)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tt.status {
			t.Errorf("%s %s: status %d; want %d (%s)", tt.method, tt.url, rec.Code, tt.status, rec.Body)
			continue
		}
		if tt.ctype != "" && rec.Header().Get("Content-Type") != tt.ctype {
			t.Errorf("%s %s: Content-Type %q; want %q", tt.method, tt.url, rec.Header().Get("Content-Type"), tt.ctype)
		}
		if rec.Header().Get("Content-Encoding") != tt.encoding {
			t.Errorf("%s %s (Accept-Encoding %q): Content-Encoding %q; want %q", tt.method, tt.url, tt.accept, rec.Header().Get("Content-Encoding"), tt.encoding)
		}
		if tt.encoding == "gzip" && !bytes.Equal(rec.Body.Bytes(), gz.Bytes()) {
			t.Errorf("%s: gzip body differs from the .gz file", tt.url)
		}
		if tt.encoding == "br" && !bytes.Equal(rec.Body.Bytes(), br) {
			t.Errorf("%s: brotli body differs from the .br file", tt.url)
		}
		if tt.body != "" && rec.Body.String() != tt.body {
			t.Errorf("%s: body %q; want %q", tt.url, rec.Body, tt.body)
		}
	}
}

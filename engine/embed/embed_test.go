package embed

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"schedplay/engine/scenario"
	"schedplay/engine/sim"
	"schedplay/presets"
)

func TestParseMessage(t *testing.T) {
	cases := []struct {
		in      string
		typ     string
		notOurs bool
		errHas  string
	}{
		{in: `{"type":"schedplay:run","id":7}`, typ: TypeRun},
		{in: `{"type":"schedplay:ping"}`, typ: TypePing},
		{in: `{"type":"schedplay:set","scenario":"hikey960-sysbench","run":true}`, typ: TypeSet},
		{in: `{"type":"schedplay:set"}`, typ: TypeSet, errHas: "needs a scenario"},
		{in: `{"type":"schedplay:set","scenario":null}`, typ: TypeSet, errHas: "needs a scenario"},
		{in: `{"type":"schedplay:launch"}`, typ: "schedplay:launch", errHas: "unknown message type"},
		{in: `{"type":"schedplay:set","scenario":{},"set":5}`, typ: TypeSet, errHas: "malformed"},
		{in: `{"type":"webpack:hmr"}`, notOurs: true},
		{in: `{"type":3}`, notOurs: true},
		{in: `"schedplay:run"`, notOurs: true},
		{in: `not json`, notOurs: true},
	}
	for _, c := range cases {
		m, err := ParseMessage([]byte(c.in))
		if c.notOurs {
			if !errors.Is(err, ErrNotOurs) {
				t.Errorf("%s: err %v, want ErrNotOurs", c.in, err)
			}
			continue
		}
		if m.Type != c.typ {
			t.Errorf("%s: type %q", c.in, m.Type)
		}
		if (c.errHas == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.errHas) {
			t.Errorf("%s: err %v, want %q", c.in, err, c.errHas)
		}
	}
	big := `{"type":"schedplay:set","scenario":"` + strings.Repeat("x", MaxMessageBytes) + `"}`
	if _, err := ParseMessage([]byte(big)); err == nil || errors.Is(err, ErrNotOurs) {
		t.Errorf("oversized message: %v", err)
	}
	m, _ := ParseMessage([]byte(`{"type":"schedplay:run","id":"abc"}`))
	if string(m.ID) != `"abc"` {
		t.Errorf("id %s", m.ID)
	}
}

func TestScenarioDoc(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	m, _ := ParseMessage([]byte(`{"type":"schedplay:set","scenario":"hikey960-sysbench","set":["run.reps=2"]}`))
	sc, err := m.ScenarioDoc(ps)
	if err != nil {
		t.Fatal(err)
	}
	r, err := scenario.Resolve(sc, ps)
	if err != nil || r.Run.Reps != 2 {
		t.Fatalf("resolve: %v, reps %d", err, r.Run.Reps)
	}
	m, _ = ParseMessage([]byte(`{"type":"schedplay:set","scenario":{"schedplay":1,"machin":{}}}`))
	if _, err := m.ScenarioDoc(ps); err == nil {
		t.Error("misspelt section accepted")
	} else if msg := Error(nil, err); !strings.Contains(string(msg), `"path":"machin"`) {
		t.Errorf("error reply without the path: %s", msg)
	}
	m, _ = ParseMessage([]byte(`{"type":"schedplay:set","scenario":"hikey960-sysbench","set":["nonsense"]}`))
	if _, err := m.ScenarioDoc(ps); err == nil || !strings.Contains(string(Error(nil, err)), `"path":"set[0]"`) {
		t.Errorf("bad override: %v", err)
	}
}

func TestReplies(t *testing.T) {
	var got map[string]any
	decode := func(b []byte) map[string]any {
		got = nil
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		return got
	}
	r := &sim.Result{Scenario: "demo", Unit: "GFLOP/s", Reps: make([]sim.RepMetrics, 3),
		Summary: sim.Summary{Throughput: sim.Stat{Mean: 12.5, N: 3}}}
	res := decode(Result(json.RawMessage(`42`), r, "https://x/#s=abc"))
	if res["type"] != TypeResult || res["id"] != 42.0 || res["reps"] != 3.0 || res["link"] != "https://x/#s=abc" {
		t.Errorf("result %v", res)
	}
	if sum, _ := res["summary"].(map[string]any); sum["throughput"].(map[string]any)["mean"] != 12.5 {
		t.Errorf("summary %v", res["summary"])
	}
	if _, has := res["path"]; has {
		t.Error("result carries a path")
	}
	if _, has := res["timeline"]; has {
		t.Error("result carries the timeline")
	}
	e := decode(Error(json.RawMessage(`"q"`), scenario.ErrorList{{Path: "run.reps", Msg: "must be ≥ 1"}, {Path: "x", Msg: "y"}}))
	if e["type"] != TypeError || e["id"] != "q" || e["path"] != "run.reps" || e["message"] != "must be ≥ 1" || len(e["errors"].([]any)) != 2 {
		t.Errorf("error %v", e)
	}
	e = decode(Error(nil, errors.New("event budget exceeded")))
	if e["path"] != "" || e["message"] != "event budget exceeded" {
		t.Errorf("plain error %v", e)
	}
	if rd := decode(Ready("demo")); rd["type"] != TypeReady || rd["version"] != 1.0 {
		t.Errorf("ready %v", rd)
	}
	if a := decode(Ack(nil, "demo", "L")); a["of"] != TypeSet || a["link"] != "L" {
		t.Errorf("ack %v", a)
	}
	if p := decode(Progress(nil, 0.25)); p["done"] != 0.25 {
		t.Errorf("progress %v", p)
	}
}

func TestOrigins(t *testing.T) {
	if !OriginAllowed("https://docs.example.org", "") || !OriginAllowed("https://docs.example.org", "https://docs.example.org/") {
		t.Error("allowed origin refused")
	}
	if OriginAllowed("https://evil.example", "https://docs.example.org") {
		t.Error("foreign origin accepted")
	}
	if ReplyTarget("null") != "*" || ReplyTarget("https://a.b") != "https://a.b" {
		t.Error("reply targets")
	}
	// A file: host page (Chromium's location.origin "file://", its
	// messages' origin "null"): postMessage cannot name it.
	if !OriginAllowed("null", "file://") || OriginAllowed("https://evil.example", "file://") || OriginAllowed("null", "https://docs.example.org") {
		t.Error("opaque parent")
	}
	if ReadyTarget("file://") != "*" || ReadyTarget("null") != "*" || ReadyTarget("") != "*" || ReadyTarget("https://a.b/") != "https://a.b" {
		t.Error("ready targets")
	}
	if ReplyTarget("file://") != "*" {
		t.Error("reply to a file: origin")
	}
}

func TestSnippet(t *testing.T) {
	s, err := Snippet("https://schedplay.dev/?x=1", "#s=abc", `<script>"x"</script>`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s, `src="https://schedplay.dev/?embed=1&amp;x=1#s=abc"`) {
		t.Errorf("src: %s", s)
	}
	if strings.Contains(s, "<script>") || !strings.Contains(s, `title="schedplay: &lt;script&gt;&#34;x&#34;&lt;/script&gt;"`) {
		t.Errorf("title not escaped: %s", s)
	}
	p, _ := PlaygroundURL("https://schedplay.dev/?embed=1&parent=https%3A%2F%2Fa", "s=abc")
	if p != "https://schedplay.dev/#s=abc" {
		t.Errorf("playground link %s", p)
	}
}

// The Embed dialog's snippet: size and options, escaped; bad sizes and
// origins refused.
func TestSnippetWith(t *testing.T) {
	s, err := SnippetWith("https://schedplay.dev/", "s=abc", `a "b"`, SnippetOptions{Width: "100%", Height: "520", NoRun: true, Parent: "https://docs.example.org/page"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`width="100%"`, `height="520"`, `run=0`, `parent=https%3A%2F%2Fdocs.example.org`, `embed=1`, `#s=abc`, `title="schedplay: a &#34;b&#34;"`} {
		if !strings.Contains(s, want) {
			t.Errorf("snippet lacks %q: %s", want, s)
		}
	}
	if d, _ := SnippetWith("https://x/", "s=a", "", SnippetOptions{}); !strings.Contains(d, `width="800" height="460"`) {
		t.Errorf("default size: %s", d)
	}
	for _, o := range []SnippetOptions{{Width: "0"}, {Height: "12em"}, {Width: "50%px"}, {Parent: "docs.example.org"}} {
		if _, err := SnippetWith("https://x/", "s=a", "", o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

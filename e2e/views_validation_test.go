//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"schedplay/presets"
	"schedplay/site"
	"schedplay/site/api"
)

// validatorMessages is what POST /api/v1/validate (the validation the CLI
// runs, here natively) says about doc: "path: message" lines, sorted.
func validatorMessages(t *testing.T, doc site.Doc) []string {
	t.Helper()
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	api.New(ps).ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/api/v1/validate", strings.NewReader(doc.Canonical())))
	var body struct {
		Error struct {
			Path    string `json:"path"`
			Message string `json:"message"`
		} `json:"error"`
		Errors []struct {
			Path    string `json:"path"`
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("validate reply %q: %v", rec.Body.String(), err)
	}
	var out []string
	line := func(p, m string) string {
		if p == "" {
			return m
		}
		return p + ": " + m
	}
	for _, e := range body.Errors {
		out = append(out, line(e.Path, e.Message))
	}
	if len(out) == 0 && body.Error.Message != "" {
		out = append(out, line(body.Error.Path, body.Error.Message))
	}
	sort.Strings(out)
	return out
}

// pageIssues waits until the header's issue list is exactly want (sorted
// "path: message" lines) and returns what it showed last.
func pageIssues(t *testing.T, ctx context.Context, want []string) []string {
	t.Helper()
	wantJSON, _ := json.Marshal(want)
	var got []string
	err := chromedp.Run(ctx, chromedp.Poll(`(() => {
		const got = [...document.querySelectorAll("#issue-list .issue-link")].map(e => e.textContent).sort();
		return JSON.stringify(got) === `+"`"+string(wantJSON)+"`"+` ? got : false; })()`, &got,
		chromedp.WithPollingInterval(25*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		last := eval[[]string](t, ctx, `[...document.querySelectorAll("#issue-list .issue-link")].map(e => e.textContent).sort()`)
		t.Fatalf("the page's issues %q, want the validator's %q (%v)", last, want, err)
	}
	return got
}

func editDoc(t *testing.T, d site.Doc, path string, v any) site.Doc {
	t.Helper()
	nd, err := d.Edit(path, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	return nd
}

// Issue 16, bug 1: the page shows exactly the validator's messages, every
// one, each at its field, unknown fields included; not a quick check of
// its own ("machine needs nodes ≥ 1 …").
func TestValidatorMessagesAtFields(t *testing.T) {
	ctx := newPage(t, 120*time.Second)
	open(t, ctx, defaultPath())
	waitResult(t, ctx)
	click(t, ctx, "#tab-machine")
	run(t, ctx, "machine tab", chromedp.WaitVisible("#f-machine-cores_per_node", chromedp.ByQuery))
	for _, c := range []struct {
		text string
		v    any
	}{{"-3", json.Number("-3")}, {"0", json.Number("0")}, {"4.5", json.Number("4.5")}} {
		want := validatorMessages(t, editDoc(t, site.DefaultDoc(), "machine.cores_per_node", c.v))
		setField(t, ctx, "f-machine-cores_per_node", c.text)
		pageIssues(t, ctx, want)
		field := strings.TrimPrefix(want[0], "machine.cores_per_node: ")
		run(t, ctx, "issue at the field", chromedp.Poll(`(() => { const e = document.getElementById("f-machine-cores_per_node-issue");
			return e && document.getElementById("f-machine-cores_per_node").getAttribute("aria-invalid") === "true" ? e.textContent : false; })()`, nil))
		if got := text(t, ctx, "#f-machine-cores_per_node-issue"); got != field {
			t.Errorf("cores_per_node %s: the field says %q, the validator %q", c.text, got, field)
		}
		if h := text(t, ctx, "#figures"); strings.Contains(h, "machine needs") {
			t.Errorf("cores_per_node %s: the page's own check shows: %q", c.text, h)
		}
		if n := eval[string](t, ctx, `document.getElementById("tab-machine").getAttribute("data-issues") || ""`); n != "1" {
			t.Errorf("cores_per_node %s: the machine tab counts %q issues", c.text, n)
		}
	}
	// An unknown field next to it is reported too, in the machine tab and
	// in the header (the validator reports it first, as the CLI does).
	bad := editDoc(t, site.DefaultDoc(), "machine.cores_per_node", json.Number("4.5"))
	bad = editDoc(t, bad, "machine.bogus", json.Number("1"))
	want := validatorMessages(t, bad)
	if len(want) == 0 || !strings.Contains(strings.Join(want, "\n"), "machine.bogus") {
		t.Fatalf("the validator does not report machine.bogus: %q", want)
	}
	click(t, ctx, "#tab-json")
	run(t, ctx, "json tab", chromedp.WaitVisible("#f-json", chromedp.ByQuery))
	setField(t, ctx, "f-json", bad.Canonical())
	jsClick(t, ctx, "#json-apply") // in the page: a result drawn meanwhile moves the button
	pageIssues(t, ctx, want)
	click(t, ctx, "#tab-machine")
	run(t, ctx, "unknown field listed in the machine tab", chromedp.Poll(`(() => { const e = document.getElementById("issues-machine");
		return e && e.textContent.includes("machine.bogus") ? e.textContent : false; })()`, nil))
	shot(t, ctx, "validator-issues")
	// A link in the header goes to the field, from another tab.
	click(t, ctx, "#tab-run")
	click(t, ctx, `#issue-list .issue-link[data-path="machine.cores_per_node"]`)
	run(t, ctx, "the link focuses the field", chromedp.Poll(`document.activeElement && document.activeElement.id === "f-machine-cores_per_node"`, nil,
		chromedp.WithPollingTimeout(5*time.Second)))
}

// Issue 16, bug 2: no stale or wrong messages. A new problem replaces the
// header's old one; a number box holding text says what the validator
// says (not "not valid JSON"); the JSON tab's parse error names its line
// and column and keeps the text.
func TestMessagesStayCurrent(t *testing.T) {
	ctx := newPage(t, 120*time.Second)
	open(t, ctx, defaultPath())
	waitResult(t, ctx)
	// Not live: edits are validated, not run (as on a large machine).
	run(t, ctx, "live off", chromedp.Click("#live", chromedp.ByQuery))
	click(t, ctx, "#tab-machine")
	run(t, ctx, "machine tab", chromedp.WaitVisible("#f-machine-cores_per_node", chromedp.ByQuery))
	setField(t, ctx, "f-machine-cores_per_node", "0")
	d := editDoc(t, site.DefaultDoc(), "machine.cores_per_node", json.Number("0"))
	pageIssues(t, ctx, validatorMessages(t, d))
	run(t, ctx, "refused", chromedp.WaitVisible("#run-error", chromedp.ByQuery))
	// Fixed, and a new problem elsewhere: the header shows only the new one.
	setField(t, ctx, "f-machine-cores_per_node", "8")
	click(t, ctx, "#tab-policy")
	run(t, ctx, "policy tab", chromedp.WaitVisible("#f-policy-hz", chromedp.ByQuery))
	setField(t, ctx, "f-policy-hz", "-5")
	d = editDoc(t, site.DefaultDoc(), "policy.hz", json.Number("-5"))
	want := validatorMessages(t, d)
	pageIssues(t, ctx, want)
	if h := text(t, ctx, "#figures"); strings.Contains(h, "cores_per_node") || strings.Contains(h, "machine needs") {
		t.Errorf("the header kept the old error: %q", h)
	}
	// A number box holding text: the validator's message, at the field.
	click(t, ctx, "#tab-run")
	run(t, ctx, "run tab", chromedp.WaitVisible("#f-run-seed", chromedp.ByQuery))
	setField(t, ctx, "f-run-seed", "abc")
	d = editDoc(t, d, "run.seed", "abc")
	want = validatorMessages(t, d)
	pageIssues(t, ctx, want)
	got := text(t, ctx, "#f-run-seed-issue")
	if strings.Contains(got, "JSON") || !strings.Contains(strings.Join(want, "\n"), "run.seed: "+got) {
		t.Errorf("seed abc: the field says %q; the validator %q", got, want)
	}
	if v := eval[string](t, ctx, `document.getElementById("f-run-seed").value`); v != "abc" {
		t.Errorf("the number box lost its text: %q", v)
	}
	// The JSON tab: line and column, and the text stays.
	click(t, ctx, "#tab-json")
	run(t, ctx, "json tab", chromedp.WaitVisible("#f-json", chromedp.ByQuery))
	broken := "{\n  \"schedplay\": 1,\n  \"name\": oops\n}"
	setField(t, ctx, "f-json", broken)
	jsClick(t, ctx, "#json-apply") // in the page: a result drawn meanwhile moves the button
	run(t, ctx, "json issue", chromedp.WaitVisible("#f-json-issue", chromedp.ByQuery))
	if msg := text(t, ctx, "#f-json-issue"); !strings.Contains(msg, "line 3, column 11") {
		t.Errorf("the JSON tab's parse error %q does not name line 3, column 11", msg)
	}
	if v := eval[string](t, ctx, `document.getElementById("f-json").value`); v != broken {
		t.Errorf("the JSON tab lost the text: %q", v)
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The guide's own blocks: a playground embeds the seed with its overrides
// as a share fragment, a control carries a schedplay:set message, code
// stays code; a bad preset, a bad override or a control without its
// playground fails the build.
func TestBuildGuide(t *testing.T) {
	src, out := t.TempDir(), t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(src, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("index.md", "# Guide\n\nSee [a](a.html).\n")
	write("a.md", "# Page A\n\n```playground\nid: x\npreset: hikey960-sysbench\nset: run.reps=1\ncaption: cap <b>\n```\n\n"+
		"```control\nframe: x\nlabel: Now v6 & more\nset: policy.preset=none\n```\n\n```\nplain <code>\n```\n")
	if err := build(src, out); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "a.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{`<iframe id="pg-x" class="guide-embed" src="../?embed=1#s=`, `cap &lt;b&gt;`,
		`data-frame="pg-x"`, `&#34;schedplay:set&#34;`, `policy.preset=none`, `run.reps=1`, `Now v6 &amp; more`,
		`<pre><code>plain &lt;code&gt;`, `<a href="index.html">Guide</a>`, `aria-current="page">Page A`} {
		if !strings.Contains(page, want) {
			t.Errorf("a.html lacks %q:\n%s", want, page)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{
		"```playground\nid: x\npreset: no-such-seed\n```\n",
		"```playground\nid: x\npreset: hikey960-sysbench\nset: run.reps=-1\n```\n",
		"```control\nframe: y\nlabel: l\n```\n",
	} {
		write("a.md", "# A\n\n"+bad)
		if err := build(src, out); err == nil {
			t.Errorf("built with %q", bad)
		}
	}
}

// Command guide renders the guide (docs/guide/*.md) into HTML pages at
// build time (./build.sh): Markdown by goldmark, plus two fenced blocks of
// its own. A "playground" block embeds a live playground (?embed=1) of a
// seed scenario with overrides; a "control" block is a button in the prose
// that drives one of the page's playgrounds through the postMessage API
// (docs/embed.md), e.g. "now switch to v6-on". guide.js wires them.
//
//	go run ./tools/guide -o dist/guide docs/guide
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"

	"schedplay/engine/scenario"
	"schedplay/presets"
)

func main() {
	out := flag.String("o", "dist/guide", "output `directory`")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: guide -o DIR SRCDIR")
		os.Exit(2)
	}
	if err := build(flag.Arg(0), *out); err != nil {
		fmt.Fprintln(os.Stderr, "guide:", err)
		os.Exit(1)
	}
}

// page is one Markdown file: its output name and title (its first heading).
type page struct {
	src, name, title string
	body             []byte
}

func build(srcDir, outDir string) error {
	ps, err := presets.Load()
	if err != nil {
		return err
	}
	files, err := filepath.Glob(filepath.Join(srcDir, "*.md"))
	if err != nil {
		return err
	}
	sort.Strings(files)
	var pages []page
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		name := strings.TrimSuffix(filepath.Base(f), ".md")
		p := page{src: f, name: name, title: title(b), body: b}
		if name == "index" {
			pages = append([]page{p}, pages...)
		} else {
			pages = append(pages, p)
		}
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	for _, p := range pages {
		r := &blocks{ps: ps, page: p.name}
		md := goldmark.New(goldmark.WithExtensions(extension.Table),
			goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(r, 100))))
		var body bytes.Buffer
		if err := md.Convert(p.body, &body); err != nil {
			return fmt.Errorf("%s: %w", p.src, err)
		}
		if r.err != nil {
			return fmt.Errorf("%s: %w", p.src, r.err)
		}
		if err := os.WriteFile(filepath.Join(outDir, p.name+".html"), layout(p, pages, body.Bytes()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// title is a page's first "# " heading.
func title(md []byte) string {
	for _, l := range strings.Split(string(md), "\n") {
		if t, ok := strings.CutPrefix(l, "# "); ok {
			return strings.TrimSpace(t)
		}
	}
	return "schedplay guide"
}

func layout(p page, pages []page, body []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s · schedplay guide</title>
<link rel="stylesheet" href="guide.css">
<script type="module" src="guide.js"></script>
</head>
<body>
<nav class="guide-nav" aria-label="guide pages"><a href="../">← the playground</a>`, html.EscapeString(p.title))
	for _, q := range pages {
		cur := ""
		if q.name == p.name {
			cur = ` aria-current="page"`
		}
		fmt.Fprintf(&b, ` <a href="%s.html"%s>%s</a>`, q.name, cur, html.EscapeString(q.title))
	}
	b.WriteString("</nav>\n<main class=\"guide\">\n")
	b.Write(body)
	b.WriteString("</main>\n</body>\n</html>\n")
	return b.Bytes()
}

// blocks renders the guide's fenced blocks: "playground" and "control";
// any other fenced block is code.
type blocks struct {
	ps     *presets.Set
	page   string
	frames map[string]frame
	err    error
}

// frame is an embedded playground: its seed scenario and overrides.
type frame struct {
	preset string
	set    []string
}

func (r *blocks) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, r.fenced)
}

func (r *blocks) fenced(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	fb := n.(*ast.FencedCodeBlock)
	var text bytes.Buffer
	for i := 0; i < fb.Lines().Len(); i++ {
		seg := fb.Lines().At(i)
		text.Write(seg.Value(src))
	}
	switch string(fb.Language(src)) {
	case "playground":
		r.playground(w, fields(text.String()))
	case "control":
		r.control(w, fields(text.String()))
	default:
		fmt.Fprintf(w, "<pre><code>%s</code></pre>\n", html.EscapeString(text.String()))
	}
	return ast.WalkSkipChildren, nil
}

// fields reads "key: value" lines; "set" may repeat.
func fields(s string) map[string][]string {
	out := map[string][]string{}
	for _, l := range strings.Split(s, "\n") {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		out[strings.TrimSpace(k)] = append(out[strings.TrimSpace(k)], strings.TrimSpace(v))
	}
	return out
}

func one(f map[string][]string, k string) string {
	if v := f[k]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// playground writes an iframe of the embed view on the seed scenario
// with the overrides applied (the share fragment is computed here, so a
// bad preset or override fails the build).
func (r *blocks) playground(w util.BufWriter, f map[string][]string) {
	id, preset := one(f, "id"), one(f, "preset")
	sc, err := r.scenario(preset, f["set"])
	if err != nil {
		r.fail(fmt.Errorf("playground %q: %w", id, err))
		return
	}
	share, err := scenario.EncodeShare(sc)
	if err != nil {
		r.fail(err)
		return
	}
	if r.frames == nil {
		r.frames = map[string]frame{}
	}
	r.frames[id] = frame{preset: preset, set: f["set"]}
	h := one(f, "height")
	if h == "" {
		h = "430"
	}
	cap := one(f, "caption")
	fmt.Fprintf(w, `<figure class="guide-frame"><iframe id="%s" class="guide-embed" src="../?embed=1#s=%s" height="%s" loading="lazy" title="schedplay: %s"></iframe>`,
		html.EscapeString("pg-"+id), html.EscapeString(share), html.EscapeString(h), html.EscapeString(sc.Name))
	fmt.Fprintf(w, `<figcaption><span class="guide-status" id="%s" aria-live="polite">loading…</span> %s</figcaption></figure>`+"\n",
		html.EscapeString("pg-"+id+"-status"), html.EscapeString(cap))
}

// control writes a button that sends schedplay:set (the frame's scenario
// with more overrides) and runs it.
func (r *blocks) control(w util.BufWriter, f map[string][]string) {
	id := one(f, "frame")
	fr, ok := r.frames[id]
	if !ok {
		r.fail(fmt.Errorf("control for unknown playground %q (a control follows its playground)", id))
		return
	}
	set := append(append([]string(nil), fr.set...), f["set"]...)
	if _, err := r.scenario(fr.preset, set); err != nil {
		r.fail(fmt.Errorf("control %q: %w", one(f, "label"), err))
		return
	}
	msg, _ := json.Marshal(map[string]any{"type": "schedplay:set", "scenario": fr.preset, "set": set, "run": true})
	fmt.Fprintf(w, `<p class="guide-control"><button type="button" data-frame="%s" data-message="%s">%s</button></p>`+"\n",
		html.EscapeString("pg-"+id), html.EscapeString(string(msg)), html.EscapeString(one(f, "label")))
}

func (r *blocks) scenario(preset string, set []string) (*scenario.Scenario, error) {
	sc, err := scenario.FromReference(preset, r.ps)
	if err != nil {
		return nil, err
	}
	var os []scenario.Override
	for _, s := range set {
		o, err := scenario.ParseSet(s)
		if err != nil {
			return nil, err
		}
		os = append(os, o)
	}
	sc, err = scenario.Apply(sc, r.ps, os)
	if err != nil {
		return nil, err
	}
	if _, err := scenario.Resolve(sc, r.ps); err != nil {
		return nil, err
	}
	return sc, nil
}

func (r *blocks) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

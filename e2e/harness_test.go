//go:build e2e

// Package e2e drives the built playground (dist/) in headless Chromium.
// Run: SCHEDPLAY_DIST=$PWD/dist go test -count=1 -tags e2e ./e2e/...
package e2e

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"schedplay/site/pagesec"
)

var (
	baseURL  string
	allocCtx context.Context
	// sent counts the body bytes the server wrote (compressed when the
	// browser asked for it): the page's total transfer size.
	sent atomic.Int64
	// shotDir receives screenshots.
	shotDir string
)

func TestMain(m *testing.M) {
	dist := os.Getenv("SCHEDPLAY_DIST")
	if dist == "" {
		fmt.Println("SCHEDPLAY_DIST not set; skipping browser tests (./build.sh test sets it)")
		os.Exit(0)
	}
	if _, err := os.Stat(filepath.Join(dist, "index.html")); err != nil {
		fmt.Println("no built site in", dist, ":", err)
		os.Exit(1)
	}
	// Screenshots go to e2e/out (ignored by git) unless SCHEDPLAY_SHOTS
	// names another folder (docs/screenshots to refresh the README's).
	shotDir = os.Getenv("SCHEDPLAY_SHOTS")
	if shotDir == "" {
		shotDir = "out"
	}
	_ = os.MkdirAll(shotDir, 0o755)
	srv := httptest.NewServer(staticHandler(dist))
	baseURL = srv.URL
	udd, err := os.MkdirTemp("", "schedplay-e2e-chromium-")
	if err != nil {
		panic(err)
	}
	ctx, cancel := chromedp.NewExecAllocator(context.Background(), chromiumOptions(udd)...)
	bctx, bcancel := chromedp.NewContext(ctx)
	if err := chromedp.Run(bctx); err != nil {
		fmt.Println("starting chromium:", err)
		os.Exit(1)
	}
	allocCtx = bctx
	code := m.Run()
	bcancel()
	cancel()
	srv.Close()
	os.RemoveAll(udd)
	os.Exit(code)
}

// chromiumOptions starts headless Chromium with its profile in udd.
func chromiumOptions(udd string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath()),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(udd),
		chromedp.WindowSize(1280, 800),
	}
}

func chromiumPath() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	return "/usr/bin/chromium"
}

// staticHandler serves dist/ with the right types, brotli or gzip
// (precompressed .br/.gz files when present) and a byte counter.
func staticHandler(dir string) http.Handler {
	fs := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		switch {
		case strings.HasSuffix(p, ".wasm"):
			w.Header().Set("Content-Type", "application/wasm")
		case strings.HasSuffix(p, ".mjs"), strings.HasSuffix(p, ".js"):
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		default:
			if t := mime.TypeByExtension(filepath.Ext(p)); t != "" {
				w.Header().Set("Content-Type", t)
			}
		}
		w.Header().Set("Cache-Control", "no-cache")
		pagesec.Set(w.Header(), r) // the pages are tested under schedplay serve's policy
		cw := &countingWriter{ResponseWriter: w}
		defer func() { logf("%s %s %d bytes", r.Method, p, cw.n) }()
		w.Header().Add("Vary", "Accept-Encoding")
		// A precompressed brotli sibling (./build.sh build makes them) when
		// the browser asks for br, as `schedplay serve` does.
		if strings.Contains(r.Header.Get("Accept-Encoding"), "br") && p != "/" {
			if br, err := os.Open(filepath.Join(dir, filepath.FromSlash(p)) + ".br"); err == nil {
				defer br.Close()
				if st, err := br.Stat(); err == nil {
					w.Header().Set("Content-Encoding", "br")
					http.ServeContent(cw, r, p, st.ModTime(), br) // honours If-Modified-Since
					return
				}
			}
		}
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			fs.ServeHTTP(cw, r)
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		if gz, err := os.Open(filepath.Join(dir, filepath.FromSlash(p)) + ".gz"); err == nil && p != "/" {
			defer gz.Close()
			if st, err := gz.Stat(); err == nil {
				http.ServeContent(cw, r, p, st.ModTime(), gz) // honours If-Modified-Since
				return
			}
		}
		zw := gzip.NewWriter(cw)
		fs.ServeHTTP(&gzipWriter{ResponseWriter: w, w: zw}, r)
		_ = zw.Close()
	})
}

type countingWriter struct {
	http.ResponseWriter
	n int64
}

// logf prints server-side request logs when SCHEDPLAY_E2E_LOG is set.
func logf(format string, args ...any) {
	if os.Getenv("SCHEDPLAY_E2E_LOG") != "" {
		fmt.Printf(format+"\n", args...)
	}
}

func (c *countingWriter) Write(b []byte) (int, error) {
	sent.Add(int64(len(b)))
	c.n += int64(len(b))
	return c.ResponseWriter.Write(b)
}

type gzipWriter struct {
	http.ResponseWriter
	w io.Writer
}

func (g *gzipWriter) WriteHeader(code int) {
	g.ResponseWriter.Header().Del("Content-Length")
	g.ResponseWriter.WriteHeader(code)
}

func (g *gzipWriter) Write(b []byte) (int, error) { return g.w.Write(b) }

var tabMu sync.Mutex

// newPage opens a fresh tab in its own browser context (no shared
// localStorage) at 1280×800 and returns its context.
func newPage(t *testing.T, timeout time.Duration) context.Context {
	t.Helper()
	tabMu.Lock()
	defer tabMu.Unlock()
	ctx, cancel := chromedp.NewContext(allocCtx)
	// A Go panic in the page (logged by the wasm runtime or by the UI's
	// handler guard) fails the test that caused it.
	var mu sync.Mutex
	var panics []string
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, p := range panics {
			t.Errorf("the page logged a Go panic or broke its CSP: %s", p)
		}
	})
	chromedp.ListenTarget(ctx, func(ev any) {
		// The page broke its Content-Security-Policy (issue 17): an
		// inline script, style or handler, or a connection it may not make.
		if e, ok := ev.(*cdplog.EventEntryAdded); ok && strings.Contains(e.Entry.Text, "Content Security Policy") {
			mu.Lock()
			panics = append(panics, "CSP violation: "+e.Entry.Text)
			mu.Unlock()
		}
		if e, ok := ev.(*cdpruntime.EventConsoleAPICalled); ok {
			for _, a := range e.Args {
				if v := string(a.Value); strings.Contains(v, "panic") {
					mu.Lock()
					panics = append(panics, v)
					mu.Unlock()
				}
			}
		}
	})
	t.Cleanup(cancel)
	ctx, cancel2 := context.WithTimeout(ctx, timeout)
	t.Cleanup(cancel2)
	if err := chromedp.Run(ctx, cdplog.Enable(), chromedp.EmulateViewport(1280, 800)); err != nil {
		t.Fatalf("open tab: %v", err)
	}
	return ctx
}

// run runs actions and fails the test with the step name on error.
func run(t *testing.T, ctx context.Context, step string, actions ...chromedp.Action) {
	t.Helper()
	if err := chromedp.Run(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", step, err)
	}
}

// open navigates to path and waits for the UI to render.
func open(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	run(t, ctx, "open "+path, chromedp.Navigate(baseURL+path), chromedp.WaitVisible(`#root[data-ready="1"]`, chromedp.ByQuery))
}

// waitResult waits until the figures show a finished run (or a failure)
// and the timeline is drawn, and returns the status.
func waitResult(t *testing.T, ctx context.Context) string {
	t.Helper()
	var status string
	run(t, ctx, "wait for a result", chromedp.Poll(`(() => {
		const f = document.getElementById("figures");
		const s = f && f.getAttribute("data-status");
		if (s === "failed") return s;
		if (s === "done" && document.querySelector("#fig-throughput")) return s;
		return false;
	})()`, &status, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(0)))
	return status
}

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	var s string
	run(t, ctx, "read "+sel, chromedp.Text(sel, &s, chromedp.ByQuery))
	return s
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	var v T
	run(t, ctx, "evaluate "+js, chromedp.Evaluate(js, &v))
	return v
}

// shot saves a PNG screenshot of the viewport to docs/screenshots/name.png.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	var buf []byte
	run(t, ctx, "screenshot "+name, chromedp.CaptureScreenshot(&buf))
	if err := os.WriteFile(filepath.Join(shotDir, name+".png"), buf, 0o644); err != nil {
		t.Fatal(err)
	}
}

// fullShot saves a full-page PNG (quality 100 keeps PNG).
func fullShot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	var buf []byte
	run(t, ctx, "screenshot "+name, chromedp.FullScreenshot(&buf, 100))
	if err := os.WriteFile(filepath.Join(shotDir, name+".png"), buf, 0o644); err != nil {
		t.Fatal(err)
	}
}

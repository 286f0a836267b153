package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"strings"
	"time"

	"schedplay/presets"
	"schedplay/site/api"
	"schedplay/site/importapi"
)

// cmdServe serves the built site from --dir and the API under /api/.
func cmdServe(e *env, args []string) int {
	fs := newFlagSet(e, "serve", "[--addr 127.0.0.1:8080] [--dir dist]")
	addr := fs.String("addr", "127.0.0.1:8080", "listen `address`")
	dir := fs.String("dir", "dist", "`directory` of the built site (./build.sh build)")
	pos, err := parseInterspersed(e, fs, args)
	if err != nil {
		return flagExit(err)
	}
	if !wantArgs(e, fs, pos) {
		return exitUsage
	}
	if st, err := os.Stat(*dir); err != nil || !st.IsDir() {
		fmt.Fprintf(e.stderr, "schedplay serve: %s is not a directory; run ./build.sh build first (serving the API only)\n", *dir)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(e.stderr, "schedplay serve: %v\n", err)
		return exitFailed
	}
	srv := &http.Server{Handler: serveHandler(e.presets, *dir), ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	fmt.Fprintf(e.stdout, "schedplay: serving %s and the API on http://%s/\n", *dir, ln.Addr())
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(e.stderr, "schedplay serve: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// serveHandler routes /api/ to the API handler and everything else to the
// static site in dir.
func serveHandler(ps *presets.Set, dir string) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/api/", api.New(ps, api.WithTimeout(2*time.Minute), api.WithEndpoint(importapi.Path, importapi.New(ps))))
	mux.Handle("/", staticHandler(dir))
	return mux
}

// contentTypes are set explicitly so that /etc/mime.types cannot change them.
var contentTypes = map[string]string{
	".wasm": "application/wasm",
	".mjs":  "text/javascript; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".html": "text/html; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".json": "application/json",
	".txt":  "text/plain; charset=utf-8",
	".svg":  "image/svg+xml",
	".png":  "image/png",
}

// staticHandler serves files from dir, preferring a precompressed sibling
// the client accepts: .br (brotli, built by ./build.sh build) over .gz.
func staticHandler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		p := path.Clean("/" + r.URL.Path)
		if strings.HasSuffix(p, "/") || p == "/" {
			p = path.Join(p, "index.html")
		}
		if ct, ok := contentTypes[path.Ext(p)]; ok {
			w.Header().Set("Content-Type", ct)
		}
		w.Header().Add("Vary", "Accept-Encoding")
		// Revalidate every time: a rebuilt dist/ is seen at once, an
		// unchanged one costs a 304 (the spare engine worker reloads app.wasm).
		w.Header().Set("Cache-Control", "no-cache")
		for _, pc := range precompressed {
			if !accepts(r, pc.encoding) {
				continue
			}
			name := filepath.Join(dir, filepath.FromSlash(p)+pc.suffix)
			st, err := os.Stat(name)
			if err != nil || st.IsDir() {
				continue
			}
			f, err := os.Open(name)
			if err != nil {
				continue
			}
			defer f.Close()
			w.Header().Set("Content-Encoding", pc.encoding)
			http.ServeContent(w, r, p, st.ModTime(), f)
			return
		}
		files.ServeHTTP(w, r)
	})
}

// precompressed lists the sibling files staticHandler looks for, best first.
var precompressed = []struct{ encoding, suffix string }{
	{"br", ".br"},
	{"gzip", ".gz"},
}

// accepts says whether the request's Accept-Encoding allows enc (q=0 refuses).
func accepts(r *http.Request, enc string) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), enc) && strings.ReplaceAll(strings.TrimSpace(q), " ", "") != "q=0" {
			return true
		}
	}
	return false
}

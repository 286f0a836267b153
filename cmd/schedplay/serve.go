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
	"runtime"
	"strings"
	"sync"
	"time"

	"schedplay/engine/budget"
	"schedplay/presets"
	"schedplay/site/api"
	"schedplay/site/importapi"
	"schedplay/site/pagesec"
)

// cmdServe serves the built site from --dir and the API under /api/.
func cmdServe(e *env, args []string) int {
	fs := newFlagSet(e, "serve", "[--addr 127.0.0.1:8080] [--dir dist] [--allow-origin URL]… [--allow-host NAME]… [--slots N] [--queue N]")
	addr := fs.String("addr", "127.0.0.1:8080", "listen `address`")
	dir := fs.String("dir", "dist", "`directory` of the built site (./build.sh build)")
	var origins, hosts multiFlag
	fs.Var(&origins, "allow-origin", "another `origin` whose pages may call the API (scheme://host[:port]; repeatable)")
	fs.Var(&hosts, "allow-host", "a host `name` the server answers to besides localhost and IP addresses (repeatable)")
	slots := fs.Int("slots", runtime.NumCPU(), "simulations run at `once` (default: the number of CPUs)")
	queue := fs.Int("queue", 0, "simulations that may `wait` for a slot before the server answers 503 (default: 4 × slots)")
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
	cfg := defaultServeConfig()
	cfg.origins.Allow = api.ParseOrigins(strings.Join(origins, ","))
	cfg.origins.Hosts = append(cfg.origins.Hosts, hosts...)
	cfg.slots, cfg.queue = *slots, *queue
	if *queue <= 0 {
		cfg.queue = 4 * cfg.slots
	}
	srv := newServer(serveHandler(e.presets, *dir, cfg))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	fmt.Fprintf(e.stdout, "schedplay: serving %s and the API on http://%s/\n", *dir, ln.Addr())
	if err := srv.Serve(limitListener(ln, maxConnections)); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(e.stderr, "schedplay serve: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// Connection bounds of `schedplay serve` (docs/limits.md): a client that
// sends its headers or body a byte at a time, or idles between requests,
// is dropped, and at most maxConnections are open at once (the next waits
// to be accepted).
const (
	maxConnections    = 512
	headerTimeout     = 10 * time.Second
	idleTimeout       = 60 * time.Second
	maxHeaderBytes    = 64 << 10
	writeTimeoutExtra = time.Minute // after the request's deadline, to send a large reply
)

// newServer is the http.Server of `schedplay serve` with the bounds above
// (the API bounds each request body's reads itself: api.BodyIdleTimeout).
func newServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: headerTimeout, IdleTimeout: idleTimeout,
		WriteTimeout: budget.Serve.Deadline + writeTimeoutExtra, MaxHeaderBytes: maxHeaderBytes}
}

// serveConfig is what `schedplay serve` configures of the API: its
// cross-origin policy and its admission control.
type serveConfig struct {
	origins      api.Origins
	slots, queue int
}

// defaultServeConfig answers loopback names and IP addresses, no other
// origin, and admits as many simulations at once as there are CPUs with
// four times that waiting.
func defaultServeConfig() serveConfig {
	n := runtime.NumCPU()
	return serveConfig{origins: api.Origins{Hosts: append([]string(nil), api.LoopbackHosts...)}, slots: n, queue: 4 * n}
}

// serveHandler routes /api/ to the API handler (the Serve budget, its
// admission control and Origin policy) and everything else to the static
// site in dir.
func serveHandler(ps *presets.Set, dir string, cfg serveConfig) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/api/", api.New(ps, api.WithProfile(budget.Serve), api.WithOrigins(cfg.origins),
		api.WithAdmission(cfg.slots, cfg.queue, float64(max(cfg.slots, 1))*budget.Serve.Memory),
		api.WithEndpoint(importapi.Path, importapi.New(ps), importapi.Memory)))
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
	files := http.FileServer(noListing{http.Dir(dir)})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pagesec.Set(w.Header(), r)
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

// noListing is a file system without directory listings: a directory is
// served only through its index.html.
type noListing struct{ fs http.FileSystem }

func (n noListing) Open(name string) (http.File, error) {
	f, err := n.fs.Open(name)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		index, err := n.fs.Open(path.Join(name, "index.html"))
		if err != nil {
			f.Close()
			return nil, os.ErrNotExist
		}
		index.Close()
	}
	return f, nil
}

// limitListener accepts at most n connections at once; the next Accept
// waits until one closes.
func limitListener(ln net.Listener, n int) net.Listener {
	return &limitedListener{Listener: ln, slots: make(chan struct{}, n)}
}

type limitedListener struct {
	net.Listener
	slots chan struct{}
}

func (l *limitedListener) Accept() (net.Conn, error) {
	l.slots <- struct{}{}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitedConn{Conn: c, release: func() { <-l.slots }}, nil
}

type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

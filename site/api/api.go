// Package api is schedplay's HTTP API, one http.Handler with its own
// ServeMux, served natively by `schedplay serve`, in the browser's Web Worker
// through github.com/syumai/workers (wasm/engine) and on Cloudflare Workers
// (wasm/edge):
//
//	GET  /api/v1/presets    every preset (kind, name, description, body, …)
//	POST /api/v1/simulate   run a scenario, reply with the sim.Result JSON
//	POST /api/v1/compare    run two policies over the same seeds, reply with the table
//	POST /api/v1/validate   check a scenario, reply with every error or the resolved form
//	POST /api/v1/batch      up to 64 simulate requests in one, each reply as simulate gives it
//	GET  /api/v1/health     "ok" and the build: commit, Go version, platform, presets digest
//
// Request bodies are a scenario document or a request object wrapping one
// (see docs/scenario.md). Errors are JSON: status 400 with
// {"error": {"message": …, "path": …}, "errors": [{"path", "message"}, …]},
// 413 for a body over the limit, 405 for a wrong method, 404 for an unknown
// path, 500 with an id for an engine failure or a recovered panic. Every
// reply is encoded into a buffer before any header is written.
package api

import (
	"net/http"
	"time"

	"schedplay/engine/compare"
	"schedplay/engine/scenario"
	"schedplay/presets"
)

// DefaultMaxBody is the request body limit (bytes).
const DefaultMaxBody = 2 << 20

// server holds the handler's configuration; it has no mutable state.
type server struct {
	ps      *presets.Set
	run     compare.Runner
	maxBody int64
	timeout time.Duration
	runtime string       // health.go
	cors    OriginPolicy // cors.go
	extra   []endpoint
}

// Option configures New.
type Option func(*server)

// WithRunner replaces the simulator (tests use a stand-in).
func WithRunner(r compare.Runner) Option { return func(s *server) { s.run = r } }

// WithMaxBody sets the request body limit in bytes.
func WithMaxBody(n int64) Option { return func(s *server) { s.maxBody = n } }

// WithEndpoint mounts h at path beside the API's own endpoints (the
// import endpoint, site/importapi, kept out of the engine worker).
func WithEndpoint(path string, h http.Handler) Option {
	return func(s *server) { s.extra = append(s.extra, endpoint{path, h}) }
}

// endpoint is one extra endpoint.
type endpoint struct {
	path string
	h    http.Handler
}

// WithTimeout bounds the simulation time of one request (503 when it runs
// out); 0, the default, leaves it to the client (a closed connection
// cancels the run).
func WithTimeout(d time.Duration) Option { return func(s *server) { s.timeout = d } }

// New returns the API handler over the preset set ps.
func New(ps *presets.Set, opts ...Option) http.Handler {
	s := &server{ps: ps, run: defaultRunner, maxBody: DefaultMaxBody}
	for _, o := range opts {
		o(s)
	}
	mux := http.NewServeMux()
	mux.Handle("/api/v1/presets", only(http.MethodGet, s.handlePresets))
	mux.Handle("/api/v1/health", only(http.MethodGet, s.handleHealth)) // health.go
	mux.Handle("/api/v1/batch", only(http.MethodPost, s.handleBatch))  // batch.go
	mux.Handle("/api/v1/simulate", only(http.MethodPost, s.handleSimulate))
	mux.Handle("/api/v1/compare", only(http.MethodPost, s.handleCompare))
	mux.Handle("/api/v1/validate", only(http.MethodPost, s.handleValidate))
	mux.Handle("/api/v1/step", only(http.MethodPost, s.handleStep)) // step.go
	for _, e := range s.extra {
		mux.Handle(e.path, e.h)
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, &scenario.Error{Msg: "no such endpoint: " + r.URL.Path + "; see /api/v1/presets, /api/v1/simulate, /api/v1/compare, /api/v1/validate, /api/v1/health"})
	})
	return withCORS(s.cors, recoverPanics(mux))
}

// only restricts a handler to one method (405 with Allow otherwise).
func only(method string, h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != method {
			w.Header().Set("Allow", method)
			writeError(w, http.StatusMethodNotAllowed, &scenario.Error{Msg: "method " + r.Method + " not allowed; use " + method})
			return
		}
		h(w, r)
	})
}

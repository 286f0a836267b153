// Package api is schedplay's HTTP API, one http.Handler with its own
// ServeMux, served natively by `schedplay serve`, in the browser's Web Worker
// through github.com/syumai/workers (wasm/engine) and on Cloudflare Workers
// (wasm/edge):
//
//	GET  /api/v1/presets    every preset (kind, name, description, body, …)
//	POST /api/v1/simulate   run a scenario, reply with the sim.Result JSON
//	POST /api/v1/compare    run two policies over the same seeds, reply with the table
//	POST /api/v1/validate   check a scenario, reply with every error or the resolved form
//	POST /api/v1/topology   a scenario's sched-domain hierarchy (?cpu=N: that CPU's chain)
//	POST /api/v1/batch      up to 64 simulate requests in one, each reply as simulate gives it
//	GET  /api/v1/health     "ok" and the build: commit, Go version, platform, presets digest
//
// Request bodies are a scenario document or a request object wrapping one
// (see docs/scenario.md). Every request runs under one budget profile
// (engine/budget; docs/limits.md) and one deadline: its cost is estimated
// before anything expensive is done, and refused with 422 when it is over
// the profile's budget. Errors are JSON: status 400 with
// {"error": {"message": …, "path": …}, "errors": [{"path", "message"}, …]},
// 413 for a body over the limit, 422 for a request over its budget or a
// simulation that failed, 503 (with Retry-After) when the server is busy
// or the request ran out of time, 403 for a foreign Origin or Host, 405
// for a wrong method, 404 for an unknown path, 500 with an id for a
// recovered panic. Every reply is encoded into a buffer before any header
// is written.
package api

import (
	"net/http"
	"time"

	"schedplay/engine/budget"
	"schedplay/engine/compare"
	"schedplay/engine/quote"
	"schedplay/engine/scenario"
	"schedplay/presets"
)

// DefaultMaxBody is the request body limit (bytes).
const DefaultMaxBody = 2 << 20

// Body read bounds (natively; the other runtimes get whole bodies): a
// request body may pause at most BodyIdleTimeout between two reads and
// take at most BodyReadTimeout in all, or the request is dropped.
const (
	BodyIdleTimeout = 10 * time.Second
	BodyReadTimeout = 30 * time.Second
)

// server holds the handler's configuration and its admission control.
type server struct {
	ps      *presets.Set
	run     compare.Runner
	maxBody int64
	profile budget.Profile
	timeout *time.Duration // WithTimeout's, replacing the profile's deadline
	admit   *admission     // nil: every request is admitted
	origins *Origins       // nil: no Origin or Host check (origin.go)
	runtime string         // health.go
	// bodyIdle and bodyRead are BodyIdleTimeout and BodyReadTimeout
	// (shorter in tests).
	bodyIdle, bodyRead time.Duration
	extra              []extraEndpoint // WithEndpoint's
}

// Option configures New.
type Option func(*server)

// WithRunner replaces the simulator (tests use a stand-in).
func WithRunner(r compare.Runner) Option { return func(s *server) { s.run = r } }

// WithMaxBody sets the request body limit in bytes.
func WithMaxBody(n int64) Option { return func(s *server) { s.maxBody = n } }

// WithEndpoint mounts h at path beside the API's own endpoints (the
// import endpoint, site/importapi, kept out of the engine worker). It runs
// under the API's bounds like them (see bounded): the Origin policy, the
// request's one deadline, the body's idle and total timeouts, and
// admission, where memory is the endpoint's peak memory per request
// (bytes).
func WithEndpoint(path string, h http.Handler, memory float64) Option {
	return func(s *server) { s.extra = append(s.extra, extraEndpoint{path, h, memory}) }
}

// extraEndpoint is one extra endpoint.
type extraEndpoint struct {
	path   string
	h      http.Handler
	memory float64
}

// WithProfile sets the budget profile requests are checked against
// (default budget.Serve).
func WithProfile(p budget.Profile) Option { return func(s *server) { s.profile = p } }

// WithTimeout replaces the profile's deadline: the wall time of one
// request, from its first byte to its reply (503 when it runs out); 0
// leaves it to the client (a closed connection cancels the run).
func WithTimeout(d time.Duration) Option { return func(s *server) { s.timeout = &d } }

// WithAdmission bounds the requests that simulate (or build a topology) at
// once: at most slots of them, their estimated memory within memory bytes
// together, and at most queue more waiting for a slot; beyond, the reply
// is 503 with Retry-After. Presets always answer.
func WithAdmission(slots, queue int, memory float64) Option {
	return func(s *server) { s.admit = newAdmission(slots, queue, memory) }
}

// withAdmission installs a (tests: to read its peaks).
func withAdmission(a *admission) Option { return func(s *server) { s.admit = a } }

// withBodyTimeouts replaces BodyIdleTimeout and BodyReadTimeout (tests).
func withBodyTimeouts(idle, total time.Duration) Option {
	return func(s *server) { s.bodyIdle, s.bodyRead = idle, total }
}

// WithOrigins makes the API check Origin and Host (see Origins).
func WithOrigins(o Origins) Option { return func(s *server) { s.origins = &o } }

// New returns the API handler over the preset set ps.
func New(ps *presets.Set, opts ...Option) http.Handler {
	s := &server{ps: ps, run: defaultRunner, maxBody: DefaultMaxBody, profile: budget.Serve,
		bodyIdle: BodyIdleTimeout, bodyRead: BodyReadTimeout}
	for _, o := range opts {
		o(s)
	}
	if s.timeout != nil {
		s.profile.Deadline = *s.timeout
	}
	mux := http.NewServeMux()
	mux.Handle("/api/v1/presets", only(http.MethodGet, s.handlePresets))
	mux.Handle("/api/v1/health", only(http.MethodGet, s.handleHealth))            // health.go
	mux.Handle("/api/v1/batch", only(http.MethodPost, s.endpoint(s.handleBatch))) // batch.go
	mux.Handle("/api/v1/simulate", only(http.MethodPost, s.endpoint(s.handleSimulate)))
	mux.Handle("/api/v1/compare", only(http.MethodPost, s.endpoint(s.handleCompare)))
	mux.Handle("/api/v1/validate", only(http.MethodPost, s.endpoint(s.handleValidate)))
	mux.Handle("/api/v1/step", only(http.MethodPost, s.endpoint(s.handleStep)))         // step.go
	mux.Handle("/api/v1/topology", only(http.MethodPost, s.endpoint(s.handleTopology))) // topology.go
	for _, e := range s.extra {
		mux.Handle(e.path, s.bounded(e))
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, &scenario.Error{Msg: "no such endpoint: " + quotePath(r.URL.Path) + "; see /api/v1/presets, /api/v1/simulate, /api/v1/compare, /api/v1/validate, /api/v1/health"})
	})
	var h http.Handler = mux
	if s.origins != nil {
		h = s.origins.guard(h)
	}
	return recoverPanics(h)
}

// only restricts a handler to one method (405 with Allow otherwise).
func only(method string, h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != method {
			w.Header().Set("Allow", method)
			writeError(w, http.StatusMethodNotAllowed, &scenario.Error{Msg: "method " + quote.Prefix(r.Method, quote.MaxBytes) + " not allowed; use " + method})
			return
		}
		h(w, r)
	})
}

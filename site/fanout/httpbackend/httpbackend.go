// Package httpbackend holds site/fanout's backends that speak HTTP
// through net/http: the API handler in process (Local) and a schedplay
// API at a URL (Remote). The command line uses them; the page, whose wasm
// must stay small, has its own on the browser's fetch.
package httpbackend

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"time"

	"schedplay/site/api"
	"schedplay/site/fanout"
)

// Local runs requests on the API handler in process: the same handler
// `schedplay serve` and the Workers run, so the same bytes.
type Local struct {
	Handler http.Handler
}

// Name is "local".
func (Local) Name() string { return "local" }

// Simulate serves the request in process.
func (l Local) Simulate(ctx context.Context, body []byte) (fanout.Reply, error) {
	status, h, reply := api.Do(ctx, l.Handler, http.MethodPost, "/api/v1/simulate", body)
	return fanout.Reply{Status: status, Body: reply, RetryAfter: fanout.RetryAfter(h.Get("Retry-After"))}, nil
}

// Remote sends requests to a schedplay API at a base URL (a deployed
// Worker, `wrangler dev`, `schedplay serve`).
type Remote struct {
	URL    string // base, without /api/v1
	Client *http.Client
	// Timeout bounds one request (0: none but the context's).
	Timeout time.Duration
}

// NewRemote returns a backend for the API at base URL u.
func NewRemote(u string, timeout time.Duration) *Remote {
	return &Remote{URL: strings.TrimRight(u, "/"), Client: http.DefaultClient, Timeout: timeout}
}

// Name is the base URL.
func (r *Remote) Name() string { return r.URL }

// Simulate POSTs body to /api/v1/simulate.
func (r *Remote) Simulate(ctx context.Context, body []byte) (fanout.Reply, error) {
	return r.Post(ctx, "/api/v1/simulate", body)
}

// SimulateBatch POSTs the bodies to /api/v1/batch and returns each
// reply as /api/v1/simulate would have given it.
func (r *Remote) SimulateBatch(ctx context.Context, bodies [][]byte) ([]fanout.Reply, error) {
	rep, err := r.Post(ctx, "/api/v1/batch", fanout.BatchBody(bodies))
	if err != nil {
		return nil, err
	}
	return fanout.ParseBatch(rep, len(bodies))
}

// Post sends body to path and reads the whole reply.
func (r *Remote) Post(ctx context.Context, path string, body []byte) (fanout.Reply, error) {
	if r.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.Timeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL+path, bytes.NewReader(body))
	if err != nil {
		return fanout.Reply{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	return r.do(req)
}

// Get fetches path.
func (r *Remote) Get(ctx context.Context, path string) (fanout.Reply, error) {
	if r.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.Timeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.URL+path, nil)
	if err != nil {
		return fanout.Reply{}, err
	}
	return r.do(req)
}

func (r *Remote) do(req *http.Request) (fanout.Reply, error) {
	res, err := r.Client.Do(req)
	if err != nil {
		return fanout.Reply{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return fanout.Reply{}, err
	}
	return fanout.Reply{Status: res.StatusCode, Body: b, RetryAfter: fanout.RetryAfter(res.Header.Get("Retry-After"))}, nil
}

// Probe asks GET /api/v1/health for a 200.
func (r *Remote) Probe(ctx context.Context) error {
	rep, err := r.Get(ctx, "/api/v1/health")
	if err != nil {
		return err
	}
	if rep.Status != http.StatusOK {
		return &fanout.StatusError{Reply: rep}
	}
	return nil
}

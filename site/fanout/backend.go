// Package fanout runs many POST /api/v1/simulate requests on a set of
// backends at once: the local cores (the API handler in process, one
// request per goroutine), `schedplay serve` instances and Cloudflare
// Workers. Each backend has a number of slots (requests in flight); a
// free slot takes the next unit, so a faster backend takes more. A
// request that fails for a passing reason (connection refused or reset,
// timeout, 429, 5xx) is retried with backoff on whichever backend is
// free; a backend that keeps failing is set aside and probed
// (GET /api/v1/health) until it answers again. A refusal (any other 4xx)
// is the unit's answer: the same request gets the same refusal anywhere.
// Replies are delivered in unit order, with a bounded number held back,
// so the caller can stream them to disk in constant memory.
//
// The package builds for js/wasm too (net/http then uses the browser's
// fetch), so the page's sweep uses the same fan-out.
package fanout

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"schedplay/site/api"
)

// Reply is a backend's answer to one request.
type Reply struct {
	Status int
	Body   []byte
	// RetryAfter is the server's Retry-After (429, 503), 0 when absent.
	RetryAfter time.Duration
}

// Transient reports whether the reply asks for a retry: 408, 429 and
// every 5xx. Other statuses are the request's answer.
func (r Reply) Transient() bool {
	return r.Status == http.StatusRequestTimeout || r.Status == http.StatusTooManyRequests || r.Status >= 500
}

// Backend runs simulate requests. An error means no reply arrived
// (connection, timeout): the request is retried.
type Backend interface {
	Name() string
	Simulate(ctx context.Context, body []byte) (Reply, error)
}

// Batcher is a Backend that can run several requests in one
// (POST /api/v1/batch). An error fails them all; a reply per request
// otherwise, in order.
type Batcher interface {
	SimulateBatch(ctx context.Context, bodies [][]byte) ([]Reply, error)
}

// Prober is a Backend that can say whether it is up again after failing.
type Prober interface {
	Probe(ctx context.Context) error
}

// Local runs requests on the API handler in process: the same handler
// `schedplay serve` and the Workers run, so the same bytes.
type Local struct {
	Handler http.Handler
}

// Name is "local".
func (Local) Name() string { return "local" }

// Simulate serves the request in process.
func (l Local) Simulate(ctx context.Context, body []byte) (Reply, error) {
	status, h, reply := api.Do(ctx, l.Handler, http.MethodPost, "/api/v1/simulate", body)
	return Reply{Status: status, Body: reply, RetryAfter: retryAfter(h)}, nil
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
func (r *Remote) Simulate(ctx context.Context, body []byte) (Reply, error) {
	return r.Post(ctx, "/api/v1/simulate", body)
}

// SimulateBatch POSTs the bodies to /api/v1/batch and returns each
// reply as /api/v1/simulate would have given it.
func (r *Remote) SimulateBatch(ctx context.Context, bodies [][]byte) ([]Reply, error) {
	var req bytes.Buffer
	req.WriteString(`{"requests":[`)
	for i, b := range bodies {
		if i > 0 {
			req.WriteByte(',')
		}
		req.Write(b)
	}
	req.WriteString("]}")
	rep, err := r.Post(ctx, "/api/v1/batch", req.Bytes())
	if err != nil {
		return nil, err
	}
	if rep.Status != http.StatusOK {
		// The whole batch refused or failed: each request gets that reply.
		out := make([]Reply, len(bodies))
		for i := range out {
			out[i] = rep
		}
		return out, nil
	}
	var reply struct {
		Replies []struct {
			Status int             `json:"status"`
			Body   json.RawMessage `json:"body"`
		} `json:"replies"`
	}
	if err := json.Unmarshal(rep.Body, &reply); err != nil {
		return nil, fmt.Errorf("reading the batch reply: %w", err)
	}
	out := make([]Reply, len(reply.Replies))
	for i, x := range reply.Replies {
		out[i] = Reply{Status: x.Status, Body: append(x.Body, '\n')}
	}
	return out, nil
}

// Post sends body to path and reads the whole reply.
func (r *Remote) Post(ctx context.Context, path string, body []byte) (Reply, error) {
	if r.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.Timeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL+path, bytes.NewReader(body))
	if err != nil {
		return Reply{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	return r.do(req)
}

// Get fetches path.
func (r *Remote) Get(ctx context.Context, path string) (Reply, error) {
	if r.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.Timeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.URL+path, nil)
	if err != nil {
		return Reply{}, err
	}
	return r.do(req)
}

func (r *Remote) do(req *http.Request) (Reply, error) {
	res, err := r.Client.Do(req)
	if err != nil {
		return Reply{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return Reply{}, err
	}
	return Reply{Status: res.StatusCode, Body: b, RetryAfter: retryAfter(res.Header)}, nil
}

// Probe asks GET /api/v1/health for a 200.
func (r *Remote) Probe(ctx context.Context) error {
	rep, err := r.Get(ctx, "/api/v1/health")
	if err != nil {
		return err
	}
	if rep.Status != http.StatusOK {
		return &StatusError{Reply: rep}
	}
	return nil
}

// StatusError is a reply that is not a 200.
type StatusError struct{ Reply Reply }

func (e *StatusError) Error() string {
	msg := strings.TrimSpace(string(e.Reply.Body))
	if len(msg) > 200 {
		msg = msg[:200] + "…"
	}
	return "HTTP " + strconv.Itoa(e.Reply.Status) + ": " + msg
}

// retryAfter reads a Retry-After header in seconds (the HTTP-date form
// is not used by our servers and reads as 0).
func retryAfter(h http.Header) time.Duration {
	s, err := strconv.Atoi(strings.TrimSpace(h.Get("Retry-After")))
	if err != nil || s < 0 {
		return 0
	}
	return time.Duration(min(s, 600)) * time.Second
}

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
// The package needs no net/http (the page's wasm stays small): the HTTP
// backends are in fanout/httpbackend, the page brings its own on the
// browser's fetch, and both use the same Run.
package fanout

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
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
	return r.Status == 408 || r.Status == 429 || r.Status >= 500
}

// overShare reports whether a batch item's reply is the API's refusal of
// a run that would take its batch over one request's budget (422 at
// "requests"): the run may well fit in a smaller batch, or alone.
func (r Reply) overShare() bool {
	if r.Status != 422 {
		return false
	}
	var b struct {
		Error struct {
			Path string `json:"path"`
		} `json:"error"`
	}
	return json.Unmarshal(r.Body, &b) == nil && b.Error.Path == "requests"
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

// BatchBody is the POST /api/v1/batch request of simulate request bodies.
func BatchBody(bodies [][]byte) []byte {
	var req bytes.Buffer
	req.WriteString(`{"requests":[`)
	for i, b := range bodies {
		if i > 0 {
			req.WriteByte(',')
		}
		req.Write(b)
	}
	req.WriteString("]}")
	return req.Bytes()
}

// ParseBatch splits a POST /api/v1/batch reply for n requests into their
// replies, each with the bytes /api/v1/simulate would have given. A reply
// that is not a 200 (the whole batch refused or failed) is every
// request's reply.
func ParseBatch(rep Reply, n int) ([]Reply, error) {
	if rep.Status != 200 {
		out := make([]Reply, n)
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
	if len(reply.Replies) != n {
		return nil, fmt.Errorf("a batch of %d answered %d replies", n, len(reply.Replies))
	}
	out := make([]Reply, n)
	for i, x := range reply.Replies {
		out[i] = Reply{Status: x.Status, Body: append(x.Body, '\n')}
	}
	return out, nil
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

// RetryAfter reads a Retry-After header value in seconds (at most 600);
// 0 when absent or in the HTTP-date form, which our servers do not send.
func RetryAfter(v string) time.Duration {
	s, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || s < 0 {
		return 0
	}
	return time.Duration(min(s, 600)) * time.Second
}

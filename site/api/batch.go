package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"

	"schedplay/engine/budget"
	"schedplay/engine/scenario"
)

// MaxBatch bounds the requests of one POST /api/v1/batch.
const MaxBatch = 64

// batchRequest is the body of POST /api/v1/batch: simulate requests, each
// what POST /api/v1/simulate takes.
type batchRequest struct {
	Requests []json.RawMessage `json:"requests"`
}

// handleBatch runs up to MaxBatch simulate requests one after the other
// and replies
//
//	{"replies": [{"status": 200, "body": …}, {"status": 400, "body": …}]}
//
// where each body is, byte for byte, what POST /api/v1/simulate replies
// for that request, without its final newline. One request for many small
// runs saves what each request costs besides its run (on a Worker, a
// fresh Go instance and the presets; docs/sweep.md measures it). The
// items share the batch's budget (a batch is one request: on a Worker,
// one CPU limit), so an item that would take the batch over its events or
// reply budget is refused with 422, and the batch stops at its deadline
// or disconnect: the replies not run then are 503s.
func (s *server) handleBatch(ctx context.Context, w http.ResponseWriter, r *http.Request) error {
	body, err := s.readBody(ctx, w, r)
	if err != nil {
		return err
	}
	var req batchRequest
	if err := decodeStrict(body, &req); err != nil {
		return badRequest(requestFieldError(err))
	}
	switch {
	case len(req.Requests) == 0:
		return badRequest(&scenario.Error{Path: "requests", Msg: "give at least one simulate request"})
	case len(req.Requests) > MaxBatch:
		return badRequest(&scenario.Error{Path: "requests", Msg: fmt.Sprintf("%d requests; a batch has at most %d", len(req.Requests), MaxBatch)})
	}
	ctx = withShare(ctx)
	item := s.endpoint(s.handleSimulate)
	var out bytes.Buffer
	var simMs, encMs float64
	out.WriteString(`{"replies":[`)
	for i, it := range req.Requests {
		if i > 0 {
			out.WriteByte(',')
		}
		status, h, reply := Do(ctx, item, http.MethodPost, "/api/v1/simulate", it)
		var sim, enc float64
		if _, err := fmt.Sscanf(h.Get("Server-Timing"), "sim;dur=%g, encode;dur=%g", &sim, &enc); err == nil {
			simMs, encMs = simMs+sim, encMs+enc
		}
		out.WriteString(`{"status":` + strconv.Itoa(status) + `,"body":`)
		out.Write(bytes.TrimSuffix(reply, []byte("\n")))
		out.WriteByte('}')
	}
	out.WriteString("]}\n")
	// The items' simulation and encoding times, summed (as simulate's).
	w.Header().Set("Server-Timing", fmt.Sprintf("sim;dur=%.1f, encode;dur=%.1f", simMs, encMs))
	writeBytes(w, http.StatusOK, out.Bytes())
	return nil
}

// share is what the runs of one request have used of its budget, as
// fractions of its events and reply budgets: a batch's items share it.
type share struct {
	mu            sync.Mutex
	events, reply float64
}

type shareKey struct{}

// withShare gives ctx a share of its own: the requests served under it
// (a batch's items) draw on one budget.
func withShare(ctx context.Context) context.Context {
	return context.WithValue(ctx, shareKey{}, &share{})
}

// charge draws a run of cost c from the share of ctx, if it has one,
// refusing the run (422) when the share's events or reply would go over
// the profile's budget for one request.
func (s *server) charge(ctx context.Context, c budget.Cost) error {
	sh, ok := ctx.Value(shareKey{}).(*share)
	if !ok {
		return nil
	}
	p := s.profile
	var events, reply float64
	if p.Events > 0 {
		events = c.Events / budget.EventLimit(p.Events, c.CPUs)
	}
	if p.ReplyBytes > 0 {
		reply = c.ReplyBytes / p.ReplyBytes
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	switch {
	case sh.events+events > 1:
		return &budget.Error{Path: "requests", Budget: "events", Msg: fmt.Sprintf("this request and the batch's earlier ones need more simulator events than the %s budget of one request (%s on %d CPUs); send fewer in one batch", p.Name, budget.Human(budget.EventLimit(p.Events, c.CPUs)), c.CPUs)}
	case sh.reply+reply > 1:
		return &budget.Error{Path: "requests", Budget: "reply", Msg: fmt.Sprintf("this request's reply and the batch's earlier ones would be more than the %s budget of one reply (%s); send fewer in one batch", p.Name, budget.Bytes(p.ReplyBytes))}
	}
	sh.events += events
	sh.reply += reply
	return nil
}

// Do serves one request to h in process and returns its status, headers
// and body: the batch's items, and a sweep's local runs, go through the
// handler exactly as a request over the network does.
func Do(ctx context.Context, h http.Handler, method, path string, body []byte) (int, http.Header, []byte) {
	req, err := http.NewRequestWithContext(ctx, method, "http://in-process"+path, bytes.NewReader(body))
	if err != nil {
		return http.StatusInternalServerError, nil, []byte(err.Error())
	}
	req.Header.Set("Content-Type", "application/json")
	w := &memWriter{h: http.Header{}}
	h.ServeHTTP(w, req)
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.status, w.h, w.body.Bytes()
}

// memWriter is an in-memory http.ResponseWriter.
type memWriter struct {
	h      http.Header
	status int
	body   bytes.Buffer
}

func (w *memWriter) Header() http.Header { return w.h }

func (w *memWriter) WriteHeader(s int) {
	if w.status == 0 {
		w.status = s
	}
}

func (w *memWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(b)
}

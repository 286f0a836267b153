package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

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
// batch stops at the request's deadline or disconnect: the replies not
// run then are 503s.
func (s *server) handleBatch(w http.ResponseWriter, r *http.Request) {
	body, err := s.readBody(w, r)
	if err != nil {
		replyError(w, err)
		return
	}
	var req batchRequest
	if err := decodeStrict(body, &req); err != nil {
		replyError(w, badRequest(requestFieldError(err)))
		return
	}
	switch {
	case len(req.Requests) == 0:
		replyError(w, badRequest(&scenario.Error{Path: "requests", Msg: "give at least one simulate request"}))
		return
	case len(req.Requests) > MaxBatch:
		replyError(w, badRequest(&scenario.Error{Path: "requests", Msg: fmt.Sprintf("%d requests; a batch has at most %d", len(req.Requests), MaxBatch)}))
		return
	}
	ctx, cancel := s.context(r)
	defer cancel()
	var out bytes.Buffer
	var simMs, encMs float64
	out.WriteString(`{"replies":[`)
	for i, item := range req.Requests {
		if i > 0 {
			out.WriteByte(',')
		}
		status, h, reply := Do(ctx, http.HandlerFunc(s.handleSimulate), http.MethodPost, "/api/v1/simulate", item)
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

//go:build js && wasm

package compareview

import (
	"context"
	"errors"
	"syscall/js"

	"schedplay/site/fanout"
	"schedplay/site/viewkit"
)

// workerBackend sends a sweep's runs to a schedplay Worker at url with
// the browser's fetch (the page's wasm carries no net/http); Cancel
// aborts its requests in flight.
type workerBackend struct{ url string }

func (w workerBackend) Name() string { return w.url }

func (w workerBackend) Simulate(ctx context.Context, body []byte) (fanout.Reply, error) {
	return w.do(ctx, "POST", "/api/v1/simulate", body)
}

func (w workerBackend) SimulateBatch(ctx context.Context, bodies [][]byte) ([]fanout.Reply, error) {
	rep, err := w.do(ctx, "POST", "/api/v1/batch", fanout.BatchBody(bodies))
	if err != nil {
		return nil, err
	}
	return fanout.ParseBatch(rep, len(bodies))
}

// Probe asks the Worker's /api/v1/health for a 200.
func (w workerBackend) Probe(ctx context.Context) error {
	rep, err := w.do(ctx, "GET", "/api/v1/health", nil)
	if err == nil && rep.Status != 200 {
		err = &fanout.StatusError{Reply: rep}
	}
	return err
}

// do fetches url+path; a network failure (the Worker unreachable, or
// refusing this page's origin) is an error, any HTTP reply a Reply.
func (w workerBackend) do(ctx context.Context, method, path string, body []byte) (fanout.Reply, error) {
	ac := js.Global().Get("AbortController").New()
	stop := context.AfterFunc(ctx, func() { ac.Call("abort") })
	defer stop()
	init := js.Global().Get("Object").New()
	init.Set("method", method)
	init.Set("signal", ac.Get("signal"))
	if body != nil {
		init.Set("body", string(body))
		h := js.Global().Get("Object").New()
		h.Set("Content-Type", "application/json")
		init.Set("headers", h)
	}
	resp, failed := viewkit.Await(js.Global().Call("fetch", w.url+path, init))
	if failed != "" {
		return fanout.Reply{}, errors.New(w.url + ": " + failed)
	}
	text, failed := viewkit.Await(resp.Call("text"))
	if failed != "" {
		return fanout.Reply{}, errors.New(w.url + ": " + failed)
	}
	rep := fanout.Reply{Status: resp.Get("status").Int(), Body: []byte(text.String())}
	if ra := resp.Get("headers").Call("get", "Retry-After"); ra.Type() == js.TypeString {
		rep.RetryAfter = fanout.RetryAfter(ra.String())
	}
	return rep, nil
}

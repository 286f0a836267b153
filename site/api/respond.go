package api

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"

	"schedplay/engine/budget"
	"schedplay/engine/quote"
	"schedplay/engine/scenario"
	"schedplay/engine/sim"
)

// errorBody is the JSON of every error reply.
type errorBody struct {
	Error  errorDetail       `json:"error"`
	Errors []*scenario.Error `json:"errors,omitempty"`
}

type errorDetail struct {
	Message string `json:"message"`
	Path    string `json:"path,omitempty"`
	ID      string `json:"id,omitempty"`
	// Budget names the budget a 422 refusal exceeds (docs/limits.md).
	Budget string `json:"budget,omitempty"`
}

// Bounds of an error reply: however bad the input, the reply stays small
// (a message or path quotes at most a short prefix of the input anyway).
const (
	maxErrors       = 100  // errors listed; the last one counts the rest
	maxErrorMessage = 1024 // bytes of a message or a path
)

// quotePath quotes a request's path, method, host or origin for a message.
func quotePath(s string) string { return quote.Short(s) }

// clip bounds an error's path and message.
func clip(e *scenario.Error) *scenario.Error {
	if len(e.Path) <= maxErrorMessage && len(e.Msg) <= maxErrorMessage {
		return e
	}
	return &scenario.Error{Path: clipText(e.Path), Msg: clipText(e.Msg)}
}

func clipText(s string) string {
	if len(s) <= maxErrorMessage {
		return s
	}
	return quote.Prefix(s, maxErrorMessage) + "…"
}

// writeBudgetError replies 422 to a request over its budget, naming the
// field and the budget.
func writeBudgetError(w http.ResponseWriter, e *budget.Error) {
	writeJSON(w, http.StatusUnprocessableEntity, errorBody{Error: errorDetail{Message: clipText(e.Msg), Path: clipText(e.Path), Budget: e.Budget}})
}

// Marshal encodes v as the API encodes every reply: JSON without HTML
// escaping, followed by a newline. `schedplay run --json` prints the same
// bytes, so the CLI, the browser worker and the edge worker agree byte for
// byte.
func Marshal(v any) ([]byte, error) {
	if res, ok := v.(*sim.Result); ok {
		// The same bytes, written without encoding/json re-scanning the
		// timeline (sim.EncodeResult).
		b, err := sim.EncodeResult(res)
		if err != nil {
			return nil, err
		}
		return append(b, '\n'), nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteJSON is the API's reply: v encoded into a buffer (Marshal), then
// the headers and the body (for endpoints mounted with WithEndpoint).
func WriteJSON(w http.ResponseWriter, status int, v any) { writeJSON(w, status, v) }

// WriteError is the API's error reply with status.
func WriteError(w http.ResponseWriter, status int, err error) { writeError(w, status, err) }

// writeJSON encodes v into a buffer, then writes the headers and the body.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := Marshal(v)
	if err != nil {
		writeInternal(w, fmt.Errorf("encoding the reply: %w", err))
		return
	}
	writeBytes(w, status, b)
}

// writeBytes writes an encoded JSON reply with its headers.
func writeBytes(w http.ResponseWriter, status int, b []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	setSecurityHeaders(h)
	w.WriteHeader(status)
	w.Write(b)
}

// writeError replies with status and the error (an ErrorList gives its
// first error as "error" and all of them as "errors").
func writeError(w http.ResponseWriter, status int, err error) {
	l := scenario.Errors(err)
	l.Sort()
	if len(l) > maxErrors {
		rest := len(l) - maxErrors + 1
		l = append(l[:maxErrors-1:maxErrors-1], &scenario.Error{Msg: fmt.Sprintf("and %d more errors", rest)})
	}
	for i, e := range l {
		l[i] = clip(e)
	}
	body := errorBody{}
	if len(l) > 0 {
		body.Error = errorDetail{Message: l[0].Msg, Path: l[0].Path}
	}
	if len(l) > 1 {
		body.Errors = l
	}
	writeJSON(w, status, body)
}

// writeInternal replies 500 with a fresh id, logging the cause with it.
func writeInternal(w http.ResponseWriter, cause any) {
	id := newID()
	fmt.Fprintf(os.Stderr, "schedplay api: internal error %s: %v\n", id, cause)
	b, _ := Marshal(errorBody{Error: errorDetail{Message: "internal error (id " + id + "); please report it with the scenario", ID: id}})
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	setSecurityHeaders(w.Header())
	w.WriteHeader(http.StatusInternalServerError)
	w.Write(b)
}

func newID() string {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "000000000000"
	}
	return hex.EncodeToString(b[:])
}

// recoverPanics turns a panic in h into a 500 reply with an id.
func recoverPanics(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				writeInternal(w, v)
			}
		}()
		h.ServeHTTP(w, r)
	})
}

// setSecurityHeaders are the headers of every API reply: JSON is never
// sniffed as anything else, never framed, never runs anything, and says
// nothing of the page that asked.
func setSecurityHeaders(h http.Header) {
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
	h.Set("Referrer-Policy", "no-referrer")
}

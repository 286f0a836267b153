package api

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"

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
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(b)
}

// writeError replies with status and the error (an ErrorList gives its
// first error as "error" and all of them as "errors").
func writeError(w http.ResponseWriter, status int, err error) {
	l := scenario.Errors(err)
	l.Sort()
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

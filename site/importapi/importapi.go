// Package importapi is POST /api/v1/import, `schedplay import` over
// HTTP: the body is one file, the reply the scenario it describes. It is
// mounted on the API handler with api.WithEndpoint by `schedplay serve`
// and the Cloudflare Worker; the page runs it in a worker of its own
// (wasm/importer), loaded when a file is first dropped, so the engine
// worker stays as small as it was.
package importapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path"
	"strings"

	"schedplay/engine/importer"
	"schedplay/engine/importer/input"
	"schedplay/engine/scenario"
	"schedplay/presets"
	"schedplay/site/api"
)

// MaxImportBody is the largest file POST /api/v1/import takes (a
// machine description, a snapshot tarball, an rt-app use case, a trace).
const MaxImportBody = 16 << 20

// Memory is the peak memory of one import, which the API's admission
// control reserves before the body is read: the body, the importer's
// working set and the scenario it writes (a trace's replay is about the
// size of its events), each at most the body's limit.
const Memory = 3 * MaxImportBody

// importReply is the body of POST /api/v1/import.
type importReply struct {
	Format   importer.Format `json:"format"`
	Summary  string          `json:"summary"`
	Notes    []string        `json:"notes"`
	Scenario json.RawMessage `json:"scenario"`
	Share    string          `json:"share"`
	// Check compares the kernel's sched domains with schedplay's when the
	// file held them: the report as text, and its counts.
	Check *importCheck `json:"check,omitempty"`
}

type importCheck struct {
	CPUs     int    `json:"cpus"`
	Matching int    `json:"matching"`
	Text     string `json:"text"`
}

// Path is where the handler is mounted.
const Path = "/api/v1/import"

// New returns the handler of POST /api/v1/import over the presets ps.
// The body is one file, as `schedplay import` reads it (format recognised
// by content); the query may give its name (?name=), the machine and
// policy a workload runs on (?machine=PRESET, ?policy=PRESET, or a JSON
// object) and ?strict=1. The reply is the scenario written, its share
// fragment and the notes; a bad file is a 400 naming its line.
func New(ps *presets.Set) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			api.WriteError(w, http.StatusMethodNotAllowed, &scenario.Error{Msg: "method " + r.Method + " not allowed; use POST"})
			return
		}
		handle(ps, w, r)
	})
}

func handle(ps *presets.Set, w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxImportBody))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		api.WriteError(w, http.StatusRequestEntityTooLarge, &scenario.Error{Msg: fmt.Sprintf("the file is larger than the limit of %d bytes", mbe.Limit)})
		return
	case r.Context().Err() != nil:
		api.WriteError(w, http.StatusServiceUnavailable, &scenario.Error{Msg: "the file did not arrive before the request's deadline; send it again, or import it locally with `schedplay import`"})
		return
	case err != nil:
		api.WriteError(w, http.StatusBadRequest, &scenario.Error{Msg: "reading the file: " + err.Error()})
		return
	}
	q := r.URL.Query()
	name := path.Base(q.Get("name"))
	if name == "." || name == "/" || name == "" {
		name = "upload"
	}
	if len(name) > 200 {
		name = name[:200]
	}
	opt := importer.Options{Presets: ps, Strict: q.Get("strict") == "1" || q.Get("strict") == "true"}
	if opt.Machine, err = sectionParam(ps, presets.Machine, "machine", q.Get("machine")); err != nil {
		api.WriteError(w, http.StatusBadRequest, err)
		return
	}
	if opt.Policy, err = sectionParam(ps, presets.Policy, "policy", q.Get("policy")); err != nil {
		api.WriteError(w, http.StatusBadRequest, err)
		return
	}
	res, err := importer.Import(name, bytes.NewReader(body), opt)
	if err != nil {
		var ie *input.Error
		if errors.As(err, &ie) {
			api.WriteError(w, http.StatusBadRequest, &scenario.Error{Msg: ie.Error()})
			return
		}
		api.WriteError(w, http.StatusBadRequest, &scenario.Error{Msg: err.Error()})
		return
	}
	sc, err := scenario.Decode(res.Scenario)
	if err != nil {
		api.WriteError(w, http.StatusInternalServerError, err)
		return
	}
	share, err := scenario.EncodeShare(sc)
	if err != nil {
		api.WriteError(w, http.StatusBadRequest, err)
		return
	}
	reply := importReply{Format: res.Format, Summary: res.Summary, Notes: res.Notes, Scenario: res.Scenario, Share: "s=" + share}
	if reply.Notes == nil {
		reply.Notes = []string{}
	}
	if c := res.Check; c != nil {
		reply.Check = &importCheck{CPUs: c.CPUs, Matching: c.Matching, Text: c.Text()}
	}
	api.WriteJSON(w, http.StatusOK, reply)
}

// sectionParam reads ?machine= / ?policy=: a preset name, or a JSON
// object (the section).
func sectionParam(ps *presets.Set, k presets.Kind, key, v string) (json.RawMessage, error) {
	v = strings.TrimSpace(v)
	switch {
	case v == "":
		return nil, nil
	case strings.HasPrefix(v, "{"):
		if !json.Valid([]byte(v)) {
			return nil, &scenario.Error{Path: key, Msg: "not a JSON object"}
		}
		return json.RawMessage(v), nil
	}
	if _, ok := ps.Get(k, v); !ok {
		return nil, &scenario.Error{Path: key, Msg: fmt.Sprintf("unknown %s preset %q", k, v)}
	}
	return json.Marshal(map[string]string{"preset": v})
}

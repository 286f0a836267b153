package site

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"io"
	"strings"

	"schedplay/engine/scenario"
)

// EncodeFragment is the share fragment of a scenario: "s=" + base64url (no
// padding) of the raw-deflated canonical JSON, the same bytes as
// `schedplay share` (scenario.EncodeShare). A document the strict decoder
// refuses (mid-edit) is still encoded, from its own canonical JSON, so the
// URL always reflects what is on screen.
func EncodeFragment(d Doc) string {
	if sc, err := scenario.Decode([]byte(d.Canonical())); err == nil {
		if p, err := scenario.EncodeShare(sc); err == nil {
			return "s=" + p
		}
	}
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	_, _ = io.WriteString(w, d.Canonical())
	_ = w.Close()
	return "s=" + base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// DecodeFragment reads a location hash ("#s=…" or "s=…", other &-separated
// parameters ignored). ok is false when the hash carries no scenario; err
// says why a present one is unusable (scenario.DecodeShare's message).
func DecodeFragment(hash string) (d Doc, ok bool, err error) {
	h := strings.TrimPrefix(hash, "#")
	var val string
	found := false
	for _, part := range strings.Split(h, "&") {
		if v, has := strings.CutPrefix(part, "s="); has {
			val, found = v, true
		}
	}
	if !found {
		return nil, false, nil
	}
	sc, err := scenario.DecodeShare(val)
	if err != nil {
		return nil, true, err
	}
	b, err := scenario.Encode(sc)
	if err != nil {
		return nil, true, err
	}
	d, err = ParseDoc(b)
	if err != nil {
		return nil, true, err
	}
	return d, true, nil
}

package site

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"fmt"
	"io"
	"strings"
)

// MaxShareBytes bounds a decoded share fragment (a deflate bomb guard).
const MaxShareBytes = 1 << 20

// EncodeFragment is the share fragment of a scenario: "s=" + base64url
// (no padding) of the raw-deflated canonical JSON.
func EncodeFragment(d Doc) string {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	_, _ = io.WriteString(w, d.Canonical())
	_ = w.Close()
	return "s=" + base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// DecodeFragment reads a location hash ("#s=…" or "s=…"). ok is false when
// the hash carries no scenario; err says why a present one is unusable.
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
	val = strings.TrimRight(val, "=")
	raw, err := base64.RawURLEncoding.DecodeString(val)
	if err != nil {
		return nil, true, fmt.Errorf("the link's scenario is not valid base64url: %v", err)
	}
	r := flate.NewReader(bytes.NewReader(raw))
	js, err := io.ReadAll(io.LimitReader(r, MaxShareBytes+1))
	if err != nil {
		return nil, true, fmt.Errorf("the link's scenario is not valid deflate data: %v", err)
	}
	if len(js) > MaxShareBytes {
		return nil, true, fmt.Errorf("the link's scenario is larger than %d bytes", MaxShareBytes)
	}
	d, err = ParseDoc(js)
	if err != nil {
		return nil, true, fmt.Errorf("the link's scenario is not valid JSON: %v", err)
	}
	return d, true, nil
}

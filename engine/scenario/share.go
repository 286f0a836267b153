package scenario

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"schedplay/engine/quote"
	"schedplay/presets"
)

// Share links. A scenario travels in a URL fragment as
//
//	#s=<base64url, no padding, of the raw-deflated canonical JSON>
//
// and a named seed scenario as ?preset=NAME. Decoding accepts a bare
// fragment ("s=…" or "#s=…"), a bare payload, or a full URL, and guards
// against damaged links and decompression bombs.

// Share-link limits.
const (
	// MaxShareLength is the longest encoded payload accepted (characters).
	MaxShareLength = 64 << 10
	// MaxInflated is the most bytes a payload may inflate to (MaxDocumentSize).
	MaxInflated = MaxDocumentSize
)

// DefaultBase is the base URL share links are printed against: the local
// playground that `./build.sh serve` / `schedplay serve` starts (use --base
// for a deployed copy).
const DefaultBase = "http://127.0.0.1:8080/"

// EncodeShare returns the fragment payload (without "#s=") of s.
func EncodeShare(s *Scenario) (string, error) {
	b, err := Encode(s)
	if err != nil {
		return "", err
	}
	var z bytes.Buffer
	w, _ := flate.NewWriter(&z, flate.BestCompression)
	w.Write(b)
	w.Close()
	return base64.RawURLEncoding.EncodeToString(z.Bytes()), nil
}

// ShareURL returns base + "#s=" + the payload of s.
func ShareURL(base string, s *Scenario) (string, error) {
	p, err := EncodeShare(s)
	if err != nil {
		return "", err
	}
	if i := strings.IndexByte(base, '#'); i >= 0 {
		base = base[:i]
	}
	return base + "#s=" + p, nil
}

// ErrNotShareLink is returned by DecodeShareURL for text that holds neither
// an s= fragment nor a preset= query.
var ErrNotShareLink = errors.New("not a schedplay link: no #s= fragment or ?preset= parameter")

// DecodeShareURL reads a link: a full URL with #s=… (other fragment
// parameters such as &t0= are ignored) or ?preset=NAME, or a bare "s=…" /
// "#s=…" fragment. A preset link becomes {"schedplay": 1, "preset": NAME},
// checked against ps when ps is not nil.
func DecodeShareURL(link string, ps *presets.Set) (*Scenario, error) {
	link = strings.TrimSpace(link)
	if len(link) > MaxShareLength+4096 {
		return nil, ErrorList{{Msg: fmt.Sprintf("link is %d characters long; the limit is %d", len(link), MaxShareLength)}}
	}
	frag, query := "", ""
	if strings.HasPrefix(link, "#") || strings.HasPrefix(link, "s=") {
		frag = strings.TrimPrefix(link, "#")
	} else {
		u, err := url.Parse(link)
		if err != nil {
			return nil, ErrorList{{Msg: fmt.Sprintf("not a link: %v", err)}}
		}
		frag, query = u.EscapedFragment(), u.RawQuery
	}
	if frag != "" {
		if p := fragmentParam(frag, "s"); p != "" {
			return DecodeShare(p)
		}
	}
	if q, err := url.ParseQuery(query); err == nil && q.Get("preset") != "" {
		name := q.Get("preset")
		if ps != nil {
			if _, ok := ps.Get(presets.Scenario, name); !ok {
				return nil, ErrorList{{Path: "preset", Msg: fmt.Sprintf("unknown scenario preset %s%s", quote.Short(name), knownNames(ps, presets.Scenario))}}
			}
		}
		return &Scenario{Schedplay: Version, Preset: name}, nil
	}
	return nil, ErrorList{{Msg: ErrNotShareLink.Error()}}
}

// fragmentParam returns the value of key in a "k=v&k2=v2" fragment. Values
// are taken verbatim (base64url needs no unescaping).
func fragmentParam(frag, key string) string {
	for _, kv := range strings.Split(frag, "&") {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}

// DecodeShare decodes a fragment payload (the part after "#s=") into a
// Scenario (Decode rules apply). A trailing "=" padding is tolerated.
func DecodeShare(payload string) (*Scenario, error) {
	fail := func(format string, args ...any) (*Scenario, error) {
		return nil, ErrorList{{Msg: "share link: " + fmt.Sprintf(format, args...)}}
	}
	payload = strings.TrimRight(strings.TrimSpace(payload), "=")
	if payload == "" {
		return fail("empty scenario data after s=")
	}
	if len(payload) > MaxShareLength {
		return fail("%d characters of scenario data; the limit is %d", len(payload), MaxShareLength)
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		var ce base64.CorruptInputError
		if errors.As(err, &ce) && int(ce) >= len(payload)-1 {
			return fail("the link is cut off (its base64 data ends mid-character); copy the whole link")
		}
		return fail("the link is damaged: %v (the data must be base64url: A-Z a-z 0-9 - _)", err)
	}
	r := flate.NewReader(bytes.NewReader(raw))
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, MaxInflated+1))
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fail("the link is cut off (its compressed data ends early); copy the whole link")
	case err != nil:
		return fail("the link is damaged: its compressed data is invalid (%v)", err)
	case len(data) > MaxInflated:
		return fail("the scenario inflates to more than %d bytes; refusing it", MaxInflated)
	}
	return Decode(data)
}

package api

import (
	"net"
	"net/http"
	"net/url"
	"strings"

	"schedplay/engine/scenario"
)

// Origins is the API's cross-origin policy, one mechanism for `schedplay
// serve` and the Cloudflare Worker. Only requests whose Host is one of
// Hosts are answered (so a DNS name rebound to 127.0.0.1 cannot reach a
// local server), and a browser request (one with an Origin header) only
// when it comes from the API's own origin or one Allow allows (so a page
// elsewhere cannot make a visitor's browser post heavy simulations).
// Allowed foreign origins get CORS headers, and their preflight requests
// are answered (the playground calling a Worker: the compare view's Worker
// URL, a sweep); requests without an Origin (the CLI, curl, a sweep's
// fan-out) are not browser requests and pass.
type Origins struct {
	// Allow allows the origins besides the API's own that may call it
	// (nil: none).
	Allow OriginPolicy
	// Hosts lists the host names (without port, case-insensitive)
	// requests may name besides IP addresses (a rebound DNS name is never
	// one); empty accepts any Host.
	Hosts []string
}

// OriginPolicy says which web origins other than the API's own may call
// it from a page.
type OriginPolicy interface {
	AllowOrigin(origin string) bool
}

// OriginList allows exactly the origins it holds ("https://host[:port]").
type OriginList []string

// ParseOrigins reads a list of origins separated by commas or spaces (the
// Worker's ALLOWED_ORIGINS variable, serve's --allow-origin).
func ParseOrigins(s string) OriginList {
	var out OriginList
	for _, o := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
		if o = strings.TrimRight(o, "/"); o != "" {
			out = append(out, o)
		}
	}
	return out
}

// AllowOrigin reports whether origin is in the list.
func (l OriginList) AllowOrigin(origin string) bool {
	for _, o := range l {
		if strings.EqualFold(o, origin) {
			return true
		}
	}
	return false
}

// The CORS answers to an allowed foreign origin.
const (
	corsMethods = "GET, POST"
	corsHeaders = "Content-Type"
	corsExpose  = "Server-Timing, Retry-After"
	corsMaxAge  = "86400"
)

// LoopbackHosts are the names of this machine: the Hosts of a server
// listening on a loopback address.
var LoopbackHosts = []string{"localhost", "127.0.0.1", "::1"}

// guard applies the policy in front of h.
func (o *Origins) guard(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !o.hostAllowed(r.Host) {
			writeError(w, http.StatusForbidden, &scenario.Error{Msg: "this server does not answer to the host " + quotePath(r.Host) + "; use its own address"})
			return
		}
		origin := r.Header.Get("Origin")
		w.Header().Add("Vary", "Origin")
		if origin == "" || sameHost(origin, r.Host) {
			h.ServeHTTP(w, r)
			return
		}
		if o.Allow == nil || !o.Allow.AllowOrigin(origin) {
			writeError(w, http.StatusForbidden, &scenario.Error{Msg: "requests from the origin " + quotePath(origin) + " are not allowed; only this server's own pages (and the origins it is told to allow) may call its API"})
			return
		}
		hd := w.Header()
		hd.Set("Access-Control-Allow-Origin", origin)
		hd.Set("Access-Control-Expose-Headers", corsExpose)
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			hd.Set("Access-Control-Allow-Methods", corsMethods)
			hd.Set("Access-Control-Allow-Headers", corsHeaders)
			hd.Set("Access-Control-Max-Age", corsMaxAge)
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// hostAllowed reports whether the Host header names one of o.Hosts.
func (o *Origins) hostAllowed(host string) bool {
	if len(o.Hosts) == 0 {
		return true
	}
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	}
	name = strings.Trim(name, "[]")
	if net.ParseIP(name) != nil {
		return true
	}
	for _, h := range o.Hosts {
		if strings.EqualFold(h, name) {
			return true
		}
	}
	return false
}

// sameHost reports whether origin (scheme://host[:port]) names host (a
// request's Host header): the API's own pages.
func sameHost(origin, host string) bool {
	u, err := url.Parse(origin)
	return err == nil && u.Host != "" && strings.EqualFold(u.Host, host)
}

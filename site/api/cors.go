package api

import (
	"net/http"
	"strings"
)

// OriginPolicy says which web origins other than the API's own may call
// it from a page (the playground on another host calling a Worker). The
// Origin allow-list of the security checks implements it; OriginList is
// the plain list the Worker reads from its ALLOWED_ORIGINS variable.
type OriginPolicy interface {
	AllowOrigin(origin string) bool
}

// OriginList allows exactly the origins it holds ("https://host[:port]").
type OriginList []string

// ParseOrigins reads a comma-separated list of origins.
func ParseOrigins(s string) OriginList {
	var out OriginList
	for _, o := range strings.Split(s, ",") {
		if o = strings.TrimRight(strings.TrimSpace(o), "/"); o != "" {
			out = append(out, o)
		}
	}
	return out
}

// AllowOrigin reports whether origin is in the list.
func (l OriginList) AllowOrigin(origin string) bool {
	for _, o := range l {
		if o == origin {
			return true
		}
	}
	return false
}

// WithCORS lets pages on the origins p allows read the API's replies:
// it answers their preflight (OPTIONS) and marks every reply to them with
// Access-Control-Allow-Origin. Requests from other origins get no CORS
// headers, so a browser keeps their replies from the page.
func WithCORS(p OriginPolicy) Option { return func(s *server) { s.cors = p } }

// corsHeaders are the methods and headers a preflight allows.
const (
	corsMethods = "GET, POST"
	corsHeaders = "Content-Type"
	corsExpose  = "Server-Timing, Retry-After"
	corsMaxAge  = "86400"
)

// withCORS wraps h with the CORS answers of policy p (h itself when p is nil).
func withCORS(p OriginPolicy, h http.Handler) http.Handler {
	if p == nil {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		w.Header().Add("Vary", "Origin")
		if origin == "" || !p.AllowOrigin(origin) {
			h.ServeHTTP(w, r)
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

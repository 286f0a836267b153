// Package pagesec is the security policy of the site's pages and files:
// the headers `schedplay serve` sends with them (the browser tests' server
// sends the same, so the pages are tested under it).
package pagesec

import (
	"net/http"
	"strings"
)

// policy is the Content-Security-Policy of every page, frame-ancestors
// apart: nothing inline (scripts, styles, handlers: the pages
// load theirs from files), WebAssembly compiled from the site's own module
// ('wasm-unsafe-eval' is what compiling it needs), workers from the site,
// no plugins, no <base>, no forms. connect-src allows the site and, for
// the compare view's sweep on a Cloudflare Worker ("Run on"), https
// origins and a Worker run locally (wrangler dev on a loopback address).
var policy = []string{
	"default-src 'self'",
	"script-src 'self' 'wasm-unsafe-eval'",
	"style-src 'self'",
	"img-src 'self' data: blob:",
	"connect-src 'self' https: http://127.0.0.1:* http://localhost:*",
	"worker-src 'self'",
	"frame-src 'self'",
	"object-src 'none'",
	"base-uri 'none'",
	"form-action 'none'",
}

// CSP is the Content-Security-Policy of a page: embed (the ?embed=1 view,
// which documentation pages elsewhere frame) may be framed by any page
// (no frame-ancestors: "*" would leave out a host page opened as a file),
// every other page by none.
func CSP(embed bool) string {
	p := append([]string(nil), policy...)
	if !embed {
		p = append(p, "frame-ancestors 'none'")
	}
	return strings.Join(p, "; ")
}

// Set sets the headers of a page or file of the site for request r: the
// CSP, no MIME sniffing, no referrer (a share link's fragment never leaves
// anyway).
func Set(h http.Header, r *http.Request) {
	h.Set("Content-Security-Policy", CSP(r.URL.Query().Get("embed") == "1"))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}

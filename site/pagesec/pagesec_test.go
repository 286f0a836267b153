package pagesec

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestPolicy: nothing inline is allowed, the wasm module may be compiled,
// and only the embed view may be framed.
func TestPolicy(t *testing.T) {
	for _, tt := range []struct {
		url   string
		frame bool
	}{{"/", false}, {"/?compare=1", false}, {"/?embed=1", true}, {"/?embed=0", false}, {"/build/app.wasm", false}} {
		h := http.Header{}
		Set(h, httptest.NewRequest("GET", tt.url, nil))
		csp := h.Get("Content-Security-Policy")
		for _, bad := range []string{"unsafe-inline", "'unsafe-eval'", "unsafe-hashes"} {
			if strings.Contains(csp, bad) {
				t.Errorf("%s: the policy allows %s: %s", tt.url, bad, csp)
			}
		}
		if !strings.Contains(csp, "script-src 'self' 'wasm-unsafe-eval'") || !strings.Contains(csp, "style-src 'self'") {
			t.Errorf("%s: %s", tt.url, csp)
		}
		if framed := !strings.Contains(csp, "frame-ancestors 'none'"); framed != tt.frame {
			t.Errorf("%s: may be framed %t; want %t (%s)", tt.url, framed, tt.frame, csp)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s: headers %v", tt.url, h)
		}
	}
}

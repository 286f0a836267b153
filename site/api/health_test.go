package api

import (
	"encoding/json"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
)

func TestHealth(t *testing.T) {
	ps := testPresets(t)
	h := New(ps, WithRuntime("cloudflare"))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/api/v1/health", nil))
	var got healthReply
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || w.Code != 200 {
		t.Fatalf("%d %s: %v", w.Code, w.Body, err)
	}
	if got.Status != "ok" || got.Runtime != "cloudflare" || got.Build.Go != runtime.Version() || got.Build.Commit == "" || len(got.Build.Presets) != 16 {
		t.Errorf("health %+v", got)
	}
	if other := BuildOf(nil); other.Presets != "" {
		t.Errorf("no presets, digest %q", other.Presets)
	}
	w = httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("POST", "/api/v1/health", strings.NewReader("{}")))
	if w.Code != 405 {
		t.Errorf("POST health: %d", w.Code)
	}
}

// CORS: an allowed origin gets its preflight answered and its replies
// marked; another origin is refused (Origins: one mechanism for both).
func TestCORS(t *testing.T) {
	h := New(testPresets(t), WithOrigins(Origins{Allow: ParseOrigins(" https://play.example/ , http://127.0.0.1:8080")}))
	pre := httptest.NewRequest("OPTIONS", "/api/v1/simulate", nil)
	pre.Header.Set("Origin", "https://play.example")
	pre.Header.Set("Access-Control-Request-Method", "POST")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, pre)
	if w.Code != 204 || w.Header().Get("Access-Control-Allow-Origin") != "https://play.example" ||
		!strings.Contains(w.Header().Get("Access-Control-Allow-Headers"), "Content-Type") {
		t.Errorf("preflight: %d %v", w.Code, w.Header())
	}
	for origin, status := range map[string]int{"http://127.0.0.1:8080": 200, "https://evil.example": 403, "": 200} {
		r := httptest.NewRequest("GET", "/api/v1/health", nil)
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		got := w.Header().Get("Access-Control-Allow-Origin")
		if w.Code != status || (got == origin && origin != "") != (status == 200 && origin != "") {
			t.Errorf("origin %q: %d, Access-Control-Allow-Origin %q; want %d", origin, w.Code, got, status)
		}
	}
	pre.Header.Set("Origin", "https://evil.example")
	w = httptest.NewRecorder()
	h.ServeHTTP(w, pre)
	if w.Code != 403 || w.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("a preflight from another origin: %d %v", w.Code, w.Header())
	}
}

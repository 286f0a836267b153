package api

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"runtime"
	"runtime/debug"

	"schedplay/presets"
)

// commit is the source revision, set by the linker in ./build.sh
// (-X schedplay/site/api.commit=…); empty in a plain `go build`, which
// then reports the VCS stamp Go records, or "dev".
var commit string

// Build identifies the code that answers: two backends with the same
// commit and presets give the same bytes for the same request.
type Build struct {
	Commit string `json:"commit"`
	Go     string `json:"go"`
	GOOS   string `json:"goos"`
	GOARCH string `json:"goarch"`
	// Presets is the SHA-256 of the preset set (its JSON listing).
	Presets string `json:"presets"`
}

// healthReply is the body of GET /api/v1/health.
type healthReply struct {
	Status string `json:"status"`
	// Runtime says where the handler runs ("native", "browser",
	// "cloudflare"; WithRuntime), "" when not told.
	Runtime string `json:"runtime,omitempty"`
	Build   Build  `json:"build"`
}

// WithRuntime names where the handler runs, for /api/v1/health.
func WithRuntime(name string) Option { return func(s *server) { s.runtime = name } }

func (s *server) handleHealth(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, healthReply{Status: "ok", Runtime: s.runtime, Build: BuildOf(s.ps)})
}

// BuildOf describes this binary serving the preset set ps.
func BuildOf(ps *presets.Set) Build {
	b := Build{Commit: revision(), Go: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH}
	if ps != nil {
		all, _ := json.Marshal(ps.All())
		sum := sha256.Sum256(all)
		b.Presets = hex.EncodeToString(sum[:8])
	}
	return b
}

// revision is commit, else the VCS revision Go stamped, else "dev".
func revision() string {
	if commit != "" {
		return commit
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		rev, dirty := "", false
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if rev != "" && dirty {
			rev += "-dirty"
		}
		if rev != "" {
			return rev
		}
	}
	return "dev"
}

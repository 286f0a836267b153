package scenario

import (
	"fmt"
	"strings"

	"schedplay/engine/quote"
	"schedplay/presets"
)

// FromReference reads a scenario named by text: a share link or fragment
// ("https://…/#s=…", "#s=…", "…?preset=NAME") or the name of a scenario
// preset. Files and JSON text are the caller's business (the CLI reads
// them; the API receives JSON objects).
func FromReference(ref string, ps *presets.Set) (*Scenario, error) {
	ref = strings.TrimSpace(ref)
	if strings.Contains(ref, "s=") || strings.Contains(ref, "preset=") || strings.Contains(ref, "://") {
		return DecodeShareURL(ref, ps)
	}
	if ps != nil {
		if _, ok := ps.Get(presets.Scenario, ref); ok {
			return &Scenario{Schedplay: Version, Preset: ref}, nil
		}
	}
	return nil, ErrorList{{Msg: fmt.Sprintf("%s is neither a scenario preset nor a share link%s", quote.Short(ref), knownNames(ps, presets.Scenario))}}
}

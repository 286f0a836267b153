package viewkit

import (
	"strings"

	"schedplay/engine/sim"
)

// ShortLabel shortens a lane label: "cpu12·c12·PE0" → "cpu12 PE0",
// "cpu12·c12" (a one-thread core) → "cpu12"; other labels are kept.
func ShortLabel(l string) string {
	parts := strings.Split(l, "·")
	switch len(parts) {
	case 3:
		return parts[0] + " " + parts[2]
	case 2:
		return parts[0]
	}
	return l
}

// DecisionSummary is a one-line "why": the decision's kind and its last
// path step (the step that chose the CPU), e.g. "wakeup: select_idle_sibling:
// prev idle".
func DecisionSummary(d sim.Decision) string {
	if len(d.Path) == 0 {
		return d.Kind
	}
	return d.Kind + ": " + d.Path[len(d.Path)-1]
}

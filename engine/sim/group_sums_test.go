package sim

import (
	"runtime"
	"testing"

	"schedplay/presets"
)

// TestGroupSumsMatchWalk runs repetition 0 of every seed scenario under
// each policy it compares, with its decisions traced, and checks every
// group statistic read from the group sums against a walk of the group's
// span (update_sg_lb_stats() as the kernel writes it): a change of a
// CPU's statistics that is not marked would show as a difference.
func TestGroupSumsMatchWalk(t *testing.T) {
	if testing.Short() || runtime.GOOS == "js" {
		t.Skip("every seed scenario (native only: slow under node)")
	}
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range ps.Names(presets.Scenario) {
		p, _ := ps.Get(presets.Scenario, name)
		policies := p.Compare
		if len(policies) == 0 {
			policies = []string{""}
		}
		for _, pol := range policies {
			t.Run(name+"/"+pol, func(t *testing.T) {
				r := resolveJSON(t, seedRep0Under(t, name, pol).doc)
				mustRun(t, r, Options{Timeline: true, verifySums: true})
				// Untraced, select_idle_capacity() scans the idle mask
				// (idle_mask.go), which verify checks at every read.
				mustRun(t, r, Options{verifySums: true})
			})
		}
	}
}

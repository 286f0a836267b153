package scenario

import (
	"testing"

	"schedplay/presets"
)

// TestShareLinkSizes keeps links to the seed scenarios short. With -v it
// prints the table quoted in docs/scenario.md: the fragment length of the
// preset reference, of the scenario as written (sections naming presets),
// and of the fully expanded, self-contained document.
func TestShareLinkSizes(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	frag := func(s *Scenario) int {
		p, err := EncodeShare(s)
		if err != nil {
			t.Fatal(err)
		}
		return len("#s=") + len(p)
	}
	t.Logf("%-26s %9s %9s %9s %9s", "scenario", "reference", "as-written", "expanded", "JSON")
	for _, name := range ps.Names(presets.Scenario) {
		p, _ := ps.Get(presets.Scenario, name)
		ref := &Scenario{Schedplay: Version, Preset: name}
		body, err := Decode(p.Body)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		full, err := Expand(body, ps)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		enc, _ := Encode(full)
		a, b, c := frag(ref), frag(body), frag(full)
		t.Logf("%-26s %9d %9d %9d %9d", name, a, b, c, len(enc))
		if b > 1024 {
			t.Errorf("%s: the as-written share fragment is %d characters; keep seed scenarios under 1 KiB", name, b)
		}
	}
}

package scenario

import (
	"fmt"
	"strings"
	"testing"
)

// Bad timed sections fail with an error at the step's field path.
func TestTimedStepRejected(t *testing.T) {
	ps := testPresets(t)
	body := `"do": [{"send": "futex", "wake": 1}]`
	step := func(s string) string { return doc(group(`"program": [{"repeat": 2, "do": [` + s + `]}]`)) }
	p := "workload.groups[0].program[0].do[0]"
	var many []string
	for i := 0; i <= MaxTimedSections; i++ {
		many = append(many, fmt.Sprintf(`{"timed": "s%d", %s}`, i, body))
	}
	runRejectCases(t, ps, []rejectCase{
		{"missing name", step(`{` + body + `}`), p + ".timed", []string{"missing", "timed section"}},
		{"empty name", step(`{"timed": "", ` + body + `}`), p + ".timed", []string{"missing"}},
		{"no body", step(`{"timed": "wake loop"}`), p + ".do", []string{"is empty", "timed section"}},
		{"empty body", step(`{"timed": "wake loop", "do": []}`), p + ".do", []string{"is empty"}},
		{"name not a string", step(`{"timed": 5, ` + body + `}`), p + ".timed", []string{"must be a string, not a number"}},
		{"body not a list", step(`{"timed": "x", "do": {"send": "futex"}}`), p + ".do", []string{"must be a list"}},
		{"bad step in body", step(`{"timed": "x", "do": [{"sleep": "1ms", "wake": 2}]}`), p + ".do[0].wake", []string{"only applies to send"}},
		{"with another kind", step(`{"timed": "x", "repeat": 3, ` + body + `}`), p, []string{"sets both repeat and timed"}},
		{"option of another kind", step(`{"timed": "x", "total": 3, ` + body + `}`), p + ".total", []string{"only applies to pool"}},
		{"name too long", step(`{"timed": "` + strings.Repeat("w", MaxTimedNameLength+1) + `", ` + body + `}`), p + ".timed", []string{"limit is 64"}},
		{"unprintable name", step(`{"timed": "wake\tloop", ` + body + `}`), p + ".timed", []string{"unprintable", "U+0009"}},
		{"too many names", doc(group(`"program": [` + strings.Join(many, ",") + `]`)), "workload.groups", []string{"33 timed sections", "limit is 32"}},
		{"nested too deep", doc(group(`"program": [` + strings.Repeat(`{"timed": "t", "do": [`, 9) + `{"compute": "1ms"}` + strings.Repeat(`]}`, 9) + `]`)),
			"workload.groups[0].program[0].do[0].do[0].do[0].do[0].do[0].do[0].do[0].do", []string{"more than 8 levels"}},
	})
}

// A valid timed section resolves, keeps its name and body, and counts in
// the event estimate like a repeat of 1.
func TestTimedStepAccepted(t *testing.T) {
	ps := testPresets(t)
	timed := mustDecode(t, doc(group(`"program": [{"repeat": 10, "do": [{"sleep": "1ms"}, {"timed": "wake loop", "do": [{"repeat": 8, "do": [{"send": "futex", "wake": 1}]}]}]}]`)))
	r, err := Resolve(timed, ps)
	if err != nil {
		t.Fatal(err)
	}
	st := r.Workload.Groups[0].Program[0].Do[1]
	if st.Timed != "wake loop" || len(st.Do) != 1 || st.Do[0].Repeat != 8 {
		t.Fatalf("timed step resolved as %+v", st)
	}
	plain := mustDecode(t, doc(group(`"program": [{"repeat": 10, "do": [{"sleep": "1ms"}, {"repeat": 1, "do": [{"repeat": 8, "do": [{"send": "futex", "wake": 1}]}]}]}]`)))
	rp, err := Resolve(plain, ps)
	if err != nil {
		t.Fatal(err)
	}
	a, b := r.WithDefaults(), rp.WithDefaults()
	if ea, eb := EstimateEvents(&a, 8), EstimateEvents(&b, 8); ea != eb {
		t.Errorf("event estimate %v with a timed section, %v with a repeat of 1", ea, eb)
	}
}

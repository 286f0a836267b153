package scenario

import "testing"

// TestErrorMessagesPrecise: each error says what is actually wrong, where.
func TestErrorMessagesPrecise(t *testing.T) {
	ps := testPresets(t)
	runRejectCases(t, ps, []rejectCase{
		{"syntax error column", `{"schedplay": x}`, "schedplay", []string{"line 1, column 15:", "invalid character 'x'"}},
		{"syntax error column after spaces", `{"schedplay": 1, "name":     tru}`, "name", []string{"line 1, column 33:"}},
		{"syntax error second line", "{\"schedplay\": 1,\n  \"name\": [1 2]}", "name[1]", []string{"line 2, column 14:"}},
		{"version as a string", `{"schedplay": "1"}`, "schedplay", []string{`must be the number 1, not the string "1"`}},
		{"version as a fraction", `{"schedplay": 1.5}`, "schedplay", []string{"must be a whole number", "not 1.5"}},
		{"duration with an unsupported unit", doc(`{"preset": "spin"}`, `"run": {"duration": "2h"}`), "run.duration", []string{`"2h" has the unit "h"`, "ns, us (or µs), ms and s"}},
		{"smt.hold with an unsupported unit", `{"schedplay": 1, "machine": {"preset": "smt4", "smt": {"hold": "2h"}}, "workload": {"preset": "spin"}}`, "machine.smt.hold", []string{`has the unit "h"`}},
		{"duration without a unit", doc(`{"preset": "spin"}`, `"run": {"duration": "2"}`), "run.duration", []string{`"2" has no unit`}},
		{"integer field with a fraction in exponent form", doc(`{"preset": "spin"}`, `"policy": {"hz": 1.0001e3}`), "policy.hz", []string{"must be a whole number, not 1.0001e3"}},
		{"integer field beyond int64", doc(`{"preset": "spin"}`, `"policy": {"hz": 1e30}`), "policy.hz", []string{"1e30 is out of range", "9223372036854775807"}},
		{"integer field with a huge exponent", doc(`{"preset": "spin"}`, `"policy": {"hz": 1e999999999}`), "policy.hz", []string{"out of range"}},
		{"warm-up beyond an until=duration run", doc(`{"preset": "spin"}`, `"run": {"duration": "1s", "until": "duration", "warmup": "2s"}`), "run.warmup", []string{"2s leaves nothing of the 1s run to measure"}},
		{"integer in exponent form, validated", doc(`{"preset": "spin"}`, `"policy": {"hz": 2e4}`), "policy.hz", []string{"20000 is out of range; want 10..10000"}},
	})
}

// TestWholeNumbersInAnyForm: a JSON number that is a whole number is taken
// for an integer field whatever its form.
func TestWholeNumbersInAnyForm(t *testing.T) {
	for _, tt := range []struct {
		set  string
		want func(r *Resolved) bool
	}{
		{"policy.hz=1e3", func(r *Resolved) bool { return r.Policy.HZ == 1000 }},
		{"policy.hz=1.5E3", func(r *Resolved) bool { return r.Policy.HZ == 1500 }},
		{"policy.hz=1000.0", func(r *Resolved) bool { return r.Policy.HZ == 1000 }},
		{"policy.hz=10000e-1", func(r *Resolved) bool { return r.Policy.HZ == 1000 }},
		{"run.seed=1e19", func(r *Resolved) bool { return r.Run.Seed == 1e19 }},
		{"run.reps=2e0", func(r *Resolved) bool { return r.Run.Reps == 2 }},
		{"workload.groups[0].count=3e0", func(r *Resolved) bool { return r.Workload.Groups[0].Count == 3 }},
	} {
		r, err := resolveSets(t, tt.set)
		if err != nil || !tt.want(r) {
			t.Errorf("--set %s: %v, resolved %+v", tt.set, err, r)
		}
	}
	if _, err := Decode([]byte(`{"schedplay": 1e0}`)); err != nil {
		t.Errorf(`"schedplay": 1e0: %v`, err)
	}
}

package compare

import (
	"context"
	"errors"
	"strings"
	"testing"

	"schedplay/engine/scenario"
)

func TestParseVarySplitsTopLevelCommasOnly(t *testing.T) {
	for _, tt := range []struct {
		in   string
		path string
		want []string // joined with |
	}{
		{`policy.asym_packing=["SMT","MC"],[]`, "policy.asym_packing", []string{`["SMT","MC"]`, `[]`}},
		{` policy.hz = 100, 250 ,1000`, "policy.hz", []string{"100", "250", "1000"}},
		{`workload.groups[0].program=[{"compute": "1ms", "sleep": "1ms"}],[{"compute":"2ms"}]`, "workload.groups[0].program",
			[]string{`[{"compute": "1ms", "sleep": "1ms"}]`, `[{"compute":"2ms"}]`}},
		{`name="a,b",c`, "name", []string{`"a,b"`, "c"}},
		{`name="say \"x,y\"",[1,[2,3]],{"k":{"l":[4,5]}}`, "name", []string{`"say \"x,y\""`, `[1,[2,3]]`, `{"k":{"l":[4,5]}}`}},
		{`machine.isolcpus=0-3,5`, "machine.isolcpus", []string{"0-3", "5"}},
		{`run.seed=7`, "run.seed", []string{"7"}},
	} {
		p, v, err := ParseVary(tt.in)
		if err != nil || p != tt.path || strings.Join(v, "|") != strings.Join(tt.want, "|") {
			t.Errorf("ParseVary(%s) = %q %q %v; want %q %q", tt.in, p, v, err, tt.path, tt.want)
		}
	}
}

func TestParseVaryErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`run.reps`, "write path=v1,v2,…"},
		{`run.reps=`, "write path=v1,v2,…"},
		{`policy.asym_packing=["SMT","MC",[]`, `missing ]`},
		{`policy.asym_packing=["SMT"]],[]`, `unexpected ]`},
		{`policy.asym_packing=[{"a":1]`, `unexpected ]`},
		{`name="abc,def`, "unterminated string"},
		{`run.seed=` + strings.Repeat("1,", 33) + "1", "34 values; the limit is 32"},
		{`policy..hz=1`, "bad override path"},
	} {
		_, _, err := ParseVary(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseVary(%s) error %v; want %q", tt.in, err, tt.want)
			continue
		}
		if strings.Contains(err.Error(), "--vary") {
			t.Errorf("ParseVary(%s) error %q names the CLI flag; the API calls it too", tt.in, err)
		}
	}
}

func TestCheckVaryRefusesWhatTheSidesSet(t *testing.T) {
	s := testSpec(t) // policies slow (hz 100) and fast (hz 1000)
	for _, tt := range []struct{ vary, want string }{
		{"policy.preset", "policy.preset: the two sides of this comparison are the policies slow (A) and fast (B); varying policy.preset would give both sides the same policy"},
		{"policy", "the policies slow (A) and fast (B); varying policy would give both sides the same policy"},
		{"policy.hz", "policy.hz: the two sides of this comparison are the policies slow (A) and fast (B), which differ in this field (A: 100, B: 1000)"},
	} {
		s.Vary, s.Values = tt.vary, []string{"x"}
		err := s.CheckVary()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("vary %s: %v; want %q", tt.vary, err, tt.want)
		}
		_, err = Run(context.Background(), fakeRun, s)
		var se *scenario.Error
		if !errors.As(err, &se) || se.Path != "vary" {
			t.Errorf("vary %s: Run error %#v; want a scenario.Error at vary", tt.vary, err)
		}
	}
	// Sides given as overrides: the path a side sets is theirs.
	s.A = Side{Label: "hz100"}
	s.B = Side{Label: "hz300", Set: []scenario.Override{{Path: "policy.hz", Value: []byte("300")}}}
	s.Vary = "policy.hz"
	err := s.CheckVary()
	if want := `the two sides of this comparison are "hz100" (A: no overrides) and "hz300" (B: policy.hz=300); varying policy.hz would give both sides the same policy.hz`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("vary policy.hz on sides: %v; want %q", err, want)
	}
}

func TestCheckVaryAllowsSharedFields(t *testing.T) {
	s := testSpec(t)
	for _, vary := range []string{"workload.groups[0].count", "run.duration", "policy.asym_packing", "policy.base_slice"} {
		s.Vary = vary
		if err := s.CheckVary(); err != nil {
			t.Errorf("vary %s: %v", vary, err)
		}
	}
	// A list value reaches both sides whole, after each side's policy.
	var err error
	if s.Vary, s.Values, err = ParseVary(`policy.asym_packing=["SMT"],[]`); err != nil {
		t.Fatal(err)
	}
	tab, err := Run(context.Background(), fakeRun, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Sets) != 2 || tab.Sets[0].Value != `["SMT"]` || tab.Sets[1].Value != `[]` {
		t.Errorf("sets %+v", tab.Sets)
	}
	ra, rb, err := s.Resolve(`["SMT"]`)
	if err != nil {
		t.Fatal(err)
	}
	pa, pb := string(valueAt(ra, "policy.asym_packing")), string(valueAt(rb, "policy.asym_packing"))
	if ra.Policy.HZ != 100 || rb.Policy.HZ != 1000 || pa != `["SMT"]` || pb != `["SMT"]` {
		t.Errorf("A hz %d packing %s, B hz %d packing %s; want 100 and 1000, both [\"SMT\"]", ra.Policy.HZ, pa, rb.Policy.HZ, pb)
	}
}

func TestOverlaps(t *testing.T) {
	for _, tt := range []struct {
		p, q string
		want bool
	}{
		{"policy", "policy.preset", true},
		{"policy.preset", "policy.preset", true},
		{"policy.preset", "policy", true},
		{"policy.presets", "policy.preset", false},
		{"workload.groups", "workload.groups[0].count", true},
		{"workload.groups[1]", "workload.groups[0].count", false},
		{"policy.hz", "policy.preset", false},
	} {
		if got := overlaps(tt.p, tt.q); got != tt.want {
			t.Errorf("overlaps(%s, %s) = %v", tt.p, tt.q, got)
		}
	}
}

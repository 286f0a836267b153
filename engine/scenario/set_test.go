package scenario

import (
	"strings"
	"testing"
)

func TestParseSet(t *testing.T) {
	for _, tt := range []struct{ in, path, value, err string }{
		{"policy.hz=1000", "policy.hz", `1000`, ""},
		{"policy.preset=v6-on", "policy.preset", `"v6-on"`, ""},
		{"workload.groups[0].cpus=0-87,176-263", "workload.groups[0].cpus", `"0-87,176-263"`, ""},
		{`workload.groups[0].cpus="0"`, "workload.groups[0].cpus", `"0"`, ""},
		{"policy.asym_packing=[\"SMT\"]", "policy.asym_packing", `["SMT"]`, ""},
		{"policy.idle_select_asym=true", "policy.idle_select_asym", `true`, ""},
		{"name=a=b", "name", `"a=b"`, ""},
		{"name=", "name", `""`, ""},
		{"name=<b>hi</b>", "name", `"<b>hi</b>"`, ""},
		{"policy.hz", "", "", "has no '='"},
		{"=5", "", "", "empty"},
		{"policy..hz=1", "", "", "empty key"},
		{"policy.hz.=1", "", "", "ends with '.'"},
		{"[0]=1", "", "", "starts with an index"},
		{"workload.groups[x].count=1", "", "", "not a list position"},
		{"workload.groups[-1].count=1", "", "", "not a list position"},
		{"workload.groups[0.count=1", "", "", "unclosed ["},
		{"workload.groups[0]count=1", "", "", "expected . or ["},
		{"policy.h z=1", "", "", "character other than"},
		{strings.Repeat("a.", 200) + "b=1", "", "", "limit is 256"},
	} {
		o, err := ParseSet(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseSet(%.40q) = %v; want error containing %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || o.Path != tt.path || string(o.Value) != tt.value {
			t.Errorf("ParseSet(%q) = %q %s, %v; want %q %s", tt.in, o.Path, o.Value, err, tt.path, tt.value)
		}
	}
}

func TestApply(t *testing.T) {
	ps := testPresets(t)
	base := `{"schedplay": 1, "machine": {"preset": "smt4"}, "policy": {"preset": "p-v6"}, "workload": {"preset": "spin"}}`
	for _, tt := range []struct {
		sets  []string
		check func(r *Resolved) bool
		err   string // path: fragment
	}{
		{[]string{"workload.groups[0].count=3"}, func(r *Resolved) bool { return r.Workload.Groups[0].Count == 3 && r.Workload.Groups[0].Name == "spin" }, ""},
		{[]string{"policy.preset=p-base"}, func(r *Resolved) bool { return !r.Policy.IdleSelectAsym }, ""},
		{[]string{"policy.hz=1000", "policy.preset=p-base"}, func(r *Resolved) bool { return r.Policy.HZ == 250 }, ""},
		{[]string{"policy.preset=p-base", "policy.hz=1000"}, func(r *Resolved) bool { return r.Policy.HZ == 1000 }, ""},
		{[]string{"workload.groups[1]={\"name\": \"b\", \"count\": 1, \"program\": [{\"sleep\": \"1ms\"}]}"}, func(r *Resolved) bool { return len(r.Workload.Groups) == 2 }, ""},
		{[]string{"policy.features.WAKE_AFFINE=false"}, func(r *Resolved) bool { return !r.Policy.Features.WakeAffineOn() && r.Policy.Features.SISUtilOn() }, ""},
		{[]string{"run.duration=20ms"}, func(r *Resolved) bool { return r.Run.Duration.String() == "20ms" }, ""},
		{[]string{"workload.groups[5].count=1"}, nil, "workload.groups[5]: the list has 1 elements"},
		{[]string{"workload.groups[0].count.x=1"}, nil, "workload.groups[0].count: is a number, not an object"},
		{[]string{"policy.hzz=1"}, nil, "policy.hzz: unknown field"},
		{[]string{"polcy.hz=1"}, nil, `polcy.hz: unknown section "polcy"`},
		{[]string{"policy=1"}, nil, "not the whole section"},
		{[]string{"schedplay=2"}, nil, "cannot be overridden"},
		{[]string{"policy.preset=nope"}, nil, `policy.preset: unknown policy preset "nope"`},
		{[]string{"run.reps=1000"}, nil, "run.reps: 1000 is out of range"},
	} {
		var sets []Override
		for _, a := range tt.sets {
			o, err := ParseSet(a)
			if err != nil {
				t.Fatal(err)
			}
			sets = append(sets, o)
		}
		s, err := Apply(mustDecode(t, base), ps, sets)
		var r *Resolved
		if err == nil {
			r, err = Resolve(s, ps)
		}
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%v: got %v; want error %q", tt.sets, err, tt.err)
			}
			continue
		}
		if err != nil || !tt.check(r) {
			t.Errorf("%v: %v, resolved %+v", tt.sets, err, r)
		}
	}
}

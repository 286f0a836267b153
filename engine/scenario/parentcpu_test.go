package scenario

import (
	"strings"
	"testing"
)

// TestGroupParentCPU: "parent_cpu" is optional (absent ≠ 0), checked
// against the machine's CPUs at its path, and kept by the encoding.
func TestGroupParentCPU(t *testing.T) {
	ps := testPresets(t)
	one := func(extra string) string {
		return doc(`{"groups": [{"name": "w", "count": 2` + extra + `, "program": [{"compute": "1ms"}]}]}`)
	}
	r, err := Resolve(mustDecode(t, one("")), ps)
	if err != nil || r.Workload.Groups[0].ParentCPU != nil {
		t.Fatalf("absent parent_cpu: %v %+v; want nil", err, r)
	}
	s := mustDecode(t, one(`, "parent_cpu": 0`))
	r, err = Resolve(s, ps)
	if err != nil || r.Workload.Groups[0].ParentCPU == nil || *r.Workload.Groups[0].ParentCPU != 0 {
		t.Fatalf("parent_cpu 0: %v %+v", err, r)
	}
	if enc, _ := Encode(s); !strings.Contains(string(enc), `"parent_cpu":0`) {
		t.Errorf("encoding dropped parent_cpu 0: %s", enc)
	}
	for _, tt := range []struct{ extra, path, frag string }{
		{`, "parent_cpu": 8`, "workload.groups[0].parent_cpu", "CPU 8 does not exist"},
		{`, "parent_cpu": -1`, "workload.groups[0].parent_cpu", "CPU -1 does not exist"},
		{`, "parent_cpu": "3"`, "workload.groups[0].parent_cpu", "whole number"},
	} {
		s, err := Decode([]byte(one(tt.extra)))
		if err == nil {
			_, err = Resolve(s, ps)
		}
		if !errorsContain(err, tt.path, tt.frag) {
			t.Errorf("%s: got %v; want an error at %s containing %q", tt.extra, err, tt.path, tt.frag)
		}
	}
}

// TestSharedParent: workload.shared_parent decodes strictly, survives the
// encoding, and leaves parent_cpu to group 0 alone.
func TestSharedParent(t *testing.T) {
	ps := testPresets(t)
	two := func(shared, extra0, extra1 string) string {
		return `{"schedplay": 1, "machine": {"preset": "smt4"}, "workload": {` + shared + `"groups": [{"name": "a", "count": 1` + extra0 +
			`, "program": [{"compute": "1ms"}]}, {"name": "b", "count": 2` + extra1 + `, "program": [{"compute": "1ms"}]}]}}`
	}
	s := mustDecode(t, two(`"shared_parent": true, `, `, "parent_cpu": 3`, ""))
	r, err := Resolve(s, ps)
	if err != nil || !r.Workload.SharedParent {
		t.Fatalf("shared_parent: %v %+v", err, r)
	}
	if enc, _ := Encode(s); !strings.Contains(string(enc), `"shared_parent":true`) {
		t.Errorf("encoding dropped shared_parent: %s", enc)
	}
	if r, err := Resolve(mustDecode(t, two("", "", `, "parent_cpu": 3`)), ps); err != nil || r.Workload.SharedParent {
		t.Errorf("absent shared_parent: %v", err)
	}
	for _, tt := range []struct{ doc, path, frag string }{
		{two(`"shared_parent": true, `, "", `, "parent_cpu": 3`), "workload.groups[1].parent_cpu", "group 0 only"},
		{two(`"shared_parent": "yes", `, "", ""), "workload.shared_parent", "true or false"},
	} {
		s, err := Decode([]byte(tt.doc))
		if err == nil {
			_, err = Resolve(s, ps)
		}
		if !errorsContain(err, tt.path, tt.frag) {
			t.Errorf("%s: got %v; want an error at %s containing %q", tt.doc, err, tt.path, tt.frag)
		}
	}
}

// TestGroupParentCPUs: "parent_cpus" is a cpulist of the machine checked at
// its path, kept by the encoding, and refused next to parent_cpu or on a
// group that shared_parent forks from group 0's parent.
func TestGroupParentCPUs(t *testing.T) {
	ps := testPresets(t)
	one := func(extra string) string {
		return doc(`{"groups": [{"name": "w", "count": 2` + extra + `, "program": [{"compute": "1ms"}]}]}`)
	}
	s := mustDecode(t, one(`, "parent_cpus": "2-3"`))
	r, err := Resolve(s, ps)
	if err != nil || r.Workload.Groups[0].ParentCPUs != "2-3" {
		t.Fatalf("parent_cpus 2-3: %v %+v", err, r)
	}
	if enc, _ := Encode(s); !strings.Contains(string(enc), `"parent_cpus":"2-3"`) {
		t.Errorf("encoding dropped parent_cpus: %s", enc)
	}
	two := `{"schedplay": 1, "machine": {"preset": "smt4"}, "workload": {"shared_parent": true, "groups": [` +
		`{"name": "a", "count": 1, "program": [{"compute": "1ms"}]},` +
		`{"name": "b", "count": 2, "parent_cpus": "1", "program": [{"compute": "1ms"}]}]}}`
	for _, tt := range []struct{ doc, path, frag string }{
		{one(`, "parent_cpus": "9"`), "workload.groups[0].parent_cpus", "9"},
		{one(`, "parent_cpus": "x"`), "workload.groups[0].parent_cpus", ""},
		{one(`, "parent_cpus": "1", "parent_cpu": 1`), "workload.groups[0].parent_cpus", "keep one of them"},
		{two, "workload.groups[1].parent_cpus", "group 0 only"},
	} {
		s, err := Decode([]byte(tt.doc))
		if err == nil {
			_, err = Resolve(s, ps)
		}
		if !errorsContain(err, tt.path, tt.frag) {
			t.Errorf("%s: got %v; want an error at %s containing %q", tt.doc, err, tt.path, tt.frag)
		}
	}
}

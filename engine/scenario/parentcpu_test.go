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

package scenario

import (
	"encoding/json"
	"testing"
)

func TestValueAt(t *testing.T) {
	var tree any
	if err := json.Unmarshal([]byte(`{"policy": {"hz": 250, "asym_packing": ["SMT", "MC"], "off": null},
		"workload": {"groups": [{"count": 4}, {"count": 8, "cpus": "0-3"}]}}`), &tree); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path string
		want string // JSON; "" when absent
	}{
		{"policy.hz", `250`},
		{"policy.asym_packing", `["SMT","MC"]`},
		{"policy.asym_packing[1]", `"MC"`},
		{"policy.off", `null`},
		{"workload.groups[1].count", `8`},
		{"workload.groups[1].cpus", `"0-3"`},
		{"workload.groups[2].count", ""},
		{"workload.groups.count", ""},
		{"policy.hz[0]", ""},
		{"policy.missing", ""},
		{"run", ""},
		{"policy..hz", ""},
		{"[0]", ""},
	} {
		v, ok := ValueAt(tree, tt.path)
		got := ""
		if ok {
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			got = string(b)
		}
		if got != tt.want {
			t.Errorf("ValueAt(%q) = %s (found %v), want %q", tt.path, got, ok, tt.want)
		}
	}
}

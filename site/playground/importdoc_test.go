package playground

import (
	"strings"
	"testing"

	"schedplay/site"
)

func TestImportedDoc(t *testing.T) {
	cur, _ := site.ParseDoc([]byte(`{"schedplay":1,"machine":{"preset":"vera"},"policy":{"preset":"v6-on"},"workload":{"preset":"sgemm-nvpl"}}`))
	rep := ImportReply{Format: "lscpu -p", Summary: "lscpu -p: 96 CPUs", Notes: []string{"a", "b"},
		Scenario: []byte(`{"schedplay":1,"name":"imported x","machine":{"nodes":8,"cores_per_node":6},"workload":{"preset":"idle"}}`)}
	doc, n, err := ImportedDoc(cur, rep)
	if err != nil {
		t.Fatal(err)
	}
	if m := doc.Section("machine"); m["nodes"] == nil || doc.Section("policy")["preset"] != "v6-on" || doc.Section("workload")["preset"] != "sgemm-nvpl" {
		t.Errorf("a machine import keeps the rest: %s", doc.Canonical())
	}
	if n.Kind != "info" || !strings.Contains(n.Text, "96 CPUs") || n.Detail != "a; b" {
		t.Errorf("notice %+v", n)
	}
	rep.Format = "ftrace text"
	doc, _, _ = ImportedDoc(cur, rep)
	if doc.Section("workload")["preset"] != "idle" {
		t.Errorf("a workload import is the whole scenario: %s", doc.Canonical())
	}
	if e := ImportError("x.txt", 400, `{"error":{"message":"x.txt:3: 3 fields"}}`); e.Kind != "error" || e.Detail != "x.txt:3: 3 fields" {
		t.Errorf("error notice %+v", e)
	}
}

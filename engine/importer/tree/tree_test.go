package tree_test

import (
	"testing"

	"schedplay/engine/importer/tree"
)

func TestMemLinks(t *testing.T) {
	m := tree.NewMem()
	m.AddFile("d/sys/cpu/cpufreq/policy0/max", []byte("7"))
	m.AddLink("d/sys/cpu/cpu0/cpufreq", "../cpufreq/policy0")
	m.AddLink("d/sys/cpu/cpu1/cpufreq", "../../../../../etc")
	m.AddLink("d/sys/cpu/loop", "loop")
	if b, err := m.ReadFile("d/sys/cpu/cpu0/cpufreq/max"); err != nil || string(b) != "7" {
		t.Errorf("through the link: %q, %v", b, err)
	}
	if _, err := m.ReadFile("d/sys/cpu/cpu1/cpufreq/x"); err == nil {
		t.Error("a link leaving the tree was followed")
	}
	if _, err := m.ReadFile("d/sys/cpu/loop/x"); err == nil {
		t.Error("a link loop was followed")
	}
	if es, err := m.ReadDir("d/sys/cpu"); err != nil || len(es) != 4 {
		t.Errorf("ReadDir: %v, %v", es, err)
	}
	if _, err := m.ReadFile("nope"); !tree.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}

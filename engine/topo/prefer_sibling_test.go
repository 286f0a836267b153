package topo_test

import (
	"testing"

	"schedplay/engine/topo"
)

// TestMCGroupsPreferSiblingOnVera pins how SD_PREFER_SIBLING reaches the
// MC groups of vera-node under asym-capacity+smt-asym-packing, which
// decides calculate_imbalance()'s has_spare branch at full load
// (docs/model.md, "Full load"). sd_init() of MC (SD_ASYM_CPUCAPACITY)
// strips the flag from its child at build time, CLS (whose mask fell back
// to the SMT mask), not from SMT, and build_sched_groups() gives MC's
// groups CLS's flags. But cpu_attach_domain() drops the degenerate CLS and
// writes SMT's flags into the CPU's local MC group, and the group objects
// are shared: every group is some CPU's local group, so every MC group
// ends up with SMT's flags, SD_PREFER_SIBLING included, and
// sds.prefer_sibling (the busiest group's flag) is true.
func TestMCGroupsPreferSiblingOnVera(t *testing.T) {
	tp := build(t, "vera-node", "asym-capacity-smt-asym-packing")
	for _, cpu := range []topo.CPU{0, 88, 175} {
		smt := domainAt(tp, cpu, topo.LevelSMT)
		mc := domainAt(tp, cpu, topo.LevelMC)
		if smt == nil || mc == nil || mc.Flags&topo.SDAsymCPUCapacity == 0 {
			t.Fatalf("CPU %d: chain %v, want SMT then MC with SD_ASYM_CPUCAPACITY", cpu, levels(tp, cpu))
		}
		if smt.Flags&topo.SDPreferSibling == 0 {
			t.Errorf("CPU %d: SMT lost SD_PREFER_SIBLING; MC's sd_init() strips it from CLS, its child at build time", cpu)
		}
		for gi := range mc.Groups {
			if g := mc.Groups[gi]; g.Flags != smt.Flags {
				t.Fatalf("CPU %d: MC group %v has flags %v, want SMT's %v (each CPU's cpu_attach_domain() rewrites its shared local group)", cpu, g.Span, g.Flags, smt.Flags)
			}
		}
	}
}

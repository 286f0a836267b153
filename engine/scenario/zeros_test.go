package scenario

import (
	"testing"

	"schedplay/engine/units"
)

// resolveSets resolves the smt4/p-v6/spin test document with --set
// overrides applied.
func resolveSets(t *testing.T, sets ...string) (*Resolved, error) {
	t.Helper()
	ps := testPresets(t)
	base := `{"schedplay": 1, "machine": {"preset": "smt4"}, "policy": {"preset": "p-v6"}, "workload": {"preset": "spin"}, "run": {"duration": "50ms"}}`
	var os []Override
	for _, a := range sets {
		o, err := ParseSet(a)
		if err != nil {
			t.Fatal(err)
		}
		os = append(os, o)
	}
	s, err := Apply(mustDecode(t, base), ps, os)
	if err != nil {
		return nil, err
	}
	return Resolve(s, ps)
}

// TestExplicitZeroHonoured: where 0 is in a field's documented range, an
// explicit 0 is kept (it used to be replaced by the default, as if absent),
// and WithDefaults (which sim.Run applies) keeps it too.
func TestExplicitZeroHonoured(t *testing.T) {
	for _, tt := range []struct {
		set  string
		zero func(r *Resolved) bool
	}{
		{`machine.latency.ipi="0s"`, func(r *Resolved) bool { return r.Machine.Latency.IPI == 0 }},
		{`machine.latency.wakeup="0s"`, func(r *Resolved) bool { return r.Machine.Latency.Wakeup == 0 }},
		{`machine.latency.idle_exit="0s"`, func(r *Resolved) bool { return r.Machine.Latency.IdleExit == 0 }},
		{`machine.latency.context_switch="0s"`, func(r *Resolved) bool { return r.Machine.Latency.ContextSwitch == 0 }},
		{`machine.latency.process_switch="0s"`, func(r *Resolved) bool { return r.Machine.Latency.ProcessSwitch == 0 }},
		{`machine.latency.variation=0`, func(r *Resolved) bool { return r.Machine.Latency.Variation == 0 }},
		{`machine.smt.qual="0s"`, func(r *Resolved) bool { return r.Machine.SMT.Qual == 0 }},
		{`machine.boost=[]`, func(r *Resolved) bool { return len(r.Machine.Boost) == 0 }},
		{`policy.migration_cost="0s"`, func(r *Resolved) bool { return r.Policy.MigrationCost == 0 }},
		{`run.seed=0`, func(r *Resolved) bool { return r.Run.Seed == 0 }},
		{`run.warmup="0s"`, func(r *Resolved) bool { return r.Run.Warmup == 0 }},
		{`workload.groups[0].program[0].do[2]={"send": "c", "capacity": 0}`, func(r *Resolved) bool { return r.Workload.Groups[0].Program[0].Do[2].Capacity == 0 }},
	} {
		r, err := resolveSets(t, tt.set)
		if err != nil {
			t.Errorf("--set %s: %v; 0 is in the documented range", tt.set, err)
			continue
		}
		if !tt.zero(r) {
			t.Errorf("--set %s: the explicit zero was replaced by a default", tt.set)
		}
		if d := r.WithDefaults(); !tt.zero(&d) {
			t.Errorf("--set %s: WithDefaults (as sim.Run applies it) replaced the explicit zero", tt.set)
		}
	}
}

// TestAbsentFieldsDefaulted: only an absent field gets its default.
func TestAbsentFieldsDefaulted(t *testing.T) {
	r, err := resolveSets(t, "run.duration=null")
	if err != nil {
		t.Fatal(err)
	}
	l := r.Machine.Latency
	if l.IPI != units.Microsecond || l.Wakeup != 800*units.Nanosecond || l.IdleExit != units.Microsecond ||
		l.ContextSwitch != 700*units.Nanosecond || l.ProcessSwitch != 200*units.Nanosecond || l.Syscall != 230*units.Nanosecond ||
		l.Cacheline.LLC != 47*units.Nanosecond || l.Variation != 0.5 || r.Machine.IPC.SockSndbuf != 212992 || r.Machine.IPC.PipeBuffers != 16 {
		t.Errorf("latency defaults: %+v", l)
	}
	if r.Machine.SMT.Qual != 3*units.Microsecond || r.Machine.SMT.PartitionedSingle != 0.60 || len(r.Machine.Boost) != 2 {
		t.Errorf("smt/boost defaults: %+v %v", r.Machine.SMT, r.Machine.Boost)
	}
	if r.Machine.ClustersPerNode != 1 || len(r.Machine.CoreClasses) != 1 {
		t.Errorf("machine defaults: %+v", r.Machine)
	}
	p := r.Policy
	if p.BaseSlice != DefaultBaseSlice || p.MigrationCost != DefaultMigrationCost || p.Features.PELT != PELTModern {
		t.Errorf("policy defaults: %+v", p)
	}
	if r.Workload.Efficiency != 1 {
		t.Errorf("workload.efficiency = %g; want the default 1", r.Workload.Efficiency)
	}
	if r.Run.Duration != DefaultDuration || r.Run.Reps != 1 || r.Run.Until != UntilDone {
		t.Errorf("run defaults: %+v", r.Run)
	}
}

// TestExplicitZeroRefused: where 0 (or "", or []) is outside a field's
// documented range, it is an error naming the field, not the default.
func TestExplicitZeroRefused(t *testing.T) {
	for _, tt := range []struct {
		set, path, frag string
	}{
		{`policy.hz=0`, "policy.hz", "0 is out of range; want 10..10000"},
		{`policy.base_slice="0s"`, "policy.base_slice", "> 0"},
		{`policy.features.PELT=""`, "policy.features.PELT", `unknown PELT mode ""`},
		{`run.duration="0s"`, "run.duration", "> 0"},
		{`run.reps=0`, "run.reps", "0 is out of range; want 1..100"},
		{`run.until=""`, "run.until", `unknown value ""`},
		{`machine.threads_per_core=0`, "machine.threads_per_core", "0 is not a hardware thread count"},
		{`machine.clusters_per_node=0`, "machine.clusters_per_node", "0 is out of range; want 1..4"},
		{`machine.core_classes=[]`, "machine.core_classes", "is empty"},
		{`machine.smt.yield=[]`, "machine.smt.yield", "has 0 values for 2 threads"},
		{`machine.smt.partitioned_single=0`, "machine.smt.partitioned_single", "0 is out of range"},
		{`machine.smt.model=""`, "machine.smt.model", `unknown`},
		{`machine.llc=""`, "machine.llc", `unknown llc ""`},
		{`machine.numbering=""`, "machine.numbering", `unknown numbering ""`},
		{`workload.efficiency=0`, "workload.efficiency", "0 is out of range; want > 0"},
		{`machine.core_classes=[{"name": "c", "cores": 4, "capacity": 1024, "speed": 1, "threads": 0}]`, "machine.core_classes[0].threads", "0 is out of range"},
		{`machine.core_classes=[{"name": "c", "cores": 4, "capacity": 1024, "speed": 1, "cluster_cores": 0}]`, "machine.core_classes[0].cluster_cores", "0 is out of range"},
		{`workload.groups[0].program[0].repeat=0`, "workload.groups[0].program[0].repeat", "0 is out of range; want 1..1000000000"},
		{`workload.groups[0].program[0].do[2]={"send": "c", "wake": 0}`, "workload.groups[0].program[0].do[2].wake", "0 is out of range; want 1..16384"},
		{`workload.groups[0].program[1]={"periodic": {"every": "1ms", "do": [{"repeat": 0.0, "do": [{"compute": "1us"}]}]}}`, "workload.groups[0].program[1].periodic.do[0].repeat", "0 is out of range"},
	} {
		_, err := resolveSets(t, tt.set)
		if !errorsContain(err, tt.path, tt.frag) {
			t.Errorf("--set %s: got %v; want %s: …%s…", tt.set, err, tt.path, tt.frag)
		}
	}
}

// TestWithDefaultsHandBuilt: a Resolved built in Go (no document) still
// treats zero as unset.
func TestWithDefaultsHandBuilt(t *testing.T) {
	r := Resolved{}.WithDefaults()
	if r.Policy.HZ != DefaultHZ || r.Policy.MigrationCost != DefaultMigrationCost || r.Run.Reps != 1 || r.Machine.Latency.IPI != units.Microsecond {
		t.Errorf("hand-built defaults: %+v", r)
	}
}

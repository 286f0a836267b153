package scenario

import (
	"testing"

	"schedplay/engine/topo"
	"schedplay/engine/units"
)

func TestResolvePresetChainAndOverride(t *testing.T) {
	ps := testPresets(t)
	s := mustDecode(t, `{"schedplay": 1,
		"machine": {"preset": "smt4", "smt": {"switch": "5us"}},
		"policy": {"preset": "p-v6", "hz": 1000, "features": {"WAKE_AFFINE": false}},
		"workload": {"preset": "spin"},
		"run": {"duration": "50ms"}}`)
	r, err := Resolve(s, ps)
	if err != nil {
		t.Fatal(err)
	}
	if r.Machine.CoresPerNode != 4 || r.Machine.SMT.Hold != units.Millisecond || r.Machine.SMT.Switch != 5*units.Microsecond {
		t.Errorf("machine: override did not merge into the preset: %+v", r.Machine.SMT)
	}
	if r.Policy.HZ != 1000 {
		t.Errorf("policy.hz = %d; want the override 1000", r.Policy.HZ)
	}
	if r.Policy.SMTAsymPacking != topo.SMTAsymOn || !r.Policy.IdleSelectAsym {
		t.Errorf("policy: p-v6 over p-base lost: %+v", r.Policy)
	}
	if f := r.Policy.Features; !f.SISUtilOn() || f.WakeAffineOn() {
		t.Errorf("features: want SIS_UTIL from p-base and WAKE_AFFINE=false from the override, got %+v", f)
	}
	if r.Run.Reps != 1 || r.Run.Until != UntilDone || r.Policy.BaseSlice != DefaultBaseSlice {
		t.Errorf("defaults not applied: %+v %+v", r.Run, r.Policy)
	}
}

func TestResolveScenarioPreset(t *testing.T) {
	ps := testPresets(t)
	r, err := Resolve(mustDecode(t, `{"schedplay": 1, "preset": "demo", "run": {"reps": 3}, "policy": {"preset": "p-base"}}`), ps)
	if err != nil {
		t.Fatal(err)
	}
	if r.Name != "demo <b>x</b>" {
		t.Errorf("name = %q; want the preset's, verbatim (HTML is just text)", r.Name)
	}
	if r.Run.Reps != 3 || r.Run.Seed != 7 || r.Run.Duration != 100*units.Millisecond {
		t.Errorf("run = %+v; want reps 3 over the preset's seed 7 and 100ms", r.Run)
	}
	if r.Policy.IdleSelectAsym || r.Policy.SMTAsymPacking != topo.SMTAsymOff {
		t.Errorf("a section naming its own preset must replace the scenario preset's section: %+v", r.Policy)
	}
}

func TestMergeNullDeletes(t *testing.T) {
	ps := testPresets(t)
	r, err := Resolve(mustDecode(t, `{"schedplay": 1, "machine": {"preset": "smt4", "gflops_per_core": null}, "workload": {"preset": "spin"}}`), ps)
	if err != nil {
		t.Fatal(err)
	}
	if r.Machine.GflopsPerCore != 0 {
		t.Errorf("gflops_per_core = %g; null must delete the preset's value", r.Machine.GflopsPerCore)
	}
}

func TestExpandHasNoPresets(t *testing.T) {
	ps := testPresets(t)
	s := mustDecode(t, `{"schedplay": 1, "preset": "demo"}`)
	x, err := Expand(s, ps)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Encode(x)
	if contains(string(b), `"preset"`) {
		t.Errorf("Expand left a preset: %s", b)
	}
	r1, err1 := Resolve(s, ps)
	r2, err2 := Resolve(x, nil)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if !equalJSON(t, r1, r2) {
		t.Errorf("Resolve(Expand(s)) differs from Resolve(s)")
	}
}

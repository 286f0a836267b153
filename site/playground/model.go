package playground

import (
	"encoding/json"

	"schedplay/engine/scenario"
	"schedplay/engine/topo"
	"schedplay/site"
)

// Machine decodes the effective machine section (preset expanded, defaults
// filled) leniently: the editor must draw half-valid machines too.
func (s State) Machine() topo.Machine {
	var m topo.Machine
	b, _ := scenario.MarshalTree(site.Expand(s.Doc.Section("machine"), "machine", s.Catalog), true)
	_ = json.Unmarshal(b, &m)
	return scenario.MachineWithDefaults(m)
}

// Policy decodes the effective policy section leniently.
func (s State) Policy() scenario.Policy {
	var p scenario.Policy
	b, _ := scenario.MarshalTree(site.Expand(s.Doc.Section("policy"), "policy", s.Catalog), true)
	_ = json.Unmarshal(b, &p)
	return p
}

// CPUs numbers the current machine's CPUs (an error for an unusable or
// too-large machine).
func (s State) CPUs() ([]site.LaneCPU, error) {
	return site.MachineCPUs(s.Machine())
}

package topo_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"schedplay/engine/topo"
	"schedplay/presets"
)

// loadMachine decodes a machine preset strictly.
func loadMachine(t testing.TB, name string) topo.Machine {
	t.Helper()
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	p, ok := ps.Get(presets.Machine, name)
	if !ok {
		t.Fatalf("no machine preset %q", name)
	}
	var m topo.Machine
	dec := json.NewDecoder(bytes.NewReader(p.Body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("machine %s: %v", name, err)
	}
	return m
}

// loadPolicy decodes the domain-shaping part of a policy preset (the other
// policy fields belong to the scenario package and are ignored here).
func loadPolicy(t testing.TB, name string) topo.DomainPolicy {
	t.Helper()
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	p, ok := ps.Get(presets.Policy, name)
	if !ok {
		t.Fatalf("no policy preset %q", name)
	}
	var dp topo.DomainPolicy
	if err := json.Unmarshal(p.Body, &dp); err != nil {
		t.Fatalf("policy %s: %v", name, err)
	}
	return dp
}

func build(t testing.TB, machine, policy string) *topo.Topology {
	t.Helper()
	tp, err := topo.Build(loadMachine(t, machine), loadPolicy(t, policy))
	if err != nil {
		t.Fatalf("Build(%s, %s): %v", machine, policy, err)
	}
	return tp
}

// levels lists the level names of cpu's chain, bottom-up.
func levels(tp *topo.Topology, cpu topo.CPU) []topo.Level {
	var out []topo.Level
	for _, d := range tp.Domains[cpu] {
		out = append(out, d.Level)
	}
	return out
}

func domainAt(tp *topo.Topology, cpu topo.CPU, l topo.Level) *topo.Domain {
	for _, d := range tp.Domains[cpu] {
		if d.Level == l {
			return d
		}
	}
	return nil
}

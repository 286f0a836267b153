package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"schedplay/engine/scenario"
	"schedplay/engine/topo"
	"schedplay/presets"
)

// topoRun runs the CLI and returns its exit code, stdout and stderr.
func topoRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := mainWith(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestTopoVeraV6On(t *testing.T) {
	code, out, errs := topoRun(t, "topo", "vera", "--policy", "v6-on", "--cpus", "0,176")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// Capacities come from the (calibrated) preset: compute what the kernel
	// would print rather than pinning today's numbers.
	vera := veraTopology(t)
	c0 := vera.CPUs[0].Capacity
	node := 0
	for _, c := range vera.CPUs[:len(vera.CPUs)/2] {
		node += c.Capacity
	}
	for _, want := range []string{
		"CPU0 attaching sched-domain(s):",
		" domain-0: span=0,176 level=SMT flags=SD_BALANCE_NEWIDLE|",
		"|SD_SHARE_CPUCAPACITY|SD_SHARE_LLC|SD_ASYM_PACKING|",
		fmt.Sprintf("  groups: 0:{ span=0 cap=%d }, 176:{ span=176 cap=%d }", c0, c0),
		"  domain-1: span=0-87,176-263 level=MC flags=",
		"SD_ASYM_CPUCAPACITY|SD_ASYM_CPUCAPACITY_FULL|SD_SHARE_LLC\n",
		"   domain-2: span=0-351 level=NUMA",
		fmt.Sprintf("    groups: 0:{ span=0-87,176-263 cap=%d }, 88:{ span=88-175,264-351 cap=%d }", node, node),
		"CPU176 attaching sched-domain(s):",
		fmt.Sprintf("  groups: 176:{ span=176 cap=%d }, 0:{ span=0 cap=%d }", c0, c0),
		"sd_llc=MC sd_llc_size=176 sd_llc_id=0",
		"sd_asym_packing=SMT sd_asym_cpucapacity=MC",
		"SD_ASYM_PACKING at: SMT;",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.Contains(out, "CPU1 attaching") {
		t.Error("--cpus 0,176 printed CPU 1")
	}
	if strings.Count(out, "level=MC flags") != 2 || strings.Contains(out, "level=PKG") {
		t.Error("want MC once per printed CPU and no PKG (degenerate on Vera)")
	}
}

func TestTopoJSON(t *testing.T) {
	code, out, errs := topoRun(t, "topo", "--json", "hikey960", "--policy", "misfit")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var v struct {
		NumCPUs int `json:"nr_cpus"`
		CPUs    []struct {
			CPU      int    `json:"cpu"`
			Capacity int    `json:"capacity"`
			SDAsym   string `json:"sd_asym_cpucapacity"`
			Domains  []struct {
				Name   string   `json:"name"`
				Span   string   `json:"span"`
				Flags  []string `json:"flags"`
				Groups []struct {
					Span string `json:"span"`
				} `json:"groups"`
			} `json:"domains"`
		} `json:"cpus"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if v.NumCPUs != 8 || len(v.CPUs) != 8 || v.CPUs[5].Capacity != 1024 || v.CPUs[5].SDAsym != "PKG" {
		t.Fatalf("unexpected view: %+v", v)
	}
	d := v.CPUs[5].Domains
	if len(d) != 2 || d[0].Name != "MC" || d[0].Span != "4-7" || d[1].Name != "PKG" ||
		len(d[1].Groups) != 2 || d[1].Groups[0].Span != "4-7" {
		t.Errorf("CPU 5 domains %+v", d)
	}
	if !strings.Contains(strings.Join(d[1].Flags, " "), "SD_ASYM_CPUCAPACITY_FULL") {
		t.Errorf("PKG flags %v lack SD_ASYM_CPUCAPACITY_FULL", d[1].Flags)
	}
}

func TestTopoFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bare := write("bare.json", `{"nodes": 1, "cores_per_node": 4, "threads_per_core": 2, "clusters_per_node": 2}`)
	wrapped := write("wrapped.json", `{"description": "x", "machine": {"nodes": 1, "cores_per_node": 4}}`)
	pol := write("pol.json", `{"policy": {"asym_packing": ["CLS"], "smt_asym_packing": "on", "features": {"PELT": "legacy2018"}}}`)
	code, out, errs := topoRun(t, "topo", bare, "--policy", pol)
	if code != exitOK {
		t.Fatalf("bare machine + policy file: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "level=CLS flags=") || !strings.Contains(out, "SD_ASYM_PACKING at: SMT, CLS") {
		t.Errorf("CLS with asym packing missing:\n%s", out)
	}
	if code, _, errs := topoRun(t, "topo", wrapped); code != exitOK {
		t.Errorf("wrapped machine: exit %d: %s", code, errs)
	}
}

// TestTopoErrors: bad input exits 3 naming the field; usage errors exit 2.
func TestTopoErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		args   []string
		code   int
		substr string
	}{
		{[]string{"topo", "nosuch"}, exitInvalid, `unknown preset "nosuch"`},
		{[]string{"topo", "vera", "--policy", "nosuch"}, exitInvalid, `policy: unknown preset "nosuch"`},
		{[]string{"topo", write("cnt.json", `{"nodes": 2, "cores_per_node": 3, "threads_per_core": 3}`)}, exitInvalid, "machine.threads_per_core"},
		{[]string{"topo", write("cls.json", `{"nodes": 1, "cores_per_node": 8, "core_classes": [{"name": "a", "cores": 7, "capacity": 1024, "speed": 1}]}`)},
			exitInvalid, "machine.core_classes: classes cover 7 cores; the machine has 8"},
		{[]string{"topo", write("bad.json", "{\n\"nodes\": 1,,\n}")}, exitInvalid, "malformed JSON at line 2"},
		{[]string{"topo", write("unk.json", `{"nodes": 1, "cores_per_node": 2, "sockets": 2}`)}, exitInvalid, `unknown field "sockets"`},
		{[]string{"topo", write("typ.json", `{"nodes": "two", "cores_per_node": 2}`)}, exitInvalid, "nodes"},
		{[]string{"topo", "vera", "--policy", write("p.json", `{"smt_asym_packing": "sometimes"}`)}, exitInvalid, "smt_asym_packing"},
		{[]string{"topo", "vera", "--policy", write("p2.json", `{"asym_packing": ["L3"]}`)}, exitInvalid, "L3"},
		{[]string{"topo", "vera", "--cpus", "400"}, exitInvalid, "--cpus"},
		{[]string{"topo", "x86-smt", "--policy", "itmt"}, exitInvalid, "machine.priorities"},
		{[]string{"topo"}, exitUsage, "schedplay topo: missing MACHINE"},
		{[]string{"topo", "vera", "power7"}, exitUsage, `schedplay topo: unexpected argument "power7"`},
		{[]string{"topo", "vera", "--bogus"}, exitUsage, "bogus"},
		{[]string{"topo", "missing/file.json"}, exitInvalid, "no such file"},
	}
	for _, tc := range tests {
		code, _, errs := topoRun(t, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.substr) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errs, tc.code, tc.substr)
		}
	}
}

func TestPresetsVerb(t *testing.T) {
	code, out, errs := topoRun(t, "presets")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"machine presets", "policy presets", "vera ", "v6-on ", "combined-asym-packing "} {
		if !strings.Contains(out, want) {
			t.Errorf("presets output lacks %q", want)
		}
	}
	code, out, _ = topoRun(t, "presets", "--json")
	var list []presets.Preset
	if code != exitOK || json.Unmarshal([]byte(out), &list) != nil || len(list) < 18 {
		t.Errorf("presets --json: exit %d, %d presets", code, len(list))
	}
	if code, _, _ := topoRun(t, "presets", "extra"); code != exitUsage {
		t.Errorf("presets extra: exit %d; want %d", code, exitUsage)
	}
}

// TestPolicyPresetsStrict: every policy preset decodes strictly as a
// scenario.Policy, and the eleven names of scenario-v1.md all exist.
func TestPolicyPresetsStrict(t *testing.T) {
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"mainline", "v6-on", "v6-auto", "v6-off", "combined-asym-packing",
		"asym-capacity-smt-asym-packing", "power7", "itmt", "dynamiq-asym-packing", "misfit", "none"} {
		if _, ok := ps.Get(presets.Policy, name); !ok {
			t.Errorf("policy preset %q missing", name)
		}
	}
	for _, name := range ps.Names(presets.Policy) {
		p, _ := ps.Get(presets.Policy, name)
		var pol scenario.Policy
		if err := topoDecodeStrict(p.Body, &pol); err != nil {
			t.Errorf("policy %s: %v", name, err)
		}
	}
	for _, name := range ps.Names(presets.Machine) {
		p, _ := ps.Get(presets.Machine, name)
		var m topo.Machine
		if err := topoDecodeStrict(p.Body, &m); err != nil {
			t.Errorf("machine %s: %v", name, err)
		}
	}
}

// veraTopology builds the vera preset machine (no asym policy needed for capacities).
func veraTopology(t *testing.T) *topo.Topology {
	t.Helper()
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	p, ok := ps.Get(presets.Machine, "vera")
	if !ok {
		t.Fatal("no vera preset")
	}
	var m topo.Machine
	if err := json.Unmarshal(p.Body, &m); err != nil {
		t.Fatal(err)
	}
	tp, err := topo.Build(m, topo.DomainPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	return tp
}

// TestTopoDeviceIRQs: a machine with managed device vectors shows where
// they land. On vera-node 64 vectors over 176 CPUs make 48 groups of 3
// (two PE0s and a PE1) and 16 of 2, so the first 44 groups start on
// even PE0s and the last 20 on PE1s left over (89, 95, …).
func TestTopoDeviceIRQs(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "presets", "machine", "vera-node.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(doc["machine"], &m); err != nil {
		t.Fatal(err)
	}
	m["device_irqs"] = map[string]any{"vectors": 64, "period": "100ms", "run": "20us"}
	b, _ := json.Marshal(m)
	file := filepath.Join(t.TempDir(), "m.json")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := topoRun(t, "topo", file, "--cpus", "0")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := "device interrupts: 64 vector(s), each every 100ms for 20us, delivered to CPUs 0,2,4,6,"
	if !strings.Contains(out, want) || !strings.Contains(out, ",86,89,95,101,") || !strings.Contains(out, ",169,173 (the first CPU") {
		t.Fatalf("topo output lacks the vectors' CPUs:\n%s", out)
	}
}

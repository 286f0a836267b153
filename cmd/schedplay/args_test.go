package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestArgumentErrors: help goes to stdout when asked for, every verb says
// what was wrong with its arguments, --seed takes every uint64 and refuses
// the rest, --reps refuses 0, --vary keeps JSON values whole and refuses a
// field the compared policies set or differ in.
func TestArgumentErrors(t *testing.T) {
	file := writeFile(t, "small.json", small)
	cmp := []string{"compare", file, "--policy", "misfit", "--policy", "none"}
	for _, tt := range []struct {
		name   string
		args   []string
		code   int
		out    []string
		errOut []string // "" alone: stderr must be empty
	}{
		{"help", []string{"help"}, exitOK, []string{"usage: schedplay VERB", "compare", "schedplay help VERB"}, []string{""}},
		{"--help", []string{"--help"}, exitOK, []string{"usage: schedplay VERB"}, []string{""}},
		{"-h", []string{"-h"}, exitOK, []string{"usage: schedplay VERB"}, []string{""}},
		{"no verb", nil, exitUsage, nil, []string{"usage: schedplay VERB"}},
		{"help run", []string{"help", "run"}, exitOK, []string{"usage: schedplay run SCENARIO", "-seed N", "-trace-window"}, []string{""}},
		{"help compare", []string{"help", "compare"}, exitOK, []string{"usage: schedplay compare SCENARIO", "-vary", "top-level commas"}, []string{""}},
		{"help topo", []string{"help", "topo"}, exitOK, []string{"usage: schedplay topo MACHINE"}, []string{""}},
		{"help presets", []string{"help", "presets"}, exitOK, []string{"usage: schedplay presets [KIND]"}, []string{""}},
		{"help help", []string{"help", "help"}, exitOK, []string{"usage: schedplay VERB"}, []string{""}},
		{"run -h", []string{"run", "-h"}, exitOK, []string{"usage: schedplay run SCENARIO", "-seed N"}, []string{""}},
		{"compare --help", []string{"compare", "--help"}, exitOK, []string{"usage: schedplay compare SCENARIO"}, []string{""}},
		{"topo -h", []string{"topo", "-h"}, exitOK, []string{"usage: schedplay topo MACHINE", "-groups"}, []string{""}},
		{"presets -h", []string{"presets", "-h"}, exitOK, []string{"usage: schedplay presets [KIND]"}, []string{""}},
		{"flag error usage on stderr", []string{"run", "--bogus"}, exitUsage, nil, []string{"flag provided but not defined: -bogus", "usage: schedplay run"}},
		{"help unknown verb", []string{"help", "nope"}, exitUsage, nil, []string{`schedplay help: unknown verb "nope"`}},
		{"help two verbs", []string{"help", "run", "compare"}, exitUsage, nil, []string{`schedplay help: unexpected argument "compare"`}},

		{"presets of a kind", []string{"presets", "policy"}, exitOK, []string{"policy presets (", "dynamiq-asym-packing"}, []string{""}},
		{"presets of a plural kind", []string{"presets", "machines"}, exitOK, []string{"machine presets (", "hikey960-dynamiq"}, []string{""}},
		{"presets unknown kind", []string{"presets", "pol"}, exitUsage, nil, []string{`unknown preset kind "pol"; the kinds are scenario, machine, policy, workload`}},
		{"presets two kinds", []string{"presets", "policy", "machine"}, exitUsage, nil, []string{`schedplay presets: unexpected argument "machine"`}},

		{"run two scenarios", []string{"run", "hikey960-sysbench", "power7-smt"}, exitUsage, nil, []string{`schedplay run: unexpected argument "power7-smt"`, "usage: schedplay run"}},
		{"run no scenario", []string{"run", "--reps", "2"}, exitUsage, nil, []string{"schedplay run: missing SCENARIO"}},
		{"compare two scenarios", []string{"compare", file, "x"}, exitUsage, nil, []string{`schedplay compare: unexpected argument "x"`}},
		{"validate two scenarios", []string{"validate", file, "x"}, exitUsage, nil, []string{`schedplay validate: unexpected argument "x"`}},
		{"share two scenarios", []string{"share", file, "x"}, exitUsage, nil, []string{`schedplay share: unexpected argument "x"`}},
		{"serve an argument", []string{"serve", "x"}, exitUsage, nil, []string{`schedplay serve: unexpected argument "x"`}},

		{"negative seed", []string{"run", file, "--seed", "-5"}, exitUsage, nil, []string{`invalid value "-5" for flag -seed: want a whole number from 0 to 18446744073709551615`}},
		{"garbage seed", []string{"compare", file, "--seed", "7x"}, exitUsage, nil, []string{`invalid value "7x" for flag -seed`}},
		{"seed past uint64", []string{"run", file, "--seed", "18446744073709551616"}, exitUsage, nil, []string{`invalid value "18446744073709551616" for flag -seed`}},
		{"largest seed", []string{"run", file, "--seed", "18446744073709551615", "--reps", "1"}, exitOK, []string{"1 repetition(s), seed 18446744073709551615,"}, []string{""}},
		{"seed 0", []string{"run", file, "--seed", "0"}, exitOK, []string{"seeds 0-1"}, []string{""}},
		{"zero reps", []string{"run", file, "--reps", "0"}, exitUsage, nil, []string{`invalid value "0" for flag -reps: want a whole number of repetitions, at least 1`}},
		{"negative reps", []string{"compare", file, "--reps", "-3"}, exitUsage, nil, []string{`invalid value "-3" for flag -reps`}},

		{"vary list values", append(cmp, "--vary", `policy.asym_packing=["SMT"],[]`, "--json"), exitOK, []string{`"vary":"policy.asym_packing"`, `"value":"[\"SMT\"]"`, `"value":"[]"`}, nil},
		{"vary object lists", []string{"compare", file, "--policy", "mainline", "--policy", "v6-on", "--vary", `workload.groups[0].program=[{"compute":"1ms"},{"sleep":"1ms"}],[{"compute": "2ms"}]`},
			exitOK, []string{`workload.groups[0].program = [{"compute":"1ms"},{"sleep":"1ms"}]`, `workload.groups[0].program = [{"compute": "2ms"}]`}, nil},
		{"vary unbalanced", append(cmp, "--vary", `policy.asym_packing=["SMT",[]`), exitUsage, nil, []string{`schedplay compare: --vary value "[\"SMT\",[]": missing ]`}},
		{"vary the policies", append(cmp, "--vary", "policy.preset=none,misfit"), exitUsage, nil,
			[]string{"--vary policy.preset: the two sides of this comparison are the policies misfit (A) and none (B); varying policy.preset would give both sides the same policy"}},
		{"vary a field the policies differ in", append(cmp, "--vary", "policy.asym_cpucapacity=true,false"), exitUsage, nil,
			[]string{"--vary policy.asym_cpucapacity: the two sides of this comparison are the policies misfit (A) and none (B), which differ in this field (A: true, B: false)"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := run(t, "", tt.args...)
			if code != tt.code {
				t.Errorf("exit %d; want %d\nstdout: %s\nstderr: %s", code, tt.code, out, errOut)
			}
			if tt.code != exitOK && out != "" {
				t.Errorf("stdout not empty on a usage error:\n%s", out)
			}
			for _, f := range tt.out {
				if !strings.Contains(out, f) {
					t.Errorf("stdout lacks %q:\n%s", f, out)
				}
			}
			if len(tt.errOut) == 1 && tt.errOut[0] == "" {
				if errOut != "" {
					t.Errorf("stderr not empty:\n%s", errOut)
				}
				return
			}
			for _, f := range tt.errOut {
				if !strings.Contains(errOut, f) {
					t.Errorf("stderr lacks %q:\n%s", f, errOut)
				}
			}
		})
	}
}

// TestCompareSeedFlag: the largest seed reaches the table's seeds.
func TestCompareSeedFlag(t *testing.T) {
	file := writeFile(t, "small.json", small)
	code, out, errOut := run(t, "", "compare", file, "--policy", "mainline", "--policy", "v6-on", "--seed", "18446744073709551615", "--reps", "1", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var tab struct{ Seeds []uint64 }
	if err := json.Unmarshal([]byte(out), &tab); err != nil || len(tab.Seeds) != 1 || tab.Seeds[0] != 18446744073709551615 {
		t.Errorf("seeds %v (%v); want [18446744073709551615]", tab.Seeds, err)
	}
}

// TestPresetsKindJSON: presets KIND --json lists that kind only.
func TestPresetsKindJSON(t *testing.T) {
	code, out, _ := run(t, "", "presets", "--json", "policy")
	var ps []struct{ Kind, Name string }
	if code != exitOK || json.Unmarshal([]byte(out), &ps) != nil || len(ps) < 5 {
		t.Fatalf("exit %d, %d presets:\n%.300s", code, len(ps), out)
	}
	for _, p := range ps {
		if p.Kind != "policy" {
			t.Errorf("preset %s of kind %s in presets policy", p.Name, p.Kind)
		}
	}
}

// Command seedoutputs writes what every seed scenario gives, one file per
// run, so that two commits' outputs can be compared byte for byte:
//
//	./build.sh outputs /tmp/before     (on the old commit)
//	./build.sh outputs /tmp/after      (on the new one)
//	diff -rq /tmp/before /tmp/after
//
// A run is a seed scenario with no variant or one of its variants, under
// its own policy or one of its compare policies, with at most two
// repetitions (fewer when the variant asks for fewer), repetition 0's
// timeline and decisions included. A file holds the bytes of
// POST /api/v1/simulate (`schedplay run --json --timeline`), or the error.
// -only runs the scenarios whose name contains its text.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"schedplay/engine/budget"
	"schedplay/engine/fidelity"
	"schedplay/engine/sim"
	"schedplay/presets"
	"schedplay/site/api"
)

// maxReps bounds a run's repetitions: two show the run-to-run part.
const maxReps = 2

func main() {
	only := flag.String("only", "", "run only the seed scenarios whose name contains `TEXT`")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: seedoutputs [-only TEXT] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	ps, err := presets.Load()
	if err != nil {
		fmt.Fprintln(os.Stderr, "seedoutputs:", err)
		os.Exit(1)
	}
	n, err := writeAll(context.Background(), ps, flag.Arg(0), *only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "seedoutputs:", err)
		os.Exit(1)
	}
	fmt.Printf("%d outputs in %s\n", n, flag.Arg(0))
}

// run is one seed run: a scenario preset, a variant ("" for none) and a
// policy ("" for the scenario's own).
type run struct{ scenario, variant, policy string }

// file is the run's file name: scenario__variant__policy, with every
// character outside [A-Za-z0-9.-] written as '_'.
func (r run) file() string {
	clean := strings.Map(func(c rune) rune {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' {
			return c
		}
		return '_'
	}, r.variant)
	return r.scenario + "__" + clean + "__" + r.policy + ".json"
}

// runs lists every seed run whose scenario name contains only, in preset,
// variant and policy order.
func runs(ps *presets.Set, only string) []run {
	var out []run
	for _, name := range ps.Names(presets.Scenario) {
		if !strings.Contains(name, only) {
			continue
		}
		p, _ := ps.Get(presets.Scenario, name)
		variants := append([]presets.Variant{{}}, p.Variants...)
		for _, v := range variants {
			for _, pol := range append([]string{""}, p.Compare...) {
				out = append(out, run{scenario: name, variant: v.Name, policy: pol})
			}
		}
	}
	return out
}

// writeAll writes every run's output into dir and returns how many.
func writeAll(ctx context.Context, ps *presets.Set, dir, only string) (int, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	rs := runs(ps, only)
	fr := &fidelity.Runner{Presets: ps}
	for _, r := range rs {
		b, err := output(ctx, fr, r)
		if err != nil {
			b = []byte("error: " + err.Error() + "\n")
		}
		if err := os.WriteFile(filepath.Join(dir, r.file()), b, 0o644); err != nil {
			return 0, err
		}
	}
	return len(rs), nil
}

// output runs r as `schedplay run --json --timeline` does, under the serve
// budget, with at most maxReps repetitions.
func output(ctx context.Context, fr *fidelity.Runner, r run) ([]byte, error) {
	spec := fidelity.RunSpec{Scenario: r.scenario, Variant: r.variant, Policy: r.policy}
	rs, err := fr.Resolve(spec)
	if err == nil && rs.Run.Reps > maxReps {
		spec.Set = []string{fmt.Sprintf("run.reps=%d", maxReps)}
		rs, err = fr.Resolve(spec)
	}
	if err != nil {
		return nil, err
	}
	res, err := sim.Run(ctx, rs, sim.Options{Timeline: true, MaxEvents: budget.Serve.RepEventCap(rs.Machine.NumCPUs())})
	if err != nil {
		return nil, err
	}
	return api.Marshal(res)
}

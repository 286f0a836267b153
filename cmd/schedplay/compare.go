package main

import (
	"context"
	"fmt"

	"schedplay/engine/budget"
	"schedplay/engine/compare"
	"schedplay/engine/sim"
	"schedplay/site/api"
)

// cmdCompare runs two policies over the same seeds and prints the
// mailing-list table.
func cmdCompare(e *env, args []string) int {
	fs := newFlagSet(e, "compare", "SCENARIO [--policy A --policy B] [--variant NAME] [--reps N] [--seed N] [--vary path=v1,v2,…] [--set path=value]… [--json]")
	var sets setFlags
	var policies multiFlag
	fs.Var(&policies, "policy", "policy preset `NAME` (give two: A then B; default: the pair a seed scenario names)")
	variant := fs.String("variant", "", "apply the seed scenario's variant `NAME`")
	fs.Var(&sets, "set", "override `path=value` applied to both sides (repeatable)")
	var reps repsFlag
	var seed seedFlag
	fs.Var(&reps, "reps", "`N` repetitions, at least 1 (overrides run.reps)")
	fs.Var(&seed, "seed", "first seed `N`, 0 to 18446744073709551615 (overrides run.seed)")
	vary := fs.String("vary", "", "`path=v1,v2,…`: one table per value, the values split on top-level commas\n"+
		"(a JSON list, object or string is one value: policy.asym_packing='[\"SMT\",\"MC\"],[]');\n"+
		"not a field the two policies set or differ in")
	jsonOut := fs.Bool("json", false, "print the table as JSON")
	pos, err := parseInterspersed(e, fs, args)
	if err != nil {
		return flagExit(err)
	}
	if !oneScenario(e, fs, pos) {
		return exitUsage
	}
	if len(policies) != 0 && len(policies) != 2 {
		fmt.Fprintf(e.stderr, "schedplay compare: give exactly two --policy flags (got %d)\n\n", len(policies))
		fs.Usage()
		return exitUsage
	}
	doc, err := loadScenario(e, pos[0])
	if err != nil {
		return reportError(e, "compare", err)
	}
	if len(policies) == 0 {
		p, ok := presetOf(e, doc)
		if !ok || len(p.Compare) != 2 {
			fmt.Fprintf(e.stderr, "schedplay compare: give two --policy flags (this scenario names no pair to compare)\n")
			return exitUsage
		}
		policies = multiFlag(p.Compare)
	}
	vs, err := variantOverrides(e, doc, *variant)
	if err != nil {
		return reportError(e, "compare", err)
	}
	spec := compare.Spec{Scenario: doc, Presets: e.presets, Set: append(vs, runOverrides(sets, reps, seed)...),
		A: compare.PolicySide(policies[0]), B: compare.PolicySide(policies[1]), Budget: budget.Serve}
	if *vary != "" {
		if spec.Vary, spec.Values, err = compare.ParseVary(*vary); err != nil {
			fmt.Fprintf(e.stderr, "schedplay compare: --vary %v\n", err)
			return exitUsage
		}
		if err := spec.CheckVary(); err != nil {
			fmt.Fprintf(e.stderr, "schedplay compare: --vary %v (to compare policies at other settings, vary a field they share or name other policies with --policy)\n", err)
			return exitUsage
		}
	}
	t, err := compare.Run(context.Background(), sim.Run, spec)
	if err != nil {
		return reportError(e, "compare", err)
	}
	if *jsonOut {
		b, err := api.Marshal(t)
		if err != nil {
			fmt.Fprintf(e.stderr, "schedplay compare: %v\n", err)
			return exitFailed
		}
		e.stdout.Write(b)
		return exitOK
	}
	if err := compare.WriteText(e.stdout, t); err != nil {
		return exitFailed
	}
	return exitOK
}

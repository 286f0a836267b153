package main

import (
	"fmt"

	"schedplay/engine/scenario"
	"schedplay/site/api"
)

// cmdValidate checks a scenario and prints every error with its path
// (exit 3 when invalid).
func cmdValidate(e *env, args []string) int {
	fs := newFlagSet(e, "validate", "SCENARIO [--variant NAME] [--set path=value]… [--json]")
	var sets setFlags
	variant := fs.String("variant", "", "apply the seed scenario's variant `NAME`")
	fs.Var(&sets, "set", "override `path=value` (repeatable)")
	jsonOut := fs.Bool("json", false, "print the result as JSON")
	pos, err := parseInterspersed(e, fs, args)
	if err != nil {
		return flagExit(err)
	}
	if !oneScenario(e, fs, pos) {
		return exitUsage
	}
	doc, err := loadScenario(e, pos[0])
	var vs []scenario.Override
	if err == nil {
		vs, err = variantOverrides(e, doc, *variant)
	}
	if err == nil {
		doc, err = scenario.Apply(doc, e.presets, append(vs, sets...))
	}
	var r *scenario.Resolved
	if err == nil {
		r, err = scenario.Resolve(doc, e.presets)
	}
	if err != nil {
		l := scenario.Errors(err)
		code := reportError(e, "validate", err)
		if *jsonOut && code == exitInvalid {
			b, _ := api.Marshal(map[string]any{"valid": false, "errors": l})
			e.stdout.Write(b)
		}
		return code
	}
	n := r.Machine.NumCPUs()
	tasks := 0
	for _, g := range r.Workload.Groups {
		tasks += g.Count
	}
	ev := scenario.EstimateEvents(r, n)
	if *jsonOut {
		b, _ := api.Marshal(map[string]any{"valid": true, "resolved": r, "events_per_rep": int64(ev)})
		e.stdout.Write(b)
		return exitOK
	}
	fmt.Fprintf(e.stdout, "ok: %q: %d CPUs, %d tasks, %d repetitions of up to %s (about %.3g events each)\n",
		r.Name, n, tasks, r.Run.Reps, r.Run.Duration, ev)
	return exitOK
}

package main

import (
	"context"
	"fmt"
	"strings"

	"schedplay/engine/fidelity"
)

// cmdFidelity runs every published figure the project knows
// (engine/fidelity/figures.json) and prints figure · published (source) ·
// model · ratio · within tolerance. It exits 1 when a figure misses its
// tolerance without a known reason.
func cmdFidelity(e *env, args []string) int {
	fs := newFlagSet(e, "fidelity", "[--figure TEXT] [--markdown | --doc] [--quiet]")
	only := fs.String("figure", "", "run only the figures whose name contains `TEXT`")
	md := fs.Bool("markdown", false, "print the table as Markdown")
	doc := fs.Bool("doc", false, "print the whole of docs/calibration.md (generated from the figures)")
	quiet := fs.Bool("quiet", false, "do not report each simulation on stderr")
	pos, err := parseInterspersed(e, fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 0 {
		fmt.Fprintf(e.stderr, "schedplay fidelity: unexpected argument %q\n\n", pos[0])
		fs.Usage()
		return exitUsage
	}
	if *doc && *only != "" {
		// the document's prose quotes rows of the whole table
		fmt.Fprintln(e.stderr, "schedplay fidelity: --doc writes the whole of docs/calibration.md, which quotes figures --figure would leave out; use --markdown for a part of the table")
		return exitUsage
	}
	figs, err := fidelity.Figures()
	if err != nil {
		fmt.Fprintf(e.stderr, "schedplay fidelity: %v\n", err)
		return exitFailed
	}
	if *only != "" {
		var keep []fidelity.Figure
		for _, f := range figs {
			if strings.Contains(f.Name, *only) {
				keep = append(keep, f)
			}
		}
		if len(keep) == 0 {
			fmt.Fprintf(e.stderr, "schedplay fidelity: no figure name contains %q\n", *only)
			return exitUsage
		}
		figs = keep
	}
	r := &fidelity.Runner{Presets: e.presets}
	if !*quiet {
		r.Progress = func(run fidelity.RunSpec) { fmt.Fprintf(e.stderr, "running %s\n", run) }
	}
	rows, err := r.Run(context.Background(), figs)
	if err != nil {
		fmt.Fprintf(e.stderr, "schedplay fidelity: %v\n", err)
		return exitFailed
	}
	switch {
	case *doc:
		err = fidelity.WriteDoc(e.stdout, rows)
	case *md:
		err = fidelity.WriteMarkdown(e.stdout, rows)
	default:
		err = fidelity.WriteText(e.stdout, rows)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "schedplay fidelity: %v\n", err)
		return exitFailed
	}
	if n := fidelity.Failed(rows); n > 0 {
		fmt.Fprintf(e.stderr, "schedplay fidelity: %d figure(s) outside their tolerance\n", n)
		return exitFailed
	}
	return exitOK
}

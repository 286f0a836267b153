package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"schedplay/presets"
)

// cmdPresets lists every preset by kind with its one-line description.
func cmdPresets(e *env, args []string) int {
	fs := flag.NewFlagSet("presets", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	asJSON := fs.Bool("json", false, "print the presets (with their bodies) as JSON")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: schedplay presets [--json]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "schedplay presets: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if *asJSON {
		out := e.presets.All()
		if out == nil {
			out = []presets.Preset{}
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return exitFailed
		}
		return exitOK
	}
	printPresets(e.stdout, e.presets)
	return exitOK
}

// printPresets writes one block per kind: name, then description.
func printPresets(w io.Writer, ps *presets.Set) {
	for i, k := range presets.Kinds {
		names := ps.Names(k)
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s presets (%d):\n", k, len(names))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, n := range names {
			p, _ := ps.Get(k, n)
			fmt.Fprintf(tw, "  %s\t%s\n", n, p.Description)
		}
		tw.Flush()
	}
}

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"schedplay/presets"
)

// cmdPresets lists every preset by kind with its one-line description,
// or only the presets of one KIND (`schedplay presets policy`).
func cmdPresets(e *env, args []string) int {
	fs := newFlagSet(e, "presets", "[KIND] [--json]\n\nKIND is one of "+kindList()+" (default: every kind).")
	asJSON := fs.Bool("json", false, "print the presets (with their bodies) as JSON")
	pos, err := parseInterspersed(e, fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 1 {
		wantArgs(e, fs, pos, "KIND")
		return exitUsage
	}
	kinds := presets.Kinds
	if len(pos) == 1 {
		k, ok := kindOf(pos[0])
		if !ok {
			fmt.Fprintf(e.stderr, "schedplay presets: unknown preset kind %q; the kinds are %s\n", pos[0], kindList())
			return exitUsage
		}
		kinds = []presets.Kind{k}
	}
	if *asJSON {
		out := []presets.Preset{}
		for _, p := range e.presets.All() {
			if slices.Contains(kinds, p.Kind) {
				out = append(out, p)
			}
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return exitFailed
		}
		return exitOK
	}
	printPresets(e.stdout, e.presets, kinds)
	return exitOK
}

// kindOf reads a KIND argument: a kind's name, or its plural
// ("policies", "machines").
func kindOf(arg string) (presets.Kind, bool) {
	for _, k := range presets.Kinds {
		if arg == string(k) || arg == plural(k) {
			return k, true
		}
	}
	return "", false
}

func plural(k presets.Kind) string {
	if s, ok := strings.CutSuffix(string(k), "y"); ok {
		return s + "ies"
	}
	return string(k) + "s"
}

func kindList() string {
	var names []string
	for _, k := range presets.Kinds {
		names = append(names, string(k))
	}
	return strings.Join(names, ", ")
}

// printPresets writes one block per kind: name, then description.
func printPresets(w io.Writer, ps *presets.Set, kinds []presets.Kind) {
	for i, k := range kinds {
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

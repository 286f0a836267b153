package main

import (
	"fmt"

	"schedplay/engine/scenario"
	"schedplay/site/api"
)

// cmdShare prints the share link of a scenario (after validating it).
func cmdShare(e *env, args []string) int {
	fs := newFlagSet(e, "share", "SCENARIO [--variant NAME] [--set path=value]… [--base URL] [--json]")
	var sets setFlags
	variant := fs.String("variant", "", "apply the seed scenario's variant `NAME` (e.g. \"22 threads\")")
	fs.Var(&sets, "set", "override `path=value` (repeatable)")
	base := fs.String("base", scenario.DefaultBase, "base `URL` of the playground")
	jsonOut := fs.Bool("json", false, "print {\"url\", \"fragment_bytes\", \"json_bytes\"}")
	pos, err := parseInterspersed(e, fs, args)
	if err != nil {
		return flagExit(err)
	}
	if !oneScenario(e, fs, pos) {
		return exitUsage
	}
	doc, _, code := resolveArg(e, "share", pos[0], *variant, sets)
	if code != exitOK {
		return code
	}
	link, err := scenario.ShareURL(*base, doc)
	if err != nil {
		return reportError(e, "share", err)
	}
	if *jsonOut {
		enc, _ := scenario.Encode(doc)
		p, _ := scenario.EncodeShare(doc)
		b, _ := api.Marshal(map[string]any{"url": link, "fragment_bytes": len(p) + 3, "json_bytes": len(enc)})
		e.stdout.Write(b)
		return exitOK
	}
	fmt.Fprintln(e.stdout, link)
	return exitOK
}

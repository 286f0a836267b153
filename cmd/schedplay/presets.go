package main

import "fmt"

// cmdPresets is a placeholder until the verb lands; it is replaced, not kept.
func cmdPresets(e *env, args []string) int {
	fmt.Fprintln(e.stderr, "schedplay presets: not built yet")
	return exitFailed
}

package main

import "fmt"

// cmdRun is a placeholder until the verb lands; it is replaced, not kept.
func cmdRun(e *env, args []string) int {
	fmt.Fprintln(e.stderr, "schedplay run: not built yet")
	return exitFailed
}

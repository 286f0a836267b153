package main

import "fmt"

// cmdCompare is a placeholder until the verb lands; it is replaced, not kept.
func cmdCompare(e *env, args []string) int {
	fmt.Fprintln(e.stderr, "schedplay compare: not built yet")
	return exitFailed
}

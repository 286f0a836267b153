package main

import "fmt"

// cmdShare is a placeholder until the verb lands; it is replaced, not kept.
func cmdShare(e *env, args []string) int {
	fmt.Fprintln(e.stderr, "schedplay share: not built yet")
	return exitFailed
}

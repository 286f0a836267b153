package main

import "fmt"

// cmdServe is a placeholder until the verb lands; it is replaced, not kept.
func cmdServe(e *env, args []string) int {
	fmt.Fprintln(e.stderr, "schedplay serve: not built yet")
	return exitFailed
}

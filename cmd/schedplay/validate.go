package main

import "fmt"

// cmdValidate is a placeholder until the verb lands; it is replaced, not kept.
func cmdValidate(e *env, args []string) int {
	fmt.Fprintln(e.stderr, "schedplay validate: not built yet")
	return exitFailed
}

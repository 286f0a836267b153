package main

import "fmt"

// cmdTopo is a placeholder until the verb lands; it is replaced, not kept.
func cmdTopo(e *env, args []string) int {
	fmt.Fprintln(e.stderr, "schedplay topo: not built yet")
	return exitFailed
}

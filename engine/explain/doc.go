// Package explain answers "why" questions about simulation results for the
// compare and explain views: where two runs of the same scenario first
// placed a task differently (FirstDivergence), how each core's figures
// moved between them (CoreDeltas), and what a recorded placement decision
// means in kernel vocabulary, with every kernel function linked to its entry
// in docs/KERNEL-MAP.md (Describe).
//
// The package is pure: no I/O, no clock, deterministic output.
package explain

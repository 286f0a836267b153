// Package compareview is the playground's compare view, opened by
// ?compare=POLICY_A,POLICY_B (with #s= or ?preset=NAME; ?compare=1 takes a
// seed scenario's own pair; variant:NAME names a variant of the seed
// scenario instead of a policy; docs/compare.md): both sides over the same seeds (POST
// /api/v1/compare gives the mailing-list table), two timelines of
// repetition 0 with a linked time axis, the per-core deltas, the first
// divergence with both decision paths, "Copy as text", and a sweep of one
// field drawn as a curve with error bars.
//
// The pure parts (address parsing, sweep values and chart, delta cells,
// kernel-map links) build and test natively; the DOM is in *_js.go files.
// The page hooks it in wasm/ui/main.go with `if compareview.Start() {…}`.
package compareview

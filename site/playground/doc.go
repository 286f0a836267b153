// Package playground is the schedplay page's main view: the scenario
// editors, the run and its figures, the timeline, the topology view and
// the slice explainer. State changes go through one reducer (Reduce, pure,
// tested natively); App (app_js.go) dispatches actions, re-runs the engine
// and renders. The page starts it in wasm/ui/main.go when no other view
// claims the address. What other views share lives in package site.
package playground

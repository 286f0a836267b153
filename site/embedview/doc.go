// Package embedview is the compact, read-only view of ?embed=1
// (docs/embed.md): the scenario's timeline, its key figures and an "Open
// in playground" link, sized for an <iframe>, driven by a host page
// through postMessage (set, run, ping → ready, ack, progress, result,
// error; the protocol itself is engine/embed). It never touches cookies,
// localStorage, sessionStorage, IndexedDB or history: its state comes from
// the URL and from messages only.
//
// The page hooks it in wasm/ui/main.go with `if embedview.Start() {…}`,
// before anything of the playground (which uses localStorage) runs.
// Snippet is the "Embed" button's text for the playground.
package embedview

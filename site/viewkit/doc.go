// Package viewkit holds what the compare view, the embed view and the
// export menu share: the engine-worker bridge (Fetch, Cancel), clipboard
// and Blob downloads, postMessage, element building, the palette, and the
// API reply decoding. It does not import package site (the geometry); the
// canvas timeline, which reuses site's geometry, is the subpackage
// canvastl.
//
// The pure parts (API errors, request bodies, palette, labels) build
// natively; DOM and syscall/js code is in *_js.go files. Some of it is a
// deliberate small copy of unexported pieces of the playground
// (engineFetch/await, copyText, the palette and mode colours), so these
// views do not depend on the playground's internals.
package viewkit

// Package viewkit holds what the compare view, the embed view and the
// export menu share: the engine-worker bridge, element building, a canvas
// timeline with a linkable time window, and the API reply decoding. The
// pure parts (API errors, palette, labels) build natively; DOM and
// syscall/js code is in *_js.go files.
//
// Some of it is a deliberate small copy of unexported pieces of package
// site (engineFetch/await, the palette and mode colours), so that these
// views do not depend on the playground's internals.
package viewkit

// Package export turns a simulation's results into files a kernel developer
// can keep or paste elsewhere: the per-repetition metrics as CSV, the result
// as canonical JSON, and the timeline as an SVG document or a PNG image.
//
// Everything here is pure and deterministic: the same Result and options
// give the same bytes, so the browser, the CLI and the tests agree. The
// rt-app conversion of a workload lives in the subpackage export/rtapp.
package export

// Package scenario is schedplay's scenario format, version 1: the one JSON
// document that drives the simulator, the CLI, the HTTP API, the share link
// and the page. docs/scenario.md documents every field.
//
// # Reading a document
//
// Decode reads a document strictly (one JSON object, known keys, a known
// format version) and keeps its sections as JSON, because each section may
// name a preset and override any of its fields. Resolve expands the presets
// (JSON Merge Patch over the preset's body), decodes every section strictly
// into the typed Resolved, fills defaults (WithDefaults) and validates it.
// Every error is an *Error with the JSON path of the field
// ("workload.groups[0].program[2].compute") and a sentence, collected in an
// ErrorList sorted by path, so a user sees every problem at once.
//
// # Editing
//
// ParseSet and Apply implement `--set path=value`: "X.preset" swaps a
// section, any other path edits the section after its preset was expanded,
// and the section is stored back as its preset plus the difference.
//
// # Encoding and links
//
// Encode is canonical (sorted keys, compact, no HTML escaping): a fixed
// point of Decode, with resolve(decode(encode(s))) == resolve(s).
// EncodeShare / DecodeShareURL carry a document in a URL fragment
// (#s=base64url of raw DEFLATE) and guard against damaged links and
// decompression bombs.
//
// # Limits
//
// Validation (Prepare, Resolve) bounds what one document may ask for (CPUs, tasks, duration,
// repetitions, program size and depth, and an estimated event budget that
// grows more careful on large machines), so that any accepted scenario runs
// in bounded time in a browser tab.
package scenario

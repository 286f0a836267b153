// Package importer turns what a user already has into a schedplay
// scenario: a machine description (a sysfs snapshot directory or
// tarball, lscpu output, hwloc XML, a dump of the kernel's sched
// domains) becomes the machine section; an rt-app use case or a
// scheduling trace (ftrace text, Chrome JSON with systemTraceEvents)
// becomes a bounded workload that replays it.
//
// Import recognises the format by content, reads it with the bounded
// reader of its package (sysfs, lscpu, hwloc, domains, rtapp, trace),
// and returns the whole scenario document, the notes that announce
// every default it took, and, when the input holds the kernel's own
// sched domains, the comparison with the ones schedplay builds. It
// refuses bad input with an error naming the file and line and never
// returns a half-imported scenario: the document it returns validates.
package importer

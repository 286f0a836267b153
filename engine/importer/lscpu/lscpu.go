// Package lscpu reads the output of util-linux's lscpu into an
// hw.Topology: the parsable table (`lscpu -p[=list]`, with or without
// --physical), the extended table (`lscpu -e[=list]`), both as JSON
// (`lscpu -e --json`), and the summary (`lscpu`, `lscpu --json`).
//
// The tables name every CPU's core, socket, node and caches; the summary
// only counts them, so reading it assumes a numbering (announced).
package lscpu

import (
	"bytes"
	"regexp"
	"strings"

	"schedplay/engine/importer/hw"
)

// Form is which lscpu output a text is.
type Form string

// The forms Detect tells apart.
const (
	Parse       Form = "lscpu -p"
	Extended    Form = "lscpu -e"
	JSONTable   Form = "lscpu -e --json"
	Summary     Form = "lscpu"
	JSONSummary Form = "lscpu --json"
)

// jsonTable is the start of `lscpu -e --json`: a "cpus" list of objects
// with a "cpu" key.
var jsonTable = regexp.MustCompile(`^\{\s*"cpus"\s*:\s*\[\s*\{\s*"cpu"\s*:`)

// Detect recognises an lscpu output by its first lines; "" when it is
// none of them.
func Detect(head []byte) Form {
	s := strings.TrimLeft(string(head), " \t\r\n\ufeff")
	switch {
	case strings.HasPrefix(s, "{"):
		if jsonTable.MatchString(s) {
			return JSONTable
		}
		if strings.Contains(s, `"lscpu"`) {
			return JSONSummary
		}
	case strings.HasPrefix(s, "# The following is the parsable format") || strings.HasPrefix(s, "# CPU,"):
		return Parse
	}
	// Before the table's "CPU " header: a summary may start at its
	// "CPU op-mode(s):" line (util-linux's own expected outputs do).
	for _, l := range strings.SplitN(s, "\n", 12) {
		k, _, ok := strings.Cut(l, ":")
		if ok && (k == "Architecture" || k == "CPU(s)" || k == "CPU op-mode(s)") {
			return Summary
		}
	}
	if strings.HasPrefix(s, "CPU ") || strings.HasPrefix(s, "CPU\t") {
		return Extended
	}
	return ""
}

// Read reads an lscpu output of form f; file names it in errors.
func Read(f Form, data []byte, file string) (*hw.Topology, error) {
	switch f {
	case Parse:
		return readParse(data, file)
	case Extended:
		return readExtended(data, file)
	case JSONTable:
		return readJSONTable(data, file)
	case JSONSummary:
		return readJSONSummary(data, file)
	}
	return readSummary(bytes.NewReader(data), file)
}

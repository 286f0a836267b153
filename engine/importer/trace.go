package importer

import (
	"bufio"
	"regexp"

	"schedplay/engine/importer/input"
)

var (
	ftraceLine  = regexp.MustCompile(`\[\d{3,}\][^:]*\d+\.\d+: [a-z_]+:`)
	chromeTrace = regexp.MustCompile(`^\s*\{\s*"(traceEvents|systemTraceEvents)"`)
)

func isChromeTrace(head []byte) bool { return chromeTrace.Match(head) }

func isFtrace(head []byte) bool { return ftraceLine.Match(head) }

// importTrace reads a scheduling trace.
func importTrace(name string, f Format, r *bufio.Reader, opt Options) (*Result, error) {
	return nil, input.Errorf(name, 0, "%s: trace replay is not built yet", f)
}

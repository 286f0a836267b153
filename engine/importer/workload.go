package importer

import (
	"io"
)

// workloadKind is a workload format recognised by its head.
type workloadKind Format

// workloadFormat recognises rt-app JSON and traces.
func workloadFormat(head []byte) (workloadKind, bool) {
	return "", false
}

// importWorkload reads a workload format.
func importWorkload(name string, k workloadKind, r io.Reader, opt Options) (*Result, error) {
	return nil, nil
}

//go:build !unix

package httpbackend

import "time"

// cpuTime is unknown here (0: the benchmark leaves out its CPU metrics).
func cpuTime() time.Duration { return 0 }

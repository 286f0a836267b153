package httpbackend

import (
	"os"
	"runtime/debug"
)

// SweepGCPercent is the garbage collector's target (GOGC) while a sweep
// runs points on every local core. At the default 100 the collector marks
// alongside the engines and takes CPU they would use (a point run alone
// leaves it an idle core), which cost 13–18 % of a sweep's rate on two
// cores (BenchmarkSweepLocal: efficiency 0.87 and 0.82 at 100, 0.95 and
// 0.98 at 400). At 400 the heap may grow to five times the live data of
// the points in flight, a few hundred MB at most; SweepMemoryLimit caps it.
const SweepGCPercent = 400

// SweepMemoryLimit is the soft heap limit (GOMEMLIMIT) a local sweep sets
// with SweepGCPercent: past it the collector runs as often as it must.
const SweepMemoryLimit = 1 << 30

// TuneForSweep sets SweepGCPercent and SweepMemoryLimit for this process,
// unless the user set GOGC or GOMEMLIMIT.
func TuneForSweep() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(SweepGCPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(SweepMemoryLimit)
	}
}

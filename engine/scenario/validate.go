package scenario

import (
	"math"

	"schedplay/engine/quote"
	"schedplay/engine/topo"
	"schedplay/engine/units"
)

// Limits enforced by validation (Prepare, Resolve), so that any accepted scenario runs in bounded
// time and memory in a browser tab.
const (
	MaxCPUs         = 4096
	MaxNodes        = 64
	MaxTasks        = 16384
	MaxGroups       = 256
	MaxRunDuration  = 60 * units.Second
	MaxReps         = 100
	MaxProgramDepth = 8
	// MaxProgramSteps fits perf's default sched messaging written with
	// one group per receiver (10 groups: about 1,250 steps; about 300 with
	// a channel per task, InstanceToken).
	MaxProgramSteps = 2048
	MaxRepeat       = 1_000_000_000
	maxLatencyParam = 100 * units.Millisecond
	// MaxLatencyVariation bounds machine.latency.variation, a coefficient
	// of variation (at 2 a cost's p99.9 is some 50× its median).
	MaxLatencyVariation = 2.0
	// MaxIdleStates bounds machine.latency.idle_states (CPUIDLE_STATE_MAX is 10).
	MaxIdleStates    = 10
	MaxIdleStateName = 64
	// MaxMessageBytes bounds a pipe or socket message (one 64 KiB pipe slot).
	MaxMessageBytes    = 65536
	maxPolicyDuration  = 1 * units.Second
	maxSpeed           = 16.0
	maxBoostMultiplier = 10.0
)

// validate checks every section not in skip (sections that failed to
// decode), so that one document's errors are all reported at once. It
// does not build the topology (Topology does, once the cost is checked).
func (r *Resolved) validate(errs *ErrorList, skip map[string]bool) {
	n := 0
	if !skip["machine"] {
		n = validateMachine(errs, &r.Machine)
	}
	if !skip["policy"] {
		validatePolicy(errs, &r.Policy, &r.Machine, !skip["machine"])
	}
	if !skip["workload"] {
		validateWorkload(errs, &r.Workload, n)
	}
	if !skip["run"] {
		validateRun(errs, &r.Run)
	}
}

// checkDuration reports a negative d or one above max.
func checkDuration(errs *ErrorList, path string, d, max units.Duration) {
	switch {
	case d < 0:
		errs.Add(path, "%s is negative; durations must be ≥ 0", d)
	case d > max:
		errs.Add(path, "%s is longer than the limit of %s", d, max)
	}
}

// checkFloat reports a NaN, infinite or out-of-range value.
func checkFloat(errs *ErrorList, path string, v, lo, hi float64, loOpen bool) {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		errs.Add(path, "must be a finite number")
	case loOpen && v <= lo, !loOpen && v < lo, v > hi:
		op := "≥"
		if loOpen {
			op = ">"
		}
		errs.Add(path, "%g is out of range; want %s %g and ≤ %g", v, op, lo, hi)
	}
}

func checkRange(errs *ErrorList, path string, v, lo, hi int) bool {
	if v < lo || v > hi {
		errs.Add(path, "%d is out of range; want %d..%d", v, lo, hi)
		return false
	}
	return true
}

// validateMachine checks the machine section and returns its CPU count, or
// 0 when the shape itself is invalid.
func validateMachine(errs *ErrorList, m *topo.Machine) int {
	ok := checkRange(errs, "machine.nodes", m.Nodes, 1, MaxNodes)
	ok = checkRange(errs, "machine.cores_per_node", m.CoresPerNode, 1, MaxCPUs) && ok
	switch m.ThreadsPerCore {
	case 1, 2, 4, 8:
	default:
		errs.Add("machine.threads_per_core", "%d is not a hardware thread count; want 1, 2, 4 or 8", m.ThreadsPerCore)
		ok = false
	}
	if !ok {
		return 0
	}
	cores := m.Nodes * m.CoresPerNode
	if cores > MaxCPUs {
		errs.Add("machine", "%d nodes × %d cores = %d cores, above the limit of %d CPUs", m.Nodes, m.CoresPerNode, cores, MaxCPUs)
		return 0
	}
	if len(m.CoreClasses) == 0 {
		// only an explicit [] reaches here: an absent list gets one class
		errs.Add("machine.core_classes", "is empty; describe at least one class, or leave the field out for one class of capacity 1024 and speed 1")
	}
	validateCoreClasses(errs, m.CoreClasses, cores, m.ThreadsPerCore)
	// the real CPU count: each class's threads (threads_per_core when the
	// classes do not cover the cores, which is reported above)
	n := m.NumCPUs()
	if n > MaxCPUs {
		errs.Add("machine", "%d nodes × %d cores make %d CPUs, above the limit of %d", m.Nodes, m.CoresPerNode, n, MaxCPUs)
		return 0
	}
	if checkRange(errs, "machine.clusters_per_node", m.ClustersPerNode, 1, m.CoresPerNode) && m.CoresPerNode%m.ClustersPerNode != 0 {
		errs.Add("machine.clusters_per_node", "%d clusters do not split %d cores evenly", m.ClustersPerNode, m.CoresPerNode)
	}
	if len(m.Priorities) > 0 && len(m.Priorities) != n {
		errs.Add("machine.priorities", "has %d values for %d CPUs; give one per CPU", len(m.Priorities), n)
	}
	for i, p := range m.Priorities {
		checkRange(errs, indexPath("machine.priorities", i), p, -1<<20, 1<<20)
	}
	checkLevels(errs, "machine.arch.asym_packing", m.Arch.AsymPacking)
	validateSMT(errs, &m.SMT, m.ThreadsPerCore)
	validateBoost(errs, m.Boost)
	checkFloat(errs, "machine.gflops_per_core", m.GflopsPerCore, 0, 1e6, false)
	validateLatency(errs, &m.Latency)
	validateIPC(errs, &m.IPC)
	if m.Housekeeping != nil {
		validateHousekeeping(errs, "machine.housekeeping", m.Housekeeping)
	}
	if m.DeviceIRQs != nil {
		validateDeviceIRQs(errs, m.DeviceIRQs)
	}
	if m.Distances != nil {
		validateDistances(errs, m.Distances, m.Nodes)
	}
	return n
}

// minDeviceIRQPeriod bounds how often one vector may fire (the events a
// run costs are estimated from it too: estimateWork).
const minDeviceIRQPeriod = 10 * units.Microsecond

func validateDeviceIRQs(errs *ErrorList, d *topo.DeviceIRQs) {
	const p = "machine.device_irqs"
	if d.Vectors < 1 || d.Vectors > MaxCPUs {
		errs.Add(p+".vectors", "%d; want 1..%d", d.Vectors, MaxCPUs)
	}
	if d.Period < minDeviceIRQPeriod {
		errs.Add(p+".period", "%s; want at least %s", d.Period, minDeviceIRQPeriod)
	}
	checkDuration(errs, p+".period", d.Period, MaxRunDuration)
	checkDuration(errs, p+".run", d.Run, MaxRunDuration)
	if d.Period > 0 && d.Run >= d.Period {
		errs.Add(p+".run", "%s is not shorter than the period %s", d.Run, d.Period)
	}
}

// validateCoreClasses checks the classes against the machine's cores and
// threads_per_core (tpc), the maximum a class's threads may ask for.
func validateCoreClasses(errs *ErrorList, cc []topo.CoreClass, cores, tpc int) {
	sum := 0
	for i, c := range cc {
		p := indexPath("machine.core_classes", i)
		checkRange(errs, p+".cores", c.Cores, 1, MaxCPUs)
		checkRange(errs, p+".capacity", c.Capacity, 1, 1024)
		checkFloat(errs, p+".speed", c.Speed, 0, maxSpeed, true)
		if c.Threads != 0 && (c.Threads < 1 || c.Threads > tpc) {
			errs.Add(p+".threads", "%d is out of range; want 1..%d (threads_per_core is the maximum)", c.Threads, tpc)
		}
		// cluster_cores against the class and the other classes is
		// topo.Build's check (validateTopology)
		if c.ClusterCores != 0 && (c.ClusterCores < 1 || c.ClusterCores > max(c.Cores, 1)) {
			errs.Add(p+".cluster_cores", "%d is out of range; want 1..%d (the class's cores)", c.ClusterCores, max(c.Cores, 1))
		}
		sum += max(c.Cores, 0)
	}
	if len(cc) > 0 && sum != cores {
		errs.Add("machine.core_classes", "assign %d cores but the machine has %d (nodes × cores_per_node)", sum, cores)
	}
}

func checkLevels(errs *ErrorList, path string, ls *[]topo.Level) {
	if ls == nil {
		return
	}
	seen := map[topo.Level]bool{}
	for i, l := range *ls {
		if seen[l] {
			errs.Add(indexPath(path, i), "level %s is listed twice", l)
		}
		seen[l] = true
	}
}

func validateSMT(errs *ErrorList, s *topo.SMTModel, threads int) {
	if len(s.Yield) != threads {
		errs.Add("machine.smt.yield", "has %d values for %d threads per core; give one per busy-thread count", len(s.Yield), threads)
	}
	for i, y := range s.Yield {
		checkFloat(errs, indexPath("machine.smt.yield", i), y, 0, float64(threads), true)
	}
	checkDuration(errs, "machine.smt.switch", s.Switch, maxPolicyDuration)
	checkDuration(errs, "machine.smt.hold", s.Hold, maxPolicyDuration)
	checkDuration(errs, "machine.smt.qual", s.Qual, maxPolicyDuration)
	checkFloat(errs, "machine.smt.partitioned_single", s.PartitionedSingle, 0, 1, true)
}

func validateBoost(errs *ErrorList, b [][2]float64) {
	for i, pt := range b {
		p := indexPath("machine.boost", i)
		checkFloat(errs, p+"[0]", pt[0], 0, 1, false)
		checkFloat(errs, p+"[1]", pt[1], 0, maxBoostMultiplier, true)
		if i > 0 && pt[0] <= b[i-1][0] {
			errs.Add(p+"[0]", "busy-core fractions must increase (%g after %g)", pt[0], b[i-1][0])
		}
	}
}

func validateHousekeeping(errs *ErrorList, path string, h *topo.Housekeeping) {
	if h.Period <= 0 {
		errs.Add(path+".period", "must be > 0")
	}
	checkDuration(errs, path+".period", h.Period, MaxRunDuration)
	checkDuration(errs, path+".run", h.Run, MaxRunDuration)
	if h.Period > 0 && h.Run >= h.Period {
		errs.Add(path+".run", "%s is not shorter than the period %s", h.Run, h.Period)
	}
}

func validateDistances(errs *ErrorList, d [][]int, nodes int) {
	if len(d) != nodes {
		errs.Add("machine.distances", "has %d rows for %d nodes", len(d), nodes)
		return
	}
	for i, row := range d {
		if len(row) != nodes {
			errs.Add(indexPath("machine.distances", i), "has %d values for %d nodes", len(row), nodes)
			continue
		}
		for j, v := range row {
			checkRange(errs, indexPath(indexPath("machine.distances", i), j), v, 1, 255)
		}
	}
}

func validatePolicy(errs *ErrorList, p *Policy, m *topo.Machine, machineOK bool) {
	checkLevels(errs, "policy.asym_packing", p.AsymPacking)
	if machineOK && p.Priority == topo.PriorityArch && len(m.Priorities) == 0 {
		errs.Add("policy.priority", "\"arch\" needs machine.priorities, which this machine does not have")
	}
	checkRange(errs, "policy.hz", p.HZ, 10, 10000)
	if p.BaseSlice == 0 {
		errs.Add("policy.base_slice", "0s is out of range; want > 0 and ≤ %s", maxPolicyDuration)
	}
	checkDuration(errs, "policy.base_slice", p.BaseSlice, maxPolicyDuration)
	checkDuration(errs, "policy.migration_cost", p.MigrationCost, maxPolicyDuration)
	switch p.Features.PELT {
	case PELTModern, PELTLegacy2018:
	default:
		errs.Add("policy.features.PELT", "unknown PELT mode %s; want \"modern\" or \"legacy2018\"", quote.Short(string(p.Features.PELT)))
	}
}

func validateRun(errs *ErrorList, r *Run) {
	if r.Duration == 0 {
		errs.Add("run.duration", "0s is out of range; want > 0 and ≤ %s", MaxRunDuration)
	}
	checkDuration(errs, "run.duration", r.Duration, MaxRunDuration)
	switch r.Until {
	case UntilDone, UntilDuration:
	default:
		errs.Add("run.until", "unknown value %s; want \"done\" or \"duration\"", quote.Short(string(r.Until)))
	}
	checkRange(errs, "run.reps", r.Reps, 1, MaxReps)
	checkDuration(errs, "run.warmup", r.Warmup, MaxRunDuration)
	if r.Duration > 0 && r.Warmup >= r.Duration {
		errs.Add("run.warmup", "%s leaves nothing of the %s run to measure", r.Warmup, r.Duration)
	}
}

// validateLatency checks the wake-up cost parameters.
func validateLatency(errs *ErrorList, l *topo.Latency) {
	const p = "machine.latency."
	for _, f := range []struct {
		k string
		d units.Duration
	}{{"wakeup", l.Wakeup}, {"ipi", l.IPI}, {"ipi_send", l.IPISend}, {"idle_exit", l.IdleExit},
		{"context_switch", l.ContextSwitch}, {"process_switch", l.ProcessSwitch}, {"syscall", l.Syscall},
		{"cacheline.smt", l.Cacheline.SMT}, {"cacheline.llc", l.Cacheline.LLC}, {"cacheline.remote", l.Cacheline.Remote},
		{"cacheline.numa", l.Cacheline.NUMA}} {
		checkDuration(errs, p+f.k, f.d, maxLatencyParam)
	}
	if d := l.Cacheline.NUMADistance; d != 0 && (d <= topo.LocalDistance || d > topo.MaxDistance) {
		errs.Add(p+"cacheline.numa_distance", "%d; want 0 (every other node costs numa) or a SLIT distance %d..%d", d, topo.LocalDistance+1, topo.MaxDistance)
	}
	checkFloat(errs, p+"variation", l.Variation, 0, MaxLatencyVariation, false)
	if len(l.IdleStates) > MaxIdleStates {
		errs.Add(p+"idle_states", "has %d states; the limit is %d", len(l.IdleStates), MaxIdleStates)
		return
	}
	prev := topo.IdleState{ExitLatency: l.IdleExit}
	for i, st := range l.IdleStates {
		at := indexPath(p+"idle_states", i)
		if st.Name == "" || len(st.Name) > MaxIdleStateName {
			errs.Add(at+".name", "must be 1 to %d bytes", MaxIdleStateName)
		}
		checkDuration(errs, at+".exit_latency", st.ExitLatency, maxLatencyParam)
		checkDuration(errs, at+".target_residency", st.TargetResidency, MaxRunDuration)
		if st.ExitLatency < prev.ExitLatency || st.TargetResidency < prev.TargetResidency {
			errs.Add(at, "is shallower than the state before it; list the states from the shallowest (exit_latency and target_residency must not decrease, starting from idle_exit)")
		}
		prev = st
	}
}

// validateIPC checks the kernel IPC path costs and buffer sizes.
func validateIPC(errs *ErrorList, c *topo.IPC) {
	const p = "machine.ipc."
	for _, f := range []struct {
		k string
		d units.Duration
	}{{"pipe_write", c.PipeWrite}, {"pipe_read", c.PipeRead}, {"socket_send", c.SocketSend},
		{"socket_recv", c.SocketRecv}, {"futex_wake", c.FutexWake}} {
		checkDuration(errs, p+f.k, f.d, maxLatencyParam)
	}
	checkRange(errs, p+"sock_sndbuf", c.SockSndbuf, 4608, 1<<30) // SOCK_MIN_SNDBUF … a GiB
	checkRange(errs, p+"pipe_buffers", c.PipeBuffers, 1, 1<<20)
	checkRange(errs, p+"page_size", c.PageSize, 4096, 1<<20)
	checkRange(errs, p+"message_lines", c.MessageLines, 0, 1024)
}

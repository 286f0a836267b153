package scenario

import (
	"strings"
	"unicode/utf8"

	"schedplay/engine/quote"
	"schedplay/engine/topo"
)

// Workload metrics (Workload.Metric).
var metricNames = []Metric{"", MetricSGEMM, MetricRequests, MetricLatency, MetricOps}

// validateWorkload checks the workload for a machine of n CPUs (0 when the
// machine is invalid: cpulists are then not checked).
func validateWorkload(errs *ErrorList, w *Workload, n int) {
	if len(w.Groups) > MaxGroups {
		errs.Add("workload.groups", "has %d groups; the limit is %d", len(w.Groups), MaxGroups)
		return
	}
	total, steps, instSteps := 0, 0, 0
	for i := range w.Groups {
		g := &w.Groups[i]
		p := indexPath("workload.groups", i)
		if g.Count < 1 || g.Count > MaxTasks {
			if g.Count > MaxTasks {
				errs.Add(p+".count", "%d tasks exceed the limit of %d", g.Count, MaxTasks)
			} else {
				errs.Add(p+".count", "must be at least 1")
			}
		} else {
			total += g.Count
		}
		if g.CPUs != "" && n > 0 {
			checkCPUList(errs, p+".cpus", g.CPUs, n)
		}
		checkName(errs, p+".name", g.Name)
		switch g.Pin {
		case PinNone, PinEach:
		default:
			errs.Add(p+".pin", "unknown value %s; want \"each\" or leave it out", quote.Short(string(g.Pin)))
		}
		checkRange(errs, p+".nice", g.Nice, -20, 19)
		checkPolicy(errs, p, g)
		if g.Slice != nil && (*g.Slice < MinCustomSlice || *g.Slice > MaxCustomSlice) {
			errs.Add(p+".slice", "%s is outside %s..%s, the range __setscheduler_params() clamps sched_runtime to", *g.Slice, MinCustomSlice, MaxCustomSlice)
		}
		checkDuration(errs, p+".start", g.Start, MaxRunDuration)
		if g.TimerSlack != nil {
			checkDuration(errs, p+".timer_slack", *g.TimerSlack, maxLatencyParam)
		}
		checkDuration(errs, p+".repartition_cost", g.RepartitionCost, maxLatencyParam)
		if g.ParentCPU != nil && n > 0 && (*g.ParentCPU < 0 || *g.ParentCPU >= n) {
			errs.Add(p+".parent_cpu", "CPU %d does not exist; this machine has CPUs 0-%d", *g.ParentCPU, n-1)
		}
		if g.ParentCPU != nil && w.SharedParent && i > 0 {
			errs.Add(p+".parent_cpu", "is set, but workload.shared_parent forks every group from group 0's parent; set parent_cpu on group 0 only")
		}
		checkParentCPUs(errs, p, g, w.SharedParent && i > 0, n)
		if len(g.Program) == 0 {
			errs.Add(p+".program", "is empty; give at least one step")
		}
		groupSteps := validateSteps(errs, p+".program", g.Program, 1)
		steps += groupSteps
		if g.Count >= 1 && g.Count <= MaxTasks && UsesInstance(g.Program) {
			instSteps += g.Count * groupSteps
		}
	}
	if instSteps > MaxInstanceSteps {
		errs.Add("workload.groups", "the programs compiled per task (groups whose channel names use %s) have %d steps in all (count × steps); the limit is %d",
			InstanceToken, instSteps, MaxInstanceSteps)
	} else {
		checkChannelKinds(errs, w.Groups)
		checkChannelBatches(errs, w.Groups)
	}
	if total > MaxTasks {
		errs.Add("workload.groups", "%d tasks in total exceed the limit of %d", total, MaxTasks)
	}
	if steps > MaxProgramSteps {
		errs.Add("workload.groups", "the programs have %d steps in total; the limit is %d", steps, MaxProgramSteps)
	} else {
		checkTimedCount(errs, w.Groups)
	}
	if w.Housekeeping != nil {
		validateHousekeeping(errs, "workload.housekeeping", w.Housekeeping)
	}
	checkFloat(errs, "workload.efficiency", w.Efficiency, 0, 1, true)
	if w.CPUDMALatency != nil {
		checkDuration(errs, "workload.cpu_dma_latency", *w.CPUDMALatency, maxLatencyParam)
	}
	known := false
	for _, m := range metricNames {
		known = known || w.Metric == m
	}
	if !known {
		names := make([]string, 0, len(metricNames)-1)
		for _, m := range metricNames[1:] {
			names = append(names, string(m))
		}
		errs.Add("workload.metric", "unknown metric %s; want one of %s", quote.Short(string(w.Metric)), strings.Join(names, ", "))
	}
}

// validateSteps checks a step list at nesting depth and returns how many
// steps it holds (nested ones included). Deeper lists than MaxProgramDepth
// are reported once and not descended into.
func validateSteps(errs *ErrorList, path string, steps []Step, depth int) int {
	if depth > MaxProgramDepth {
		errs.Add(path, "programs nest more than %d levels deep", MaxProgramDepth)
		return len(steps)
	}
	count := 0
	for i := range steps {
		count += 1 + validateStep(errs, indexPath(path, i), &steps[i], depth)
		if count > MaxProgramSteps {
			return count // reported by the caller; stop descending
		}
	}
	return count
}

// validateStep checks one step: exactly one kind, options that fit it.
func validateStep(errs *ErrorList, p string, s *Step, depth int) int {
	var kinds []string
	add := func(set bool, k string) {
		if set {
			kinds = append(kinds, k)
		}
	}
	add(s.Compute != nil, "compute")
	add(s.Sleep != nil, "sleep")
	add(s.Barrier != "", "barrier")
	add(s.Send != "", "send")
	add(s.Recv != "", "recv")
	add(s.Periodic != nil, "periodic")
	add(s.Repeat != 0, "repeat")
	add(s.Pool != "", "pool")
	add(s.Timed != "", "timed")
	switch len(kinds) {
	case 0:
		if len(s.Do) > 0 {
			errs.Add(p+".timed", "missing: a do list needs repeat, pool or the name of a timed section (e.g. \"timed\": \"wake loop\")")
			return 0
		}
		errs.Add(p, "does nothing; set one of compute, sleep, barrier, send, recv, periodic, repeat, pool or timed")
		return 0
	case 1:
	default:
		errs.Add(p, "sets both %s and %s; a step does one thing (use a list of steps)", kinds[0], kinds[1])
		return 0
	}
	k := kinds[0]
	for _, n := range []struct{ field, name string }{{"barrier", s.Barrier}, {"send", s.Send}, {"recv", s.Recv}, {"pool", s.Pool}} {
		if n.name != "" && checkName(errs, p+"."+n.field, n.name) && (n.field == "send" || n.field == "recv") {
			checkChannelName(errs, p+"."+n.field, n.name)
		}
	}
	only := func(set bool, opt string, allowed ...string) {
		if !set {
			return
		}
		for _, a := range allowed {
			if a == k {
				return
			}
		}
		errs.Add(p+"."+opt, "only applies to %s steps, not %s", strings.Join(allowed, " and "), k)
	}
	only(s.Jitter != 0, "jitter", "compute")
	only(s.Spin != 0, "spin", "barrier", "recv")
	only(s.Sync, "sync", "send")
	only(s.Wake != 0, "wake", "send")
	only(s.Poll, "poll", "send")
	if s.Poll && (s.IPC == IPCPipe || s.IPC == IPCSocket) {
		errs.Add(p+".poll", "not on an ipc pipe or socket send: the wake pipe's byte is not modelled as a message (leave ipc out, or use futex)")
	}
	only(s.Capacity != 0, "capacity", "send")
	only(s.IPC != IPCNone, "ipc", "send")
	only(s.Bytes != 0, "bytes", "send")
	switch s.IPC {
	case IPCNone, IPCPipe, IPCSocket, IPCFutex:
	default:
		errs.Add(p+".ipc", "unknown kind %q; want pipe, socket or futex", s.IPC)
	}
	if s.Bytes != 0 && s.IPC != IPCPipe && s.IPC != IPCSocket {
		errs.Add(p+".bytes", "needs ipc pipe or socket")
	}
	checkRange(errs, p+".bytes", s.Bytes, 0, MaxMessageBytes)
	only(s.Total != 0, "total", "pool")
	only(len(s.Do) > 0, "do", "repeat", "pool", "timed")
	if s.Compute != nil {
		checkDuration(errs, p+".compute", *s.Compute, MaxRunDuration)
	}
	if s.Sleep != nil {
		checkDuration(errs, p+".sleep", *s.Sleep, MaxRunDuration)
	}
	checkFloat(errs, p+".jitter", s.Jitter, 0, 0.99, false)
	checkDuration(errs, p+".spin", s.Spin, MaxRunDuration)
	checkRange(errs, p+".wake", s.Wake, 0, MaxTasks)
	checkRange(errs, p+".capacity", s.Capacity, 0, MaxRepeat)
	switch k {
	case "repeat":
		checkRange(errs, p+".repeat", s.Repeat, 1, MaxRepeat)
		return loopBody(errs, p+".do", s.Do, depth)
	case "pool":
		checkRange(errs, p+".total", s.Total, 1, MaxRepeat)
		return loopBody(errs, p+".do", s.Do, depth)
	case "timed":
		checkTimedName(errs, p+".timed", s.Timed)
		return loopBody(errs, p+".do", s.Do, depth)
	case "periodic":
		pp := p + ".periodic"
		if s.Periodic.Every <= 0 {
			errs.Add(pp+".every", "must be > 0")
		}
		checkDuration(errs, pp+".every", s.Periodic.Every, MaxRunDuration)
		checkRange(errs, pp+".count", s.Periodic.Count, 0, MaxRepeat)
		return validateSteps(errs, pp+".do", s.Periodic.Do, depth+1)
	}
	return 0
}

func loopBody(errs *ErrorList, p string, do []Step, depth int) int {
	if len(do) == 0 {
		errs.Add(p, "is empty; a loop or timed section needs at least one step")
		return 0
	}
	return validateSteps(errs, p, do, depth+1)
}

// checkName refuses a name (of a group, a barrier, a channel or a pool)
// longer than MaxNameLength bytes or not UTF-8: names travel into every
// task's name, the timeline and the reply, and are never cut silently.
func checkName(errs *ErrorList, path, name string) bool {
	return checkNameLimit(errs, path, name, MaxNameLength)
}

// checkNameLimit is checkName with another length limit; it reports
// whether the name passed.
func checkNameLimit(errs *ErrorList, path, name string, limit int) bool {
	switch {
	case len(name) > limit:
		errs.Add(path, "is %d bytes long; the limit is %d", len(name), limit)
	case !utf8.ValidString(name):
		errs.Add(path, "is not valid UTF-8")
	default:
		return true
	}
	return false
}

// checkParentCPUs checks a group's parent_cpus: a cpulist of the machine,
// not empty, not next to parent_cpu (which fixes the CPU the list would
// draw), and on group 0 alone under shared_parent.
func checkParentCPUs(errs *ErrorList, p string, g *Group, sharedFollower bool, n int) {
	if g.ParentCPUs == "" {
		return
	}
	switch {
	case g.ParentCPU != nil:
		errs.Add(p+".parent_cpus", "is set next to parent_cpu, which fixes the parent's CPU; keep one of them")
	case sharedFollower:
		errs.Add(p+".parent_cpus", "is set, but workload.shared_parent forks every group from group 0's parent; set parent_cpus on group 0 only")
	case n > 0:
		checkCPUList(errs, p+".parent_cpus", g.ParentCPUs, n)
	}
}

// checkCPUList checks a cpulist field against a machine of n CPUs: it
// parses and selects at least one CPU.
func checkCPUList(errs *ErrorList, path, list string, n int) {
	if set, err := topo.ParseCPUList(list, n); err != nil {
		errs.Add(path, "%v", err)
	} else if set.Weight() == 0 {
		errs.Add(path, "selects no CPU")
	}
}

// checkPolicy checks a group's policy and its RT priority: SCHED_FIFO and
// SCHED_RR need a sched_priority of 1..99 (sched_setscheduler() refuses 0),
// and nice and a custom slice belong to SCHED_OTHER and SCHED_BATCH (an RT
// or SCHED_IDLE task's nice is kept but unused, an RT task's sched_runtime
// refused and a SCHED_IDLE one's ignored), so they are errors on such a
// group rather than settings that do nothing.
func checkPolicy(errs *ErrorList, p string, g *Group) {
	switch g.Policy {
	case PolicyNormal, PolicyBatch, PolicyIdle:
		if g.RTPriority != 0 {
			errs.Add(p+".rt_priority", "is set, but the group's policy is %s; set policy to \"fifo\" or \"rr\", or leave rt_priority out", g.Policy.KernelName())
		}
		if g.Policy == PolicyIdle {
			// __setscheduler_params() sets static_prio and the custom
			// slice for fair_policy() only, which SCHED_IDLE is not
			if g.Nice != 0 {
				errs.Add(p+".nice", "does nothing for SCHED_IDLE, whose weight is WEIGHT_IDLEPRIO (3) whatever the nice value")
			}
			if g.Slice != nil {
				errs.Add(p+".slice", "is a custom slice of SCHED_OTHER and SCHED_BATCH; sched_setattr() ignores it for SCHED_IDLE")
			}
		}
		return
	case PolicyFIFO, PolicyRR:
	default:
		errs.Add(p+".policy", "unknown value %s; want \"batch\", \"idle\", \"fifo\", \"rr\" or leave it out (SCHED_OTHER)", quote.Short(string(g.Policy)))
		return
	}
	if g.RTPriority < 1 || g.RTPriority > MaxRTPriority {
		errs.Add(p+".rt_priority", "%d is outside 1..%d, the sched_priority of SCHED_FIFO and SCHED_RR", g.RTPriority, MaxRTPriority)
	}
	if g.Nice != 0 {
		errs.Add(p+".nice", "applies to SCHED_OTHER; an RT task's priority is rt_priority")
	}
	if g.Slice != nil {
		errs.Add(p+".slice", "is SCHED_OTHER's custom slice (sched_runtime); an RT task has none")
	}
}

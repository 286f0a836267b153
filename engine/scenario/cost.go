package scenario

import (
	"math"

	"schedplay/engine/budget"
	"schedplay/engine/topo"
	"schedplay/engine/units"
)

// The cost model (issue 17). From a resolved scenario, before its topology
// is built or anything runs, CostOf estimates the sched domains the build
// makes, the simulator events of a repetition (ticks, housekeeping, and two
// events per program step executed, more for a send or recv on an ipc
// channel, which runs as several compiled steps; loops are capped by the
// run duration when their body takes time), the wake-up latency samples a
// repetition records (into fixed-size histograms), the reply's size and
// the memory of the whole, each with the field that makes it large.
// budget.Profile.Check refuses what a runtime cannot afford, so that a
// small document such as {"repeat": 1000000000, "do": [{"send": "x"}]} is
// refused up front instead of running for hours.

// Output is what a request asks of a run beyond its metrics: repetition
// 0's timeline, with or without its decision records.
type Output struct {
	Timeline, Decisions bool
}

// Budget is what a resolution checks a scenario's cost against.
type Budget struct {
	Profile budget.Profile
	Output  Output
	// Runs is how many times the request runs the scenario (0: once).
	Runs int
}

// CostOf estimates what running r (after WithDefaults) Runs times costs
// under the caps of b.Profile (the timeline's).
func CostOf(r *Resolved, b Budget) budget.Cost {
	n := r.Machine.NumCPUs()
	runs := float64(max(b.Runs, 1))
	c := budget.Cost{CPUs: n, ReplyPath: "timeline"}
	c.Domains, c.DomainsPath = estimateDomains(&r.Machine)
	work := estimateWork(r, n)
	c.EventsPerRep, c.EventsPath = work.events, work.eventsPath
	c.Events, c.RepsPath = c.EventsPerRep*float64(r.Run.Reps)*runs, "run.reps"
	c.Samples = work.samples
	tasks, names, progs := 0.0, 0.0, 0.0
	for _, g := range r.Workload.Groups {
		tasks += float64(g.Count)
		names += float64(g.Count) * float64(len(g.Name)+6) // "NAME/k"
		// a group whose channel names use {i} compiles its program per task
		if UsesInstance(g.Program) {
			progs += float64(g.Count) * float64(countSteps(g.Program)) * budget.InstanceStepBytes
		}
	}
	intervals, decisions := 0.0, 0.0
	if b.Output.Timeline {
		intervals = math.Min(c.EventsPerRep, float64(capOr(b.Profile.Timeline, DefaultTimelineCap)))
		if b.Output.Decisions {
			decisions = math.Min(c.EventsPerRep, float64(capOr(b.Profile.Decisions, DefaultTimelineCap)))
		}
	}
	timeline := intervals*budget.IntervalBytes + decisions*budget.DecisionBytes // in memory
	replyTimeline := intervals*budget.IntervalBytes + decisions*budget.DecisionReplyBytes
	if b.Output.Timeline {
		timeline += tasks*64 + names
		replyTimeline += tasks*64 + names
	}
	c.ReplyBytes = budget.BaseBytes + float64(r.Run.Reps)*runs*budget.RepBytes + replyTimeline
	parts := []struct {
		bytes float64
		path  string
	}{
		{c.Domains*budget.DomainBytes + float64(n)*budget.CPUBytes, c.DomainsPath},
		{tasks*budget.TaskBytes + names + progs, "workload.groups"},
		{timeline + 2*c.ReplyBytes, c.ReplyPath},
	}
	c.Memory = budget.BaseBytes + budget.HistogramBytes
	top := 0.0
	for _, p := range parts {
		c.Memory += p.bytes
		if p.bytes > top {
			top, c.MemoryPath = p.bytes, p.path
		}
	}
	return c
}

// countSteps is the number of steps of a program, nested ones included.
func countSteps(steps []Step) int {
	n := len(steps)
	for i := range steps {
		if p := steps[i].Periodic; p != nil {
			n += countSteps(p.Do)
		}
		n += countSteps(steps[i].Do)
	}
	return n
}

// DefaultTimelineCap is the most intervals (and decision records) a
// timeline keeps when the profile names no cap (sim's default).
const DefaultTimelineCap = 400_000

func capOr(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// estimateDomains is the sched domains topo.Build makes for m: every CPU
// gets one per level of the topology table (SMT, CLS, MC, PKG, then one
// per distinct NUMA distance) up to the first that spans the machine,
// which for a CPU of node k is the level of row k's largest distance.
// The path names the field that makes it large.
func estimateDomains(m *topo.Machine) (float64, string) {
	perNode := float64(m.NumCPUs()) / float64(max(m.Nodes, 1))
	if len(m.Distances) == 0 {
		return float64(m.NumCPUs()) * 4, "machine"
	}
	distinct := map[int]bool{}
	for _, row := range m.Distances {
		for _, d := range row {
			distinct[d] = true
		}
	}
	var total float64
	for _, row := range m.Distances {
		top := 0
		for _, d := range row {
			top = max(top, d)
		}
		levels := 0 // NUMA levels up to top: the distinct distances in (min, top]
		for d := range distinct {
			if d <= top {
				levels++
			}
		}
		total += perNode * float64(4+max(levels-1, 0))
	}
	return total, "machine.distances"
}

// EstimateEvents returns the estimated events of one repetition of r (after
// WithDefaults) on a machine of n CPUs.
func EstimateEvents(r *Resolved, n int) float64 { return estimateWork(r, n).events }

// work is one repetition's estimated events and wake-up latency samples,
// and the field that makes the events large.
type work struct {
	events, samples float64
	eventsPath      string
}

func estimateWork(r *Resolved, n int) work {
	horizon := float64(r.Run.Duration)
	w := work{eventsPath: "run.duration"}
	ev := float64(n) * horizon / 1e9 * float64(r.Policy.HZ) // ticks
	hk := r.Machine.Housekeeping
	if r.Workload.Housekeeping != nil {
		hk = r.Workload.Housekeeping
	}
	if hk != nil && hk.Period > 0 {
		ev += 2 * float64(n) * horizon / float64(hk.Period)
	}
	if d := r.Machine.DeviceIRQs; d != nil && d.Period > 0 {
		ev += 2 * float64(min(d.Vectors, n)) * horizon / float64(d.Period)
	}
	top := ev
	rate := maxWorkRate(r)
	kinds := channelKinds(r.Workload.Groups)
	for i, g := range r.Workload.Groups {
		e := estimator{rate: rate, count: g.Count, kinds: kinds, lat: &r.Machine.Latency, ipc: &r.Machine.IPC}.steps(g.Program, horizon)
		ge := float64(g.Count) * (e.events + 2)
		ev += ge
		w.samples += float64(g.Count) * e.wakeups
		if ge > top {
			top, w.eventsPath = ge, indexPath("workload.groups", i)
		}
	}
	w.events = ev
	return w
}

// maxWorkRate is the fastest a thread can do work (reference ns per ns).
func maxWorkRate(r *Resolved) float64 {
	speed := 1.0
	for _, c := range r.Machine.CoreClasses {
		speed = math.Max(speed, c.Speed)
	}
	boost := 1.0
	for _, b := range r.Machine.Boost {
		boost = math.Max(boost, b[1])
	}
	return speed * boost
}

// pass is the estimate of one pass over a step list: events, wake-ups (each
// is a kept latency sample) and the least simulated time it takes (ns).
type pass struct {
	events, wakeups, minTime float64
}

// estimator estimates a group's program: rate is the fastest a thread
// does work, count the group size (pool tokens are shared by the group),
// kinds the ipc kind of every channel (channelKinds).
type estimator struct {
	rate  float64
	count int
	kinds map[string]IPCKind
	lat   *topo.Latency // the kernel-path costs an ipc call charges
	ipc   *topo.IPC
}

// steps estimates one pass over steps within horizon ns.
func (e estimator) steps(steps []Step, horizon float64) pass {
	var p pass
	for i := range steps {
		if p.minTime >= horizon {
			break
		}
		s := e.step(&steps[i], horizon-p.minTime)
		p.events += s.events
		p.wakeups += s.wakeups
		p.minTime += s.minTime
	}
	return p
}

func (e estimator) step(s *Step, horizon float64) pass {
	loop := func(iters float64, do []Step) pass {
		p := e.steps(do, horizon)
		if p.minTime > 0 {
			iters = math.Min(iters, math.Floor(horizon/p.minTime)+1)
		}
		return pass{iters * (p.events + 1), iters * p.wakeups, math.Min(iters*p.minTime, horizon)}
	}
	switch {
	case s.Compute != nil:
		return pass{2, 0, float64(*s.Compute) / e.rate}
	case s.Sleep != nil:
		return pass{2, 1, float64(*s.Sleep)}
	case s.Periodic != nil:
		every := float64(max(s.Periodic.Every, units.Nanosecond))
		iters := math.Floor(horizon/every) + 1
		if s.Periodic.Count > 0 {
			iters = math.Min(iters, float64(s.Periodic.Count))
		}
		p := e.steps(s.Periodic.Do, every)
		return pass{iters * (p.events + 2), iters * (p.wakeups + 1), math.Min(iters*every, horizon)}
	case s.Repeat > 0:
		return loop(float64(s.Repeat), s.Do)
	case s.Pool != "":
		return loop(math.Ceil(float64(s.Total)/float64(max(e.count, 1))), s.Do)
	case s.Timed != "":
		return loop(1, s.Do)
	case s.Barrier != "":
		return pass{2, 1, 0}
	case s.Recv != "":
		k := e.kinds[ChannelFor(s.Recv, 0)]
		return pass{2 + ipcEvents(k), 1, e.ipcMinTime(k, false)}
	}
	k := e.kinds[ChannelFor(s.Send, 0)]
	return pass{2 + ipcEvents(k), 0, e.ipcMinTime(k, true)} // send
}

// ipcMinTime is the least time a send or recv on a channel of kind k
// takes: its system call and the object's path, kernel work the fastest
// thread runs at e.rate, halved because each charge is a log-normal draw
// around its nominal cost (machine.latency.variation) and a loop's many
// draws sum to their mean. A loop of ipc calls is then capped by the run
// duration like a loop that computes; a recv that finds nothing and
// sleeps takes longer still. A channel without ipc costs nothing.
func (e estimator) ipcMinTime(k IPCKind, send bool) float64 {
	if e.lat == nil || e.ipc == nil || k == "" {
		return 0
	}
	path := e.lat.Syscall
	switch {
	case k == IPCPipe && send:
		path += e.ipc.PipeWrite
	case k == IPCPipe:
		path += e.ipc.PipeRead
	case k == IPCSocket && send:
		path += e.ipc.SocketSend
	case k == IPCSocket:
		path += e.ipc.SocketRecv
	case k == IPCFutex && send:
		path += e.ipc.FutexWake
	}
	return float64(path) / 2 / e.rate
}

// ipcEvents is what a send or recv on a channel of kind k adds to its two
// events: the simulator compiles it into the kernel object's steps
// (engine/sim compileProgram), each one event, and each that charges CPU
// work (a kernel path, a system call) one more when that work ends. A
// socket or futex call is the message step and its kernel path (+1 step,
// +1 work); a pipe call also takes and drops pipe->mutex and has its own
// system call (+4 steps, +2 works). A contended pipe->mutex (a spin or a
// sleep and the retry) costs more, which the estimate leaves out.
func ipcEvents(k IPCKind) float64 {
	switch k {
	case IPCSocket, IPCFutex:
		return 2
	case IPCPipe:
		return 6
	}
	return 0
}

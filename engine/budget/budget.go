// Package budget bounds what one request may cost. A request's Cost is
// estimated from its decoded document alone (engine/scenario.Cost), before
// any override is applied, the topology is built or the simulator runs;
// Profile.Check refuses it, naming the field that makes it expensive and
// the budget it exceeds, when any part is over. There is one Profile per
// runtime: Browser (the page's engine worker), Serve (`schedplay serve`
// and the CLI) and Worker (Cloudflare Workers). docs/limits.md gives every
// budget with the arithmetic behind it.
package budget

import (
	"fmt"
	"math"
	"time"

	"schedplay/engine/hdr"
)

// Profile is the budget of one request in one runtime. The zero value
// bounds nothing.
type Profile struct {
	// Name names the runtime in refusals ("the Worker budget").
	Name string
	// Domains bounds the sched domains the topology build makes, one per
	// CPU per level up to the level that spans the machine: CPUs × (4 +
	// distinct NUMA distances) at most.
	Domains float64
	// EventsPerRep bounds the simulator events of one repetition on a
	// machine of up to CPUCostScale CPUs; a larger machine gets
	// EventsPerRep / (1 + CPUs/CPUCostScale), since an event costs more
	// there (load balancing and idle scans walk CPU masks).
	EventsPerRep float64
	// Events bounds the events of the whole request, scaled like
	// EventsPerRep: every repetition of every run (a compare runs both
	// sides for every vary value).
	Events float64
	// ReplyBytes bounds the estimated size of the reply.
	ReplyBytes float64
	// Memory bounds the request's estimated peak memory (bytes).
	Memory float64
	// Timeline and Decisions cap the intervals and the decision records
	// a timeline keeps (repetition 0's); the reply then says where it was
	// truncated.
	Timeline, Decisions int
	// Overrides bounds the "set" entries of a request.
	Overrides int
	// Deadline bounds a request's wall time, from its first byte to its
	// reply (0: none; the page cancels a stale run itself).
	Deadline time.Duration
}

// CPUCostScale is the machine size at which an event costs twice as much
// as on a small machine: measured natively, one event costs about
// 0.27 µs + 0.45 ns per CPU (0.43 µs on 352 CPUs, 2.1 µs on 4096).
const CPUCostScale = 600

// Sizes behind the memory and reply estimates (bytes), measured on the
// native build (docs/limits.md).
const (
	// DomainBytes is one sched domain of the topology build (its share of
	// the groups included).
	DomainBytes = 300
	// CPUBytes is one CPU's simulator state (measured: 1 KB on 4096
	// CPUs).
	CPUBytes = 2 << 10
	// TaskBytes is one task's simulator state, without its name
	// (measured: 960 bytes).
	TaskBytes = 1 << 10
	// InstanceStepBytes is one program step compiled for one task of a
	// group whose channel names hold the task's index (scenario
	// InstanceToken): at most five ops of 88 bytes.
	InstanceStepBytes = 512
	// HistogramBytes is a repetition's wake-up latency histograms: two of
	// hdr.Buckets counters (all wake-ups, periodic ones), whatever the
	// number of samples.
	HistogramBytes = 2 * hdr.Buckets * 8
	// IntervalBytes is one timeline interval in memory and in the reply.
	IntervalBytes = 48
	// DecisionBytes is one decision record with its path in memory,
	// DecisionReplyBytes in the reply.
	DecisionBytes      = 768
	DecisionReplyBytes = 256
	// RepBytes is one repetition's metrics in the reply.
	RepBytes = 2 << 10
	// BaseBytes is a reply's fixed part, and a request's fixed memory.
	BaseBytes = 16 << 10
)

// Cost is a request's estimated cost. Each figure comes with the path of
// the field that makes it large, for the refusal.
type Cost struct {
	CPUs int `json:"cpus"`
	// Domains is the sched domains the topology build makes.
	Domains     float64 `json:"domains"`
	DomainsPath string  `json:"-"`
	// EventsPerRep is the costliest repetition's events, Events the
	// request's (every repetition of every run).
	EventsPerRep float64 `json:"events_per_rep"`
	Events       float64 `json:"events"`
	EventsPath   string  `json:"-"`
	RepsPath     string  `json:"-"`
	// Samples is the wake-up latency samples a repetition records: into
	// fixed-size histograms (engine/hdr), so they cost events, not memory.
	Samples float64 `json:"samples"`
	// ReplyBytes is the reply's size, ReplyPath what makes it large.
	ReplyBytes float64 `json:"reply_bytes"`
	ReplyPath  string  `json:"-"`
	// Memory is the request's peak memory (bytes), MemoryPath the field
	// behind its largest part.
	Memory     float64 `json:"memory"`
	MemoryPath string  `json:"-"`
}

// Error is a refusal: the request would cost more than a budget. Path is
// the field that makes it expensive (its error path), Budget the budget's
// name (domains, events, reply, memory, overrides).
type Error struct {
	Path   string `json:"path"`
	Budget string `json:"budget"`
	Msg    string `json:"message"`
}

func (e *Error) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// EventLimit is the events budget b (EventsPerRep or Events) on a machine
// of n CPUs.
func EventLimit(b float64, n int) float64 {
	return b / (1 + float64(n)/CPUCostScale)
}

// RepEventMargin is how far past its per-repetition budget a run may go
// before the simulator stops it: the estimate covers at least 0.96 of
// every seed scenario's events (at most 1.04 × the estimate run) and 0.8
// of an ipc-heavy workload's (engine/sim TestEventEstimateCoversIPC), and
// 1.5 × the Worker's 40 million events (27 s in wasm) still ends within
// its 30 s of CPU.
const RepEventMargin = 1.5

// RepEventCap is the simulator's event cap for one repetition of a request
// p admitted on a machine of n CPUs (sim.Options.MaxEvents): RepEventMargin
// times the per-repetition budget, so a run the estimate undercounts still
// stops near the runtime's time budget instead of running on to the
// simulator's own cap; 0 (the simulator's own cap) when p bounds nothing.
func (p Profile) RepEventCap(n int) int64 {
	if p.EventsPerRep <= 0 {
		return 0
	}
	return int64(RepEventMargin * EventLimit(p.EventsPerRep, n))
}

// Check returns an *Error for the first budget c exceeds under p (in the
// order domains, events, reply, memory), or nil.
func (p Profile) Check(c Cost) error {
	over := func(v, limit float64) bool { return limit > 0 && v > limit }
	switch {
	case over(c.Domains, p.Domains):
		return p.refuse(c.DomainsPath, "domains", "building this machine's sched domains makes about %s domains (%d CPUs × their levels), above the %s budget of %s; use fewer distinct NUMA distances or fewer CPUs",
			Human(c.Domains), c.CPUs, p.Name, Human(p.Domains))
	case over(c.EventsPerRep, EventLimit(p.EventsPerRep, c.CPUs)):
		return p.refuse(c.EventsPath, "events", "one repetition needs about %s simulator events, above the %s budget of %s on %d CPUs; shorten run.duration, the loops or the task count",
			Human(c.EventsPerRep), p.Name, Human(EventLimit(p.EventsPerRep, c.CPUs)), c.CPUs)
	case over(c.Events, EventLimit(p.Events, c.CPUs)):
		return p.refuse(c.RepsPath, "events", "the request needs about %s simulator events in all, above the %s budget of %s on %d CPUs; use fewer repetitions or runs",
			Human(c.Events), p.Name, Human(EventLimit(p.Events, c.CPUs)), c.CPUs)
	case over(c.ReplyBytes, p.ReplyBytes):
		return p.refuse(c.ReplyPath, "reply", "the reply would be about %s, above the %s budget of %s; ask for a shorter timeline (\"runs\", or none), fewer tasks or shorter names",
			Bytes(c.ReplyBytes), p.Name, Bytes(p.ReplyBytes))
	case over(c.Memory, p.Memory):
		return p.refuse(c.MemoryPath, "memory", "the request needs about %s of memory, above the %s budget of %s; make the machine, the workload or the timeline smaller",
			Bytes(c.Memory), p.Name, Bytes(p.Memory))
	}
	return nil
}

// CheckOverrides refuses more than p.Overrides overrides at path.
func (p Profile) CheckOverrides(path string, n int) error {
	if p.Overrides > 0 && n > p.Overrides {
		return p.refuse(path, "overrides", "%d overrides, above the %s budget of %d", n, p.Name, p.Overrides)
	}
	return nil
}

func (p Profile) refuse(path, budget, format string, args ...any) error {
	return &Error{Path: path, Budget: budget, Msg: fmt.Sprintf(format, args...)}
}

// Human prints a count with three significant digits ("1.02 million").
func Human(v float64) string {
	switch {
	case v >= 1e9:
		return fmt.Sprintf("%.3g billion", v/1e9)
	case v >= 1e6:
		return fmt.Sprintf("%.3g million", v/1e6)
	}
	return fmt.Sprintf("%.0f", v)
}

// Bytes prints a size in binary units ("64 MiB").
func Bytes(v float64) string {
	switch {
	case v >= 1<<30:
		return fmt.Sprintf("%.3g GiB", v/(1<<30))
	case v >= 1<<20:
		return fmt.Sprintf("%.3g MiB", v/(1<<20))
	case v >= 1<<10:
		return fmt.Sprintf("%.3g KiB", v/(1<<10))
	}
	return fmt.Sprintf("%.0f bytes", math.Max(v, 0))
}

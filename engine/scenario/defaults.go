package scenario

import (
	"strings"

	"schedplay/engine/topo"
	"schedplay/engine/units"
)

// Kernel defaults (kernel-model.md §9 "Extra knobs").
const (
	DefaultHZ            = 250
	DefaultBaseSlice     = 700 * units.Microsecond
	DefaultMigrationCost = 500 * units.Microsecond
	DefaultDuration      = 1 * units.Second
)

// unsetFunc reports whether the field at path (error-path syntax) was left
// out, given whether its decoded value is the zero value.
type unsetFunc func(path string, zero bool) bool

// zeroIsUnset treats every zero field as left out: the rule for a Resolved
// built in Go, which has no document to tell the two apart.
func zeroIsUnset(_ string, zero bool) bool { return zero }

// absentFrom treats exactly the fields the expanded document does not set as
// left out, so an explicit 0 (or "", or []) keeps its value and is then
// honoured or refused by validation.
func absentFrom(doc map[string]any) unsetFunc {
	return func(path string, _ bool) bool {
		var v any = doc
		for _, k := range strings.Split(path, ".") {
			m, ok := v.(map[string]any)
			if !ok {
				return true
			}
			if v, ok = m[k]; !ok {
				return true
			}
		}
		return false
	}
}

// WithDefaults returns a copy of r with every unset field given its
// documented default. A Resolved from Resolve is returned as is: Resolve
// gave the fields absent from the document their defaults and kept the
// explicit zeros. On a Resolved built in Go a zero field counts as unset.
// It never validates; Prepare and Resolve do that.
func (r Resolved) WithDefaults() Resolved {
	if r.defaulted {
		return r
	}
	return r.withDefaults(zeroIsUnset)
}

// withDefaults fills the fields unset says were left out.
func (r Resolved) withDefaults(unset unsetFunc) Resolved {
	r.Machine = machineDefaults(r.Machine, unset)
	p := &r.Policy
	if unset("policy.hz", p.HZ == 0) {
		p.HZ = DefaultHZ
	}
	if unset("policy.base_slice", p.BaseSlice == 0) {
		p.BaseSlice = DefaultBaseSlice
	}
	if unset("policy.migration_cost", p.MigrationCost == 0) {
		p.MigrationCost = DefaultMigrationCost
	}
	if unset("policy.features.PELT", p.Features.PELT == "") {
		p.Features.PELT = PELTModern
	}
	if unset("workload.efficiency", r.Workload.Efficiency == 0) {
		r.Workload.Efficiency = 1
	}
	if unset("run.duration", r.Run.Duration == 0) {
		r.Run.Duration = DefaultDuration
	}
	if unset("run.until", r.Run.Until == "") {
		r.Run.Until = UntilDone
	}
	if unset("run.reps", r.Run.Reps == 0) {
		r.Run.Reps = 1
	}
	r.defaulted = true
	return r
}

// MachineWithDefaults fills the unset machine fields: one cluster per node,
// LLC per node, one thread per core, core-major numbering, one core class of
// capacity 1024 and speed 1.0, the competitive SMT model for SMT machines,
// and the wake-up latency model's defaults. A zero field counts as unset
// (the machine editor's lenient view); Resolve tells them apart.
func MachineWithDefaults(m topo.Machine) topo.Machine {
	return machineDefaults(m, zeroIsUnset)
}

func machineDefaults(m topo.Machine, unset unsetFunc) topo.Machine {
	if unset("machine.clusters_per_node", m.ClustersPerNode == 0) {
		m.ClustersPerNode = 1
	}
	if unset("machine.llc", m.LLC == "") {
		m.LLC = topo.LLCNode
	}
	if unset("machine.threads_per_core", m.ThreadsPerCore == 0) {
		m.ThreadsPerCore = 1
	}
	if unset("machine.numbering", m.Numbering == "") {
		m.Numbering = topo.CoreMajor
	}
	if unset("machine.core_classes", len(m.CoreClasses) == 0) && m.Nodes > 0 && m.CoresPerNode > 0 {
		m.CoreClasses = []topo.CoreClass{{Name: "core", Cores: m.Nodes * m.CoresPerNode, Capacity: 1024, Speed: 1}}
	}
	s := &m.SMT
	if unset("machine.smt.model", s.Model == "") {
		s.Model = topo.SMTCompetitive
	}
	if unset("machine.smt.yield", len(s.Yield) == 0) {
		s.Yield = defaultYield(s.Model, m.ThreadsPerCore)
	}
	if s.Model == topo.SMTSpatial && unset("machine.smt.qual", s.Qual == 0) {
		s.Qual = 3 * units.Microsecond // 10 Ki cycles at ~3.4 GHz
	}
	if unset("machine.smt.partitioned_single", s.PartitionedSingle == 0) {
		s.PartitionedSingle = 0.60
	}
	m.Latency = latencyDefaults(m.Latency, unset)
	m.IPC = ipcDefaults(m.IPC, unset)
	if unset("machine.boost", len(m.Boost) == 0) {
		m.Boost = [][2]float64{{0, 1}, {1, 1}}
	}
	return m
}

// defaultYield is the whole-core throughput with k busy threads, k=1..n
// (kernel-model.md §7.2 defaults: HT 1.2×, Olympus 1.064×, POWER7 SMT4
// 1.6×; POWER7 SMT2 1.4×, IBM's estimate, docs/model.md "Core performance
// model").
func defaultYield(k topo.SMTKind, n int) []float64 {
	y := make([]float64, max(n, 0))
	for i := range y {
		switch {
		case i == 0:
			y[i] = 1
		case k == topo.SMTSpatial:
			y[i] = 1.064
		case k == topo.SMTFolding && i == 1:
			y[i] = 1.4
		case k == topo.SMTFolding:
			y[i] = 1.6
		default:
			y[i] = 1.2
		}
	}
	return y
}

func on(p *bool, def bool) bool {
	if p == nil {
		return def
	}
	return *p
}

// Feature accessors with the kernel's defaults (features.h) and the
// "mainline" (P1b) generation defaults for the schedplay switches.
func (f Features) SISUtilOn() bool      { return on(f.SISUtil, true) }
func (f Features) WakeAffineOn() bool   { return on(f.WakeAffine, true) }
func (f Features) WAIdleOn() bool       { return on(f.WAIdle, true) }
func (f Features) WAWeightOn() bool     { return on(f.WAWeight, true) }
func (f Features) WABiasOn() bool       { return on(f.WABias, true) }
func (f Features) RunToParityOn() bool  { return on(f.RunToParity, true) }
func (f Features) PreemptShortOn() bool { return on(f.PreemptShort, true) }
func (f Features) PlaceLagOn() bool     { return on(f.PlaceLag, true) }
func (f Features) UtilEstOn() bool      { return on(f.UtilEst, true) }
func (f Features) NIRandomOn() bool     { return on(f.NIRandom, true) }
func (f Features) NIRateOn() bool       { return on(f.NIRate, true) }
func (f Features) NohzIdleOn() bool     { return on(f.NohzIdle, true) }
func (f Features) DelayDequeueOn() bool { return on(f.DelayDequeue, true) }

// HNrRunnableOn: the 6.14 h_nr_runnable reading of delayed tasks in load
// balancing (mainline) unless set false (6.12).
func (f Features) HNrRunnableOn() bool { return on(f.HNrRunnable, true) }

// AsymCapacitySMTLBOn: Neri's asym-capacity load-balancing series, off
// unless set (docs/model.md, "What tip-2026-09 does not have yet").
func (f Features) AsymCapacitySMTLBOn() bool { return on(f.AsymCapacitySMTLB, false) }

// LBSMTBalanceOn: LB_SMT_BALANCE unless set false (the generation 6.1).
func (f Features) LBSMTBalanceOn() bool { return on(f.LBSMTBalance, true) }

// LBSiblingImbalanceOn: LB_SIBLING_IMBALANCE unless set false (the generation 6.1).
func (f Features) LBSiblingImbalanceOn() bool { return on(f.LBSiblingImbalance, true) }

// LBUtilBoostOn: LB_UTIL_BOOST unless set false (the generation 6.1).
func (f Features) LBUtilBoostOn() bool { return on(f.LBUtilBoost, true) }

// SWBIdleCoreOn: SWB_IDLE_CORE unless set false (the generation 6.1).
func (f Features) SWBIdleCoreOn() bool { return on(f.SWBIdleCore, true) }

// MisfitMaxAllowedCapOn: MISFIT_MAX_ALLOWED_CAP unless set false (the generation 6.1).
func (f Features) MisfitMaxAllowedCapOn() bool { return on(f.MisfitMaxAllowedCap, true) }

// BusiestTieKeepsFirstOn: BUSIEST_TIE_KEEPS_FIRST unless set false (the generation 6.1).
func (f Features) BusiestTieKeepsFirstOn() bool { return on(f.BusiestTieKeepsFirst, true) }

// LBAsymUsePrioOn: LB_ASYM_USE_PRIO unless set false (the generation 6.1).
func (f Features) LBAsymUsePrioOn() bool { return on(f.LBAsymUsePrio, true) }

// UtilEstRunnableOn: UTIL_EST_RUNNABLE unless set false (the generation 6.1).
func (f Features) UtilEstRunnableOn() bool { return on(f.UtilEstRunnable, true) }

// MisfitFailUncountedOn: MISFIT_FAIL_UNCOUNTED unless set false (the generation 6.1).
func (f Features) MisfitFailUncountedOn() bool { return on(f.MisfitFailUncounted, true) }

// PreemptLazyOn: the PREEMPT_LAZY preemption model, off unless set (the
// generation tip-2026-09 sets it: a 7.x kernel on arm64).
func (f Features) PreemptLazyOn() bool { return on(f.PreemptLazy, false) }

// SMTAwareAsymCapacityOn: P1b (TIP7 select_idle_capacity) unless set false.
func (f Features) SMTAwareAsymCapacityOn() bool { return on(f.SMTAwareAsymCapacity, true) }

// EEVDFOn: the EEVDF fair class (6.6+) unless set false (the CFS of 6.1).
func (f Features) EEVDFOn() bool { return on(f.EEVDF, true) }

// VProtOn: the slice protection of 6.17 and later (se->vprot, a
// reschedule whenever it ends) unless set false (6.12's vlag == deadline).
func (f Features) VProtOn() bool { return on(f.VProt, true) }

// WakeupPreemptActionOn: 7.3's wakeup_preempt_fair() (no preemption by a
// fork or a delayed wakee; update_protect_slice() after every wake-up that
// does not preempt) unless set false (6.17's decision). Needs VPROT.
func (f Features) WakeupPreemptActionOn() bool { return on(f.WakeupPreemptAction, true) }

// LagClampMaxSliceOn: update_entity_lag() clamps by the queue's largest
// slice plus a tick (6e3c0a4e1ad1, Linux 7.0) unless set false (6.12:
// twice the entity's own slice, at least a tick).
func (f Features) LagClampMaxSliceOn() bool { return on(f.LagClampMaxSlice, true) }

// AvgIdleAtIdleExitOn: rq->avg_idle sampled at every idle exit
// (put_prev_task_idle(), Linux 7.0, as the measured tip) unless set false
// (the generations 6.12 and 6.1: the sample at a wake-up's activation).
func (f Features) AvgIdleAtIdleExitOn() bool { return on(f.AvgIdleAtIdleExit, true) }

// FairServerOn: the fair deadline server (6.12 and later) unless set
// false (6.1).
func (f Features) FairServerOn() bool { return on(f.FairServer, true) }

// RTThrottlingOn: 6.1's RT throttling (950 ms of RT time per CPU every
// second) when set (the generation 6.1); off by default, as in 6.12 and
// later without CONFIG_RT_GROUP_SCHED.
func (f Features) RTThrottlingOn() bool { return on(f.RTThrottling, false) }

// DLServerIdleOn: the deferred server's idle-wait state (6.19: an idle
// server stops at its timer) unless set false (6.12.118's form).
func (f Features) DLServerIdleOn() bool { return on(f.DLServerIdle, true) }

// IdleRetainTickOn: an idle CPU without deeper idle states keeps its
// tick until it fires in idle (6.12.117 and later) unless set false (6.1).
func (f Features) IdleRetainTickOn() bool { return on(f.IdleRetainTick, true) }

// SMIdleOn: __schedule(SM_IDLE), the idle task rescheduled with nothing
// queued skips the pick (6.12), unless set false (6.1).
func (f Features) SMIdleOn() bool { return on(f.SMIdle, true) }

// ILBIdleCoreOn: 293f9611ae73 fully-idle-core ILB choice unless set false.
func (f Features) ILBIdleCoreOn() bool { return on(f.ILBIdleCore, true) }

// SISClusterOn: the cluster-aware select_idle_sibling() (6.8) unless set false.
func (f Features) SISClusterOn() bool { return on(f.SISCluster, true) }

// durationDefault gives *d its default when the field at path was left out.
func durationDefault(unset unsetFunc, path string, d *units.Duration, def units.Duration) {
	if unset(path, *d == 0) {
		*d = def
	}
}

// intDefault gives *v its default when the field at path was left out.
func intDefault(unset unsetFunc, path string, v *int, def int) {
	if unset(path, *v == 0) {
		*v = def
	}
}

// latencyDefaults fills the wake-up cost model of an Arm server core
// (docs/model.md, "The cost of IPC and wake-ups", has each derivation).
func latencyDefaults(l topo.Latency, unset unsetFunc) topo.Latency {
	const p = "machine.latency."
	durationDefault(unset, p+"wakeup", &l.Wakeup, 800*units.Nanosecond)
	durationDefault(unset, p+"ipi", &l.IPI, 1000*units.Nanosecond)
	durationDefault(unset, p+"ipi_send", &l.IPISend, 300*units.Nanosecond)
	durationDefault(unset, p+"idle_exit", &l.IdleExit, 1000*units.Nanosecond)
	durationDefault(unset, p+"context_switch", &l.ContextSwitch, 700*units.Nanosecond)
	durationDefault(unset, p+"process_switch", &l.ProcessSwitch, 200*units.Nanosecond)
	durationDefault(unset, p+"syscall", &l.Syscall, 230*units.Nanosecond)
	durationDefault(unset, p+"cacheline.smt", &l.Cacheline.SMT, 10*units.Nanosecond)
	durationDefault(unset, p+"cacheline.llc", &l.Cacheline.LLC, 47*units.Nanosecond)
	durationDefault(unset, p+"cacheline.remote", &l.Cacheline.Remote, 197*units.Nanosecond)
	durationDefault(unset, p+"cacheline.numa", &l.Cacheline.NUMA, l.Cacheline.Remote)
	if unset(p+"variation", l.Variation == 0) {
		l.Variation = 0.5
	}
	return l
}

// ipcDefaults fills the kernel IPC paths (the same derivations) and the
// kernel's buffer sizes: SK_WMEM_MAX, PIPE_DEF_BUFFERS, a 4 KiB page.
func ipcDefaults(c topo.IPC, unset unsetFunc) topo.IPC {
	const p = "machine.ipc."
	durationDefault(unset, p+"pipe_write", &c.PipeWrite, 300*units.Nanosecond)
	durationDefault(unset, p+"pipe_read", &c.PipeRead, 250*units.Nanosecond)
	durationDefault(unset, p+"socket_send", &c.SocketSend, 1100*units.Nanosecond)
	durationDefault(unset, p+"socket_recv", &c.SocketRecv, 1000*units.Nanosecond)
	durationDefault(unset, p+"futex_wake", &c.FutexWake, 200*units.Nanosecond)
	intDefault(unset, p+"sock_sndbuf", &c.SockSndbuf, 212992)
	intDefault(unset, p+"pipe_buffers", &c.PipeBuffers, 16)
	intDefault(unset, p+"page_size", &c.PageSize, 4096)
	intDefault(unset, p+"message_lines", &c.MessageLines, 6)
	return c
}

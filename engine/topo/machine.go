package topo

import (
	"schedplay/engine/units"
)

// Machine is the hardware description of scenario-v1 ("machine" section),
// after presets and overrides have been merged. Field names and JSON keys are
// fixed by scenario-v1.md; fields added by schedplay are documented in
// docs/scenario.md. The engine reads it; Build turns it into CPUs and domains.
type Machine struct {
	Nodes           int         `json:"nodes"`
	CoresPerNode    int         `json:"cores_per_node"`
	ClustersPerNode int         `json:"clusters_per_node,omitempty"`
	LLC             LLCSpan     `json:"llc,omitempty"`
	ThreadsPerCore  int         `json:"threads_per_core"`
	Numbering       Numbering   `json:"numbering,omitempty"`
	CoreClasses     []CoreClass `json:"core_classes,omitempty"`
	// Priorities are per-CPU arch_asym_cpu_priority() values for the "arch"
	// priority mode (ITMT-like platforms), indexed by logical CPU.
	Priorities []int `json:"priorities,omitempty"`
	// Arch is what the architecture code does when the policy does not
	// override it (POWER7: SMT asym packing with thread priority).
	Arch AsymConfig `json:"arch,omitzero"`
	SMT  SMTModel   `json:"smt,omitzero"`
	// Boost is the per-node headroom curve [[busy_core_fraction, multiplier], …],
	// piecewise linear; absent means [[0,1],[1,1]].
	Boost         [][2]float64 `json:"boost,omitempty"`
	GflopsPerCore float64      `json:"gflops_per_core,omitempty"`
	// Latency is the wake-up / context-switch cost model (schedplay addition).
	Latency Latency `json:"latency,omitzero"`
	// Housekeeping is the machine's own per-CPU kernel noise (schedplay
	// addition); a workload's housekeeping section replaces it.
	Housekeeping *Housekeeping `json:"housekeeping,omitempty"`
	// Distances is an optional SLIT-like node distance matrix (schedplay
	// addition); absent means 10 on the diagonal and 20 elsewhere.
	Distances [][]int `json:"distances,omitempty"`
}

// CoreClass assigns capacity and speed to the next Cores cores (in core
// order, node by node). Capacity is the kernel's cpu_scale (0..1024); Speed is
// the work rate of one full-resource thread relative to 1.0.
type CoreClass struct {
	Name     string  `json:"name"`
	Cores    int     `json:"cores"`
	Capacity int     `json:"capacity"`
	Speed    float64 `json:"speed"`
}

// SMTModel is the core performance model (kernel-model.md §7.2).
type SMTModel struct {
	Model SMTKind `json:"model,omitempty"`
	// Yield[k-1] is the whole core's throughput with k busy threads relative
	// to one thread alone, e.g. [1.0, 1.064].
	Yield []float64 `json:"yield,omitempty"`
	// Switch is the time a mode change costs (work stalled on the core).
	Switch units.Duration `json:"switch,omitempty"`
	// Hold is how long partitioned mode persists after a thread goes idle
	// (T_hold; calibrated, see docs/model.md).
	Hold units.Duration `json:"hold,omitempty"`
	// Qual is the hardware re-qualification interval T_qual the idle sibling
	// must stay idle before the core may return to ST (schedplay addition).
	Qual units.Duration `json:"qual,omitempty"`
	// PartitionedSingle is the rate of a lone busy PE while the core is still
	// partitioned (s_2T1; schedplay addition).
	PartitionedSingle float64 `json:"partitioned_single,omitempty"`
}

// Latency holds the named wake-up cost parameters (kernel-model.md §7.2,
// "Wake and IPI latency model"). All are schedplay additions.
type Latency struct {
	Wakeup        units.Duration `json:"wakeup,omitempty"`         // ttwu on the waker's CPU
	IPI           units.Duration `json:"ipi,omitempty"`            // cross-core wake-up IPI
	IdleExit      units.Duration `json:"idle_exit,omitempty"`      // leaving the idle state (WFI)
	ContextSwitch units.Duration `json:"context_switch,omitempty"` // thread switch
	ProcessSwitch units.Duration `json:"process_switch,omitempty"` // extra for an address-space switch
}

// Housekeeping is per-CPU kernel noise: every Period each CPU runs kernel
// work for Run (timer ticks, kworkers), waking an idle PE briefly.
type Housekeeping struct {
	Period units.Duration `json:"period"`
	Run    units.Duration `json:"run"`
}

// AsymConfig is the part of the policy (and of the machine's arch defaults)
// that decides SD_ASYM_PACKING, SD_ASYM_CPUCAPACITY and priorities.
type AsymConfig struct {
	// AsymPacking lists the levels that get SD_ASYM_PACKING; nil means
	// "keep the default", an empty list means "none".
	AsymPacking *[]Level `json:"asym_packing,omitempty"`
	// AsymCPUCapacity is arch_asym_cpu_capacity_enabled(); nil means true.
	AsymCPUCapacity *bool `json:"asym_cpucapacity,omitempty"`
	// Priority selects arch_asym_cpu_priority(); "" means the default (-cpu).
	Priority PriorityMode `json:"priority,omitempty"`
}

// DomainPolicy is everything of the policy that shapes the sched domains.
type DomainPolicy struct {
	AsymConfig
	// SMTAsymPacking is the sched_smt_asym_packing= boot option; "" = auto.
	SMTAsymPacking SMTAsymPacking `json:"smt_asym_packing,omitempty"`
}

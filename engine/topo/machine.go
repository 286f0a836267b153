package topo

import (
	"schedplay/engine/units"
)

// Machine is the hardware description of scenario-v1 ("machine" section),
// after presets and overrides have been merged. Field names and JSON keys are
// fixed by scenario-v1.md; fields added by schedplay are documented in
// docs/scenario.md. The engine reads it; Build turns it into CPUs and domains.
type Machine struct {
	Nodes           int     `json:"nodes"`
	CoresPerNode    int     `json:"cores_per_node"`
	ClustersPerNode int     `json:"clusters_per_node,omitempty"`
	LLC             LLCSpan `json:"llc,omitempty"`
	// ThreadsPerCore is the hardware threads of a core; with core classes
	// that set their own threads it is the maximum over the classes.
	ThreadsPerCore int       `json:"threads_per_core"`
	Numbering      Numbering `json:"numbering,omitempty"`
	// CPUIDs renumbers the CPUs (schedplay addition): the Linux CPU
	// number of each CPU the numbering scheme produces, in that order, as
	// an ordered cpulist ("0-7,16-23,8-15,24-31"); it names every CPU
	// once. Absent, the scheme's own numbers are the CPU numbers. Real
	// machines number CPUs as their firmware lists them (the SG2042's
	// NUMA nodes interleave in blocks of eight), which neither scheme
	// gives.
	CPUIDs      string      `json:"cpu_ids,omitempty"`
	CoreClasses []CoreClass `json:"core_classes,omitempty"`
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
	Latency Latency `json:"latency"`
	// IPC is the cost of the kernel's pipe, socket and futex paths
	// (schedplay addition). An all-zero IPC (a machine built in Go, or
	// an importer's) is left out, so the defaults fill it.
	IPC IPC `json:"ipc,omitzero"`
	// Housekeeping is the machine's own per-CPU kernel noise (schedplay
	// addition); a workload's housekeeping section replaces it.
	Housekeeping *Housekeeping `json:"housekeeping,omitempty"`
	// DeviceIRQs are the machine's managed device interrupt vectors
	// (schedplay addition; none unless set).
	DeviceIRQs *DeviceIRQs `json:"device_irqs,omitempty"`
	// Distances is an optional SLIT-like node distance matrix (schedplay
	// addition); absent means 10 on the diagonal and 20 elsewhere.
	Distances [][]int `json:"distances,omitempty"`
	// NodeReclaimDistance is the architecture's node_reclaim_distance
	// (schedplay addition): sd_init() takes SD_BALANCE_FORK,
	// SD_BALANCE_EXEC and SD_WAKE_AFFINE off a NUMA level farther than it.
	// 0 is the generic RECLAIM_DISTANCE (30, include/linux/topology.h);
	// powerpc defines 10 (arch/powerpc/include/asm/topology.h) and x86
	// sets 32 on AMD Zen (init_amd_zen_common(), arch/x86/kernel/cpu/amd.c).
	NodeReclaimDistance int `json:"node_reclaim_distance,omitempty"`
}

// ReclaimDistance is m's node_reclaim_distance: NodeReclaimDistance, or
// the generic RECLAIM_DISTANCE when it is 0.
func (m *Machine) ReclaimDistance() int {
	if m.NodeReclaimDistance == 0 {
		return NodeReclaimDistance
	}
	return m.NodeReclaimDistance
}

// CoreClass assigns capacity and speed to the next Cores cores (in core
// order, node by node). Capacity is the kernel's cpu_scale (0..1024); Speed is
// the work rate of one full-resource thread relative to 1.0. Threads is the
// class's hardware threads per core (schedplay addition: Intel hybrid parts
// have 2 on P-cores, 1 on E-cores); 0 means the machine's threads_per_core.
// ClusterCores is how many of the class's cores share a cluster (an L2 and
// the CLS sched-domain level; schedplay addition: 1 for Alder Lake P-cores,
// 4 for its E-core modules); 0 leaves clustering to clusters_per_node. When
// one class sets it every class must, and clusters_per_node must be 1.
type CoreClass struct {
	Name         string  `json:"name"`
	Cores        int     `json:"cores"`
	Capacity     int     `json:"capacity"`
	Speed        float64 `json:"speed"`
	Threads      int     `json:"threads,omitempty"`
	ClusterCores int     `json:"cluster_cores,omitempty"`
}

// ThreadCount is the class's threads per core on a machine with tpc
// threads_per_core: its own Threads when set, else tpc (at least 1).
func (c CoreClass) ThreadCount(tpc int) int {
	if c.Threads > 0 {
		return c.Threads
	}
	return max(tpc, 1)
}

// CoreThreads lists the hardware threads of every core, in core order. A
// machine without core classes, or whose classes do not cover its cores
// exactly, gets threads_per_core on every core.
func (m Machine) CoreThreads() []int {
	total := m.Nodes * m.CoresPerNode
	if total < 1 {
		return nil
	}
	out := make([]int, 0, total)
	if m.classesCover() {
		for _, c := range m.CoreClasses {
			for range c.Cores {
				out = append(out, c.ThreadCount(m.ThreadsPerCore))
			}
		}
		return out
	}
	for range total {
		out = append(out, max(m.ThreadsPerCore, 1))
	}
	return out
}

// ClassClusters reports whether the core classes set the clusters
// (cluster_cores on some class) rather than clusters_per_node.
func (m Machine) ClassClusters() bool {
	for _, c := range m.CoreClasses {
		if c.ClusterCores != 0 {
			return true
		}
	}
	return false
}

// CoreClusters is the global cluster index of every core, in core order,
// numbered in core order: each class's cores k = cluster_cores at a time
// when the classes set the clusters and cover the cores with usable sizes,
// else clusters_per_node splitting every node evenly (one cluster per node
// when that does not divide). It is the cluster topo.Build gives each core;
// the drawing uses it too.
func (m Machine) CoreClusters() []int {
	total := m.Nodes * m.CoresPerNode
	if total < 1 {
		return nil
	}
	out := make([]int, 0, total)
	if m.ClassClusters() && m.classesCover() {
		next := 0
		for _, c := range m.CoreClasses {
			k := c.ClusterCores
			if k < 1 || c.Cores%k != 0 {
				k = c.Cores
			}
			for i := range c.Cores {
				out = append(out, next+i/k)
			}
			next += c.Cores / k
		}
		return out
	}
	cls := m.ClustersPerNode
	if cls < 1 || cls > m.CoresPerNode || m.CoresPerNode%cls != 0 {
		cls = 1
	}
	perCluster := m.CoresPerNode / cls
	for core := range total {
		out = append(out, core/m.CoresPerNode*cls+core%m.CoresPerNode/perCluster)
	}
	return out
}

// NumCPUs is the machine's logical CPU count: the sum of its cores'
// threads (nodes × cores_per_node × threads_per_core when every core has
// threads_per_core threads).
func (m Machine) NumCPUs() int {
	total := m.Nodes * m.CoresPerNode
	if total < 1 {
		return 0
	}
	if !m.classesCover() {
		return total * max(m.ThreadsPerCore, 1)
	}
	n := 0
	for _, c := range m.CoreClasses {
		n += c.Cores * c.ThreadCount(m.ThreadsPerCore)
	}
	return n
}

// classesCover reports whether the core classes assign exactly the
// machine's cores (each class at least one).
func (m Machine) classesCover() bool {
	if len(m.CoreClasses) == 0 {
		return false
	}
	sum := 0
	for _, c := range m.CoreClasses {
		if c.Cores < 1 {
			return false
		}
		sum += c.Cores
	}
	return sum == m.Nodes*m.CoresPerNode
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
	Qual units.Duration `json:"qual"`
	// PartitionedSingle is the rate of a lone busy PE while the core is still
	// partitioned (s_2T1; schedplay addition).
	PartitionedSingle float64 `json:"partitioned_single,omitempty"`
}

// Latency holds the named wake-up cost parameters (kernel-model.md §7.2,
// "Wake and IPI latency model"; docs/model.md, "The cost of IPC and
// wake-ups"). All are schedplay additions. 0 is a valid cost, so the
// durations are always written out.
type Latency struct {
	Wakeup        units.Duration `json:"wakeup"`         // try_to_wake_up() on the waker's CPU
	IPI           units.Duration `json:"ipi"`            // an IPI's delivery to another CPU (TTWU_QUEUE wake list, resched)
	IPISend       units.Duration `json:"ipi_send"`       // the sender's part of an IPI (GIC SGI / APIC ICR write)
	IdleExit      units.Duration `json:"idle_exit"`      // leaving the shallowest idle state (WFI)
	ContextSwitch units.Duration `json:"context_switch"` // __schedule() + switch_to() of a thread
	ProcessSwitch units.Duration `json:"process_switch"` // extra for an address-space switch
	// Syscall is a system call's entry and exit (el0_svc / entry_SYSCALL_64).
	Syscall units.Duration `json:"syscall"`
	// Cacheline is the time to pull a written cache line from another CPU,
	// by distance.
	Cacheline Cacheline `json:"cacheline"`
	// IdleStates are the CPU idle states deeper than WFI (cpuidle), the
	// shallowest first; none means WFI only.
	IdleStates []IdleState `json:"idle_states,omitempty"`
	// IdlePolling says the idle states watch the idle task's thread flags
	// (TIF_POLLING_NRFLAG: x86's mwait states and POLL): a wake-up or a
	// resched of an idle CPU then sends no IPI (set_nr_if_polling(),
	// set_nr_and_not_polling()); the CPU still leaves its state. arm64's
	// WFI does not poll.
	IdlePolling bool `json:"idle_polling,omitempty"`
	// Variation is the coefficient of variation of every kernel-path cost
	// above, per event (a log-normal factor of mean 1 drawn for each
	// charge): cache misses, branch history, interrupts and the state of
	// the lines make the same path take a different time each time. 0
	// makes every cost its nominal value.
	Variation float64 `json:"variation"`
}

// Cacheline is the cost of one cache-line transfer between two CPUs.
type Cacheline struct {
	SMT    units.Duration `json:"smt"`    // SMT siblings (shared L1/L2)
	LLC    units.Duration `json:"llc"`    // other core, same LLC
	Remote units.Duration `json:"remote"` // other LLC of the same node (or, by default, of another)
	// NUMA is a line from another node; defaults to Remote.
	NUMA units.Duration `json:"numa"`
	// NUMADistance is the SLIT distance at which NUMA was measured: a
	// node at another distance then costs by the SLIT (sim.initNodeLines).
	// 0: every other node costs NUMA.
	NUMADistance int `json:"numa_distance,omitempty"`
}

// IdleState is a cpuidle state (struct cpuidle_state): its exit latency
// and the target residency below which the governor does not pick it.
type IdleState struct {
	Name            string         `json:"name"`
	ExitLatency     units.Duration `json:"exit_latency"`
	TargetResidency units.Duration `json:"target_residency"`
}

// IPC holds the kernel paths of the IPC objects a workload's send and recv
// steps name (docs/model.md, "The cost of IPC and wake-ups"); schedplay
// additions.
type IPC struct {
	PipeWrite  units.Duration `json:"pipe_write"`  // pipe_write() of a small message, no wake-up
	PipeRead   units.Duration `json:"pipe_read"`   // pipe_read() of a small message
	SocketSend units.Duration `json:"socket_send"` // unix_stream_sendmsg(): skb alloc, copy, queue
	SocketRecv units.Duration `json:"socket_recv"` // unix_stream_read_generic(): dequeue, copy, free
	FutexWake  units.Duration `json:"futex_wake"`  // futex_wake(): hash, bucket lock, wake_q
	// SockSndbuf is a unix socket's sk_sndbuf in bytes (net.core.wmem_default).
	SockSndbuf int `json:"sock_sndbuf"`
	// PipeBuffers is a pipe's slots (pipe->max_usage, PIPE_DEF_BUFFERS);
	// PageSize the bytes of one slot.
	PipeBuffers int `json:"pipe_buffers"`
	PageSize    int `json:"page_size"`
	// MessageLines is the cache lines a message hands from its sender's CPU
	// to its receiver's (skb or pipe buffer, queue head, lock).
	MessageLines int `json:"message_lines"`
}

// Housekeeping is per-CPU kernel noise: every Period each CPU runs kernel
// work for Run (timer ticks, kworkers), waking an idle PE briefly.
type Housekeeping struct {
	Period units.Duration `json:"period"`
	Run    units.Duration `json:"run"`
}

// DeviceIRQs are managed interrupt vectors of a multi-queue device (an
// NVMe or NIC queue each): the kernel spreads Vectors groups of CPUs over
// the machine (GroupCPUsEvenly), the interrupt controller delivers each
// vector to the first CPU of its group, and each vector fires every
// Period for Run of handler time there.
type DeviceIRQs struct {
	Vectors int            `json:"vectors"`
	Period  units.Duration `json:"period"`
	Run     units.Duration `json:"run"`
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

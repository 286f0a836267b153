package topo

// CPUInfo is one logical CPU after numbering.
type CPUInfo struct {
	CPU     CPU    `json:"cpu"`
	Node    int    `json:"node"`
	Package int    `json:"package"`
	Cluster int    `json:"cluster"` // global cluster index
	Core    int    `json:"core"`    // global core index (0..total_cores-1)
	Thread  int    `json:"thread"`  // SMT thread index inside the core (PE0 = 0)
	Class   string `json:"class,omitempty"`
	// Capacity is cpu_scale (arch_scale_cpu_capacity), 0..1024.
	Capacity int `json:"capacity"`
	// Speed is the work rate of one full-resource thread (1.0 = reference).
	Speed float64 `json:"speed"`
	// Priority is arch_asym_cpu_priority() under the policy in force.
	Priority int `json:"priority"`
}

// Group is one sched_group of a domain (build_sched_groups()).
type Group struct {
	Span CPUSet `json:"-"`
	// BalanceMask is group_balance_mask(sg): the span, or for an
	// overlapping (NUMA) group the CPUs of the span that build it from
	// their own domains (build_balance_mask()).
	BalanceMask CPUSet  `json:"-"`
	Flags       SDFlags `json:"flags"` // the child domain's flags (sg->flags)
	// Weight is group_weight; Cores the number of distinct SMT cores (sg->cores).
	Weight int `json:"weight"`
	Cores  int `json:"cores"`
	// Capacity is sgc->capacity at build time (sum of cpu_scale).
	Capacity int `json:"capacity"`
	// AsymPreferCPU is sg->asym_prefer_cpu when the domain has SD_ASYM_PACKING, else NoCPU.
	AsymPreferCPU CPU `json:"asym_prefer_cpu"`
	// ID numbers the group's span: groups of any CPU's domains with the
	// same span have the same ID, an index of Topology.GroupSpans (the
	// simulator keeps per-span statistics by it).
	ID int `json:"-"`
	// SGC numbers the group's sched_group_capacity (sg->sgc), of which
	// Topology.NumSGC exist: the groups of one level built from the same
	// CPU share it, and with it sgc->imbalance.
	SGC int `json:"-"`
}

// Domain is one sched_domain of one CPU's chain, after degeneration.
type Domain struct {
	Level Level   `json:"name"`  // SD_INIT_NAME
	Depth int     `json:"level"` // the level's index in the surviving chain, 0 at the bottom (the kernel's sd->level keeps the build-time level: Vera's MC is 2 there, 1 here)
	Span  CPUSet  `json:"-"`
	Flags SDFlags `json:"flags"`
	// Groups, local group first (the one containing the CPU), as the
	// kernel's circular list starting at the local group.
	Groups []Group `json:"groups"`
	// sd_init() parameters; intervals in milliseconds as the kernel keeps them.
	MinInterval    int `json:"min_interval"`
	MaxInterval    int `json:"max_interval"`
	BusyFactor     int `json:"busy_factor"`
	ImbalancePct   int `json:"imbalance_pct"`
	CacheNiceTries int `json:"cache_nice_tries"`
	ImbNUMANr      int `json:"imb_numa_nr,omitempty"`
	// SharedID identifies the sched_domain_shared this domain points to
	// (the first CPU of the LLC span), or -1 when it has none.
	SharedID int `json:"shared_id"`
	// Child and Parent link the chain (nil at the ends).
	Child  *Domain `json:"-"`
	Parent *Domain `json:"-"`
}

// Topology is a machine turned into CPUs and per-CPU sched-domain chains
// under one policy: what build_sched_domains() + cpu_attach_domain() +
// update_top_cache_domain() leave behind.
type Topology struct {
	Machine    Machine   `json:"-"`
	CPUs       []CPUInfo `json:"cpus"`
	TotalCores int       `json:"total_cores"`
	// Domains[cpu] is the chain bottom-up (rq->sd first).
	Domains [][]*Domain `json:"-"`
	// Per-CPU shortcuts (update_top_cache_domain()); nil / -1 when absent.
	SDLLC             []*Domain `json:"-"`
	SDLLCSize         []int     `json:"-"`
	SDLLCID           []CPU     `json:"-"`
	SDShareID         []CPU     `json:"-"`
	SDNUMA            []*Domain `json:"-"`
	SDAsymPacking     []*Domain `json:"-"`
	SDAsymCPUCapacity []*Domain `json:"-"`
	// SiblingMask[cpu] is cpu_smt_mask(cpu); CoreCPUs[core] lists the
	// core's CPUs in thread order.
	SiblingMask []CPUSet `json:"-"`
	CoreCPUs    [][]CPU  `json:"-"`
	// GroupSpans is the span of every Group.ID.
	GroupSpans []CPUSet `json:"-"`
	// NumSGC is the number of Group.SGC values.
	NumSGC int `json:"-"`
	// SMTActive is sched_smt_active(); AsymCPUCapacityActive is the
	// sched_asym_cpucapacity static key; ClusterActive sched_cluster_active.
	SMTActive             bool `json:"smt_active"`
	AsymCPUCapacityActive bool `json:"asym_cpucapacity_active"`
	ClusterActive         bool `json:"cluster_active"`
}

// NumCPUs is nr_cpu_ids.
func (t *Topology) NumCPUs() int { return len(t.CPUs) }

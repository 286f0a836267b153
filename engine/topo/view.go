package topo

// View is a topology as JSON for people and pages (`schedplay topo --json`,
// POST /api/v1/topology): spans as cpulists, flags as name lists, the
// domain chains of the CPUs asked for.
type View struct {
	Machine               string    `json:"machine"`
	Policy                string    `json:"policy"`
	NumCPUs               int       `json:"nr_cpus"`
	TotalCores            int       `json:"total_cores"`
	SMTActive             bool      `json:"smt_active"`
	AsymCPUCapacityActive bool      `json:"asym_cpucapacity_active"`
	ClusterActive         bool      `json:"cluster_active"`
	CPUs                  []CPUView `json:"cpus"`
	// Priorities is arch_asym_cpu_priority() of every CPU, when asked for
	// (the page's machine drawing).
	Priorities []int `json:"priorities,omitempty"`
}

// CPUView is one CPU with its domain chain and update_top_cache_domain()'s
// shortcuts ("none" when absent).
type CPUView struct {
	CPUInfo
	Domains           []DomainView `json:"domains"`
	SDLLC             string       `json:"sd_llc"`
	SDLLCSize         int          `json:"sd_llc_size"`
	SDLLCID           CPU          `json:"sd_llc_id"`
	SDShareID         CPU          `json:"sd_share_id"`
	SDNUMA            string       `json:"sd_numa"`
	SDAsymPacking     string       `json:"sd_asym_packing"`
	SDAsymCPUCapacity string       `json:"sd_asym_cpucapacity"`
}

// DomainView is one sched_domain.
type DomainView struct {
	Name           Level       `json:"name"`
	Level          int         `json:"level"`
	Span           string      `json:"span"`
	Flags          []string    `json:"flags"`
	MinInterval    int         `json:"min_interval"`
	MaxInterval    int         `json:"max_interval"`
	BusyFactor     int         `json:"busy_factor"`
	ImbalancePct   int         `json:"imbalance_pct"`
	CacheNiceTries int         `json:"cache_nice_tries"`
	ImbNUMANr      int         `json:"imb_numa_nr"`
	SharedID       int         `json:"shared_id"`
	Groups         []GroupView `json:"groups"`
}

// GroupView is one sched_group.
type GroupView struct {
	Span          string   `json:"span"`
	Flags         []string `json:"flags"`
	Weight        int      `json:"weight"`
	Cores         int      `json:"cores"`
	Capacity      int      `json:"capacity"`
	AsymPreferCPU CPU      `json:"asym_prefer_cpu"`
}

// NewView is the view of t's CPUs in cpus, naming the machine and policy.
func NewView(t *Topology, machine, policy string, cpus CPUSet) View {
	v := View{Machine: machine, Policy: policy, NumCPUs: t.NumCPUs(), TotalCores: t.TotalCores,
		SMTActive: t.SMTActive, AsymCPUCapacityActive: t.AsymCPUCapacityActive, ClusterActive: t.ClusterActive,
		CPUs: []CPUView{}}
	for _, c := range cpus.CPUs() {
		cv := CPUView{CPUInfo: t.CPUs[c], Domains: []DomainView{},
			SDLLC: LevelName(t.SDLLC[c]), SDLLCSize: t.SDLLCSize[c], SDLLCID: t.SDLLCID[c],
			SDShareID: t.SDShareID[c], SDNUMA: LevelName(t.SDNUMA[c]),
			SDAsymPacking: LevelName(t.SDAsymPacking[c]), SDAsymCPUCapacity: LevelName(t.SDAsymCPUCapacity[c])}
		for _, d := range t.Domains[c] {
			dv := DomainView{Name: d.Level, Level: d.Depth, Span: d.Span.String(), Flags: d.Flags.Names(),
				MinInterval: d.MinInterval, MaxInterval: d.MaxInterval, BusyFactor: d.BusyFactor,
				ImbalancePct: d.ImbalancePct, CacheNiceTries: d.CacheNiceTries, ImbNUMANr: d.ImbNUMANr,
				SharedID: d.SharedID}
			for _, g := range d.Groups {
				dv.Groups = append(dv.Groups, GroupView{Span: g.Span.String(), Flags: g.Flags.Names(),
					Weight: g.Weight, Cores: g.Cores, Capacity: g.Capacity, AsymPreferCPU: g.AsymPreferCPU})
			}
			cv.Domains = append(cv.Domains, dv)
		}
		v.CPUs = append(v.CPUs, cv)
	}
	return v
}

// LevelName is a shortcut's level name, "none" when it is nil.
func LevelName(d *Domain) string {
	if d == nil {
		return "none"
	}
	return string(d.Level)
}

package topo

import "context"

// Build turns a machine and a policy into CPUs and per-CPU sched-domain
// chains, the way the kernel's boot-time topology setup and
// build_sched_domains() do. It validates its input and returns an *Error
// naming the first bad field. Zero-valued optional machine fields take the
// defaults documented on normalizeMachine.
func Build(m Machine, p DomainPolicy) (*Topology, error) {
	return build(context.Background(), m, p, false)
}

// BuildContext is Build that stops, returning ctx's error, when ctx is done
// (it checks every 64 CPUs of each pass over the CPUs).
func BuildContext(ctx context.Context, m Machine, p DomainPolicy) (*Topology, error) {
	return build(ctx, m, p, false)
}

// build is BuildContext; privateRings gives every overlapping domain a ring
// of its own, as the kernel allocates them (the tests' reference for the
// shared rings of overlapRings).
func build(ctx context.Context, m Machine, p DomainPolicy, privateRings bool) (*Topology, error) {
	m, err := normalizeMachine(m)
	if err != nil {
		return nil, err
	}
	if err := checkPolicy(p); err != nil {
		return nil, err
	}
	mode := priorityMode(m, p)
	if mode == PriorityArch && m.Priorities == nil {
		return nil, fieldErr("machine.priorities", "priority mode \"arch\" needs one value per CPU (%d)",
			m.NumCPUs())
	}
	t := &Topology{Machine: m, TotalCores: m.Nodes * m.CoresPerNode}
	numberCPUs(t)
	for i := range t.CPUs {
		t.CPUs[i].Priority = archAsymCPUPriority(t, mode, CPU(i))
	}
	b := newBuilder(t, p)
	b.ctx = ctx
	b.overlap.private = privateRings
	b.buildSchedDomains()
	if b.err != nil {
		return nil, b.err
	}
	return t, nil
}

// numberCPUs fills CPUs, SiblingMask and CoreCPUs: the arch topology code
// (cpu_topology[], cpu_smt_mask(), the cluster / L2 ids of
// Machine.CoreClusters) for the machine's numbering scheme. Each
// core has its class's thread count; a core with one thread has a
// one-CPU sibling mask, so its SMT domain degenerates (sd_degenerate()).
func numberCPUs(t *Topology) {
	m := t.Machine
	cpuOf := m.CPUNumbers()
	n := m.NumCPUs()
	t.CPUs = make([]CPUInfo, n)
	t.CoreCPUs = make([][]CPU, t.TotalCores)
	t.SiblingMask = make([]CPUSet, n)
	clusterOf := m.CoreClusters()
	class, left := 0, m.CoreClasses[0].Cores
	for core := 0; core < t.TotalCores; core++ {
		if left == 0 {
			class++
			left = m.CoreClasses[class].Cores
		}
		left--
		cc := m.CoreClasses[class]
		node := core / m.CoresPerNode
		cluster := clusterOf[core]
		mask := NewCPUSet(n)
		for th, cpu := range cpuOf[core] {
			t.CPUs[cpu] = CPUInfo{CPU: cpu, Node: node, Package: node, Cluster: cluster, Core: core,
				Thread: th, Class: cc.Name, Capacity: cc.Capacity, Speed: cc.Speed}
			mask.Set(cpu)
		}
		t.CoreCPUs[core] = cpuOf[core]
		for _, cpu := range t.CoreCPUs[core] {
			t.SiblingMask[cpu] = mask
		}
	}
}

// CPUNumbers lists the logical CPU of every thread of every core, in core
// order, the way Build numbers them (core-major when numbering is unset),
// renumbered by cpu_ids when it is set and valid.
func (m Machine) CPUNumbers() [][]CPU {
	out := cpuNumbers(m.Numbering, m.CoreThreads())
	ids, err := cpuIDs(m.CPUIDs, m.NumCPUs())
	if err != nil || ids == nil {
		return out
	}
	for _, cpus := range out {
		for th, c := range cpus {
			cpus[th] = ids[c]
		}
	}
	return out
}

// cpuNumbers is the logical CPU of every thread of every core
// (scenario-v1.md numbering), given each core's thread count. Core-major
// (x86) numbers a core's threads consecutively, core after core, so on a
// hybrid part the P-cores' threads come first and the E-cores follow, as
// Linux enumerates Alder Lake. Sibling-major numbers thread 0 of every core,
// then thread 1 of the cores that have one, and so on; with equal thread
// counts this is th × cores + core.
func cpuNumbers(nb Numbering, threads []int) [][]CPU {
	out := make([][]CPU, len(threads))
	next := CPU(0)
	if nb == SiblingMajor {
		for th := 0; ; th++ {
			more := false
			for core, k := range threads {
				if th < k {
					out[core] = append(out[core], next)
					next++
					more = true
				}
			}
			if !more {
				return out
			}
		}
	}
	for core, k := range threads {
		for range k {
			out[core] = append(out[core], next)
			next++
		}
	}
	return out
}

// priorityMode is the policy's priority, else the arch's, else the weak default.
func priorityMode(m Machine, p DomainPolicy) PriorityMode {
	switch {
	case p.Priority != "":
		return p.Priority
	case m.Arch.Priority != "":
		return m.Arch.Priority
	}
	return PriorityDefault
}

// archAsymCPUPriority models arch_asym_cpu_priority() under mode: the weak
// default in fair.c (-cpu), x86 ITMT's sched_core_priority (arch), the
// DynamiQ 2018 arm64 override (capacity), the Olympus combined-asym-packing
// override (capacity, doubled on PE0), and thread-major order (thread).
func archAsymCPUPriority(t *Topology, mode PriorityMode, cpu CPU) int {
	c := t.CPUs[cpu]
	switch mode {
	case PriorityArch:
		return t.Machine.Priorities[cpu]
	case PriorityCapacity:
		return c.Capacity
	case PriorityCapacityPE0:
		if c.Thread == 0 {
			return 2 * c.Capacity
		}
		return c.Capacity
	case PriorityThread:
		return -(c.Thread*t.TotalCores + c.Core)
	}
	return -int(cpu)
}

// SchedAsymPrefer models sched_asym_prefer(a, b) (kernel/sched/sched.h):
// true when a's priority is strictly greater than b's.
func SchedAsymPrefer(t *Topology, a, b CPU) bool {
	return t.CPUs[a].Priority > t.CPUs[b].Priority
}

// CPUsShareCache models cpus_share_cache(): same sd_llc_id.
func (t *Topology) CPUsShareCache(a, b CPU) bool { return t.SDLLCID[a] == t.SDLLCID[b] }

// CPUsShareResources models cpus_share_resources(): same sd_share_id.
func (t *Topology) CPUsShareResources(a, b CPU) bool { return t.SDShareID[a] == t.SDShareID[b] }

// Lowest returns rq->sd of cpu: the bottom of its surviving chain, or nil.
func (t *Topology) Lowest(cpu CPU) *Domain {
	if len(t.Domains[cpu]) == 0 {
		return nil
	}
	return t.Domains[cpu][0]
}

// EffectivePriority is the arch_asym_cpu_priority() mode Build uses for m
// under p: the policy's, else the arch's, else "default".
func EffectivePriority(m Machine, p DomainPolicy) PriorityMode { return priorityMode(m, p) }

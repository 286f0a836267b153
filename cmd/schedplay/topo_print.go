package main

import (
	"fmt"
	"io"
	"strings"

	"schedplay/engine/topo"
)

// printTopoHeader summarises the machine, the policy's effect and CPU 0's
// shortcuts before the per-CPU chains.
func printTopoHeader(w io.Writer, t *topo.Topology, mname, pname string, p topo.DomainPolicy) {
	m := t.Machine
	threads := fmt.Sprintf("%d thread(s)", m.ThreadsPerCore)
	mixed := false
	for _, c := range m.CoreClasses {
		mixed = mixed || c.ThreadCount(m.ThreadsPerCore) != m.ThreadsPerCore
	}
	if mixed {
		threads = fmt.Sprintf("≤%d thread(s)", m.ThreadsPerCore)
	}
	clusters := fmt.Sprintf("%d cluster(s)/node", m.ClustersPerNode)
	if m.ClassClusters() {
		clusters = "clusters by core class"
	}
	fmt.Fprintf(w, "machine %s: %d node(s) × %d cores × %s = %d CPUs, %s numbering, %s, LLC per %s\n",
		mname, m.Nodes, m.CoresPerNode, threads, t.NumCPUs(), m.Numbering, clusters, m.LLC)
	var classes []string
	for _, c := range topoClassTotals(m.CoreClasses) {
		th := ""
		if mixed {
			th = fmt.Sprintf(", %d thread(s)", c.ThreadCount(m.ThreadsPerCore))
		}
		if c.ClusterCores > 0 {
			th += fmt.Sprintf(", %d core(s) per cluster", c.ClusterCores)
		}
		classes = append(classes, fmt.Sprintf("%s ×%d (cpu_scale %d, speed %g%s)", c.Name, c.Cores, c.Capacity, c.Speed, th))
	}
	fmt.Fprintf(w, "  cores: %s\n", strings.Join(classes, ", "))
	opt := p.SMTAsymPacking
	if opt == "" {
		opt = topo.SMTAsymAuto
	}
	fmt.Fprintf(w, "policy %s: sched_smt_asym_packing=%s, arch_asym_cpu_priority=%s\n",
		pname, opt, topo.EffectivePriority(m, p))
	fmt.Fprintf(w, "  SD_ASYM_PACKING at: %s; SD_ASYM_CPUCAPACITY at: %s\n",
		topoLevelsWith(t, topo.SDAsymPacking), topoLevelsWith(t, topo.SDAsymCPUCapacity))
	fmt.Fprintf(w, "  static keys: sched_smt_present=%v sched_asym_cpucapacity=%v sched_cluster_active=%v\n",
		t.SMTActive, t.AsymCPUCapacityActive, t.ClusterActive)
	if d := m.DeviceIRQs; d != nil && d.Vectors > 0 {
		fmt.Fprintf(w, "  device interrupts: %d vector(s), each every %s for %s, delivered to CPUs %s (the first CPU of each group_cpus_evenly() group)\n",
			d.Vectors, d.Period, d.Run, topoIRQTargets(t, d.Vectors))
	}
	fmt.Fprintf(w, "  CPU0 chain: %s\n", topoChain(t, 0))
	fmt.Fprintf(w, "  CPU0 shortcuts: %s\n\n", topoShortcuts(t, 0))
}

// topoClassTotals merges core classes of the same name and parameters.
func topoClassTotals(cc []topo.CoreClass) []topo.CoreClass {
	var out []topo.CoreClass
next:
	for _, c := range cc {
		for i := range out {
			if o := out[i]; o.Name == c.Name && o.Capacity == c.Capacity && o.Speed == c.Speed && o.Threads == c.Threads &&
				o.ClusterCores == c.ClusterCores {
				out[i].Cores += c.Cores
				continue next
			}
		}
		out = append(out, c)
	}
	return out
}

// topoLevelsWith lists the surviving levels (over all CPUs) carrying flag.
func topoLevelsWith(t *topo.Topology, flag topo.SDFlags) string {
	var names []string
	seen := map[string]bool{}
	for cpu := range t.Domains {
		for _, d := range t.Domains[cpu] {
			if d.Flags&flag == 0 {
				continue
			}
			n := string(d.Level)
			if flag == topo.SDAsymCPUCapacity && d.Flags&topo.SDAsymCPUCapacityFull != 0 {
				n += "(FULL)"
			}
			if !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// topoChain prints a CPU's chain as SMT(2) → MC(176) → NUMA(352).
func topoChain(t *topo.Topology, cpu topo.CPU) string {
	var parts []string
	for _, d := range t.Domains[cpu] {
		parts = append(parts, fmt.Sprintf("%s(%d)", d.Level, d.Span.Weight()))
	}
	if len(parts) == 0 {
		return "(no sched domains)"
	}
	return strings.Join(parts, " → ")
}

// topoShortcuts prints update_top_cache_domain()'s per-CPU results.
func topoShortcuts(t *topo.Topology, cpu topo.CPU) string {
	return fmt.Sprintf("sd_llc=%s sd_llc_size=%d sd_llc_id=%d sd_share_id=%d sd_numa=%s sd_asym_packing=%s sd_asym_cpucapacity=%s",
		topo.LevelName(t.SDLLC[cpu]), t.SDLLCSize[cpu], t.SDLLCID[cpu], t.SDShareID[cpu],
		topo.LevelName(t.SDNUMA[cpu]), topo.LevelName(t.SDAsymPacking[cpu]), topo.LevelName(t.SDAsymCPUCapacity[cpu]))
}

// printSchedDomainDebug mirrors sched_domain_debug() / sched_domain_debug_one()
// (kernel/sched/topology.c), adding the flags and, under SD_ASYM_PACKING,
// each multi-CPU group's asym_prefer_cpu. maxGroups > 0 elides long lists.
func printSchedDomainDebug(w io.Writer, t *topo.Topology, cpu topo.CPU, maxGroups int) {
	if len(t.Domains[cpu]) == 0 {
		fmt.Fprintf(w, "CPU%d attaching NULL sched-domain.\n", cpu)
		return
	}
	fmt.Fprintf(w, "CPU%d attaching sched-domain(s):\n", cpu)
	for level, d := range t.Domains[cpu] {
		fmt.Fprintf(w, "%*s domain-%d: span=%s level=%s flags=%s\n", level, "", level, d.Span, d.Level,
			strings.Join(d.Flags.Names(), "|"))
		var b strings.Builder
		fmt.Fprintf(&b, "%*s groups:", level+1, "")
		for i, g := range d.Groups {
			if maxGroups > 0 && i == maxGroups {
				fmt.Fprintf(&b, " … (%d more groups)", len(d.Groups)-i)
				break
			}
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, " %d:{ span=%s", g.Span.First(), g.Span)
			if g.Capacity != 1024 {
				fmt.Fprintf(&b, " cap=%d", g.Capacity)
			}
			if d.Flags&topo.SDAsymPacking != 0 && g.Weight > 1 {
				fmt.Fprintf(&b, " asym_prefer_cpu=%d", g.AsymPreferCPU)
			}
			b.WriteString(" }")
		}
		fmt.Fprintln(w, b.String())
	}
	fmt.Fprintf(w, " %s\n", topoShortcuts(t, cpu))
}

// topoIRQTargets lists the CPUs a machine's managed vectors interrupt
// (topo.IRQTargets).
func topoIRQTargets(t *topo.Topology, vectors int) string {
	set := topo.NewCPUSet(t.NumCPUs())
	for _, c := range topo.IRQTargets(t, vectors) {
		set.Set(c)
	}
	return set.String()
}

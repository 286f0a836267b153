package site

import (
	"fmt"
	"strconv"

	"schedplay/engine/topo"
)

// The machine drawing (in the spirit of hwloc's lstopo) as data: the page
// materialises it in one call into index.mjs (schedplayDrawMachine), which
// creates the elements with textContent and attributes only. Built in Go
// element by element, Vera's 176 cores and 352 PEs took a quarter of a
// second of syscall/js calls on every machine or policy edit.

// Lstopo is the drawing of one machine.
type Lstopo struct {
	Label   string       `json:"label"` // aria-label of the whole drawing
	Compact bool         `json:"compact"`
	Nodes   []LstopoNode `json:"nodes"`
}

// LstopoNode is a NUMA node (package) with its clusters.
type LstopoNode struct {
	Title    string          `json:"title"`
	Clusters []LstopoCluster `json:"clusters"`
}

// LstopoCluster is a cluster of cores; Title is empty when the node has
// one cluster.
type LstopoCluster struct {
	Title string       `json:"title,omitempty"`
	Cores []LstopoCore `json:"cores"`
}

// LstopoCore is one core: its tint by capacity, hover title, core class and
// (in the roomy layout) heading.
type LstopoCore struct {
	Title      string     `json:"title"`
	Heading    string     `json:"heading,omitempty"`
	Class      string     `json:"class,omitempty"`
	Background string     `json:"background"`
	PEs        []LstopoPE `json:"pes"`
}

// LstopoPE is one hardware thread: a button selecting its CPU.
type LstopoPE struct {
	CPU      int    `json:"cpu"`
	Label    string `json:"label"`
	Title    string `json:"title"`
	Selected bool   `json:"selected,omitempty"`
}

// BuildLstopo lays out machine m (cpus from MachineCPUs) with each CPU's
// arch_asym_cpu_priority (when known) and the selected CPU.
func BuildLstopo(m topo.Machine, cpus []LaneCPU, prio map[int]int, selected int, dark bool) Lstopo {
	compact := len(cpus) > 64
	d := Lstopo{
		Label:   fmt.Sprintf("%d nodes, %d cores per node, %s, %d CPUs", m.Nodes, m.CoresPerNode, threadsLabel(m), len(cpus)),
		Compact: compact,
	}
	byCore := map[int][]LaneCPU{}
	for _, c := range cpus {
		byCore[c.Core] = append(byCore[c.Core], c)
	}
	// a cluster gets a title when some node has more than one
	titled := false
	for i := 1; i < len(cpus); i++ {
		titled = titled || cpus[i].Node == cpus[i-1].Node && cpus[i].Cluster != cpus[i-1].Cluster
	}
	lastNode, lastCl := -1, -1
	for core := 0; core < m.Nodes*m.CoresPerNode; core++ {
		pes := byCore[core]
		if len(pes) == 0 {
			continue
		}
		if pes[0].Node != lastNode {
			lastNode, lastCl = pes[0].Node, -1
			d.Nodes = append(d.Nodes, LstopoNode{Title: fmt.Sprintf("NUMANode L#%d · Package", lastNode)})
		}
		node := &d.Nodes[len(d.Nodes)-1]
		if pes[0].Cluster != lastCl {
			lastCl = pes[0].Cluster
			cl := LstopoCluster{}
			if titled {
				cl.Title = fmt.Sprintf("Cluster %d", lastCl)
			}
			node.Clusters = append(node.Clusters, cl)
		}
		cl := &node.Clusters[len(node.Clusters)-1]
		c := LstopoCore{
			Title:      fmt.Sprintf("core %d · %s · capacity %d", core, pes[0].Class, pes[0].Capacity),
			Class:      pes[0].Class,
			Background: capacityTint(pes[0].Capacity, dark),
		}
		if !compact {
			c.Heading = fmt.Sprintf("Core %d", core)
		}
		sortByThread(pes)
		for _, pe := range pes {
			label := strconv.Itoa(pe.CPU)
			if !compact {
				label = fmt.Sprintf("PE%d · %d", pe.Thread, pe.CPU)
			}
			title := fmt.Sprintf("CPU %d · core %d · PE%d · capacity %d", pe.CPU, core, pe.Thread, pe.Capacity)
			if p, ok := prio[pe.CPU]; ok {
				title += fmt.Sprintf(" · arch_asym_cpu_priority %d", p)
			}
			c.PEs = append(c.PEs, LstopoPE{CPU: pe.CPU, Label: label, Title: title, Selected: pe.CPU == selected})
		}
		cl.Cores = append(cl.Cores, c)
	}
	return d
}

// capacityTint shades a core by its cpu_scale: big cores darker.
func capacityTint(capacity int, dark bool) string {
	f := float64(capacity) / 1024
	if dark {
		return fmt.Sprintf("hsl(42 55%% %.0f%%)", 12+f*18)
	}
	return fmt.Sprintf("hsl(42 75%% %.0f%%)", 92-f*22)
}

func sortByThread(pes []LaneCPU) {
	for i := 1; i < len(pes); i++ {
		for j := i; j > 0 && pes[j].Thread < pes[j-1].Thread; j-- {
			pes[j], pes[j-1] = pes[j-1], pes[j]
		}
	}
}

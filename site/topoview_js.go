//go:build js && wasm

package site

import (
	"fmt"
	"strconv"
	"strings"

	"honnef.co/go/js/dom/v2"

	"schedplay/engine/topo"
)

// renderTopology draws the machine in the spirit of hwloc's lstopo (nodes,
// clusters, cores, PEs with CPU numbers) and lists the chosen CPU's
// sched-domain chain with its flags under the current policy: what
// `schedplay topo` prints, drawn.
func (a *App) renderTopology() {
	s := a.state
	tab := s.View.Tab
	show := tab == TabMachine || tab == TabPolicy
	sig := "hidden"
	deferred := show && a.deferTopology()
	switch {
	case deferred:
		sig = "deferred"
	case show:
		sig = fmt.Sprintf("%p|%s|%s|%d|%v", s.Catalog, Compact(s.Doc["machine"]), Compact(s.Doc["policy"]), s.View.TopoCPU, a.dark)
	}
	a.update("topology", sig, func(b builder, el dom.HTMLElement) {
		if !show {
			return
		}
		b.text(el, "h2", "", "Topology")
		if deferred {
			b.text(el, "p", "muted", "drawn after the first result…")
			return
		}
		if s.Catalog == nil {
			b.text(el, "p", "muted", "loading presets…")
			return
		}
		m := s.Machine()
		cpus, err := MachineCPUs(m)
		if err != nil {
			b.text(el, "p", "issue", err.Error())
			return
		}
		pol := s.Policy()
		t, berr := topo.Build(m, pol.DomainPolicy)
		prio := map[int]int{}
		if berr == nil {
			for _, c := range t.CPUs {
				prio[int(c.CPU)] = c.Priority
			}
		}
		a.drawMachine(b, el, m, cpus, prio)
		if berr != nil {
			b.text(el, "p", "issue", "sched domains: "+berr.Error())
			return
		}
		a.drawDomains(b, el, t)
	})
}

// deferTopology says whether to hold back the machine drawing: on a large
// machine it takes the main thread for a few hundred ms, which on a small
// computer slows the engine's first run (the page's first result) more
// than the drawing is worth until then.
func (a *App) deferTopology() bool {
	if a.gotPreview || a.gotRes || a.state.Run.Status != StatusRunning {
		return false
	}
	cpus, err := a.state.CPUs()
	return err == nil && len(cpus) > 64
}

func (a *App) drawMachine(b builder, el dom.Element, m topo.Machine, cpus []LaneCPU, prio map[int]int) {
	s := a.state
	compact := len(cpus) > 64
	box := b.el(el, "div", "lstopo")
	if compact {
		box.Class().Add("compact")
	}
	box.SetAttribute("aria-label", fmt.Sprintf("%d nodes, %d cores per node, %s, %d CPUs", m.Nodes, m.CoresPerNode, threadsLabel(m), len(cpus)))
	b.text(box, "p", "muted small", "Darker cores have more capacity (cpu_scale); click a CPU for its sched-domain chain.")
	// cores in order with their CPUs by thread
	byCore := map[int][]LaneCPU{}
	for _, c := range cpus {
		byCore[c.Core] = append(byCore[c.Core], c)
	}
	total := m.Nodes * m.CoresPerNode
	var nodeEl, clEl dom.HTMLElement
	lastNode, lastCl := -1, -1
	for core := 0; core < total; core++ {
		pes := byCore[core]
		if len(pes) == 0 {
			continue
		}
		if pes[0].Node != lastNode {
			lastNode, lastCl = pes[0].Node, -1
			nodeEl = b.el(box, "div", "t-node")
			b.text(nodeEl, "div", "t-title", fmt.Sprintf("NUMANode L#%d · Package", lastNode))
		}
		if pes[0].Cluster != lastCl {
			lastCl = pes[0].Cluster
			clEl = b.el(nodeEl, "div", "t-cluster")
			if m.ClustersPerNode > 1 {
				b.text(clEl, "div", "t-title", fmt.Sprintf("Cluster %d", lastCl))
			}
		}
		coreEl := b.el(clEl, "div", "t-core")
		cls := pes[0].Class
		if cls != "" {
			coreEl.SetAttribute("data-class", cls)
		}
		coreEl.Style().SetProperty("background", capacityTint(pes[0].Capacity, a.dark), "")
		coreEl.SetAttribute("title", fmt.Sprintf("core %d · %s · capacity %d", core, cls, pes[0].Capacity))
		if !compact {
			b.text(coreEl, "div", "t-title", fmt.Sprintf("Core %d", core))
		}
		sortByThread(pes)
		for _, pe := range pes {
			cpu := pe.CPU
			pb := b.el(coreEl, "button", "t-pe")
			label := strconv.Itoa(cpu)
			if !compact {
				label = fmt.Sprintf("PE%d · %d", pe.Thread, cpu)
			}
			pb.SetTextContent(label)
			title := fmt.Sprintf("CPU %d · core %d · PE%d · capacity %d", cpu, core, pe.Thread, pe.Capacity)
			if p, ok := prio[cpu]; ok {
				title += fmt.Sprintf(" · arch_asym_cpu_priority %d", p)
			}
			pb.SetAttribute("title", title)
			pb.SetAttribute("aria-label", title)
			pb.SetAttribute("data-cpu", strconv.Itoa(cpu))
			if cpu == s.View.TopoCPU {
				pb.Class().Add("sel")
				pb.SetAttribute("aria-pressed", "true")
			}
		}
	}
	// One listener for every PE (Vera has 352): a Go callback per button
	// made drawing the machine take a third of a second.
	b.on(box, "click", func(ev dom.Event) {
		t := ev.Target()
		if t == nil {
			return
		}
		if pe := t.Closest("[data-cpu]"); pe != nil {
			if cpu, err := strconv.Atoi(pe.GetAttribute("data-cpu")); err == nil {
				a.dispatch(SelectCPU{CPU: cpu})
			}
		}
	})
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

// drawDomains lists the selected CPU's sched-domain chain bottom-up.
func (a *App) drawDomains(b builder, el dom.Element, t *topo.Topology) {
	cpu := a.state.View.TopoCPU
	if cpu < 0 || cpu >= len(t.Domains) {
		cpu = 0
	}
	h := b.text(el, "h3", "", fmt.Sprintf("Sched domains of CPU %d", cpu))
	h.SetID("domains-title")
	flags := []string{}
	if t.SMTActive {
		flags = append(flags, "sched_smt_active")
	}
	if t.AsymCPUCapacityActive {
		flags = append(flags, "sched_asym_cpucapacity")
	}
	if t.ClusterActive {
		flags = append(flags, "sched_cluster_active")
	}
	if len(flags) > 0 {
		b.text(el, "p", "muted", "static keys: "+strings.Join(flags, ", "))
	}
	tbl := b.el(el, "table", "domains")
	tbl.SetID("domains")
	hr := b.el(b.el(tbl, "thead", ""), "tr", "")
	for _, c := range []string{"level", "span", "groups", "flags"} {
		b.text(hr, "th", "", c)
	}
	body := b.el(tbl, "tbody", "")
	for _, d := range t.Domains[cpu] {
		tr := b.el(body, "tr", "")
		b.text(tr, "td", "lvl", string(d.Level))
		b.text(tr, "td", "span", d.Span.String())
		b.text(tr, "td", "", strconv.Itoa(len(d.Groups)))
		fl := b.el(tr, "td", "flags")
		for _, n := range d.Flags.Names() {
			c := "flag"
			if n == "SD_ASYM_PACKING" || strings.HasPrefix(n, "SD_ASYM_CPUCAPACITY") {
				c += " hot"
			}
			b.text(fl, "span", c, strings.TrimPrefix(n, "SD_"))
		}
	}
	if len(t.Domains[cpu]) == 0 {
		b.text(el, "p", "muted", "no sched domains (a single CPU)")
	}
	extra := []string{}
	if t.SDAsymPacking[cpu] != nil {
		extra = append(extra, "sd_asym_packing = "+string(t.SDAsymPacking[cpu].Level))
	}
	if t.SDAsymCPUCapacity[cpu] != nil {
		extra = append(extra, "sd_asym_cpucapacity = "+string(t.SDAsymCPUCapacity[cpu].Level))
	}
	if t.SDLLC[cpu] != nil {
		extra = append(extra, "sd_llc = "+string(t.SDLLC[cpu].Level))
	}
	if len(extra) > 0 {
		b.text(el, "p", "muted", strings.Join(extra, " · "))
	}
}

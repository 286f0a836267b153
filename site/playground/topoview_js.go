//go:build js && wasm

package playground

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"schedplay/engine/topo"
	"schedplay/site"
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
		// Not the selected CPU: choosing one only moves the highlight
		// and redraws the domain chain (below).
		sig = fmt.Sprintf("%p|%s|%s|%v", s.Catalog, site.Compact(s.Doc["machine"]), site.Compact(s.Doc["policy"]), a.dark)
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
		cpus, err := site.MachineCPUs(m)
		if err != nil {
			b.text(el, "p", "issue", err.Error())
			return
		}
		t, berr := a.topology()
		prio := map[int]int{}
		if berr == nil {
			for _, c := range t.CPUs {
				prio[int(c.CPU)] = c.Priority
			}
		}
		a.drawMachine(b, el, m, cpus, prio)
		a.peSel = s.View.TopoCPU
		if berr != nil {
			b.text(el, "p", "issue", "sched domains: "+berr.Error())
			return
		}
		b.el(el, "div", "").SetID("topo-domains")
	})
	if sig == "hidden" || deferred {
		return
	}
	a.update("topo-domains", fmt.Sprint(sig, "|", s.View.TopoCPU), func(b builder, el dom.HTMLElement) {
		if t, err := a.topology(); err == nil {
			a.drawDomains(b, el, t)
		}
	})
	a.markSelectedPE(s.View.TopoCPU)
}

// topology is topo.Build of the current machine and policy, kept until
// either changes (the drawing and the domain chain both need it, and
// choosing a CPU must not rebuild it).
func (a *App) topology() (*topo.Topology, error) {
	s := a.state
	key := site.Compact(s.Doc["machine"]) + "\x00" + site.Compact(s.Doc["policy"])
	if a.topoKey != key { // the key is never empty: the first call builds
		a.topoKey = key
		a.topoVal, a.topoErr = topo.Build(s.Machine(), s.Policy().DomainPolicy)
	}
	return a.topoVal, a.topoErr
}

// cpus is State.CPUs of the current machine, kept while the machine
// section and the catalog stay the same (the toolbar asks at every render).
func (a *App) cpus() ([]site.LaneCPU, error) {
	key := fmt.Sprintf("%p|", a.state.Catalog) + site.Compact(a.state.Doc["machine"])
	if a.cpusKey != key {
		a.cpusKey = key
		a.cpusVal, a.cpusErr = a.state.CPUs()
	}
	return a.cpusVal, a.cpusErr
}

// markSelectedPE moves the drawing's highlight to cpu.
func (a *App) markSelectedPE(cpu int) {
	if a.peSel == cpu {
		return
	}
	box := a.doc.QuerySelector("#topology .lstopo")
	if box == nil {
		return
	}
	if old := box.QuerySelector(".t-pe.sel"); old != nil {
		old.Class().Remove("sel")
		old.RemoveAttribute("aria-pressed")
	}
	if pe := box.QuerySelector(fmt.Sprintf(`.t-pe[data-cpu="%d"]`, cpu)); pe != nil {
		pe.Class().Add("sel")
		pe.SetAttribute("aria-pressed", "true")
	}
	a.peSel = cpu
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

func (a *App) drawMachine(b builder, el dom.Element, m topo.Machine, cpus []site.LaneCPU, prio map[int]int) {
	d := site.BuildLstopo(m, cpus, prio, a.state.View.TopoCPU, a.dark)
	box := b.el(el, "div", "lstopo")
	if d.Compact {
		box.Class().Add("compact")
	}
	box.SetAttribute("aria-label", d.Label)
	b.text(box, "p", "muted small", "Darker cores have more capacity (cpu_scale); click a CPU for its sched-domain chain.")
	spec, err := json.Marshal(d)
	draw := js.Global().Get("schedplayDrawMachine")
	if err != nil || draw.Type() != js.TypeFunction {
		b.text(box, "p", "issue", "the machine drawing is unavailable (index.mjs not loaded)")
		return
	}
	draw.Invoke(box.Underlying(), string(spec))
	// One listener for every PE (Vera has 352).
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
		// Ranges never break inside ("0-87" stays whole); a line may
		// break after a comma (<wbr>, built as an element, never as HTML).
		sp := b.el(tr, "td", "span")
		for _, r := range CPUListRanges(d.Span.String()) {
			b.text(sp, "span", "rng", r)
			sp.AppendChild(b.doc.CreateElement("wbr"))
		}
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

//go:build js && wasm

package playground

import (
	"encoding/json"
	"errors"
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
		_, _, ready := a.anyTopologyView(s.View.TopoCPU)
		sig = fmt.Sprintf("%p|%s|%s|%v|%v", s.Catalog, site.Compact(s.Doc["machine"]), site.Compact(s.Doc["policy"]), a.dark, ready)
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
		pol := b.text(el, "p", "muted small topo-policy", "Sched domains under policy ")
		b.text(pol, "span", "pol-sum", s.Doc.PolicySummary(s.Catalog))
		pol.SetID("topo-policy")
		pol.SetAttribute("title", "the policy preset and the fair.c generation (policy.generation) the domains are built for")
		m, cpus, err := a.machine()
		if err != nil {
			b.text(el, "p", "issue", err.Error())
			return
		}
		v, berr, ready := a.anyTopologyView(s.View.TopoCPU)
		if !ready {
			b.text(el, "p", "muted", "building the sched domains in the engine…")
			return
		}
		if a.topo.refused {
			b.text(el, "p", "issue", "sched domains: "+berr.Error())
			return
		}
		prio := map[int]int{}
		if berr == nil {
			for cpu, p := range v.Priorities {
				prio[cpu] = p
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
	v, err, ready := a.topologyView(s.View.TopoCPU)
	a.update("topo-domains", fmt.Sprint(sig, "|", s.View.TopoCPU, "|", ready), func(b builder, el dom.HTMLElement) {
		if ready && err == nil {
			a.drawDomains(b, el, v)
		}
	})
	a.markSelectedPE(s.View.TopoCPU)
}

// topoCache holds what the engine worker answered to POST /api/v1/topology
// for one machine and policy (key), by CPU: the topology is built in the
// worker, under the browser's budget, never on the page's main thread.
type topoCache struct {
	key     string
	views   map[int]*topo.View
	err     error
	pending map[int]bool
	// refused: the engine refused to build it (over the browser's
	// budget), so the machine is not drawn either.
	refused bool
}

// topologyView is the engine's topology view for cpu of the current
// machine and policy: ready is false while it is being asked for (the page
// renders again when it arrives).
func (a *App) topologyView(cpu int) (v *topo.View, err error, ready bool) {
	s := a.state
	key := site.Compact(s.Doc["machine"]) + "\x00" + site.Compact(s.Doc["policy"])
	c := &a.topo
	if c.key != key { // the key is never empty: the first call asks
		*c = topoCache{key: key, views: map[int]*topo.View{}, pending: map[int]bool{}}
	}
	if c.err != nil {
		return nil, c.err, true
	}
	if v, ok := c.views[cpu]; ok {
		return v, nil, true
	}
	if !c.pending[cpu] {
		c.pending[cpu] = true
		doc := s.Doc.Canonical()
		a.spawn(func() {
			r := engineFetch("POST", fmt.Sprintf("/api/v1/topology?cpu=%d", cpu), doc)
			if a.topo.key != key {
				return // the machine or policy changed meanwhile
			}
			delete(a.topo.pending, cpu)
			var v topo.View
			switch {
			case !r.OK():
				a.topo.err = r.Errors()
				a.topo.refused = r.Status == 422
			case json.Unmarshal([]byte(r.Body), &v) != nil || len(v.CPUs) != 1:
				a.topo.err = errors.New("the engine's topology could not be read")
			default:
				a.topo.views[cpu] = &v
			}
			a.scheduleRender()
		})
	}
	return nil, nil, false
}

// anyTopologyView is the selected CPU's topology view, else any CPU's of
// the same machine and policy: the machine drawing needs only the
// priorities, which every view carries.
func (a *App) anyTopologyView(cpu int) (v *topo.View, err error, ready bool) {
	if v, err, ready := a.topologyView(cpu); ready {
		return v, err, ready
	}
	for _, v := range a.topo.views {
		return v, nil, true
	}
	return nil, nil, false
}

// machine is State.Machine and its CPUs (State.CPUs), kept while the
// machine section and the catalog stay the same: the toolbar asks at every
// render, and expanding a machine (a JSON round trip of the section with
// its preset) costs Vera's boot a few ms each time.
func (a *App) machine() (topo.Machine, []site.LaneCPU, error) {
	key := fmt.Sprintf("%p|", a.state.Catalog) + site.Compact(a.state.Doc["machine"])
	if a.cpusKey != key {
		a.cpusKey = key
		a.machineVal = a.state.Machine()
		a.cpusVal, a.cpusErr = site.MachineCPUs(a.machineVal)
	}
	return a.machineVal, a.cpusVal, a.cpusErr
}

// cpus is machine's CPUs.
func (a *App) cpus() ([]site.LaneCPU, error) {
	_, cpus, err := a.machine()
	return cpus, err
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
	if !a.noPictureYet() {
		return false
	}
	cpus, err := a.cpus()
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

// drawDomains lists the selected CPU's sched-domain chain bottom-up, from
// the engine's topology view.
func (a *App) drawDomains(b builder, el dom.Element, v *topo.View) {
	c := v.CPUs[0]
	h := b.text(el, "h3", "", fmt.Sprintf("Sched domains of CPU %d", c.CPU))
	h.SetID("domains-title")
	flags := []string{}
	if v.SMTActive {
		flags = append(flags, "sched_smt_active")
	}
	if v.AsymCPUCapacityActive {
		flags = append(flags, "sched_asym_cpucapacity")
	}
	if v.ClusterActive {
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
	for _, d := range c.Domains {
		tr := b.el(body, "tr", "")
		b.text(tr, "td", "lvl", string(d.Name))
		// Ranges never break inside ("0-87" stays whole); a line may
		// break after a comma (<wbr>, built as an element, never as HTML).
		sp := b.el(tr, "td", "span")
		for _, r := range CPUListRanges(d.Span) {
			b.text(sp, "span", "rng", r)
			b.el(sp, "wbr", "")
		}
		b.text(tr, "td", "", strconv.Itoa(len(d.Groups)))
		fl := b.el(tr, "td", "flags")
		for _, n := range d.Flags {
			c := "flag"
			if n == "SD_ASYM_PACKING" || strings.HasPrefix(n, "SD_ASYM_CPUCAPACITY") {
				c += " hot"
			}
			b.text(fl, "span", c, strings.TrimPrefix(n, "SD_"))
		}
	}
	if len(c.Domains) == 0 {
		b.text(el, "p", "muted", "no sched domains (a single CPU)")
	}
	extra := []string{}
	for _, sc := range []struct{ name, level string }{
		{"sd_asym_packing", c.SDAsymPacking}, {"sd_asym_cpucapacity", c.SDAsymCPUCapacity}, {"sd_llc", c.SDLLC},
	} {
		if sc.level != "none" {
			extra = append(extra, sc.name+" = "+sc.level)
		}
	}
	if len(extra) > 0 {
		b.text(el, "p", "muted", strings.Join(extra, " · "))
	}
}

package sysfs

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"schedplay/engine/importer/hw"
	"schedplay/engine/importer/input"
	"schedplay/engine/importer/tree"
)

const cpuDir = "sys/devices/system/cpu"

// Root finds the snapshot's root in t: the prefix ("" or one or two
// directory levels, as an unpacked dump "NAME/sys/…" has) below which
// sys/devices/system/cpu lies; ok is false when there is none.
func Root(t tree.Tree) (string, bool) {
	has := func(p string) bool {
		_, err := t.ReadDir(p + cpuDir)
		return err == nil
	}
	if has("") {
		return "", true
	}
	top, _ := t.ReadDir("")
	for _, a := range top {
		if has(a + "/") {
			return a + "/", true
		}
		sub, _ := t.ReadDir(a)
		for _, b := range sub {
			if has(a + "/" + b + "/") {
				return a + "/" + b + "/", true
			}
		}
	}
	return "", false
}

// reader reads one snapshot; file names the snapshot in errors.
type reader struct {
	t    tree.Tree
	root string
	file string
}

// Read reads the snapshot below root of t. file names it in errors
// ("dump.tar.gz: sys/devices/system/cpu/cpu3/topology/core_id: …").
func Read(t tree.Tree, root, file string) (*hw.Topology, error) {
	r := &reader{t: t, root: root, file: file}
	ids, err := r.cpuIDs()
	if err != nil {
		return nil, err
	}
	if len(ids) > input.MaxCPUs {
		return nil, input.Errorf(file, 0, "%d CPUs; the limit is %d", len(ids), input.MaxCPUs)
	}
	online, err := r.online(ids)
	if err != nil {
		return nil, err
	}
	topo := &hw.Topology{Source: "sysfs snapshot"}
	info := parseCPUInfo(r.optional("proc/cpuinfo"))
	topo.Arch, topo.Model, topo.Hybrid = info.arch, info.model, info.hybrid
	topo.Vendor, topo.Family = info.vendor, info.family
	if info.arch == "" {
		topo.Note("no /proc/cpuinfo architecture: the generic (arm64-like) topology rules apply")
	}
	freq := r.policyFreqs()
	for _, id := range ids {
		c, err := r.cpu(id, online[id], info, freq)
		if err != nil {
			return nil, err
		}
		topo.CPUs = append(topo.CPUs, c)
	}
	if err := r.nodes(topo); err != nil {
		return nil, err
	}
	return topo, nil
}

// cpuIDs lists the cpuN directories.
func (r *reader) cpuIDs() ([]int, error) {
	names, err := r.t.ReadDir(r.root + cpuDir)
	if err != nil {
		return nil, input.Errorf(r.file, 0, "no %s directory", cpuDir)
	}
	var ids []int
	for _, n := range names {
		if v, ok := strings.CutPrefix(n, "cpu"); ok {
			if id, err := strconv.Atoi(v); err == nil && id >= 0 && id <= input.MaxCPUID {
				ids = append(ids, id)
			}
		}
	}
	if len(ids) == 0 {
		return nil, input.Errorf(r.file, 0, "%s has no cpuN directories", cpuDir)
	}
	slices.Sort(ids)
	return ids, nil
}

// online says which CPUs are online: the online cpulist, else each
// cpuN/online (a CPU without one, typically cpu0, is online).
func (r *reader) online(ids []int) (map[int]bool, error) {
	on := map[int]bool{}
	if s, ok, err := r.list(cpuDir + "/online"); err != nil {
		return nil, err
	} else if ok {
		for _, c := range s {
			on[c] = true
		}
		return on, nil
	}
	for _, id := range ids {
		v := strings.TrimSpace(r.optional(fmt.Sprintf("%s/cpu%d/online", cpuDir, id)))
		on[id] = v != "0"
	}
	return on, nil
}

// cpu reads one CPU's directory.
func (r *reader) cpu(id int, online bool, info cpuinfo, freq map[int]int) (hw.CPU, error) {
	c := hw.NewCPU(id)
	c.Online = online
	dir := fmt.Sprintf("%s/cpu%d/", cpuDir, id)
	var err error
	if c.Siblings, err = r.firstList(dir+"topology/thread_siblings_list", dir+"topology/core_cpus_list"); err != nil {
		return c, err
	}
	if c.Cluster, _, err = r.list(dir + "topology/cluster_cpus_list"); err != nil {
		return c, err
	}
	for _, f := range []struct {
		name string
		to   *int
	}{{"topology/core_id", &c.Core}, {"topology/physical_package_id", &c.Package}} {
		if *f.to, err = r.int(dir+f.name, -1); err != nil {
			return c, err
		}
	}
	if c.Capacity, err = r.int(dir+"cpu_capacity", 0); err != nil {
		return c, err
	}
	if c.HighestPerf, err = r.int(dir+"acpi_cppc/highest_perf", 0); err != nil {
		return c, err
	}
	if c.MaxKHz, err = r.int(dir+"cpufreq/cpuinfo_max_freq", 0); err != nil {
		return c, err
	}
	if c.MaxKHz == 0 {
		c.MaxKHz = freq[id]
	}
	llc, l2, err := r.caches(dir)
	if err != nil {
		return c, err
	}
	c.LLC = llc
	if c.Cluster == nil && info.arch == hw.ArchX86 {
		c.Cluster = l2 // x86 cpu_clustergroup_mask(): the CPUs sharing the L2
	}
	c.Kind = info.kind[id]
	if k := midrKind(r.optional(dir + "regs/identification/midr_el1")); k != "" {
		c.Kind = k
	}
	if c.Core < 0 && c.Siblings == nil && online {
		return c, input.Errorf(r.file, 0, "%stopology has neither thread_siblings_list nor core_id", dir)
	}
	return c, nil
}

// caches returns the CPUs sharing the highest-level data or unified cache
// (the LLC) and those sharing the level-2 one.
func (r *reader) caches(dir string) (llc, l2 []int, err error) {
	names, _ := r.t.ReadDir(r.root + dir + "cache")
	best := 0
	for _, n := range names {
		if !strings.HasPrefix(n, "index") {
			continue
		}
		d := dir + "cache/" + n + "/"
		if strings.TrimSpace(r.optional(d+"type")) == "Instruction" {
			continue
		}
		level, err := r.int(d+"level", 0)
		if err != nil {
			return nil, nil, err
		}
		list, ok, err := r.list(d + "shared_cpu_list")
		if err != nil || !ok {
			return nil, nil, err
		}
		if level == 2 {
			l2 = list
		}
		if level > best && level >= 2 { // an L1-only listing says nothing of the LLC
			best, llc = level, list
		}
	}
	return llc, l2, nil
}

// policyFreqs maps CPUs to cpuinfo_max_freq through cpufreq/policyN.
func (r *reader) policyFreqs() map[int]int {
	out := map[int]int{}
	names, _ := r.t.ReadDir(r.root + cpuDir + "/cpufreq")
	for _, n := range names {
		d := cpuDir + "/cpufreq/" + n + "/"
		f, err := r.int(d+"cpuinfo_max_freq", 0)
		cpus, ok, err2 := r.list(d + "related_cpus")
		if err != nil || err2 != nil || !ok || f <= 0 {
			continue
		}
		for _, c := range cpus {
			out[c] = f
		}
	}
	return out
}

// nodes reads sys/devices/system/node: each node's CPUs and distances.
func (r *reader) nodes(t *hw.Topology) error {
	const nodeDir = "sys/devices/system/node"
	names, err := r.t.ReadDir(r.root + nodeDir)
	if err != nil {
		return nil // no NUMA information
	}
	var ids []int
	for _, n := range names {
		if v, ok := strings.CutPrefix(n, "node"); ok {
			if id, err := strconv.Atoi(v); err == nil {
				ids = append(ids, id)
			}
		}
	}
	slices.Sort(ids)
	at := map[int]int{}
	for i, c := range t.CPUs {
		at[c.ID] = i
	}
	var withDist []int
	var dist [][]int
	for _, id := range ids {
		d := fmt.Sprintf("%s/node%d/", nodeDir, id)
		cpus, ok, err := r.list(d + "cpulist")
		if err == nil && !ok {
			cpus, ok, err = r.mask(d + "cpumap")
		}
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		for _, c := range cpus {
			if i, ok := at[c]; ok {
				t.CPUs[i].Node = id
			}
		}
		if row := strings.Fields(r.optional(d + "distance")); len(row) > 0 {
			vals := make([]int, len(row))
			for j, f := range row {
				if vals[j], err = strconv.Atoi(f); err != nil {
					return input.Errorf(r.file, 0, "%sdistance: %q is not a number", d, f)
				}
			}
			withDist = append(withDist, id)
			dist = append(dist, vals)
		}
	}
	// A node's distance row lists the online nodes in order (node_read_distance()).
	if len(withDist) > 0 {
		online := withDist
		if s, ok, _ := r.list(nodeDir + "/online"); ok {
			online = s
		}
		if len(online) == len(dist[0]) {
			t.NodeIDs, t.Distances = online, reorder(online, withDist, dist)
		} else {
			t.Note("the node distance rows (%d entries) do not match the %d online nodes: left out", len(dist[0]), len(online))
		}
	}
	for _, c := range t.CPUs {
		if c.Online && c.Node < 0 && len(ids) > 0 {
			t.Note("CPU %d is in no node's cpulist", c.ID)
			break
		}
	}
	return nil
}

// reorder returns the rows of dist (read for nodes ids) for the nodes of
// order (missing rows stay nil).
func reorder(order, ids []int, dist [][]int) [][]int {
	out := make([][]int, len(order))
	for i, id := range order {
		if j := slices.Index(ids, id); j >= 0 {
			out[i] = dist[j]
		}
	}
	return out
}

// optional returns a file's trimmed text, "" when absent.
func (r *reader) optional(name string) string {
	b, err := r.t.ReadFile(r.root + name)
	if err != nil {
		return ""
	}
	return text(b)
}

// int reads a decimal file; def when absent; an error names the file.
func (r *reader) int(name string, def int) (int, error) {
	b, err := r.t.ReadFile(r.root + name)
	if err != nil {
		return def, nil
	}
	s := text(b)
	v, err := strconv.Atoi(s)
	if err != nil {
		return def, input.Errorf(r.file, 0, "%s: %q is not a number", name, cutText(s))
	}
	return v, nil
}

// list reads a cpulist file; ok is false when absent.
func (r *reader) list(name string) ([]int, bool, error) {
	b, err := r.t.ReadFile(r.root + name)
	if err != nil {
		return nil, false, nil
	}
	v, err := input.CPUList(text(b))
	if err != nil {
		return nil, false, input.Errorf(r.file, 0, "%s: %v", name, err)
	}
	return v, true, nil
}

// mask reads a hex cpumask file; ok is false when absent.
func (r *reader) mask(name string) ([]int, bool, error) {
	b, err := r.t.ReadFile(r.root + name)
	if err != nil {
		return nil, false, nil
	}
	v, err := input.CPUMask(text(b))
	if err != nil {
		return nil, false, input.Errorf(r.file, 0, "%s: %v", name, err)
	}
	return v, true, nil
}

// text is a sysfs file's value: trimmed of spaces, newlines and the NUL
// bytes some dumps carry.
func text(b []byte) string { return strings.Trim(string(b), " \t\r\n\x00") }

// firstList reads the first of names that exists.
func (r *reader) firstList(names ...string) ([]int, error) {
	for _, n := range names {
		v, ok, err := r.list(n)
		if err != nil || ok {
			return v, err
		}
	}
	return nil, nil
}

func cutText(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

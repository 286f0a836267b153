// Package hwloc reads an hwloc XML topology (`lstopo --of xml`, formats
// v1 and v2) into an hw.Topology: each PU's core, package, NUMA node,
// caches and cluster group, the NUMA distance matrix, and the CPU kinds
// (`<cpukind>`: hybrid parts) with their efficiency rank, CoreType name,
// maximum frequency and Linux capacity.
package hwloc

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"

	"schedplay/engine/importer/hw"
	"schedplay/engine/importer/input"
)

// Detect reports whether head starts an hwloc XML document.
func Detect(head []byte) bool {
	s := string(head)
	return strings.Contains(s, "<topology") && (strings.Contains(s, "hwloc") || strings.Contains(s, "<object"))
}

// object is one <object> with the attributes the mapping needs.
type object struct {
	typ, subtype string
	osIndex      int
	depth        int // cache depth (v1 "Cache" objects, v2 L<n>Cache)
	cacheType    int // 0 unified, 1 data, 2 instruction
	cpus         []int
	info         map[string]string
	line         int
	parent       *object
}

// kind is one <cpukind>.
type kind struct {
	cpus       []int
	efficiency int
	info       map[string]string
}

// doc is what the reader collects.
type doc struct {
	objs   []*object
	kinds  []*kind
	info   map[string]string // topology-level infos
	dist   *distances
	distV1 []float64
	base   float64
}

// distances is a v2 <distances2 type="NUMANode">: os indexes and values.
type distances struct {
	indexes []int
	values  []int
}

// Read parses an hwloc XML document; file names it in errors.
func Read(data []byte, file string) (*hw.Topology, error) {
	if len(data) > input.MaxFileBytes {
		return nil, input.Errorf(file, 0, "larger than the limit of %d bytes", input.MaxFileBytes)
	}
	d, err := parse(data, file)
	if err != nil {
		return nil, err
	}
	return d.topology(file)
}

// parse walks the XML tokens.
func parse(data []byte, file string) (*doc, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	d := &doc{info: map[string]string{}}
	var stack []*object
	var curKind *kind
	inDist, curText := "", ""
	lineAt := func() int { return 1 + bytes.Count(data[:min(int(dec.InputOffset()), len(data))], []byte("\n")) }
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, input.Errorf(file, lineAt(), "malformed XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			a := attrs(t.Attr)
			switch t.Name.Local {
			case "object":
				o, err := newObject(a, lineAt(), file)
				if err != nil {
					return nil, err
				}
				if len(stack) > 0 {
					o.parent = stack[len(stack)-1]
				}
				d.objs = append(d.objs, o)
				if len(d.objs) > 16*input.MaxCPUs {
					return nil, input.Errorf(file, o.line, "more than %d objects", 16*input.MaxCPUs)
				}
				stack = append(stack, o)
			case "info":
				switch {
				case curKind != nil:
					curKind.info[a["name"]] = a["value"]
				case len(stack) > 0:
					stack[len(stack)-1].info[a["name"]] = a["value"]
				default:
					d.info[a["name"]] = a["value"]
				}
			case "cpukind":
				cpus, err := input.CPUMask(a["cpuset"])
				if err != nil {
					return nil, input.Errorf(file, lineAt(), "cpukind cpuset: %v", err)
				}
				eff := -1
				for _, k := range []string{"forced_efficiency", "efficiency"} {
					if v, ok := a[k]; ok {
						eff, _ = strconv.Atoi(v)
						break
					}
				}
				curKind = &kind{cpus: cpus, efficiency: eff, info: map[string]string{}}
				d.kinds = append(d.kinds, curKind)
			case "distances2":
				if a["type"] == "NUMANode" && d.dist == nil && a["indexing"] != "gp" {
					d.dist = &distances{}
					inDist = "v2"
				}
			case "distances":
				if d.distV1 == nil {
					d.base, _ = strconv.ParseFloat(a["latency_base"], 64)
					d.distV1 = []float64{}
					inDist = "v1"
				}
			case "latency":
				if inDist == "v1" {
					v, _ := strconv.ParseFloat(a["value"], 64)
					d.distV1 = append(d.distV1, v)
				}
			}
			curText = ""
		case xml.CharData:
			if inDist == "v2" {
				curText += string(t)
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "object":
				stack = stack[:len(stack)-1]
			case "cpukind":
				curKind = nil
			case "indexes", "u64values":
				if inDist == "v2" {
					for _, f := range strings.Fields(curText) {
						v, err := strconv.Atoi(f)
						if err != nil {
							return nil, input.Errorf(file, lineAt(), "distance %q is not a whole number", f)
						}
						if t.Name.Local == "indexes" {
							d.dist.indexes = append(d.dist.indexes, v)
						} else {
							d.dist.values = append(d.dist.values, v)
						}
					}
				}
			case "distances2", "distances":
				inDist = ""
			}
		}
	}
	return d, nil
}

func attrs(as []xml.Attr) map[string]string {
	m := make(map[string]string, len(as))
	for _, a := range as {
		m[a.Name.Local] = a.Value
	}
	return m
}

// newObject reads an <object>'s attributes.
func newObject(a map[string]string, line int, file string) (*object, error) {
	o := &object{typ: a["type"], subtype: a["subtype"], osIndex: -1, depth: -1, cacheType: -1, info: map[string]string{}, line: line}
	if v, ok := a["os_index"]; ok {
		o.osIndex, _ = strconv.Atoi(v)
	}
	if v, ok := a["depth"]; ok {
		o.depth, _ = strconv.Atoi(v)
	}
	if v, ok := a["cache_type"]; ok {
		o.cacheType, _ = strconv.Atoi(v)
	}
	if v, ok := a["cpuset"]; ok {
		cpus, err := input.CPUMask(v)
		if err != nil {
			return nil, input.Errorf(file, line, "object %s cpuset: %v", o.typ, err)
		}
		o.cpus = cpus
	}
	return o, nil
}

// cacheLevel is the object's data/unified cache level (0: not one).
func (o *object) cacheLevel() int {
	if o.cacheType == 2 {
		return 0
	}
	switch o.typ {
	case "L1Cache", "L2Cache", "L3Cache", "L4Cache", "L5Cache":
		return int(o.typ[1] - '0')
	case "Cache":
		return max(o.depth, 0)
	}
	return 0
}

// topology assigns every PU its core, package, node, LLC, cluster, kind.
func (d *doc) topology(file string) (*hw.Topology, error) {
	t := &hw.Topology{Source: "hwloc XML"}
	var pus []*object
	for _, o := range d.objs {
		if o.typ == "PU" {
			pus = append(pus, o)
		}
	}
	if len(pus) == 0 {
		return nil, input.Errorf(file, 0, "no PU objects")
	}
	if len(pus) > input.MaxCPUs {
		return nil, input.Errorf(file, 0, "%d PUs; the limit is %d", len(pus), input.MaxCPUs)
	}
	d.arch(t)
	llcLevel := 0
	for _, o := range d.objs {
		llcLevel = max(llcLevel, o.cacheLevel())
	}
	// Memory objects (v2 NUMANodes) hang beside the PUs, not above them:
	// their cpusets say which PUs they serve.
	nodeOf := map[int]int{}
	for _, o := range d.objs {
		if o.typ == "NUMANode" {
			for _, c := range o.cpus {
				nodeOf[c] = o.osIndex
			}
		}
	}
	for _, pu := range pus {
		if pu.osIndex < 0 {
			return nil, input.Errorf(file, pu.line, "a PU without os_index")
		}
		c := hw.NewCPU(pu.osIndex)
		if n, ok := nodeOf[pu.osIndex]; ok {
			c.Node = n
		}
		// Its ancestors, nearest first: the first of each kind counts.
		for o := pu.parent; o != nil; o = o.parent {
			switch {
			case o.typ == "Core" && c.Siblings == nil:
				c.Siblings, c.Core = o.cpus, o.osIndex
			case (o.typ == "Package" || o.typ == "Socket") && c.Package < 0:
				c.Package = o.osIndex
			case o.typ == "NUMANode" && c.Node < 0:
				c.Node = o.osIndex
			case o.typ == "Group" && strings.EqualFold(o.subtype, "Cluster") && c.Cluster == nil:
				c.Cluster = o.cpus
			case o.cacheLevel() == llcLevel && llcLevel > 0 && c.LLC == nil:
				c.LLC = o.cpus
			case o.cacheLevel() == 2 && t.Arch == hw.ArchX86 && c.Cluster == nil:
				c.Cluster = o.cpus
			}
		}
		if c.Siblings == nil {
			c.Siblings = []int{pu.osIndex}
		}
		if c.Package < 0 {
			c.Package = 0
		}
		d.kindOf(&c)
		t.CPUs = append(t.CPUs, c)
	}
	slices.SortFunc(t.CPUs, func(a, b hw.CPU) int { return a.ID - b.ID })
	for i := 1; i < len(t.CPUs); i++ {
		if t.CPUs[i].ID == t.CPUs[i-1].ID {
			return nil, input.Errorf(file, 0, "PU os_index %d appears twice", t.CPUs[i].ID)
		}
	}
	if err := d.distanceTable(t, file); err != nil {
		return nil, err
	}
	if len(d.kinds) > 1 {
		t.Note("%d CPU kinds (hwloc cpukinds)", len(d.kinds))
	}
	return t, nil
}

// arch reads the architecture from the topology's infos.
func (d *doc) arch(t *hw.Topology) {
	all := map[string]string{}
	for _, o := range d.objs {
		for k, v := range o.info {
			if _, ok := all[k]; !ok {
				all[k] = v
			}
		}
	}
	for k, v := range d.info {
		all[k] = v
	}
	switch a := all["Architecture"]; {
	case all["Backend"] == "x86" || all["CPUVendor"] == "GenuineIntel" || all["CPUVendor"] == "AuthenticAMD" || a == "x86_64" || a == "i686":
		t.Arch = hw.ArchX86
	case strings.HasPrefix(a, "aarch64") || strings.HasPrefix(a, "arm") || all["CPUImplementer"] != "":
		t.Arch = hw.ArchArm
	case strings.HasPrefix(a, "ppc"):
		t.Arch = hw.ArchPower
	case strings.HasPrefix(a, "riscv"):
		t.Arch = hw.ArchRISCV
	case strings.HasPrefix(a, "s390"):
		t.Arch = hw.ArchS390
	case strings.HasPrefix(a, "loongarch"):
		t.Arch = hw.ArchLoongArch
	}
	t.Model = all["CPUModel"]
	t.Vendor = all["CPUVendor"]
	t.Family, _ = strconv.Atoi(all["CPUFamilyNumber"])
	if t.Arch == hw.ArchX86 && len(d.kinds) > 1 {
		t.Hybrid = true
	}
}

// kindOf sets a CPU's kind from the cpukinds that hold it.
func (d *doc) kindOf(c *hw.CPU) {
	for i, k := range d.kinds {
		if _, ok := slices.BinarySearch(k.cpus, c.ID); !ok {
			continue
		}
		c.Kind = k.info["CoreType"]
		if c.Kind == "" && len(d.kinds) > 1 {
			c.Kind = "kind" + strconv.Itoa(i)
		}
		c.KindRank = k.efficiency
		if v, err := strconv.ParseFloat(k.info["FrequencyMaxMHz"], 64); err == nil && v > 0 {
			c.MaxKHz = int(v * 1000)
		}
		if v, err := strconv.Atoi(k.info["LinuxCapacity"]); err == nil && v > 0 {
			c.Capacity = v
		}
	}
}

// distanceTable fills the NUMA distances (v2 values by os index; v1
// values × latency_base in NUMANode document order).
func (d *doc) distanceTable(t *hw.Topology, file string) error {
	switch {
	case d.dist != nil:
		n := len(d.dist.indexes)
		if n*n != len(d.dist.values) {
			return input.Errorf(file, 0, "distances2: %d values for %d nodes", len(d.dist.values), n)
		}
		t.NodeIDs = d.dist.indexes
		for i := 0; i < n; i++ {
			t.Distances = append(t.Distances, d.dist.values[i*n:(i+1)*n])
		}
	case d.distV1 != nil:
		var nodes []int
		for _, o := range d.objs {
			if o.typ == "NUMANode" {
				nodes = append(nodes, o.osIndex)
			}
		}
		n := len(nodes)
		if n*n != len(d.distV1) || n < 2 {
			return nil
		}
		t.NodeIDs = nodes
		for i := 0; i < n; i++ {
			row := make([]int, n)
			for j := range row {
				row[j] = int(d.distV1[i*n+j]*d.base + 0.5)
			}
			t.Distances = append(t.Distances, row)
		}
	}
	return nil
}

package lscpu

import (
	"encoding/json"
	"io"
	"regexp"
	"strconv"
	"strings"

	"schedplay/engine/importer/hw"
	"schedplay/engine/importer/input"
)

// field is one "Key: value" line of the summary.
type field struct {
	key, val string
	line     int
}

// readSummary reads lscpu's plain summary ("Key:   value" lines; a model
// section's fields are indented under its "Model name:").
func readSummary(r io.Reader, file string) (*hw.Topology, error) {
	var fs []field
	l := input.NewLines(file, r)
	for l.Next() {
		k, v, ok := strings.Cut(string(l.Text()), ":")
		if !ok {
			continue
		}
		fs = append(fs, field{strings.TrimSpace(k), strings.TrimSpace(v), l.Line()})
	}
	if err := l.Err(); err != nil {
		return nil, err
	}
	return fromSummary(fs, file, string(Summary))
}

// jsonField is one entry of `lscpu --json`.
type jsonField struct {
	Field    string      `json:"field"`
	Data     *string     `json:"data"`
	Children []jsonField `json:"children"`
}

// readJSONSummary reads `lscpu --json`: {"lscpu": [{"field", "data",
// "children"}]}, children flattened after their parent.
func readJSONSummary(data []byte, file string) (*hw.Topology, error) {
	var doc struct {
		Lscpu []jsonField `json:"lscpu"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, jsonError(file, data, err)
	}
	var fs []field
	var walk func([]jsonField)
	walk = func(list []jsonField) {
		for _, f := range list {
			v := ""
			if f.Data != nil {
				v = *f.Data
			}
			fs = append(fs, field{key: strings.TrimSuffix(strings.TrimSpace(f.Field), ":"), val: strings.TrimSpace(v)})
			walk(f.Children)
		}
	}
	walk(doc.Lscpu)
	return fromSummary(fs, file, string(JSONSummary))
}

// section is one "Model name" block of the summary.
type section struct {
	model                  string
	threads, cores, groups int // threads per core, cores per socket/cluster, sockets/clusters
	outer                  int // s390: books × drawers (0 when absent)
	maxKHz                 int
}

var (
	nodeKey   = regexp.MustCompile(`^NUMA node(\d+) CPU\(s\)$`)
	cacheKey  = regexp.MustCompile(`^L(\d)d?( cache)?$`)
	instances = regexp.MustCompile(`\((\d+) instances?\)`)
)

// fromSummary builds a topology from summary fields. The summary counts
// but does not list cores, so it assumes: each model section's CPUs come
// in CPU order; SMT siblings are numbered sibling-major on x86 (thread 0
// of every core first, as Linux enumerates x86) and core-major elsewhere;
// each LLC is a run of consecutive cores.
func fromSummary(fs []field, file, source string) (*hw.Topology, error) {
	t := &hw.Topology{Source: source}
	var secs []*section
	var online []int
	total := 0
	nodes := map[int][]int{}
	llcLevel, llcCount := 0, 0
	archName := ""
	for _, f := range fs {
		num := func() (int, error) {
			n, err := strconv.Atoi(strings.Fields(f.val + " x")[0])
			if err != nil || n < 0 {
				return 0, input.Errorf(file, f.line, "%s: %q is not a count", f.key, f.val)
			}
			return n, nil
		}
		var err error
		cur := func() *section {
			if len(secs) == 0 {
				secs = append(secs, &section{})
			}
			return secs[len(secs)-1]
		}
		switch k := f.key; {
		case k == "Architecture":
			archName = f.val
		case k == "Vendor ID":
			t.Arch = vendorArch(f.val, t.Arch)
			if t.Vendor == "" {
				t.Vendor = f.val
			}
		case k == "CPU family":
			if n, e := strconv.Atoi(f.val); e == nil && t.Family == 0 {
				t.Family = n
			}
		case k == "Flags":
			t.Hybrid = strings.Contains(" "+f.val+" ", " hybrid_cpu ")
		case k == "CPU(s)":
			total, err = num()
		case k == "On-line CPU(s) list":
			online, err = cpuList(f.val)
		case k == "Model name":
			if f.val == "-" {
				f.val = ""
			}
			secs = append(secs, &section{model: f.val})
			if t.Model == "" {
				t.Model = f.val
			}
		case k == "Thread(s) per core":
			cur().threads, err = num()
		case k == "Core(s) per socket" || k == "Core(s) per cluster":
			cur().cores, err = num()
		case k == "Socket(s)" || k == "Cluster(s)" || k == "Socket(s) per book":
			cur().groups, err = num()
		case k == "Book(s)" || k == "Book(s) per drawer" || k == "Drawer(s)":
			// s390 counts sockets per book, books (per drawer) and drawers.
			var n int
			if n, err = num(); err == nil {
				cur().outer = max(cur().outer, 1) * max(n, 1)
			}
		case k == "CPU max MHz":
			if v, e := strconv.ParseFloat(f.val, 64); e == nil {
				cur().maxKHz = int(v*1000 + 0.5)
			}
		case nodeKey.MatchString(k):
			id, _ := strconv.Atoi(nodeKey.FindStringSubmatch(k)[1])
			nodes[id], err = cpuList(f.val)
		case cacheKey.MatchString(k):
			lvl, _ := strconv.Atoi(cacheKey.FindStringSubmatch(k)[1])
			if m := instances.FindStringSubmatch(f.val); m != nil && lvl >= llcLevel && lvl >= 2 {
				llcLevel, llcCount = lvl, atoi(m[1])
			}
		}
		if err != nil {
			if e, ok := err.(*input.Error); ok {
				return nil, e
			}
			return nil, input.Errorf(file, f.line, "%s: %v", f.key, err)
		}
	}
	if t.Arch == "" {
		t.Arch = machineArch(archName)
	}
	if online == nil {
		for i := 0; i < total; i++ {
			online = append(online, i)
		}
	}
	if len(online) == 0 {
		return nil, input.Errorf(file, 0, "no CPU count (\"CPU(s):\") or on-line CPU list")
	}
	if len(online) > input.MaxCPUs {
		return nil, input.Errorf(file, 0, "%d CPUs; the limit is %d", len(online), input.MaxCPUs)
	}
	return layoutSummary(t, secs, online, nodes, llcLevel, llcCount, file)
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// vendorArch maps lscpu's Vendor ID to an architecture (keeping a
// previous answer when it says nothing).
func vendorArch(v string, def hw.Arch) hw.Arch {
	switch {
	case v == "GenuineIntel" || v == "AuthenticAMD" || v == "HygonGenuine" || v == "CentaurHauls":
		return hw.ArchX86
	case v == "ARM" || v == "Qualcomm" || v == "Ampere" || v == "Apple" || v == "HiSilicon" || v == "NVIDIA" || v == "Phytium":
		return hw.ArchArm
	case strings.Contains(v, "S390"):
		return hw.ArchS390
	case strings.HasPrefix(v, "Loongson"):
		return hw.ArchLoongArch
	}
	return def
}

// machineArch maps lscpu's Architecture (uname -m).
func machineArch(m string) hw.Arch {
	switch {
	case m == "x86_64" || m == "i686" || m == "i386":
		return hw.ArchX86
	case strings.HasPrefix(m, "aarch64") || strings.HasPrefix(m, "arm"):
		return hw.ArchArm
	case strings.HasPrefix(m, "ppc"):
		return hw.ArchPower
	case strings.HasPrefix(m, "riscv"):
		return hw.ArchRISCV
	case strings.HasPrefix(m, "s390"):
		return hw.ArchS390
	case strings.HasPrefix(m, "loongarch"):
		return hw.ArchLoongArch
	}
	return hw.ArchUnknown
}

// layoutSummary deals the online CPUs into the sections' cores.
func layoutSummary(t *hw.Topology, secs []*section, online []int, nodes map[int][]int, llcLevel, llcCount int, file string) (*hw.Topology, error) {
	if len(secs) == 0 {
		return nil, input.Errorf(file, 0, "no \"Thread(s) per core\" / \"Core(s) per socket\" fields")
	}
	nodeOf := map[int]int{}
	for id, cpus := range nodes {
		for _, c := range cpus {
			nodeOf[c] = id
		}
	}
	// x86 numbers SMT siblings sibling-major (thread 0 of every core
	// first), other architectures core-major; the node lists, when they
	// put a core across two nodes, say the other numbering is the one.
	sibMajor := t.Arch == hw.ArchX86
	cores, err := dealCores(secs, online, sibMajor, file)
	if err != nil {
		return nil, err
	}
	switched := false
	if secs[0].threads > 1 && spansNodes(cores, nodeOf) {
		if other, err := dealCores(secs, online, !sibMajor, file); err == nil && !spansNodes(other, nodeOf) {
			cores, sibMajor, switched = other, !sibMajor, true
		}
	}
	numbering := "consecutive CPUs (core-major)"
	if sibMajor {
		numbering = "thread 0 of every core first (sibling-major)"
	}
	if switched {
		numbering += ", as the NUMA node lists require"
	} else if sibMajor {
		numbering = "x86's numbering, " + numbering
	}
	var coreFirst [][]int // each core's CPUs
	for coreID, dc := range cores {
		coreFirst = append(coreFirst, dc.cpus)
		for _, id := range dc.cpus {
			c := hw.NewCPU(id)
			c.Core = coreID
			c.Package = 0
			c.Siblings = dc.cpus
			c.MaxKHz = dc.sec.maxKHz
			if len(secs) > 1 {
				c.Kind = dc.sec.model
				c.KindRank = -1
			}
			if nd, ok := nodeOf[id]; ok {
				c.Node = nd
			}
			t.CPUs = append(t.CPUs, c)
		}
	}
	if llcCount > 0 && len(coreFirst)%llcCount == 0 {
		per := len(coreFirst) / llcCount
		at := map[int]int{}
		for i, c := range t.CPUs {
			at[c.ID] = i
		}
		for g := 0; g < llcCount; g++ {
			var span []int
			for _, core := range coreFirst[g*per : (g+1)*per] {
				span = append(span, core...)
			}
			sortInts(span)
			for _, id := range span {
				t.CPUs[at[id]].LLC = span
			}
		}
		if llcCount > 1 {
			t.Note("the summary counts %d L%d caches: each is taken to serve %d consecutive cores", llcCount, llcLevel, per)
		}
	}
	sortCPUs(t.CPUs)
	if secs[0].threads > 1 {
		t.Note("the summary does not list SMT siblings: taken as %s", numbering)
	}
	return t, nil
}

// dealtCore is one core dealt from the summary: its CPUs and section.
type dealtCore struct {
	cpus []int
	sec  *section
}

// dealCores deals the online CPUs, in order, into each section's cores,
// siblings numbered sibling-major or core-major.
func dealCores(secs []*section, online []int, sibMajor bool, file string) ([]dealtCore, error) {
	var out []dealtCore
	next := 0
	for _, s := range secs {
		threads := max(s.threads, 1)
		ncores := s.cores * max(s.groups, 1) * max(s.outer, 1)
		if ncores == 0 {
			ncores = (len(online) - next) / threads
		}
		n := ncores * threads
		if next+n > len(online) {
			return nil, countError(file, next+n, len(online))
		}
		cpus := online[next : next+n]
		next += n
		for k := 0; k < ncores; k++ {
			var members []int
			for th := 0; th < threads; th++ {
				i := k*threads + th
				if sibMajor {
					i = th*ncores + k
				}
				members = append(members, cpus[i])
			}
			out = append(out, dealtCore{members, s})
		}
	}
	if next != len(online) {
		return nil, countError(file, next, len(online))
	}
	return out, nil
}

// countError: the summary's counts of threads, cores and sockets do not
// give its online CPUs (some are offline, or, on s390, the counts are the
// whole machine's), so which CPUs share a core cannot be told.
func countError(file string, counted, online int) error {
	return input.Errorf(file, 0, "the summary's threads × cores × sockets give %d CPUs where %d are online, so it cannot say which CPUs share a core; import `lscpu -p` or a sysfs snapshot (`schedplay collect`) instead", counted, online)
}

// spansNodes reports whether a core's CPUs lie on two nodes.
func spansNodes(cores []dealtCore, nodeOf map[int]int) bool {
	for _, c := range cores {
		a, okA := nodeOf[c.cpus[0]]
		for _, id := range c.cpus[1:] {
			if b, okB := nodeOf[id]; okA && okB && a != b {
				return true
			}
		}
	}
	return false
}

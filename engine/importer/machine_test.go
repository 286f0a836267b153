package importer_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"schedplay/engine/importer"
	"schedplay/engine/importer/domains"
	"schedplay/engine/scenario"
	"schedplay/engine/topo"
	"schedplay/presets"
)

// importFile imports testdata/rel and resolves the scenario written.
func importFile(t *testing.T, rel string, opt importer.Options) (*importer.Result, *scenario.Resolved) {
	t.Helper()
	res, err := importPath(t, rel, opt)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return res, resolve(t, res)
}

func importPath(t *testing.T, rel string, opt importer.Options) (*importer.Result, error) {
	t.Helper()
	ps, err := presets.Load()
	if err != nil {
		t.Fatal(err)
	}
	opt.Presets = ps
	f, err := os.Open(filepath.Join("testdata", rel))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return importer.Import(rel, f, opt)
}

// resolve decodes and resolves an import's scenario, checks that it
// shares, and builds its machine.
func resolve(t *testing.T, res *importer.Result) *scenario.Resolved {
	t.Helper()
	ps, _ := presets.Load()
	sc, err := scenario.Decode(res.Scenario)
	if err != nil {
		t.Fatal(err)
	}
	r, err := scenario.Resolve(sc, ps)
	if err != nil {
		t.Fatalf("%v\n%s", err, res.Scenario)
	}
	link, err := scenario.EncodeShare(sc)
	if err != nil {
		t.Fatal(err)
	}
	back, err := scenario.DecodeShare(link)
	if err != nil || !bytes.Equal(back.Canonical(), res.Scenario) {
		t.Errorf("share link round trip: %v", err)
	}
	return r
}

func build(t *testing.T, m topo.Machine) *topo.Topology {
	t.Helper()
	tp, err := topo.Build(m, topo.DomainPolicy{})
	if err != nil {
		t.Fatal(err)
	}
	return tp
}

// capacities lists cpu_scale per CPU.
func capacities(tp *topo.Topology) []int {
	var out []int
	for _, c := range tp.CPUs {
		out = append(out, c.Capacity)
	}
	return out
}

// chain prints CPU cpu's surviving domains as "MC:0-2 PKG:0-7".
func chain(tp *topo.Topology, cpu int) string {
	var parts []string
	for _, d := range tp.Domains[cpu] {
		parts = append(parts, string(d.Level)+":"+d.Span.String())
	}
	return strings.Join(parts, " ")
}

func hasNote(res *importer.Result, sub string) bool {
	return slices.ContainsFunc(res.Notes, func(n string) bool { return strings.Contains(n, sub) })
}

// TestSysfsSnapshots imports real sysfs snapshots (util-linux's lscpu
// regression dumps and hwloc's Linux dumps, see testdata/ORIGIN.md) and
// checks the machine against what the files say.
func TestSysfsSnapshots(t *testing.T) {
	for _, tc := range []struct {
		file       string
		cpus       int
		chain0     string // CPU 0's sched-domain chain under mainline
		caps       []int  // nil: all 1024
		numbering  topo.Numbering
		cpuIDs     string
		note       string
		priorities []int
	}{
		{file: "sysfs/arm-A510-A710-A715-X3.tar.gz", cpus: 8, chain0: "MC:0-2 PKG:0-7",
			caps: []int{280, 280, 280, 855, 855, 855, 855, 1024}, numbering: topo.CoreMajor, note: "capacities from cpu_capacity"},
		{file: "sysfs/original-arm-A510-A710-A715-X3.tar.gz", cpus: 8, chain0: "MC:0-2 PKG:0-7",
			caps: []int{280, 280, 280, 855, 855, 855, 855, 1024}, numbering: topo.CoreMajor},
		{file: "sysfs/ppc64-POWER7.tar.gz", cpus: 16, chain0: "SMT:0-3 MC:0-15", numbering: topo.CoreMajor, note: "POWER7"},
		{file: "sysfs/x86_64-epyc_7451.tar.gz", cpus: 96, chain0: "SMT:0,48 MC:0-2,48-50 PKG:0-5,48-53 NUMA:0-95",
			numbering: topo.SiblingMajor, note: "no node distances"},
		{file: "sysfs/rv64-milkvpioneer.tar.gz", cpus: 64, chain0: "CLS:0-3 MC:0-7,16-23 NUMA:0-63",
			numbering: topo.CoreMajor, cpuIDs: "0-7,16-23,8-15,24-39,48-55,40-47,56-63", note: "cpu_ids"},
		{file: "sysfs/x86_64-64cpu-linux6.2.tar.gz", cpus: 8, chain0: "SMT:0,4 MC:0-7", numbering: topo.SiblingMajor},
		{file: "sysfs/20em64t-hybrid-1p6c2t+2ca4co1t.tar.gz", cpus: 20, chain0: "SMT:0-1 MC:0-19", numbering: topo.CoreMajor,
			priorities: []int{64, 64, 64, 64, 67, 67, 64, 64, 67, 67, 64, 64, 39, 39, 39, 39, 39, 39, 39, 39}, note: "ITMT"},
		{file: "sysfs/128arm-2pa2n8cluster4co.tar.gz", cpus: 128, chain0: "CLS:0-3 MC:0-31 NUMA:0-63 NUMA:0-95 NUMA:0-127",
			numbering: topo.CoreMajor},
		{file: "sysfs/2arm-2c.tar.bz2", cpus: 2, chain0: "MC:0-1", numbering: topo.CoreMajor},
	} {
		t.Run(tc.file, func(t *testing.T) {
			res, r := importFile(t, tc.file, importer.Options{})
			if res.Format != importer.FormatSysfs {
				t.Errorf("format %q", res.Format)
			}
			m := r.Machine
			tp := build(t, m)
			if tp.NumCPUs() != tc.cpus {
				t.Fatalf("%d CPUs; want %d", tp.NumCPUs(), tc.cpus)
			}
			if got := chain(tp, 0); got != tc.chain0 {
				t.Errorf("CPU 0 chain %s; want %s", got, tc.chain0)
			}
			want := tc.caps
			if want == nil {
				want = slices.Repeat([]int{1024}, tc.cpus)
			}
			if got := capacities(tp); !slices.Equal(got, want) {
				t.Errorf("capacities %v; want %v", got, want)
			}
			if m.Numbering != tc.numbering || m.CPUIDs != tc.cpuIDs {
				t.Errorf("numbering %s cpu_ids %q; want %s %q", m.Numbering, m.CPUIDs, tc.numbering, tc.cpuIDs)
			}
			if tc.priorities != nil && !slices.Equal(m.Priorities, tc.priorities) {
				t.Errorf("priorities %v; want %v", m.Priorities, tc.priorities)
			}
			if tc.note != "" && !hasNote(res, tc.note) {
				t.Errorf("no note mentioning %q in %q", tc.note, res.Notes)
			}
		})
	}
}

// TestHybridSysfsIsITMT: the Raptor Lake laptop (6 SMT P-cores, 8 E-cores
// in two L2 modules) imports as 6.12 runs it with SMT on: equal
// capacities, ITMT asym packing on CLS/MC/PKG with highest_perf
// priorities, one-core clusters for the P-cores and 4-core ones for the
// E-cores.
func TestHybridSysfsIsITMT(t *testing.T) {
	_, r := importFile(t, "sysfs/20em64t-hybrid-1p6c2t+2ca4co1t.tar.gz", importer.Options{})
	m := r.Machine
	if m.Arch.Priority != topo.PriorityArch || m.Arch.AsymPacking == nil || !slices.Equal(*m.Arch.AsymPacking, []topo.Level{topo.LevelCLS, topo.LevelMC, topo.LevelPKG}) {
		t.Errorf("arch %+v; want ITMT asym packing on CLS, MC, PKG with arch priorities", m.Arch)
	}
	tp := build(t, m)
	if got := chain(tp, 12); got != "CLS:12-15 MC:0-19" {
		t.Errorf("E-core CPU 12 chain %s; want CLS:12-15 MC:0-19", got)
	}
	if tp.CPUs[12].Speed >= tp.CPUs[4].Speed {
		t.Errorf("E-core speed %g not below P-core %g", tp.CPUs[12].Speed, tp.CPUs[4].Speed)
	}
}

// TestUnequalNodesRefused: the 4-socket Xeon X7550 whose firmware puts 16
// cores on node 0 and 8 on nodes 2 and 3 cannot be a schedplay machine;
// the error names the file and says why, and nothing is returned.
func TestUnequalNodesRefused(t *testing.T) {
	res, err := importPath(t, "sysfs/x86_64-64cpu.tar.gz", importer.Options{})
	if err == nil || res != nil {
		t.Fatalf("imported: %v", res)
	}
	for _, want := range []string{"sysfs/x86_64-64cpu.tar.gz", "node 0 has 16 cores and node 2 has 8"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

// lscpuParse returns the `lscpu -p` block of util-linux's expected output.
func lscpuParse(t *testing.T, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", rel))
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte("# The following is the parsable format"))
	if i < 0 {
		t.Fatalf("%s: no parsable block", rel)
	}
	block := data[i:]
	if j := bytes.Index(block, []byte("\n\n")); j > 0 {
		block = block[:j+1]
	}
	return block
}

// TestMachineIsWhatLscpuDescribes: importing a dump and building its
// domains gives the CPUs lscpu (util-linux's own expected output for
// that dump) describes: the same cores (CPUs sharing a Core id share an
// SMT mask), the same NUMA nodes, and, where the kernel's MC level is
// the LLC, the same L3 groups.
func TestMachineIsWhatLscpuDescribes(t *testing.T) {
	for _, name := range []string{"x86_64-epyc_7451", "ppc64-POWER7", "rv64-milkvpioneer", "x86_64-64cpu-linux6.2", "arm-A510-A710-A715-X3"} {
		t.Run(name, func(t *testing.T) {
			_, r := importFile(t, "sysfs/"+name+".tar.gz", importer.Options{})
			tp := build(t, r.Machine)
			rows := parseRows(t, lscpuParse(t, "lscpu/expected-"+name+".txt"))
			if len(rows) != tp.NumCPUs() {
				t.Fatalf("lscpu lists %d CPUs; the machine has %d", len(rows), tp.NumCPUs())
			}
			same := func(col string, a, b map[string]string) bool { return a[col] != "" && a[col] == b[col] }
			// lscpu numbers cores per CPU type on hybrid parts: the
			// threads of one core also share its L1d.
			sameL1 := func(a, b map[string]string) bool { return a["L1d"] == "" || a["L1d"] == b["L1d"] }
			for _, a := range rows {
				for _, b := range rows {
					ca, cb := topo.CPU(atoi(a["CPU"])), topo.CPU(atoi(b["CPU"]))
					if got, want := tp.SiblingMask[ca].Has(cb), same("Core", a, b) && same("Socket", a, b) && sameL1(a, b); got != want {
						t.Fatalf("CPUs %d and %d: same core %v; lscpu says %v", ca, cb, got, want)
					}
					if a["Node"] != "" {
						if got, want := tp.CPUs[ca].Node == tp.CPUs[cb].Node, same("Node", a, b); got != want {
							t.Fatalf("CPUs %d and %d: same node %v; lscpu says %v", ca, cb, got, want)
						}
					}
					if a["L3"] != "" && r.Machine.LLC == topo.LLCCluster && name == "x86_64-epyc_7451" {
						if got, want := tp.CPUs[ca].Cluster == tp.CPUs[cb].Cluster, same("L3", a, b); got != want {
							t.Fatalf("CPUs %d and %d: same LLC %v; lscpu says %v", ca, cb, got, want)
						}
					}
				}
			}
		})
	}
}

// parseRows reads an lscpu -p block into maps by column name.
func parseRows(t *testing.T, block []byte) []map[string]string {
	var cols []string
	var rows []map[string]string
	for _, line := range strings.Split(string(block), "\n") {
		if h, ok := strings.CutPrefix(line, "# CPU,"); ok {
			cols = strings.Split("CPU,"+h, ",")
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		vals := strings.Split(line, ",")
		m := map[string]string{}
		for i, c := range cols {
			if c != "" && i < len(vals) {
				m[c] = vals[i]
			}
		}
		rows = append(rows, m)
	}
	return rows
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// TestLscpuForms: each lscpu output of the EPYC 7451 (util-linux's -p,
// and -e, --json from lscpu --sysroot on the same dump) imports to the
// machine its sysfs snapshot gives, AMD Zen's node_reclaim_distance (32,
// from /proc/cpuinfo) included where the form says the vendor and family
// (the summary); the -p and -e tables do not, and their import says so.
func TestLscpuForms(t *testing.T) {
	res, ref := importFile(t, "sysfs/x86_64-epyc_7451.tar.gz", importer.Options{})
	if ref.Machine.NodeReclaimDistance != 32 || !hasNote(res, "AMD Zen") {
		t.Errorf("EPYC 7451 snapshot: node_reclaim_distance %d, notes %q; want 32, announced", ref.Machine.NodeReclaimDistance, res.Notes)
	}
	want := machineJSON(t, ref.Machine)
	generic := ref.Machine
	generic.NodeReclaimDistance = 0
	wantGeneric := machineJSON(t, generic)
	ps, _ := presets.Load()
	parse := lscpuParse(t, "lscpu/expected-x86_64-epyc_7451.txt")
	res, err := importer.Import("lscpu-p.txt", bytes.NewReader(parse), importer.Options{Presets: ps})
	if err != nil {
		t.Fatal(err)
	}
	checkSame(t, "lscpu -p", res, wantGeneric)
	if !hasNote(res, "does not say the CPU vendor") {
		t.Errorf("lscpu -p: notes %q do not say the vendor is unknown", res.Notes)
	}
	res, _ = importFile(t, "lscpu/x86_64-epyc_7451.e.txt", importer.Options{})
	checkSame(t, "lscpu -e", res, wantGeneric)
	res, _ = importFile(t, "lscpu/x86_64-epyc_7451.json", importer.Options{})
	checkSame(t, "lscpu --json", res, want)
	// The Arm phone's summary knows the core kinds but not cpu_capacity:
	// capacities follow the maximum frequencies (noted).
	res, r := importFile(t, "lscpu/arm-A510-A710-A715-X3.json", importer.Options{})
	if got := capacities(build(t, r.Machine)); got[0] >= got[3] || got[3] >= got[7] || got[7] != 1024 {
		t.Errorf("capacities %v; want rising A510 < A715/A710 < X3 = 1024", got)
	}
	if !hasNote(res, "maximum frequencies") {
		t.Errorf("notes %q do not announce the frequency-based capacities", res.Notes)
	}
	for _, f := range []string{"lscpu/arm-A510-A710-A715-X3.e.txt", "lscpu/arm-A510-A710-A715-X3.e.json"} {
		_, r := importFile(t, f, importer.Options{})
		if tp := build(t, r.Machine); tp.NumCPUs() != 8 || tp.TotalCores != 8 {
			t.Errorf("%s: %d CPUs, %d cores; want 8, 8 (cores told apart by their L1d)", f, tp.NumCPUs(), tp.TotalCores)
		}
	}
}

// lscpuSummary returns the plain summary block (the first) of
// util-linux's expected output; like every summary util-linux's tests
// expect, it starts at "CPU op-mode(s):" (the Architecture line is dropped).
func lscpuSummary(t *testing.T, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", rel))
	if err != nil {
		t.Fatal(err)
	}
	if j := bytes.Index(data, []byte("\n\n")); j > 0 {
		data = data[:j+1]
	}
	return data
}

// TestLscpuSummaries imports util-linux's own expected summaries: a
// summary that starts at "CPU op-mode(s):" is not the -e table; lscpu's
// strided lists ("0-62:2") are read; siblings are numbered as the NUMA
// node lists allow; s390's books count; counts that do not give the
// online CPUs are refused with what to import instead.
func TestLscpuSummaries(t *testing.T) {
	ps, _ := presets.Load()
	imp := func(rel string) (*importer.Result, error) {
		return importer.Import(filepath.Base(rel), bytes.NewReader(lscpuSummary(t, rel)), importer.Options{Presets: ps})
	}
	_, ref := importFile(t, "sysfs/x86_64-epyc_7451.tar.gz", importer.Options{})
	res, err := imp("lscpu/expected-x86_64-epyc_7451.txt")
	if err != nil {
		t.Fatal(err)
	}
	checkSame(t, "lscpu summary", res, machineJSON(t, ref.Machine))

	// An AMD Opteron 6328 under VMware: 2 threads per core, nodes 0-3,
	// 4-7, …: x86's sibling-major guess would put CPUs 0 and 8 (nodes 0
	// and 2) on one core, so the siblings are consecutive.
	res, err = imp("lscpu/expected-vmware_fpe.txt")
	if err != nil {
		t.Fatal(err)
	}
	if tp := build(t, resolve(t, res).Machine); !tp.SiblingMask[0].Has(1) || tp.Machine.Nodes != 4 {
		t.Errorf("vmware_fpe: CPU 0's siblings %v, %d nodes; want 0-1, 4", tp.SiblingMask[0].CPUs(), tp.Machine.Nodes)
	}
	if !hasNote(res, "as the NUMA node lists require") {
		t.Errorf("vmware_fpe: notes %q do not say why the siblings are consecutive", res.Notes)
	}

	// NUMA node0 CPU(s): 0-62:2 is every even CPU (util-linux's stride):
	// the summary is refused for the reason its snapshot is.
	if _, err := imp("lscpu/expected-x86_64-64cpu.txt"); err == nil || !strings.Contains(err.Error(), "node 0 has 16 cores and node 2 has 8") {
		t.Errorf("x86_64-64cpu summary: error %v; want the unequal nodes", err)
	}

	// s390 under KVM: 1 core per socket, 1 socket per book, 3 books.
	res, err = imp("lscpu/expected-s390-kvm.txt")
	if err != nil {
		t.Fatal(err)
	}
	if tp := build(t, resolve(t, res).Machine); tp.NumCPUs() != 3 || tp.TotalCores != 3 {
		t.Errorf("s390-kvm: %d CPUs, %d cores; want 3, 3", tp.NumCPUs(), tp.TotalCores)
	}
	// An LPAR: the counts are the machine's (96), 17 CPUs are online.
	if _, err := imp("lscpu/expected-s390-lpar.txt"); err == nil || !strings.Contains(err.Error(), "give 96 CPUs where 17 are online") || !strings.Contains(err.Error(), "lscpu -p") {
		t.Errorf("s390-lpar summary: error %v; want the counts and what to import instead", err)
	}
}

func machineJSON(t *testing.T, m topo.Machine) string {
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func checkSame(t *testing.T, what string, res *importer.Result, want string) {
	t.Helper()
	r := resolve(t, res)
	if got := machineJSON(t, r.Machine); got != want {
		t.Errorf("%s: machine\n%s\nwant (from the sysfs snapshot)\n%s", what, got, want)
	}
}

// TestHwlocXML: hwloc's own test topologies.
func TestHwlocXML(t *testing.T) {
	// Raptor Lake from cpuid (x86 backend): two cpukinds, no frequencies.
	res, r := importFile(t, "hwloc/Intel-RaptorLake-Corei7-1370P.xml", importer.Options{})
	m := r.Machine
	if len(m.CoreClasses) != 2 || m.CoreClasses[0].Name != "IntelCore" || m.CoreClasses[0].Threads != 2 ||
		m.CoreClasses[1].Name != "IntelAtom" || m.CoreClasses[1].ClusterCores != 4 || m.CoreClasses[1].Cores != 8 {
		t.Errorf("classes %+v", m.CoreClasses)
	}
	if m.Arch.Priority != topo.PriorityArch || m.Priorities[0] <= m.Priorities[12] {
		t.Errorf("arch %+v priorities %v: want ITMT favouring the P-cores", m.Arch, m.Priorities)
	}
	if !hasNote(res, "ITMT priority") || !hasNote(res, "speed 0.6") {
		t.Errorf("notes %q do not announce the defaulted priorities and speeds", res.Notes)
	}
	// Strix Point: Zen 5 and Zen 5c CCXs with an L3 each (LLC per cluster).
	_, r = importFile(t, "hwloc/AMD-1Ah-Zen5StrixPoint-RyzenAI9HX370.xml", importer.Options{})
	tp := build(t, r.Machine)
	if r.Machine.LLC != topo.LLCCluster || tp.NumCPUs() != 24 || chain(tp, 0) != "SMT:0,12 MC:0-3,12-15 PKG:0-23" {
		t.Errorf("Strix Point: llc %s, %d CPUs, CPU 0 chain %s", r.Machine.LLC, tp.NumCPUs(), chain(tp, 0))
	}
	// Two sockets whose CPUs alternate (socket 0 has the even CPUs).
	_, r = importFile(t, "hwloc/24em64t-2n6c2t-pci.xml", importer.Options{})
	tp = build(t, r.Machine)
	if r.Machine.CPUIDs == "" || chain(tp, 0) != "SMT:0,12 MC:0,2,4,6,8,10,12,14,16,18,20,22 NUMA:0-23" {
		t.Errorf("alternating sockets: cpu_ids %q, CPU 0 chain %s", r.Machine.CPUIDs, chain(tp, 0))
	}
}

// TestDomainsCheck compares real kernels' sched domains with schedplay's.
func TestDomainsCheck(t *testing.T) {
	ps, _ := presets.Load()
	load := func(rel string) *domains.Dump {
		data, err := os.ReadFile(filepath.Join("testdata", rel))
		if err != nil {
			t.Fatal(err)
		}
		d, err := domains.Read(data, rel)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	// An i7-1165G7 NUC's boot log against util-linux's i7-1165G7 laptop
	// dump: same processor, same domains.
	res, _ := importFile(t, "sysfs/x86_64-64cpu-linux6.2.tar.gz", importer.Options{Domains: load("domains/nuc11-i7-1165G7.dmesg")})
	if c := res.Check; c == nil || c.CPUs != 8 || c.Matching != 8 || c.Flags {
		t.Errorf("check %+v; want 8 of 8 matching, no flags", c)
	}
	// A Kunpeng 920 boot log (CPU 64 only) against hwloc's Kunpeng 920
	// dump: CLS, MC and the first NUMA level agree; the second NUMA level
	// differs, because the two machines' SLITs order the far nodes
	// differently.
	res, _ = importFile(t, "sysfs/128arm-2pa2n8cluster4co.tar.gz", importer.Options{Presets: ps, Domains: load("domains/kunpeng920-cpu64.dmesg")})
	c := res.Check
	if c == nil || c.CPUs != 1 || c.Matching != 0 || len(c.Groups) != 1 {
		t.Fatalf("check %+v; want CPU 64 alone, not matching", c)
	}
	var same []bool
	for _, r := range c.Groups[0].Rows {
		same = append(same, r.Same)
	}
	if !slices.Equal(same, []bool{true, true, true, false, true}) {
		t.Errorf("rows same %v; want CLS, MC, NUMA same, then the second NUMA differing\n%s", same, c.Text())
	}
	// A dump of some CPUs only is no machine.
	if _, err := importPath(t, "domains/kunpeng920-cpu64.dmesg", importer.Options{}); err == nil || !strings.Contains(err.Error(), "give this dump with --check") {
		t.Errorf("a partial dump: %v", err)
	}
	// The boot log alone is a machine too.
	res, r := importFile(t, "domains/nuc11-i7-1165G7.dmesg", importer.Options{})
	if res.Format != importer.FormatDomains || chain(build(t, r.Machine), 5) != "SMT:1,5 MC:0-7" || res.Check.Matching != 8 {
		t.Errorf("format %s, check %+v", res.Format, res.Check)
	}
}

func jsonOf(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

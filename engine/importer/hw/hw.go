// Package hw is the machine description the machine importers fill in
// (sysfs snapshots, lscpu output, hwloc XML, sched-domain dumps): what a
// Linux system reports about each logical CPU, with "unknown" kept
// distinct from zero, and Map, which turns it into a schedplay machine.
//
// Map follows the kernel's own rules for the masks its topology levels
// use, so the machine it writes builds the sched domains the kernel
// would: cpu_smt_mask() is the thread siblings; cpu_clustergroup_mask()
// the cluster (x86: the CPUs sharing an L2); cpu_coregroup_mask() the
// LLC siblings on x86, and on the generic arch topology (arm64, RISC-V,
// LoongArch) the smallest of the node, the package and the LLC, widened
// to the cluster; PKG is the node (cpu_cpu_mask()). Everything the
// description does not say gets a documented default, announced in the
// notes.
package hw

// Arch is the architecture family a description reports ("" unknown).
type Arch string

// The architecture families the mapping tells apart.
const (
	ArchUnknown   Arch = ""
	ArchX86       Arch = "x86"
	ArchArm       Arch = "arm"
	ArchPower     Arch = "powerpc"
	ArchRISCV     Arch = "riscv"
	ArchS390      Arch = "s390"
	ArchLoongArch Arch = "loongarch"
	ArchSparc     Arch = "sparc"
)

// CPU is one logical CPU as a description reports it. Numbers are -1 and
// lists nil when the description does not say.
type CPU struct {
	ID     int  // the Linux CPU number
	Online bool // false: present but offline (left out of the machine)
	// Node is the NUMA node, Package the physical package (socket), Core
	// the core id (unique within its package, or system-wide).
	Node, Package, Core int
	// Siblings are the CPUs of its core (thread_siblings_list, with
	// itself); Cluster the CPUs of its cluster (cluster_cpus_list; on x86
	// the CPUs sharing its L2); LLC the CPUs sharing its last-level cache.
	Siblings, Cluster, LLC []int
	// Capacity is cpu_capacity (1..1024), HighestPerf the ACPI CPPC
	// highest_perf, MaxKHz cpuinfo_max_freq; 0 when unknown.
	Capacity, HighestPerf, MaxKHz int
	// Kind names the core type ("Cortex-A710", "IntelAtom"); KindRank
	// orders kinds by performance (higher is faster, hwloc's efficiency),
	// -1 when unknown.
	Kind     string
	KindRank int
}

// NewCPU returns CPU id, online, with everything else unknown.
func NewCPU(id int) CPU {
	return CPU{ID: id, Online: true, Node: -1, Package: -1, Core: -1, KindRank: -1}
}

// Topology is a whole description.
type Topology struct {
	// Source names the format for the notes ("sysfs snapshot", "lscpu -p").
	Source string
	// CPUs in ascending ID order, IDs unique.
	CPUs []CPU
	// NodeIDs and Distances: the node distance table (SLIT), row i for
	// node NodeIDs[i]; nil when the description has none.
	NodeIDs   []int
	Distances [][]int
	Arch      Arch
	Model     string
	// Vendor and Family are x86's CPUID vendor string and family
	// ("AuthenticAMD", 25), "" and 0 when the description does not say.
	Vendor string
	Family int
	// Hybrid is x86's hybrid_cpu flag (Alder Lake and later).
	Hybrid bool
	// Notes are facts the reader announces (what it skipped or assumed).
	Notes []string
}

// Note appends an announcement.
func (t *Topology) Note(format string, args ...any) {
	t.Notes = append(t.Notes, sprintf(format, args...))
}

package topo

import "strings"

// SDFlags are the sched_domain flags of include/linux/sched/sd_flags.h.
type SDFlags uint32

// The flags, in sd_flags.h order.
const (
	SDBalanceNewidle SDFlags = 1 << iota
	SDBalanceExec
	SDBalanceFork
	SDBalanceWake
	SDWakeAffine
	SDAsymCPUCapacity
	SDAsymCPUCapacityFull
	SDShareCPUCapacity
	SDCluster
	SDShareLLC
	SDSerialize
	SDAsymPacking
	SDPreferSibling
	SDOverlap
	SDNUMA
)

var sdFlagNames = []string{
	"SD_BALANCE_NEWIDLE", "SD_BALANCE_EXEC", "SD_BALANCE_FORK", "SD_BALANCE_WAKE",
	"SD_WAKE_AFFINE", "SD_ASYM_CPUCAPACITY", "SD_ASYM_CPUCAPACITY_FULL",
	"SD_SHARE_CPUCAPACITY", "SD_CLUSTER", "SD_SHARE_LLC", "SD_SERIALIZE",
	"SD_ASYM_PACKING", "SD_PREFER_SIBLING", "SD_OVERLAP", "SD_NUMA",
}

// Metaflags of sd_flags.h.
const (
	// SDSharedChild flags: if set on a domain, set on all its children.
	SDSharedChild = SDBalanceNewidle | SDBalanceExec | SDBalanceFork | SDBalanceWake |
		SDWakeAffine | SDShareCPUCapacity | SDShareLLC
	// SDSharedParent flags: if set on a domain, set on all its parents.
	SDSharedParent = SDAsymCPUCapacity | SDAsymCPUCapacityFull | SDSerialize | SDOverlap | SDNUMA
	// SDDegenerateGroupsMask are the flags that need more than one group to matter.
	SDDegenerateGroupsMask = SDBalanceNewidle | SDBalanceExec | SDBalanceFork | SDBalanceWake |
		SDAsymCPUCapacity | SDAsymCPUCapacityFull | SDShareCPUCapacity | SDCluster |
		SDShareLLC | SDSerialize | SDAsymPacking | SDPreferSibling | SDOverlap | SDNUMA
	// TopologySDFlags are the only flags an arch topology level may supply.
	TopologySDFlags = SDShareCPUCapacity | SDCluster | SDShareLLC | SDNUMA | SDAsymPacking
)

// Has reports whether every flag of f is set.
func (s SDFlags) Has(f SDFlags) bool { return s&f == f }

// String prints the flags the way /proc/sys/kernel/sched_domain/…/flags does:
// kernel names separated by spaces, in sd_flags.h order.
func (s SDFlags) String() string {
	var names []string
	for i, n := range sdFlagNames {
		if s&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return strings.Join(names, " ")
}

// Names returns the flag names as a list (for JSON).
func (s SDFlags) Names() []string {
	names := []string{}
	for i, n := range sdFlagNames {
		if s&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return names
}

// MarshalText writes the flags as kernel names joined by "|".
func (s SDFlags) MarshalText() ([]byte, error) { return []byte(strings.Join(s.Names(), "|")), nil }

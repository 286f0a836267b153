package topo

import (
	"fmt"

	"schedplay/engine/quote"
)

// Level names a topology level exactly as SD_INIT_NAME does.
type Level string

// The topology levels of default_topology[], bottom-up, plus NUMA.
const (
	LevelSMT  Level = "SMT"
	LevelCLS  Level = "CLS"
	LevelMC   Level = "MC"
	LevelPKG  Level = "PKG"
	LevelNUMA Level = "NUMA"
)

// UnmarshalText accepts only the five kernel level names.
func (l *Level) UnmarshalText(b []byte) error {
	switch v := Level(b); v {
	case LevelSMT, LevelCLS, LevelMC, LevelPKG, LevelNUMA:
		*l = v
		return nil
	}
	return fmt.Errorf("unknown level %s; want one of SMT, CLS, MC, PKG, NUMA", quote.Short(string(b)))
}

// Numbering is how logical CPU numbers map onto cores and threads.
type Numbering string

const (
	// SiblingMajor: cpu = thread × total_cores + core (Vera: 0 and 176 are siblings).
	SiblingMajor Numbering = "sibling-major"
	// CoreMajor: cpu = core × threads + thread (POWER7, x86 enumerations).
	CoreMajor Numbering = "core-major"
)

// UnmarshalText validates the numbering name.
func (n *Numbering) UnmarshalText(b []byte) error {
	switch v := Numbering(b); v {
	case SiblingMajor, CoreMajor:
		*n = v
		return nil
	}
	return fmt.Errorf("unknown numbering %s; want \"sibling-major\" or \"core-major\"", quote.Short(string(b)))
}

// LLCSpan says which span shares the last-level cache.
type LLCSpan string

const (
	LLCNode    LLCSpan = "node"
	LLCCluster LLCSpan = "cluster"
)

// UnmarshalText validates the llc name.
func (s *LLCSpan) UnmarshalText(b []byte) error {
	switch v := LLCSpan(b); v {
	case LLCNode, LLCCluster:
		*s = v
		return nil
	}
	return fmt.Errorf("unknown llc %s; want \"node\" or \"cluster\"", quote.Short(string(b)))
}

// SMTKind is the core performance model.
type SMTKind string

const (
	SMTSpatial     SMTKind = "spatial"     // Olympus: full-resource ST vs partitioned
	SMTCompetitive SMTKind = "competitive" // classic HT
	SMTFolding     SMTKind = "folding"     // POWER7: mode set by highest active thread
)

// UnmarshalText validates the model name.
func (k *SMTKind) UnmarshalText(b []byte) error {
	switch v := SMTKind(b); v {
	case SMTSpatial, SMTCompetitive, SMTFolding:
		*k = v
		return nil
	}
	return fmt.Errorf("unknown smt model %s; want \"spatial\", \"competitive\" or \"folding\"", quote.Short(string(b)))
}

// PriorityMode selects arch_asym_cpu_priority().
type PriorityMode string

const (
	PriorityDefault     PriorityMode = "default"        // weak default: -cpu
	PriorityArch        PriorityMode = "arch"           // machine.priorities
	PriorityCapacity    PriorityMode = "capacity"       // cpu_scale
	PriorityCapacityPE0 PriorityMode = "capacity-pe0x2" // cpu_scale, doubled on thread 0
	PriorityThread      PriorityMode = "thread"         // lower thread index first (POWER7)
)

// UnmarshalText validates the priority mode.
func (m *PriorityMode) UnmarshalText(b []byte) error {
	switch v := PriorityMode(b); v {
	case PriorityDefault, PriorityArch, PriorityCapacity, PriorityCapacityPE0, PriorityThread:
		*m = v
		return nil
	}
	return fmt.Errorf("unknown priority %s; want default, arch, capacity, capacity-pe0x2 or thread", quote.Short(string(b)))
}

// SMTAsymPacking is the sched_smt_asym_packing= boot option (v6 series).
type SMTAsymPacking string

const (
	SMTAsymAuto SMTAsymPacking = "auto"
	SMTAsymOn   SMTAsymPacking = "on"
	SMTAsymOff  SMTAsymPacking = "off"
)

// UnmarshalText validates the option value.
func (o *SMTAsymPacking) UnmarshalText(b []byte) error {
	switch v := SMTAsymPacking(b); v {
	case SMTAsymAuto, SMTAsymOn, SMTAsymOff:
		*o = v
		return nil
	}
	return fmt.Errorf("unknown smt_asym_packing %s; want auto, on or off", quote.Short(string(b)))
}

package sysfs

import (
	"strconv"
	"strings"

	"schedplay/engine/importer/hw"
)

// cpuinfo is what /proc/cpuinfo says: the architecture, the model name,
// x86's hybrid flag and the Arm core kind of each processor.
type cpuinfo struct {
	arch   hw.Arch
	model  string
	hybrid bool
	vendor string         // x86 vendor_id
	family int            // x86 cpu family
	kind   map[int]string // processor → core kind (Arm)
}

// parseCPUInfo reads /proc/cpuinfo's "key : value" blocks.
func parseCPUInfo(text string) cpuinfo {
	ci := cpuinfo{kind: map[int]string{}}
	proc := -1
	impl, part := -1, -1
	flush := func() {
		if proc >= 0 && impl >= 0 && part >= 0 {
			if name := armPart(impl, part); name != "" {
				ci.kind[proc] = name
			}
		}
		impl, part = -1, -1
	}
	for _, line := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch strings.ToLower(k) {
		case "processor":
			flush()
			if n, err := strconv.Atoi(v); err == nil {
				proc = n
			}
		case "vendor_id":
			if ci.vendor == "" {
				ci.vendor = v
			}
			switch {
			case strings.Contains(v, "S390"):
				ci.arch = hw.ArchS390
			case v == "GenuineIntel" || v == "AuthenticAMD" || v == "HygonGenuine" || v == "CentaurHauls":
				ci.arch = hw.ArchX86
			}
		case "flags":
			if ci.arch == hw.ArchX86 && strings.Contains(" "+v+" ", " hybrid_cpu ") {
				ci.hybrid = true
			}
		case "model name":
			if ci.model == "" {
				ci.model = v
			}
		case "cpu implementer":
			ci.arch = hw.ArchArm
			impl = hexInt(v)
		case "cpu part":
			part = hexInt(v)
		case "cpu":
			if strings.Contains(v, "POWER") || strings.Contains(v, "ppc") {
				ci.arch = hw.ArchPower
				if ci.model == "" {
					ci.model = v
				}
			}
		case "isa":
			if strings.HasPrefix(v, "rv") {
				ci.arch = hw.ArchRISCV
			}
		case "uarch":
			if ci.model == "" {
				ci.model = v
			}
		case "cpu family":
			if strings.Contains(v, "Loongson") {
				ci.arch = hw.ArchLoongArch
			} else if n, err := strconv.Atoi(v); err == nil && ci.family == 0 {
				ci.family = n
			}
		}
		if strings.EqualFold(k, "Model Name") && ci.arch == hw.ArchLoongArch && ci.model == "" {
			ci.model = v
		}
	}
	flush()
	return ci
}

func hexInt(s string) int {
	n, err := strconv.ParseInt(strings.TrimPrefix(strings.ToLower(s), "0x"), 16, 64)
	if err != nil {
		return -1
	}
	return int(n)
}

// midrKind names the core of a MIDR_EL1 value (regs/identification).
func midrKind(s string) string {
	v, err := strconv.ParseUint(strings.TrimPrefix(strings.TrimSpace(s), "0x"), 16, 64)
	if err != nil {
		return ""
	}
	return armPart(int(v>>24&0xff), int(v>>4&0xfff))
}

// armPart names an Arm core by implementer and part number (the part
// numbers of the Arm and Qualcomm cores lscpu's table knows best).
func armPart(impl, part int) string {
	switch impl {
	case 0x41:
		return armParts[part]
	case 0x51:
		return qcomParts[part]
	}
	return ""
}

var armParts = map[int]string{
	0xd03: "Cortex-A53", 0xd04: "Cortex-A35", 0xd05: "Cortex-A55", 0xd07: "Cortex-A57",
	0xd08: "Cortex-A72", 0xd09: "Cortex-A73", 0xd0a: "Cortex-A75", 0xd0b: "Cortex-A76",
	0xd0c: "Neoverse-N1", 0xd0d: "Cortex-A77", 0xd40: "Neoverse-V1", 0xd41: "Cortex-A78",
	0xd44: "Cortex-X1", 0xd46: "Cortex-A510", 0xd47: "Cortex-A710", 0xd48: "Cortex-X2",
	0xd49: "Neoverse-N2", 0xd4b: "Cortex-A78C", 0xd4d: "Cortex-A715", 0xd4e: "Cortex-X3",
	0xd4f: "Neoverse-V2", 0xd80: "Cortex-A520", 0xd81: "Cortex-A720", 0xd82: "Cortex-X4",
	0xd84: "Neoverse-V3", 0xd85: "Cortex-X925", 0xd87: "Cortex-A725", 0xd8e: "Neoverse-N3",
}

var qcomParts = map[int]string{
	0x800: "Kryo-2xx-Gold", 0x801: "Kryo-2xx-Silver", 0x802: "Kryo-3xx-Gold", 0x803: "Kryo-3xx-Silver",
	0x804: "Kryo-4xx-Gold", 0x805: "Kryo-4xx-Silver", 0xc00: "Falkor", 0xc01: "Saphira",
}

// Package sysfs reads a snapshot of a Linux machine's /sys and /proc (the
// layout of util-linux's lscpu regression dumps, and of the tarball
// `schedplay collect` makes) into an hw.Topology.
package sysfs

import (
	"regexp"
	"strings"
)

// Files are the paths a snapshot needs, as shell globs below /. The
// collect script gathers exactly these; the archive reader keeps only
// files matching them.
var Files = []string{
	"proc/cpuinfo",
	"sys/devices/system/cpu/online",
	"sys/devices/system/cpu/possible",
	"sys/devices/system/cpu/present",
	"sys/devices/system/cpu/cpu[0-9]*/online",
	"sys/devices/system/cpu/cpu[0-9]*/cpu_capacity",
	"sys/devices/system/cpu/cpu[0-9]*/topology/thread_siblings_list",
	"sys/devices/system/cpu/cpu[0-9]*/topology/core_cpus_list",
	"sys/devices/system/cpu/cpu[0-9]*/topology/core_id",
	"sys/devices/system/cpu/cpu[0-9]*/topology/physical_package_id",
	"sys/devices/system/cpu/cpu[0-9]*/topology/die_id",
	"sys/devices/system/cpu/cpu[0-9]*/topology/cluster_cpus_list",
	"sys/devices/system/cpu/cpu[0-9]*/topology/cluster_id",
	"sys/devices/system/cpu/cpu[0-9]*/acpi_cppc/highest_perf",
	"sys/devices/system/cpu/cpu[0-9]*/cpufreq/cpuinfo_max_freq",
	"sys/devices/system/cpu/cpu[0-9]*/regs/identification/midr_el1",
	"sys/devices/system/cpu/cpu[0-9]*/cache/index[0-9]*/level",
	"sys/devices/system/cpu/cpu[0-9]*/cache/index[0-9]*/type",
	"sys/devices/system/cpu/cpu[0-9]*/cache/index[0-9]*/shared_cpu_list",
	"sys/devices/system/cpu/cpufreq/policy[0-9]*/cpuinfo_max_freq",
	"sys/devices/system/cpu/cpufreq/policy[0-9]*/related_cpus",
	"sys/devices/system/node/online",
	"sys/devices/system/node/node[0-9]*/cpulist",
	"sys/devices/system/node/node[0-9]*/cpumap",
	"sys/devices/system/node/node[0-9]*/distance",
	// The sched domains the kernel built (a check of the import):
	// debugfs since 5.13, the sysctl before; spans from schedstat.
	"sys/kernel/debug/sched/domains/cpu[0-9]*/domain[0-9]*/name",
	"sys/kernel/debug/sched/domains/cpu[0-9]*/domain[0-9]*/flags",
	"proc/sys/kernel/sched_domain/cpu[0-9]*/domain[0-9]*/name",
	"proc/sys/kernel/sched_domain/cpu[0-9]*/domain[0-9]*/flags",
	"proc/schedstat",
}

// keepRE matches a path ending in one of Files below any prefix.
var keepRE = func() *regexp.Regexp {
	var alts []string
	for _, g := range Files {
		q := regexp.QuoteMeta(g)
		q = strings.ReplaceAll(q, `\[0-9\]\*`, `[0-9]+`)
		alts = append(alts, q)
	}
	return regexp.MustCompile(`(^|/)(` + strings.Join(alts, "|") + `)$`)
}()

// Keep reports whether an archive member is one of Files (below any
// prefix): what the archive reader keeps.
func Keep(name string) bool { return keepRE.MatchString(name) }

// Package topo turns a machine description and a policy into logical CPUs
// and the per-CPU sched-domain hierarchy the Linux kernel would build
// (kernel/sched/topology.c, Linux 6.12), plus the Olympus v6
// sched_smt_asym_packing= override and the combined-asym-packing hooks.
//
// Build numbers the CPUs (sibling-major or core-major), assigns node,
// cluster, core, thread, cpu_scale capacity, speed and
// arch_asym_cpu_priority(), then models build_sched_domains(): for every
// CPU it builds one domain per topology level bottom-up (SMT, CLS, MC, PKG,
// then one NUMA level per distinct node distance) until a span covers the
// machine, builds the groups (the child spans), removes the degenerate
// domains as cpu_attach_domain() does and sets the per-CPU shortcuts of
// update_top_cache_domain().
//
// The spans on a two-node machine with two SMT threads per core and one LLC
// per node (Vera, sibling-major numbering: CPU c and c+176 are siblings):
//
//	CPU        0   1  ..  87 | 88  ..  175 | 176 ..  263 | 264 ..  351
//	node       0   0  ..   0 |  1  ..    1 |   0 ..    0 |   1 ..    1
//	SMT      [0,176] [1,177] ..                    (one core = 2 PEs)
//	MC       [ 0-87, 176-263            ] [ 88-175, 264-351          ]  LLC = node
//	PKG      = MC on every node: degenerate, removed
//	NUMA     [ 0-351                                                 ]
//
//	MC groups of CPU 0:   {0,176} {1,177} ... {87,263}    (the SMT spans)
//	NUMA groups of CPU 0: {0-87,176-263} {88-175,264-351} (the node spans)
//
// Flags follow sd_init(): every level starts with SD_BALANCE_NEWIDLE,
// SD_BALANCE_EXEC, SD_BALANCE_FORK, SD_WAKE_AFFINE and SD_PREFER_SIBLING
// plus the level's own flags (cpu_smt_flags() and friends, and
// SD_ASYM_PACKING where the arch or the policy puts it);
// asym_cpu_capacity_classify() adds SD_ASYM_CPUCAPACITY[_FULL] to each span
// that sees more than one cpu_scale value.
//
// Simplifications: the NODE level sched_init_numa() inserts below the NUMA
// levels is omitted (its span equals PKG, so it always degenerates; before
// it does, it is the first NUMA level's build-time child, so an
// asymmetric-capacity NUMA level strips SD_PREFER_SIBLING from it where
// schedplay strips it from PKG, and remote NUMA groups carry NODE's flags
// where schedplay's carry PKG's: no decision of 6.12 or the tip reads
// either, but the generation 6.1 reads the NUMA level's child flag, so an
// asymmetric-capacity NUMA machine, none of the presets, loses
// prefer_sibling there where the kernel, whose PKG keeps it once NODE
// degenerates, does not);
// NUMA groups are the sibling domains' child spans, with the group balance
// masks of build_overlap_sched_groups() (buildBalanceMask) and one
// sched_group_capacity per level and mask's first CPU; CLS spans follow
// arm64's cpu_clustergroup_mask() (the SMT mask when the cluster covers the
// LLC).
//
// Everything Build returns is read-only: CPU sets and group slices are
// shared between CPUs.
package topo

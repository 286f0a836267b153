package playground

import (
	"strconv"
	"strings"
)

// Field describes one editor control: the scenario path it edits, its
// label, and the kernel name it corresponds to (shown beside it).
type Field struct {
	Path    string
	Label   string
	Kernel  string
	Kind    string // int, float, text, duration, select, bool, tristate, json, levels, classes, yield, boost, priorities
	Options []string
	Help    string // an input's placeholder; a select's or tristate's default choice
}

// MachineFields are the machine editor's controls.
var MachineFields = []Field{
	{Path: "machine.nodes", Label: "NUMA nodes", Kernel: "NUMA level when > 1", Kind: "int"},
	{Path: "machine.cores_per_node", Label: "cores per node", Kernel: "", Kind: "int"},
	{Path: "machine.clusters_per_node", Label: "clusters per node", Kernel: "CLS level (1 when core classes set cluster_cores)", Kind: "int"},
	{Path: "machine.llc", Label: "LLC span", Kernel: "MC level (SD_SHARE_LLC)", Kind: "select", Options: []string{"node", "cluster"}},
	{Path: "machine.threads_per_core", Label: "threads per core", Kernel: "SMT level (SD_SHARE_CPUCAPACITY)", Kind: "select", Options: []string{"1", "2", "4", "8"}},
	{Path: "machine.numbering", Label: "CPU numbering", Kernel: "cpu_smt_mask()", Kind: "select", Options: []string{"sibling-major", "core-major"}},
	{Path: "machine.core_classes", Label: "core classes", Kernel: "cpu_scale (capacity), speed, threads (≤ threads per core; cpu_smt_mask()), cluster_cores (CLS; cpu_clustergroup_mask(), all classes or none)", Kind: "classes"},
	{Path: "machine.smt.model", Label: "SMT model", Kernel: "spatial = Olympus ST/partitioned", Kind: "select", Options: []string{"spatial", "competitive", "folding"}},
	{Path: "machine.smt.yield", Label: "SMT yield", Kernel: "core throughput with k busy threads", Kind: "yield", Help: "[1.0, 1.064]"},
	{Path: "machine.smt.switch", Label: "mode switch cost", Kernel: "", Kind: "duration"},
	{Path: "machine.smt.hold", Label: "partitioned hold", Kernel: "T_hold", Kind: "duration"},
	{Path: "machine.gflops_per_core", Label: "GFLOP/s per core", Kernel: "", Kind: "float"},
	{Path: "machine.boost", Label: "boost curve", Kernel: "speed× by busy core fraction", Kind: "boost"},
	{Path: "machine.priorities", Label: "per-CPU priorities", Kernel: "arch_asym_cpu_priority() for priority=arch", Kind: "priorities"},
	{Path: "machine.arch", Label: "arch defaults", Kernel: "what arch code sets when the policy does not", Kind: "json",
		Help: `{"asym_packing":["SMT"],"priority":"thread"}`},
}

// PolicyFields are the policy editor's controls, with kernel names.
var PolicyFields = []Field{
	{Path: "policy.smt_asym_packing", Label: "SMT asym packing", Kernel: "sched_smt_asym_packing=", Kind: "select", Options: []string{"auto", "on", "off"}},
	{Path: "policy.asym_packing", Label: "asym packing levels", Kernel: "SD_ASYM_PACKING per level", Kind: "levels"},
	{Path: "policy.asym_cpucapacity", Label: "capacity awareness", Kernel: "arch_asym_cpu_capacity_enabled() → SD_ASYM_CPUCAPACITY", Kind: "tristate"},
	{Path: "policy.priority", Label: "priority", Kernel: "arch_asym_cpu_priority()", Kind: "select",
		Options: []string{"default", "arch", "capacity", "capacity-pe0x2", "thread"}},
	{Path: "policy.idle_select_asym", Label: "idle sibling by priority", Kernel: "v6 select_idle_smt_cpu()", Kind: "bool"},
	{Path: "policy.hz", Label: "tick rate", Kernel: "CONFIG_HZ", Kind: "int", Help: "250 (default)"},
	{Path: "policy.base_slice", Label: "base slice", Kernel: "sysctl_sched_base_slice", Kind: "duration", Help: "700us (default)"},
	{Path: "policy.migration_cost", Label: "migration cost", Kernel: "sysctl_sched_migration_cost", Kind: "duration", Help: "500us (default)"},
}

// Feature is a switch of policy.features: a features.h flag, or (Form)
// one of schedplay's switches between the forms of the kernel functions
// Kernel names. A kernel generation (presets/generation) sets both.
type Feature struct {
	Name, Kernel string
	Form         bool
}

// Features are the switches of policy.features, in the editor's order.
// PELT takes a name ("modern", "legacy2018"); the others are on or off.
var Features = []Feature{
	{Name: "SIS_UTIL"}, {Name: "WAKE_AFFINE"}, {Name: "WA_IDLE"}, {Name: "WA_WEIGHT"}, {Name: "WA_BIAS"},
	{Name: "RUN_TO_PARITY"}, {Name: "PREEMPT_SHORT"}, {Name: "PLACE_LAG"}, {Name: "UTIL_EST"}, {Name: "NI_RANDOM"},
	{Name: "NI_RATE"}, {Name: "NOHZ_IDLE"}, {Name: "DELAY_DEQUEUE"},
	{Name: "SMT_AWARE_ASYM_CAPACITY", Kernel: "select_idle_capacity(), asym_fits_cpu()", Form: true},
	{Name: "ILB_IDLE_CORE", Kernel: "find_new_ilb()", Form: true},
	{Name: "VPROT", Kernel: "set_protect_slice(), protect_slice(), update_curr() (6.17; off: 6.12's vlag == deadline)", Form: true},
	{Name: "WAKEUP_PREEMPT_ACTION", Kernel: "wakeup_preempt_fair() (6.19, as of 7.3: no preemption by forks; needs VPROT)", Form: true},
	{Name: "LAG_CLAMP_MAX_SLICE", Kernel: "update_entity_lag() (7.0: ± the largest slice + a tick)", Form: true},
	{Name: "AVG_IDLE_AT_IDLE_EXIT", Kernel: "update_rq_avg_idle() in put_prev_task_idle() (7.0; off: ttwu_do_activate())", Form: true},
	{Name: "FAIR_SERVER", Kernel: "rq->fair_server: dl_server_start(), dl_server_timer(), pick_task_dl() (6.12; off: 6.1)", Form: true},
	{Name: "RT_THROTTLING", Kernel: "update_curr_rt(), sched_rt_runtime_exceeded(), sched_rt_period_timer() (6.1: 950 ms of RT a second)", Form: true},
	{Name: "DL_SERVER_IDLE", Kernel: "dl_server_timer(), update_curr_idle() (6.19: an idle server stops; off: 6.12.118)", Form: true},
	{Name: "SM_IDLE", Kernel: "__schedule(SM_IDLE) (6.12: the idle task rescheduled with nothing queued skips the pick and its newidle balance; off: 6.1)", Form: true},
	{Name: "IDLE_RETAIN_TICK", Kernel: "do_idle() → idle_call_stop_or_retain_tick() (6.12.117: a WFI-only CPU keeps its tick until it fires in idle; off: stopped at idle entry)", Form: true},
	{Name: "SIS_CLUSTER", Kernel: "select_idle_sibling(), select_idle_cpu() (cluster first, 6.8)", Form: true},
	{Name: "H_NR_RUNNABLE", Kernel: "update_sg_lb_stats(), sched_balance_find_src_rq(), can_migrate_task()", Form: true},
	{Name: "ASYM_CAPACITY_SMT_LB", Kernel: "update_sg_lb_stats(), sched_balance_find_src_rq() (Neri, 7.3)", Form: true},
	{Name: "LB_SMT_BALANCE", Kernel: "update_sg_lb_stats() → smt_balance(), update_sd_pick_busiest() (6.6; off: 6.1)", Form: true},
	{Name: "LB_SIBLING_IMBALANCE", Kernel: "calculate_imbalance(), sched_balance_find_src_group() → sibling_imbalance() (6.6; off: 6.1's task-count difference)", Form: true},
	{Name: "LB_UTIL_BOOST", Kernel: "sched_balance_find_src_rq() → cpu_util_cfs_boost() (6.5; off: 6.1's cpu_util_cfs())", Form: true},
	{Name: "SWB_IDLE_CORE", Kernel: "should_we_balance() (6.6: an idle core's CPU first; off: 6.1's first idle CPU)", Form: true},
	{Name: "BUSIEST_TIE_KEEPS_FIRST", Kernel: "update_sd_pick_busiest(): the first of tied asym-packing or misfit groups (6.9; off: 6.1, the later)", Form: true},
	{Name: "LB_ASYM_USE_PRIO", Kernel: "sched_use_asym_prio(): asym priority between cores only from an idle core (6.5; off: 6.1's asym_smt_can_pull_tasks())", Form: true},
	{Name: "MISFIT_FAIL_UNCOUNTED", Kernel: "sched_balance_rq(): a failed misfit pass leaves nr_balance_failed and balance_interval (6.12; off: 6.1 counts it and backs off)", Form: true},
	{Name: "UTIL_EST_RUNNABLE", Kernel: "util_est_update(): a task that waited for its CPU (runnable above util) keeps its EWMA (6.12; off: 6.1 lowers it)", Form: true},
	{Name: "MISFIT_MAX_ALLOWED_CAP", Kernel: "update_misfit_status(), check_misfit_status() (6.10: max_allowed_capacity; off: 6.1)", Form: true},
	{Name: "PREEMPT_LAZY", Kernel: "resched_curr_lazy(), sched_tick(), exit_to_user_mode_loop() (6.13; arm64 default since 7.0)", Form: true},
	{Name: "EEVDF", Kernel: "pick_next_entity(), place_entity(), check_preempt_wakeup(), check_preempt_tick() (off: 6.1's CFS)", Form: true},
	{Name: "PELT", Kernel: "PELT invariance", Form: true},
}

// GroupFields are one workload group's controls (paths relative to the group).
var GroupFields = []Field{
	{Path: "name", Label: "name", Kind: "text"},
	{Path: "count", Label: "tasks", Kernel: "threads in the group", Kind: "int"},
	{Path: "cpus", Label: "affinity", Kernel: "cpulist (sched_setaffinity)", Kind: "text", Help: "0-87,176-263"},
	{Path: "nice", Label: "nice", Kernel: "", Kind: "int"},
	{Path: "policy", Label: "policy", Kernel: "sched_setscheduler(): SCHED_BATCH, SCHED_IDLE (fair), SCHED_FIFO, SCHED_RR (the RT class)", Kind: "select", Options: []string{"batch", "idle", "fifo", "rr"}, Help: "SCHED_OTHER"},
	{Path: "rt_priority", Label: "RT priority", Kernel: "sched_priority 1..99 (fifo, rr)", Kind: "int"},
	{Path: "slice", Label: "slice", Kernel: "sched_setattr() sched_runtime (se->custom_slice, 100us-100ms)", Kind: "duration", Help: "base slice"},
	{Path: "process", Label: "separate processes", Kernel: "address-space switch cost", Kind: "bool"},
	{Path: "start", Label: "start", Kernel: "fork delay", Kind: "duration"},
	{Path: "program", Label: "program", Kernel: "compute / sleep / barrier / send / recv / periodic / repeat / pool / timed", Kind: "json"},
}

// RunFields are the run controls.
var RunFields = []Field{
	{Path: "run.duration", Label: "duration", Kernel: "simulated time cap", Kind: "duration", Help: "1s (default)"},
	{Path: "run.until", Label: "until", Kind: "select", Options: []string{"done", "duration"}},
	{Path: "run.seed", Label: "seed", Kind: "int"},
	{Path: "run.reps", Label: "repetitions", Kernel: "seeds seed, seed+1, …", Kind: "int", Help: "1 (default)"},
	{Path: "run.warmup", Label: "warm-up", Kernel: "excluded from metrics", Kind: "duration"},
}

// ClassColumns are the core-class table's columns: the key, its label,
// whether it is text (else a number) and whether it may be left out.
var ClassColumns = []struct {
	Key, Label     string
	Text, Optional bool
}{
	{"name", "name", true, false}, {"cores", "cores", false, false}, {"capacity", "capacity", false, false},
	{"speed", "speed", false, false}, {"threads", "threads", false, true}, {"cluster_cores", "cluster", false, true},
}

// Levels are the topology levels that may carry SD_ASYM_PACKING.
var Levels = []string{"SMT", "CLS", "MC", "PKG", "NUMA"}

// DocPath is the issue and draft path of the JSON tab's whole-document
// text (it is not a scenario path).
const DocPath = "$doc"

// IssuesUnder returns the issues at path or below it.
func (s State) IssuesUnder(path string) []Issue {
	var out []Issue
	for _, is := range s.Issues {
		if under(is.Path, path) {
			out = append(out, is)
		}
	}
	return out
}

// under says whether path is p or lies below it.
func under(path, p string) bool {
	return path == p || strings.HasPrefix(path, p+".") || strings.HasPrefix(path, p+"[")
}

// sectionOf is the editor tab that shows path: its first element when that
// is a section, else the JSON tab (top-level keys, the document's text).
func sectionOf(path string) string {
	head := path
	if i := strings.IndexAny(path, ".["); i >= 0 {
		head = path[:i]
	}
	switch head {
	case TabMachine, TabPolicy, TabWorkload, TabRun:
		return head
	}
	return TabJSON
}

// parentPath drops path's last element ("a.b[2]" → "a.b", "a.b" → "a",
// "a" → "").
func parentPath(path string) string {
	i := strings.LastIndexAny(path, ".[")
	if i < 0 {
		return ""
	}
	return path[:i]
}

// FieldID is the DOM id of a field's control.
func FieldID(path string) string {
	if path == DocPath {
		return "f-json"
	}
	r := strings.NewReplacer(".", "-", "[", "-", "]", "")
	return "f-" + r.Replace(path)
}

// groupIndex is i when path lies in workload.groups[i].
func groupIndex(path string) (int, bool) {
	rest, ok := strings.CutPrefix(path, "workload.groups[")
	if !ok {
		return 0, false
	}
	end := strings.IndexByte(rest, ']')
	if end < 0 {
		return 0, false
	}
	n, err := strconv.Atoi(rest[:end])
	return n, err == nil && n >= 0
}

package sim

import (
	"fmt"
	"strconv"

	"schedplay/engine/topo"
)

// Decision-path detail recorded only while tracing: the CPUs an idle scan
// considered (select_idle_capacity(), select_idle_cpu(), select_idle_core())
// and the group statistics of the balance pass that moved a task
// (update_sd_lb_stats(), calculate_imbalance()). Every caller guards with
// s.tracing, so an untraced run neither allocates nor formats.

// scanListCap is the most CPUs one scan step lists; the rest are counted.
const scanListCap = 8

// lbGroupCap is the most non-local, non-busiest groups a balance step lists.
const lbGroupCap = 1

// scanTrace accumulates one idle scan's step text.
type scanTrace struct {
	b    []byte
	n    int // CPUs listed
	more int // CPUs considered past scanListCap
}

// lbGroupRec is one group's sg_lb_stats as update_sd_lb_stats() computed it.
type lbGroupRec struct {
	g   *topo.Group
	sgs sgStats
}

// scanBegin starts the step "fn scan from target[ head]:".
func (s *sim) scanBegin(fn string, from int, head string) {
	st := &s.scan
	st.b = append(st.b[:0], fn...)
	st.b = append(st.b, " scan from "...)
	st.b = strconv.AppendInt(st.b, int64(from), 10)
	st.b = append(st.b, head...)
	st.b = append(st.b, ':')
	st.n, st.more = 0, 0
}

// scanCPU lists one considered CPU with why it was passed over or kept.
func (s *sim) scanCPU(cpu int, format string, args ...any) {
	st := &s.scan
	if st.n >= scanListCap {
		st.more++
		return
	}
	if st.n > 0 {
		st.b = append(st.b, ',')
	}
	st.b = append(st.b, ' ')
	st.b = strconv.AppendInt(st.b, int64(cpu), 10)
	st.b = append(st.b, ' ')
	st.b = fmt.Appendf(st.b, format, args...)
	st.n++
}

// scanEnd closes the scan step (with an optional outcome) and notes it.
func (s *sim) scanEnd(tail string) {
	st := &s.scan
	if st.n == 0 {
		st.b = append(st.b, " no CPU considered"...)
	}
	if st.more > 0 {
		st.b = fmt.Appendf(st.b, ", … %d more", st.more)
	}
	if tail != "" {
		st.b = append(st.b, "; "...)
		st.b = append(st.b, tail...)
	}
	s.path = append(s.path, string(st.b))
}

// lbRecordGroup keeps one group's statistics for the balance step.
func (s *sim) lbRecordGroup(g *topo.Group, sgs *sgStats) {
	s.lbGroups = append(s.lbGroups, lbGroupRec{g: g, sgs: *sgs})
}

// sgStatsText prints the sg_lb_stats fields of one group.
func sgStatsText(g *topo.Group, role string, sgs *sgStats) string {
	avg := ""
	if sgs.avgLoad != 0 { // computed for overloaded groups (and local by calculate_imbalance())
		avg = " avg_load " + strconv.FormatInt(sgs.avgLoad, 10)
	}
	return fmt.Sprintf("update_sd_lb_stats: group %s%s %s sum_nr_running %d idle_cpus %d group_util %d group_load %d%s group_capacity %d",
		g.Span.String(), role, groupTypeNames[sgs.groupType], sgs.sumNrRunning, sgs.idleCPUs,
		sgs.groupUtil, sgs.groupLoad, avg, sgs.groupCapacity)
}

// migrationTypeNames is enum migration_type as fair.c spells it.
var migrationTypeNames = [...]string{"migrate_load", "migrate_util", "migrate_task", "migrate_misfit"}

// appendLbStats appends the balance pass's group statistics (local and
// busiest first, then up to lbGroupCap others) and calculate_imbalance()'s
// choice to path.
func (s *sim) appendLbStats(path []string, env *lbEnv) []string {
	path = append(path, sgStatsText(env.local, " (local)", &env.localStat))
	if env.busiest != nil {
		path = append(path, sgStatsText(env.busiest, " (busiest)", &env.busiestStat))
	}
	listed, more := 0, 0
	for i := range s.lbGroups {
		r := &s.lbGroups[i]
		if r.g == env.local || r.g == env.busiest {
			continue
		}
		if listed >= lbGroupCap {
			more++
			continue
		}
		path = append(path, sgStatsText(r.g, "", &r.sgs))
		listed++
	}
	if more > 0 {
		path = append(path, fmt.Sprintf("update_sd_lb_stats: … %d more groups", more))
	}
	line := fmt.Sprintf("calculate_imbalance: migration_type %s, imbalance %d", migrationTypeNames[env.migType], s.lbImbalance)
	if env.avgLoad != 0 {
		line += fmt.Sprintf(" (sds avg_load %d)", env.avgLoad)
	}
	return append(path, line)
}

// selectIdleCPUScanBegin starts the scan step of select_idle_cpu(): the
// select_idle_core() walk when the LLC has an idle core, else the
// SIS_UTIL-budgeted idle-CPU walk.
func (s *sim) selectIdleCPUScanBegin(hasIdleCore bool, start, nr int) {
	switch {
	case hasIdleCore:
		s.scanBegin("select_idle_core", start, " (has_idle_cores)")
	case s.feat.SISUtilOn():
		s.scanBegin("select_idle_cpu", start, fmt.Sprintf(" (nr_idle_scan %d)", nr-1))
	default:
		s.scanBegin("select_idle_cpu", start, "")
	}
}

// selectIdleCoreScanCPU lists a core select_idle_core() dropped, and the
// idle sibling it remembered, if this core supplied it.
func (s *sim) selectIdleCoreScanCPU(cpu, had, idleCPU int) {
	if had == noCPU && idleCPU != noCPU {
		s.scanCPU(cpu, "core busy, idle cpu %d kept", idleCPU)
		return
	}
	s.scanCPU(cpu, "core busy")
}

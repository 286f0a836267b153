package sim

import (
	"testing"

	"schedplay/engine/topo"
)

// The balancer's decisions on given group statistics (balance.go), each a
// table worked from 6.12 fair.c: calculate_imbalance(), the rest of
// sched_balance_find_src_group() after update_sd_lb_stats(), and
// update_sd_pick_busiest(). None of these rules failed a test before the
// tenth mutation round (docs/model.md, "Verification").

// llcDom is a domain sharing the LLC (MC), pkgDom one that does not.
var (
	llcDom = &topo.Domain{ImbalancePct: 117, Flags: topo.SDShareLLC}
	pkgDom = &topo.Domain{ImbalancePct: 117}
)

// TestCalculateImbalance: calculate_imbalance() per busiest and local
// group type.
func TestCalculateImbalance(t *testing.T) {
	four := &topo.Group{Weight: 4, Cores: 4}
	for _, c := range []struct {
		name           string
		sd             *topo.Domain
		idle           cpuIdleType
		local, busiest sgStats
		totalLoad      int64
		wantMT         migrationType
		wantImb        int64
	}{
		{"asym packing: every task of the group", llcDom, cpuIdle,
			sgStats{groupType: groupHasSpare}, sgStats{groupType: groupAsymPacking, sumHNrRunning: 3}, 0, migrateTask, 3},
		{"has spare from overloaded, across LLCs: the spare util", pkgDom, cpuIdle,
			sgStats{groupType: groupHasSpare, groupCapacity: 2048, groupUtil: 1500}, sgStats{groupType: groupOverloaded, groupWeight: 4}, 0, migrateUtil, 548},
		{"… no spare util, dst idle: one task", pkgDom, cpuIdle,
			sgStats{groupType: groupHasSpare, groupCapacity: 2048, groupUtil: 2100}, sgStats{groupType: groupOverloaded, groupWeight: 4}, 0, migrateTask, 1},
		{"… no spare util, dst busy: nothing", pkgDom, cpuNotIdle,
			sgStats{groupType: groupHasSpare, groupCapacity: 2048, groupUtil: 2100}, sgStats{groupType: groupOverloaded, groupWeight: 4}, 0, migrateUtil, 0},
		{"has spare from overloaded inside the LLC: half the idle CPUs' difference", llcDom, cpuIdle,
			sgStats{groupType: groupHasSpare, idleCPUs: 2, groupCapacity: 2048, groupUtil: 1500}, sgStats{groupType: groupOverloaded, groupWeight: 4}, 0, migrateTask, 1},
		{"idle CPUs: half of 4", llcDom, cpuIdle,
			sgStats{groupType: groupHasSpare, idleCPUs: 4}, sgStats{groupType: groupFullyBusy, groupWeight: 4}, 0, migrateTask, 2},
		// unsigned int 0 − 1 wraps before max_t(long, 0, …): (2³² − 1) >> 1
		{"idle CPUs: fewer than busiest's wraps", llcDom, cpuIdle,
			sgStats{groupType: groupHasSpare, idleCPUs: 0}, sgStats{groupType: groupFullyBusy, groupWeight: 4, idleCPUs: 1}, 0, migrateTask, 1<<31 - 1},
		// local avg_load = 4096·1024/4096 = 1024, not below busiest's 1024
		{"fully busy local as loaded as busiest: nothing", llcDom, cpuIdle,
			sgStats{groupType: groupFullyBusy, groupLoad: 4096, groupCapacity: 4096}, sgStats{groupType: groupOverloaded, avgLoad: 1024, groupCapacity: 4096}, 6000, migrateTask, 0},
		// local 1024 < busiest 1500, but above the domain's 4000·1024/4096 = 1000
		{"fully busy local above the domain average: nothing", llcDom, cpuIdle,
			sgStats{groupType: groupFullyBusy, groupLoad: 4096, groupCapacity: 4096}, sgStats{groupType: groupOverloaded, avgLoad: 1500, groupCapacity: 4096}, 4000, migrateTask, 0},
		// min((1500 − 1250)·4096, (1250 − 1024)·4096) / 1024
		{"fully busy local below the average: the smaller excess", llcDom, cpuIdle,
			sgStats{groupType: groupFullyBusy, groupLoad: 4096, groupCapacity: 4096}, sgStats{groupType: groupOverloaded, avgLoad: 1500, groupCapacity: 4096}, 5000, migrateLoad, 904},
	} {
		env := &lbEnv{sd: c.sd, idle: c.idle, busiest: four, local: four, localStat: c.local, busiestStat: c.busiest,
			totalLoad: c.totalLoad, totalCap: 4096}
		(&sim{}).calculateImbalance(env)
		if env.imbalance != c.wantImb || c.wantImb != 0 && env.migType != c.wantMT {
			t.Errorf("%s: migration type %d, imbalance %d; want %d, %d", c.name, env.migType, env.imbalance, c.wantMT, c.wantImb)
		}
	}
}

// TestFindSrcGroupFromStats: which busiest group sched_balance_find_src_group()
// returns once the statistics are in: force_balance for imbalanced groups
// and SMT against non-SMT groups, the imbalance_pct margin between
// overloaded groups, SD_PREFER_SIBLING only past one task, out_balanced
// for a busy dst, for one idle CPU of difference and for a lone task.
func TestFindSrcGroupFromStats(t *testing.T) {
	smt := &topo.Group{Weight: 2, Cores: 1, Flags: topo.SDShareCPUCapacity}
	plain := &topo.Group{Weight: 4, Cores: 4}
	one := &topo.Group{Weight: 1, Cores: 1}
	for _, c := range []struct {
		name           string
		sd             *topo.Domain
		idle           cpuIdleType
		prefer         bool
		lg, bg         *topo.Group
		local, busiest sgStats
		totalLoad      int64
		want           bool
	}{
		{"imbalanced: forced, even for a busy dst", llcDom, cpuNotIdle, false, plain, plain,
			sgStats{groupType: groupHasSpare, idleCPUs: 1}, sgStats{groupType: groupImbalanced, groupWeight: 4, sumHNrRunning: 3, sumNrRunning: 3}, 0, true},
		// 100 × 1100 ≤ 117 × 1000
		{"both overloaded, within imbalance_pct", llcDom, cpuIdle, false, plain, plain,
			sgStats{groupType: groupOverloaded, avgLoad: 1000, groupCapacity: 4096}, sgStats{groupType: groupOverloaded, avgLoad: 1100, groupCapacity: 4096}, 4300, false},
		{"both overloaded, past imbalance_pct", llcDom, cpuIdle, false, plain, plain,
			sgStats{groupType: groupOverloaded, avgLoad: 1000, groupCapacity: 4096}, sgStats{groupType: groupOverloaded, avgLoad: 1200, groupCapacity: 4096}, 4400, true},
		// sibling_imbalance() = 4 − 3 = 1: not forced, and one idle CPU
		// of difference is balanced
		{"prefer sibling, one task apart", pkgDom, cpuIdle, true, plain, plain,
			sgStats{groupType: groupHasSpare, idleCPUs: 1, sumNrRunning: 3}, sgStats{groupType: groupSMTBalance, groupWeight: 4, sumHNrRunning: 4, sumNrRunning: 4}, 0, false},
		{"prefer sibling, two tasks apart", pkgDom, cpuIdle, true, plain, plain,
			sgStats{groupType: groupHasSpare, idleCPUs: 1, sumNrRunning: 2}, sgStats{groupType: groupSMTBalance, groupWeight: 4, sumHNrRunning: 4, sumNrRunning: 4}, 0, true},
		{"busy dst, busiest not overloaded", llcDom, cpuNotIdle, false, plain, plain,
			sgStats{groupType: groupHasSpare, idleCPUs: 3}, sgStats{groupType: groupFullyBusy, groupWeight: 4, sumHNrRunning: 4, sumNrRunning: 4}, 0, false},
		{"idle dst, the same", llcDom, cpuIdle, false, plain, plain,
			sgStats{groupType: groupHasSpare, idleCPUs: 3}, sgStats{groupType: groupFullyBusy, groupWeight: 4, sumHNrRunning: 4, sumNrRunning: 4}, 0, true},
		{"SMT busiest, non-SMT local: forced", llcDom, cpuIdle, false, one, smt,
			sgStats{groupType: groupHasSpare, idleCPUs: 1}, sgStats{groupType: groupSMTBalance, groupWeight: 2, idleCPUs: 1, sumHNrRunning: 1, sumNrRunning: 1}, 0, true},
		// local fully busy at avg 900 against busiest's 1200 and the
		// domain's 1000: worth a pull, but one idle CPU of difference is
		// balanced
		{"one idle CPU of difference", llcDom, cpuIdle, false, plain, plain,
			sgStats{groupType: groupFullyBusy, idleCPUs: 1, groupLoad: 3600, groupCapacity: 4096},
			sgStats{groupType: groupFullyBusy, groupWeight: 4, avgLoad: 1200, groupCapacity: 4096, sumHNrRunning: 4, sumNrRunning: 4}, 4000, false},
		{"two idle CPUs of difference", llcDom, cpuIdle, false, plain, plain,
			sgStats{groupType: groupFullyBusy, idleCPUs: 2, groupLoad: 3600, groupCapacity: 4096},
			sgStats{groupType: groupFullyBusy, groupWeight: 4, avgLoad: 1200, groupCapacity: 4096, sumHNrRunning: 4, sumNrRunning: 4}, 4000, true},
		// one runnable task and two delayed ones (sum_nr_running 3)
		{"a lone runnable task", llcDom, cpuIdle, false, one, one,
			sgStats{groupType: groupHasSpare, idleCPUs: 1}, sgStats{groupType: groupFullyBusy, groupWeight: 1, sumHNrRunning: 1, sumNrRunning: 3}, 0, false},
	} {
		env := &lbEnv{sd: c.sd, idle: c.idle, preferSibling: c.prefer, busiest: c.bg, local: c.lg,
			localStat: c.local, busiestStat: c.busiest, totalLoad: c.totalLoad, totalCap: 4096}
		got := (&sim{}).findSrcGroupFromStats(env) != nil
		if got != c.want {
			t.Errorf("%s: busiest group returned %v (imbalance %d); want %v", c.name, got, env.imbalance, c.want)
		}
	}
}

// TestUpdateSdPickBusiest: update_sd_pick_busiest() never picks a group
// with no CFS task; under SD_ASYM_CPUCAPACITY not a misfit group whose
// biggest CPU a smaller dst cannot beat, nor a fully busy group of bigger
// CPUs than dst; among equals it keeps the first overloaded group of equal
// avg_load, takes the bigger misfit load, and leaves an SMT group running
// one task to a non-SMT busiest.
func TestUpdateSdPickBusiest(t *testing.T) {
	asym := &topo.Domain{ImbalancePct: 117, Flags: topo.SDAsymCPUCapacity}
	plain := &topo.Group{Weight: 4, Cores: 4}
	smt := &topo.Group{Weight: 2, Cores: 1, Flags: topo.SDShareCPUCapacity}
	for _, c := range []struct {
		name    string
		sd      *topo.Domain
		dstCap  int
		busiest *topo.Group // the busiest so far, nil: none
		bstat   sgStats
		g       *topo.Group
		sgs     sgStats
		want    bool
	}{
		{"no CFS task", llcDom, 1024, nil, sgStats{}, plain, sgStats{groupType: groupHasSpare}, false},
		{"misfit, dst smaller than the group's biggest", asym, 512, nil, sgStats{}, plain, sgStats{groupType: groupMisfitTask, maxCap: 1024, sumHNrRunning: 1}, false},
		{"misfit, dst bigger", asym, 1024, nil, sgStats{}, plain, sgStats{groupType: groupMisfitTask, maxCap: 512, sumHNrRunning: 1}, true},
		{"fully busy group of CPUs bigger than dst", asym, 512, nil, sgStats{}, plain, sgStats{groupType: groupFullyBusy, minCap: 1024, sumHNrRunning: 2}, false},
		{"overloaded, equal avg_load: the first kept", llcDom, 1024, plain, sgStats{groupType: groupOverloaded, avgLoad: 1000}, plain,
			sgStats{groupType: groupOverloaded, avgLoad: 1000, sumHNrRunning: 3}, false},
		{"overloaded, higher avg_load", llcDom, 1024, plain, sgStats{groupType: groupOverloaded, avgLoad: 1000}, plain,
			sgStats{groupType: groupOverloaded, avgLoad: 1001, sumHNrRunning: 3}, true},
		{"misfit, bigger misfit load", asym, 1024, plain, sgStats{groupType: groupMisfitTask, misfitTaskLoad: 300}, plain,
			sgStats{groupType: groupMisfitTask, misfitTaskLoad: 500, maxCap: 512, sumHNrRunning: 1}, true},
		{"misfit, smaller misfit load", asym, 1024, plain, sgStats{groupType: groupMisfitTask, misfitTaskLoad: 300}, plain,
			sgStats{groupType: groupMisfitTask, misfitTaskLoad: 200, maxCap: 512, sumHNrRunning: 1}, false},
		{"has spare: SMT group of one task after a non-SMT busiest", llcDom, 1024, plain, sgStats{groupType: groupHasSpare}, smt,
			sgStats{groupType: groupHasSpare, sumHNrRunning: 1, sumNrRunning: 1}, false},
		{"has spare: SMT group of two tasks after a non-SMT busiest", llcDom, 1024, plain, sgStats{groupType: groupHasSpare}, smt,
			sgStats{groupType: groupHasSpare, sumHNrRunning: 2, sumNrRunning: 2}, true},
	} {
		s := lbSim(t)
		s.cpus[0].cap = c.dstCap
		syncBuildCapacities(s)
		env := &lbEnv{sd: c.sd, dst: 0, idle: cpuIdle, busiest: c.busiest, busiestStat: c.bstat,
			localStat: sgStats{groupType: groupHasSpare}}
		sgs := c.sgs
		if got := s.updateSdPickBusiest(env, c.g, &sgs); got != c.want {
			t.Errorf("%s: picked %v; want %v", c.name, got, c.want)
		}
	}
}

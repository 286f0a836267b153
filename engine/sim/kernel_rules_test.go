package sim

import (
	"testing"

	"schedplay/engine/topo"
)

// util_est_update() (6.12) leaves the estimate alone when the sample is
// within UTIL_EST_MARGIN (1 %) of it, or when the task did not get the CPU
// time it wanted (runnable above util by the margin), setting
// UTIL_AVG_UNCHANGED; and returns without even the flag when the sample
// is above the CPU's capacity.
func TestUtilEstUpdateSkips(t *testing.T) {
	for _, c := range []struct {
		name                string
		util, runnable, cap int
		want                int
		flag                bool
		no61RunnableCheck   bool
	}{
		{"within the margin", 495, 495, 1024, 500, true, false},
		{"starved: runnable above util", 401, 600, 1024, 500, true, false},
		{"starved, 6.1 (no runnable check): the decrease taken", 401, 600, 1024, 475, true, true},
		{"above the CPU's capacity", 401, 401, 400, 500, false, false},
		{"a decrease taken", 401, 401, 1024, 475, true, false},
	} {
		s := taskSim(t, 1)
		s.utilEstRun = !c.no61RunnableCheck
		p := s.tasks[0]
		p.cpu = 0
		s.cpus[0].cap = c.cap
		p.utilEst, p.utilEstUnchanged = 500, false
		p.avg.utilAvg, p.avg.runnableAvg = uint64(c.util), uint64(c.runnable)
		s.utilEstUpdate(p)
		if p.utilEst != c.want || p.utilEstUnchanged != c.flag {
			t.Errorf("%s: util_est %d (UTIL_AVG_UNCHANGED %v); want %d (%v)", c.name, p.utilEst, p.utilEstUnchanged, c.want, c.flag)
		}
	}
	for gen, want := range map[string]bool{"6.1": false, "6.12": true, "tip-2026-09": true} {
		s := simOf(t, `{"schedplay":1,"machine":{"preset":"hikey960"},"policy":{"preset":"misfit","generation":"`+gen+`"},
			"workload":{"groups":[{"name":"w","count":1,"program":[{"compute":"1ms"}]}]},"run":{"duration":"10ms","seed":1}}`)
		if s.utilEstRun != want {
			t.Errorf("generation %s: util_est_update()'s runnable check %v, want %v", gen, s.utilEstRun, want)
		}
	}
}

// update_pick_idlest() (6.12): a lower group type wins; of equal types,
// overloaded and fully busy by average load, misfit by the higher maximum
// capacity, has-spare by more idle CPUs and then by less util; asym
// packing never replaces the idlest.
func TestUpdatePickIdlest(t *testing.T) {
	for _, c := range []struct {
		name        string
		idlest, sgs sgStats
		want        bool
	}{
		{"a lower type", sgStats{groupType: groupFullyBusy}, sgStats{groupType: groupHasSpare}, true},
		{"a higher type", sgStats{groupType: groupHasSpare}, sgStats{groupType: groupFullyBusy}, false},
		{"overloaded, less load", sgStats{groupType: groupOverloaded, avgLoad: 900}, sgStats{groupType: groupOverloaded, avgLoad: 800}, true},
		{"fully busy, more load", sgStats{groupType: groupFullyBusy, avgLoad: 800}, sgStats{groupType: groupFullyBusy, avgLoad: 900}, false},
		{"misfit, a bigger CPU", sgStats{groupType: groupMisfitTask, maxCap: 462}, sgStats{groupType: groupMisfitTask, maxCap: 1024}, true},
		{"misfit, a smaller CPU", sgStats{groupType: groupMisfitTask, maxCap: 1024}, sgStats{groupType: groupMisfitTask, maxCap: 462}, false},
		{"asym packing", sgStats{groupType: groupAsymPacking}, sgStats{groupType: groupAsymPacking}, false},
		{"spare, more idle CPUs", sgStats{groupType: groupHasSpare, idleCPUs: 1}, sgStats{groupType: groupHasSpare, idleCPUs: 2, groupUtil: 900}, true},
		{"spare, fewer idle CPUs", sgStats{groupType: groupHasSpare, idleCPUs: 2}, sgStats{groupType: groupHasSpare, idleCPUs: 1}, false},
		{"spare, as many idle, less util", sgStats{groupType: groupHasSpare, idleCPUs: 2, groupUtil: 500}, sgStats{groupType: groupHasSpare, idleCPUs: 2, groupUtil: 400}, true},
		{"spare, as many idle, as much util", sgStats{groupType: groupHasSpare, idleCPUs: 2, groupUtil: 400}, sgStats{groupType: groupHasSpare, idleCPUs: 2, groupUtil: 400}, false},
	} {
		if got := updatePickIdlest(&c.idlest, &c.sgs); got != c.want {
			t.Errorf("%s: %v; want %v", c.name, got, c.want)
		}
	}
}

// sched_balance_find_dst_group_cpu() (6.12), with WFI only (every idle CPU
// in the same state): the idle CPU that went idle last, else the least
// loaded CPU.
func TestFindDstGroupCPU(t *testing.T) {
	s := taskSim(t, 1)
	p := s.tasks[0]
	g := &topo.Group{Span: s.t.Domains[0][0].Span, Weight: 4} // cpus 0-3
	for i, st := range []int64{300, 700, 100, 500} {
		s.cpus[i].idleStamp = st
	}
	if got := s.schedBalanceFindDstGroupCPU(g, p, 0); got != 1 {
		t.Errorf("four idle CPUs, idle since 300, 700, 100, 500: cpu %d; want 1, the last to go idle", got)
	}
	s.busy(0, 1, 2, 3)
	for i, l := range []uint64{900, 300, 600, 800} {
		s.cpus[i].avg.loadAvg = l
	}
	if got := s.schedBalanceFindDstGroupCPU(g, p, 0); got != 1 {
		t.Errorf("four busy CPUs, load 900, 300, 600, 800: cpu %d; want 1, the least loaded", got)
	}
}

// cfsSim is taskSim's 4-CPU machine under 6.1's CFS (sched_latency 18 ms,
// min_granularity 2.25 ms, wake-up granularity 3 ms) with n tasks queued
// on cpu 0 and one of them picked.
func cfsSim(t *testing.T, n int) (*sim, *cpuState) {
	t.Helper()
	s := taskSimPolicy(t, n+1, `{"generation":"6.1"}`)
	c0 := &s.cpus[0]
	for k := range n {
		place(s, k, 0)
	}
	s.schedule(c0)
	return s, c0
}

// check_preempt_tick() (6.1): past its sched_slice() curr is preempted;
// before sysctl_sched_min_granularity it is not, however far its vruntime
// runs ahead of the leftmost; after it, once that lead exceeds the slice.
func TestCFSTickMinGranularity(t *testing.T) {
	s, c0 := cfsSim(t, 2)
	curr := c0.curr
	left := leftmostCFS(c0)
	ideal := s.schedSlice(c0, curr, true)
	curr.vruntime = left.vruntime + ideal + 1_000_000
	for _, c := range []struct {
		ran  int64
		want bool
	}{{s.cfsMinGran - 1, false}, {s.cfsMinGran + 1, true}, {ideal + 1, true}} {
		curr.prevSumExec, curr.sumExec = 0, c.ran
		if got := s.checkPreemptTick(c0); got != c.want {
			t.Errorf("ran %d ns (min_granularity %d, slice %d), %d ns of vruntime ahead: preempt %v; want %v",
				c.ran, s.cfsMinGran, ideal, curr.vruntime-left.vruntime, got, c.want)
		}
	}
}

// check_preempt_wakeup() (6.1): a wakee that preempts becomes the next
// buddy, and with sched_nr_latency (8) tasks or more queued the preempted
// curr becomes the last buddy (LAST_BUDDY), picked again after the wakee.
func TestCFSWakeupSetsLastBuddy(t *testing.T) {
	for _, c := range []struct {
		n    int
		last bool
	}{{3, false}, {cfsNrLatency, true}} {
		s, c0 := cfsSim(t, c.n)
		curr := c0.curr
		p := s.tasks[c.n]
		p.vruntime = curr.vruntime - 10*s.cfsWakeupGran // far behind: it preempts
		if !s.checkPreemptWakeupCFS(c0, p) {
			t.Fatalf("%d queued: the wakee did not preempt", c.n)
		}
		if c0.nextBuddy != p || (c0.lastBuddy == curr) != c.last {
			t.Errorf("%d queued: next buddy the wakee %v, last buddy curr %v; want true, %v", c.n, c0.nextBuddy == p, c0.lastBuddy == curr, c.last)
		}
	}
}

// nohz_balancer_kick() (6.12) asks the ILB for a balance pass when this
// CPU runs two tasks or more; under SD_ASYM_CPUCAPACITY only for a misfit
// task, the LLC's busy count not consulted; otherwise when more than one
// CPU of the LLC is busy.
func TestNohzKickReason(t *testing.T) {
	s := taskSim(t, 2)
	c0 := &s.cpus[0]
	place(s, 0, 0)
	s.schedule(c0)
	llc := &s.llcs[s.t.SDLLCID[0]]
	llc.nrBusyCPUs = 1
	if got := s.nohzKickReason(c0); got != "" {
		t.Errorf("one task, one busy CPU in the LLC: kick %q; want none", got)
	}
	llc.nrBusyCPUs = 2
	if got := s.nohzKickReason(c0); got != "nr_busy_cpus > 1" {
		t.Errorf("one task, two busy CPUs in the LLC: kick %q; want nr_busy_cpus > 1", got)
	}
	llc.nrBusyCPUs = 1
	place(s, 1, 0)
	if got := s.nohzKickReason(c0); got != "nr_running >= 2" {
		t.Errorf("two tasks: kick %q; want nr_running >= 2", got)
	}

	h := simOf(t, `{"schedplay":1,"machine":{"preset":"hikey960"},"policy":{"preset":"misfit"},
		"workload":{"groups":[{"name":"w","count":1,"program":[{"compute":"1s"}]}]},"run":{"duration":"10s","seed":1}}`)
	hc := &h.cpus[0]
	place(h, 0, 0)
	h.schedule(hc)
	for i := range h.llcs {
		h.llcs[i].nrBusyCPUs = 4
	}
	if got := h.nohzKickReason(hc); got != "" {
		t.Errorf("asym capacity, no misfit, a busy LLC: kick %q; want none", got)
	}
	hc.misfitLoad = 1
	if got := h.nohzKickReason(hc); got != "misfit" {
		t.Errorf("asym capacity, a misfit task: kick %q; want misfit", got)
	}
}

// get_sd_balance_interval() (6.12): balance_interval in ms, times
// busy_factor on a busy CPU, in jiffies, one less when busy (so the
// levels' periods are not multiples of each other).
func TestSdBalanceInterval(t *testing.T) {
	s := taskSim(t, 1) // HZ 250: a jiffy is 4 ms
	sd := s.t.Domains[0][0]
	st := &s.cpus[0].sd[0]
	if st.balanceInterval != 4 || sd.BusyFactor != 16 {
		t.Fatalf("set-up: the 4-CPU MC domain's balance_interval %d ms, busy_factor %d; want 4 (its weight) and 16", st.balanceInterval, sd.BusyFactor)
	}
	if idle, busy := s.getSdBalanceInterval(sd, st, false), s.getSdBalanceInterval(sd, st, true); idle != 1 || busy != 15 {
		t.Errorf("%d jiffies idle, %d busy; want 1 (4 ms) and 15 (64 ms, less one)", idle, busy)
	}
}

// msecs_to_jiffies() rounds ms·HZ/1000 up; at HZ=300 10 ms is 3 jiffies
// (a tick of 3,333,333 ns would make it 4), 80 ms 24.
func TestMsecsToJiffies(t *testing.T) {
	for _, tc := range []struct{ hz, ms, want int }{{300, 10, 3}, {300, 80, 24}, {250, 10, 3}, {250, 8, 2}, {1000, 1, 1}, {100, 15, 2}} {
		s := taskSimPolicy(t, 1, `{"hz":`+itoa(tc.hz)+`}`)
		if got := s.msecsToJiffies(tc.ms); got != int64(tc.want) {
			t.Errorf("HZ=%d: msecs_to_jiffies(%d) = %d; want %d", tc.hz, tc.ms, got, tc.want)
		}
	}
}

package sim

import (
	"strconv"
	"testing"
)

// The fair class of the measured tip (VPROT, WAKEUP_PREEMPT_ACTION,
// LAG_CLAMP_MAX_SLICE) against 6.12's, each test one mechanism that the
// other form does not have.

// eevdfForm is a policy document with the three tip forms on or off.
func eevdfForm(vprot, action, lag bool) string {
	return `{"features":{"VPROT":` + strconv.FormatBool(vprot) +
		`,"WAKEUP_PREEMPT_ACTION":` + strconv.FormatBool(action) +
		`,"LAG_CLAMP_MAX_SLICE":` + strconv.FormatBool(lag) + `}}`
}

// runningForm is runningPolicy() with two tasks on cpu 0: it also returns
// the queued one.
func runningForm(t *testing.T, policy string, v, d int64) (*sim, *cpuState, *task, *task) {
	t.Helper()
	s, c0, curr := runningPolicy(t, policy, 2, 2, v, d)
	return s, c0, curr, c0.rq[0]
}

// update_curr() (0b9ca2dcabc3, 6.17): "if (resched || !protect_slice(curr))
// resched_curr_lazy()": once the protection is over a still eligible curr
// is rescheduled at every update, where 6.12 (did_preempt_short()) waits
// for its deadline unless it is ineligible. Protected, neither form
// reschedules.
func TestVProtReschedsAtEndOfProtection(t *testing.T) {
	for _, c := range []struct {
		vprot, over, want bool
	}{{true, true, true}, {false, true, false}, {true, false, false}, {false, false, false}} {
		s, c0, curr, q := runningForm(t, eevdfForm(c.vprot, true, true), 5_000_000, 8_000_000)
		q.vruntime, q.deadline = 7_000_000, 9_000_000
		if c.over { // re-picked after a renewal: no new protection
			curr.protected, curr.vprot = false, curr.vruntime
		}
		s.now += 100_000
		s.syncCPU(c0)
		if !vruntimeEligible(c0, curr.vruntime+100_000) {
			t.Fatal("set-up: curr not eligible")
		}
		if got := s.updateCurr(c0); got != c.want {
			t.Errorf("VPROT %v, protection over %v: update_curr() of an eligible curr before its deadline: resched %v; want %v",
				c.vprot, c.over, got, c.want)
		}
	}
}

// wakeup_preempt_fair() (e837456fdca8, as of 7.3): "if ((wake_flags &
// WF_FORK) || pse->sched_delayed) return;" before the pick: a new child
// with its half-slice deadline does not preempt the parent's CPU, where
// 6.17 and 6.12 let pick_eevdf() choose it. A plain wake-up to the same
// place preempts in every form.
func TestWakeupPreemptActionForkDoesNotPreempt(t *testing.T) {
	for _, c := range []struct {
		vprot, action, fork, want bool
	}{
		{true, true, true, false},
		{true, false, true, true},
		{false, false, true, true},
		{true, true, false, true},
	} {
		// curr protected (so update_curr() asks for nothing) but past V,
		// so that pick_eevdf() drops it for the eligible wakee
		s, c0, _, q := runningForm(t, eevdfForm(c.vprot, c.action, true), 2_000_000, 5_000_000)
		q.vruntime, q.deadline = 0, 1_000_000
		s.now += 10_000
		if got := s.checkPreemptWakeupFair(c0, q, c.fork); got != c.want {
			t.Errorf("VPROT %v, WAKEUP_PREEMPT_ACTION %v, WF_FORK %v: preempt %v; want %v", c.vprot, c.action, c.fork, got, c.want)
		}
	}
}

// wakeup_preempt_fair(): a delayed entity (attach_task() of a migrated
// delayed task) never preempts: "it would violate EEVDF to forcibly queue
// an ineligible task".
func TestWakeupPreemptActionDelayedDoesNotPreempt(t *testing.T) {
	for _, action := range []bool{true, false} {
		s, c0, _, q := runningForm(t, eevdfForm(true, action, true), 2_000_000, 5_000_000)
		q.vruntime, q.deadline = 0, 1_000_000
		q.delayed = true
		s.now += 10_000
		if got := s.checkPreemptWakeupFair(c0, q, false); got == action {
			t.Errorf("WAKEUP_PREEMPT_ACTION %v: a delayed wakee with the earlier deadline: preempt %v; want %v", action, got, !action)
		}
	}
}

// wakeup_preempt_fair() under RUN_TO_PARITY: a wake-up that does not
// preempt caps curr's protection at the shortest queued slice
// (update_protect_slice()); 6.17 did so only after a shorter-slice wakee.
func TestWakeupPreemptActionUpdatesProtection(t *testing.T) {
	for _, action := range []bool{true, false} {
		s, c0, curr := runningPolicy(t, eevdfForm(true, action, true), 3, 2, 0, 3_000_000)
		q := c0.rq[0]
		q.slice = curr.slice / 4                      // a shorter slice queued: the cap
		q.vruntime, q.deadline = 5_000_000, 6_000_000 // not eligible, not the wakee
		p := s.tasks[2]                               // the wakee: equal slice, not eligible
		p.cpu, p.remaining, p.vlag = 0, 1e12, -4_000_000
		s.now += 10_000
		s.enqueueTask(c0, p, false, false)
		if s.checkPreemptWakeupFair(c0, p, false) {
			t.Fatalf("WAKEUP_PREEMPT_ACTION %v: set-up: the wakee preempts", action)
		}
		want := int64(3_000_000)
		if action {
			want = curr.vruntime + calcDeltaFair(q.slice, curr.weight)
		}
		if curr.vprot != want {
			t.Errorf("WAKEUP_PREEMPT_ACTION %v: vprot %d after a wake-up that does not preempt; want %d", action, curr.vprot, want)
		}
	}
}

// set_protect_slice() (052c3d87c82e): under RUN_TO_PARITY the protection
// ends after the shortest queued slice when that is shorter than the
// picked entity's; under NO_RUN_TO_PARITY after the base slice
// (normalized_sysctl_sched_base_slice, 700 µs); else at the deadline.
func TestSetProtectSliceShortestSlice(t *testing.T) {
	for _, c := range []struct {
		name, feat string
		qslice     func(int64) int64
		want       func(p *task, qs int64) int64
	}{
		{"run to parity, equal slices", `{}`, func(s int64) int64 { return s },
			func(p *task, _ int64) int64 { return p.deadline }},
		{"run to parity, a quarter slice queued", `{}`, func(s int64) int64 { return s / 4 },
			func(p *task, qs int64) int64 { return p.vruntime + calcDeltaFair(qs, p.weight) }},
		{"no run to parity", `{"RUN_TO_PARITY":false}`, func(s int64) int64 { return s },
			func(p *task, _ int64) int64 { return p.vruntime + 700_000 }},
	} {
		s := taskSimPolicy(t, 2, `{"features":`+c.feat+`}`)
		c0 := &s.cpus[0]
		a := place(s, 0, 0)
		b := place(s, 1, 0)
		b.slice = c.qslice(a.slice)
		c0.rqRemove(a) // set_next_entity(): a leaves the tree
		c0.nrRunning++
		c0.loadWeight += a.weight
		s.setProtectSlice(c0, a)
		if want := c.want(a, b.slice); a.vprot != want {
			t.Errorf("%s: vprot %d (vruntime %d, deadline %d); want %d", c.name, a.vprot, a.vruntime, a.deadline, want)
		}
	}
}

// update_entity_lag() after 6e3c0a4e1ad1: the limit is the queue's
// largest slice plus a tick, in the entity's virtual time, so a task with
// a short slice next to a long one keeps more lag than 6.12's ±max(2 ×
// its own slice, a tick).
func TestLagClampMaxSlice(t *testing.T) {
	for _, on := range []bool{true, false} {
		s := taskSimPolicy(t, 2, `{"hz":1000,"features":{"LAG_CLAMP_MAX_SLICE":`+strconv.FormatBool(on)+`}}`)
		c0 := &s.cpus[0]
		a := place(s, 0, 0)
		b := place(s, 1, 0)
		b.slice = 3 * a.slice
		want := max(2*a.slice, s.tickNs)
		if on {
			want = b.slice + s.tickNs
		}
		V := avgVruntime(c0)
		a.vruntime = V - 100_000_000
		s.updateEntityLag(c0, a)
		if a.vlag != want {
			t.Errorf("LAG_CLAMP_MAX_SLICE %v: slices %d and %d at HZ=1000: vlag %d; want %d", on, a.slice, b.slice, a.vlag, want)
		}
	}
}

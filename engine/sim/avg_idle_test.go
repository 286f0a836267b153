package sim

import (
	"strconv"
	"testing"
)

// rq->avg_idle's sample, in the two forms the generations carry. 6.12
// takes it in ttwu_do_activate(), so a CPU that leaves idle for a task
// that came another way (here a balance pull: attach_task() and a
// resched) keeps its idle_stamp, and the next wake-up onto it, busy by
// then, counts the busy time as idle. 4b603f1551a7 (Linux 7.0,
// AVG_IDLE_AT_IDLE_EXIT) takes it in put_prev_task_idle(): at the switch
// away from the idle task, whatever brought the task, and a wake-up onto
// a busy CPU takes none; c6dcd97c8be7 keeps the guard that a CPU with no
// idle_stamp takes no sample.
func TestAvgIdleAtIdleExit(t *testing.T) {
	const (
		idleFor = 200_000   // ns idle before the pull
		busyFor = 3_000_000 // ns busy before the wake-up
	)
	for _, at := range []bool{false, true} {
		name := "6.12 ttwu_do_activate"
		if at {
			name = "7.0 put_prev_task_idle"
		}
		t.Run(name, func(t *testing.T) {
			s := taskSimPolicy(t, 3, `{"features":{"AVG_IDLE_AT_IDLE_EXIT":`+strconv.FormatBool(at)+`}}`)
			c := &s.cpus[1]
			s.now = 10_000_000
			if !c.inIdle || c.curr != nil {
				t.Fatal("cpu 1 is not idle at the start")
			}
			avg0 := c.sd[0].maxNewidleLBCost + 100_000 // below the cap, off every sample below
			c.avgIdle = avg0
			c.idleStamp = s.now // sched_balance_newidle() found nothing and stamped it
			s.now += idleFor
			p := place(s, 0, 1) // attach_task() from a balance pass: no ttwu_do_activate()
			s.schedule(c)
			if c.curr != p {
				t.Fatal("cpu 1 did not switch to the pulled task")
			}
			pulled := avg0 + (idleFor-avg0)/8
			if at {
				if c.avgIdle != pulled || c.idleStamp != 0 {
					t.Errorf("after the switch from idle: avg_idle %d, idle_stamp %d; want update_rq_avg_idle() → %d and 0", c.avgIdle, c.idleStamp, pulled)
				}
			} else if c.avgIdle != avg0 || c.idleStamp == 0 {
				t.Errorf("after the switch from idle: avg_idle %d, idle_stamp %d; want 6.12's untouched %d and the stamp kept", c.avgIdle, c.idleStamp, avg0)
			}

			// A wake-up onto the busy CPU.
			s.now += busyFor
			q := s.tasks[1]
			q.cpu, q.state = 1, taskBlocked
			before := c.avgIdle
			s.ttwuDoActivate(q, c, 1, 0)
			if at {
				if c.avgIdle != before {
					t.Errorf("a wake-up onto a busy CPU moved avg_idle %d → %d; want no sample (the CPU never left idle)", before, c.avgIdle)
				}
				return
			}
			stale := avg0 + (idleFor+busyFor-avg0)/8
			if max := 2 * c.maxIdleBalanceCost; stale > max {
				stale = max
			}
			if c.avgIdle != stale || c.idleStamp != 0 {
				t.Errorf("6.12 wake-up onto the busy CPU: avg_idle %d, idle_stamp %d; want the stale stamp's sample %d (busy time counted) and 0", c.avgIdle, c.idleStamp, stale)
			}
		})
	}
}

// Without an idle_stamp (sched_balance_newidle() returned at
// ttwu_pending before stamping) the switch from idle takes no sample:
// c6dcd97c8be7's guard, in 7.3-rc2, which 4b603f1551a7 had dropped.
func TestAvgIdleAtIdleExitNeedsAStamp(t *testing.T) {
	s := taskSimPolicy(t, 1, `{"features":{"AVG_IDLE_AT_IDLE_EXIT":true}}`)
	c := &s.cpus[2]
	s.now = 50_000_000
	c.avgIdle = 123_456
	c.idleStamp = 0
	place(s, 0, 2)
	s.schedule(c)
	if c.avgIdle != 123_456 {
		t.Errorf("switch from idle with no idle_stamp moved avg_idle to %d; want it left at 123456", c.avgIdle)
	}
}

// Under AVG_IDLE_AT_IDLE_EXIT ttwu_do_activate() takes no sample: an idle
// CPU given a wakee by a remote waker (its resched reaches it later)
// samples at its switch, from the same idle_stamp; 6.12 samples at the
// activation.
func TestAvgIdleWakeUpSamplesAtTheSwitch(t *testing.T) {
	for _, at := range []bool{false, true} {
		s := taskSimPolicy(t, 2, `{"features":{"AVG_IDLE_AT_IDLE_EXIT":`+strconv.FormatBool(at)+`}}`)
		c := &s.cpus[3]
		s.now = 20_000_000
		c.avgIdle = 400_000
		c.idleStamp = s.now
		s.now += 50_000
		q := s.tasks[1]
		q.cpu, q.state = 3, taskBlocked
		s.ttwuDoActivate(q, c, 0, 2_000) // woken from CPU 0: the resched IPI lands 2 µs later
		sampled := int64(400_000) + (50_000-400_000)/8
		if at {
			if c.avgIdle != 400_000 || c.idleStamp == 0 {
				t.Errorf("7.0, at the activation: avg_idle %d, idle_stamp %d; want no sample yet (400000, the stamp kept)", c.avgIdle, c.idleStamp)
			}
			s.now += 2_000
			s.schedule(c)
			if want := int64(400_000) + (52_000-400_000)/8; c.avgIdle != want {
				t.Errorf("7.0, at the switch: avg_idle %d; want %d", c.avgIdle, want)
			}
		} else if c.avgIdle != sampled {
			t.Errorf("6.12, at the activation: avg_idle %d; want %d", c.avgIdle, sampled)
		}
	}
}

package sim

// RT throttling as 6.1 has it without CONFIG_RT_GROUP_SCHED
// (kernel/sched/rt.c, policy.features.RT_THROTTLING; the generation 6.1
// sets it): def_rt_bandwidth lets each CPU's RT tasks run
// sched_rt_runtime_us (950 ms) of every sched_rt_period_us (1 s).
// update_curr_rt() adds the RT curr's time to the CPU's rt_time, and once
// it exceeds the runtime the CPU's RT class is throttled: dequeued from
// the rq (dequeue_top_rt_rq()), so its tasks stay queued but are not
// picked, and fair tasks (or the idle task) run. One period timer for all
// CPUs (sched_rt_period_timer()), started by the first RT enqueue while it
// is inactive and firing every second from there, pays each CPU back a
// runtime's worth (rt_time −= 950 ms) and unthrottles a CPU whose rt_time
// fell below the runtime (sched_rt_rq_enqueue(), which reschedules it).
// RT_RUNTIME_SHARE, which let a throttled CPU borrow other CPUs' unused
// runtime, is off by default since 5.10 (features.h), and so here.

const (
	rtRuntime = 950_000_000   // sysctl_sched_rt_runtime: 950000 µs
	rtPeriod  = 1_000_000_000 // sysctl_sched_rt_period: 1000000 µs
)

// rtPeriodTimer is the id of def_rt_bandwidth.rt_period_timer in the event
// queue's timers.
func (s *sim) rtPeriodTimer() int { return 2*len(s.cpus) + s.t.TotalCores }

// updateCurrRT is update_curr_rt(): the RT curr's time since its
// exec_start goes to c's rt_time; a CPU over its runtime is throttled
// (sched_rt_runtime_exceeded()), reschedules, and starts the period timer
// if it is not running (do_start_rt_bandwidth()).
func (s *sim) updateCurrRT(c *cpuState) {
	p := c.curr
	if !p.isRT() {
		return
	}
	delta := s.now - p.execStart
	if delta <= 0 {
		return
	}
	p.execStart = s.now
	if !s.rtThrottling {
		return
	}
	c.rtTime += delta
	if s.schedRTRuntimeExceeded(c) {
		s.reschedCurr(c.id, c.id) // resched_curr(rq), on c itself
		s.startRTBandwidth(c.id)
	}
}

// schedRTRuntimeExceeded is sched_rt_runtime_exceeded() without
// RT_RUNTIME_SHARE: rt_time over the runtime throttles c's RT class
// (sched_rt_rq_dequeue()).
func (s *sim) schedRTRuntimeExceeded(c *cpuState) bool {
	if c.rtThrottled {
		return true
	}
	if c.rtTime > rtRuntime {
		c.rtThrottled, c.rtThrottledAt = true, s.now
		s.cpuChanged(c)
		return true
	}
	return false
}

// startRTBandwidth is start_rt_bandwidth() → do_start_rt_bandwidth(), from
// the RT enqueue on CPU cpu (inc_rt_group()) or a throttle: an inactive
// period timer is started to fire at once (hrtimer_forward_now() by 0),
// which begins the periods from now.
func (s *sim) startRTBandwidth(cpu int) {
	if !s.rtThrottling || s.rtPeriodActive {
		return
	}
	s.rtPeriodActive = true
	s.rtPeriodCPU = cpu
	s.q.arm(s.rtPeriodTimer(), event{at: s.now, kind: evRTPeriod})
}

// schedRTPeriodTimer is sched_rt_period_timer() → do_sched_rt_period_timer()
// with one period elapsed: every CPU with RT time or RT tasks is paid back
// a runtime; a throttled one whose rt_time is now below the runtime is
// unthrottled, and a CPU with RT tasks and no throttle re-enqueued, both
// through sched_rt_rq_enqueue(), which reschedules it. The timer runs on
// while any CPU has RT time or tasks; otherwise it stops
// (rt_period_active = 0) until the next RT enqueue.
func (s *sim) schedRTPeriodTimer() {
	idle := true
	for i := range s.cpus {
		c := &s.cpus[i]
		if c.rtTime == 0 && c.rtNr == 0 {
			continue
		}
		enqueue := false
		if c.rtTime > 0 {
			c.rtTime -= min(c.rtTime, rtRuntime)
			if c.rtThrottled && c.rtTime < rtRuntime {
				c.rtThrottled = false
				s.span(&s.m.rtThrottledNs, c.rtThrottledAt, s.now)
				s.cpuChanged(c)
				enqueue = true
				s.addNrRunning(c, c.rtNr) // enqueue_top_rt_rq() → add_nr_running(rq, rt_nr_running)
			}
			if c.rtTime > 0 || c.rtNr > 0 {
				idle = false
			}
		} else if c.rtNr > 0 {
			idle = false
			if !c.rtThrottled {
				enqueue = true
			}
		}
		if enqueue && c.rtNr > 0 {
			s.reschedCurr(c.id, s.rtPeriodCPU) // sched_rt_rq_enqueue() → resched_curr()
		}
	}
	if idle {
		s.rtPeriodActive = false
		return
	}
	s.q.arm(s.rtPeriodTimer(), event{at: s.now + rtPeriod, kind: evRTPeriod})
}

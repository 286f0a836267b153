package sim

// The fair deadline server (kernel/sched/deadline.c, rq->fair_server;
// Linux 6.12 and later, policy.features.FAIR_SERVER): per CPU a
// SCHED_DEADLINE entity of 50 ms every 1 s whose "task" is the fair class.
// It is deferred (dl_defer): started at the first fair enqueue on a CPU
// with none, it waits throttled until the zero-laxity point of its period
// (deadline − runtime), and the time the fair class runs on its own
// (dl_server_update()) and the CPU idles (dl_server_update_idle_time(), or
// update_curr_idle() under DL_SERVER_IDLE) counts against its runtime; a
// period whose 50 ms were used that way starts over. So on a CPU whose fair
// tasks run, or that idles, its timer never gets to run it. When RT tasks
// starve the fair ones, the timer fires: the server is queued (above the RT
// class), runs fair tasks for its 50 ms, throttles until its next period,
// and runs them again at its start, until it finds no fair task
// (pick_task_dl() → dl_server_stop()). The states are those deadline.c
// draws: A init, B zero-laxity wait, C idle wait (DL_SERVER_IDLE only), D
// running (queued), E replenish wait. Neither the timer nor the server's
// bookkeeping costs CPU time.

const (
	fairServerRuntime = 50_000_000    // dl_server_start(), sched_init_dl_servers(): 50 ms
	fairServerPeriod  = 1_000_000_000 // every 1 s, the relative deadline too (implicit)
	dlServerMinRes    = 1_000_000     // dl_server_min_res: the least forward of the defer timer
	dlScale           = 10            // DL_SCALE
	bwShift           = 20            // BW_SHIFT
	// fairServerDensity is dl_density = to_ratio(dl_deadline, dl_runtime).
	fairServerDensity = (fairServerRuntime << bwShift) / fairServerPeriod
)

// fairServer is rq->fair_server's sched_dl_entity.
type fairServer struct {
	init         bool  // dl_server: set up by the first dl_server_start()
	active       bool  // dl_server_active
	queued       bool  // on the dl_rq (state D): picked before the RT class
	throttled    bool  // dl_throttled
	armed        bool  // dl_defer_armed: the timer is the zero-laxity one
	deferRunning bool  // dl_defer_running: starvation seen, no more deferral
	deferIdle    bool  // dl_defer_idle (DL_SERVER_IDLE): idle time used the runtime up
	serving      bool  // rq->dl_server: curr was picked by the server
	timerQueued  bool  // hrtimer_is_queued(&dl_timer)
	timerAt      int64 // its expiry, when queued
	// armedAt is when the event queue's dl_timer event fires (0: none).
	// A timer cancelled and restarted later (every new deferred period)
	// leaves the event where it is, and the event re-arms itself for
	// timerAt when it fires early (dlServerTimerEvent): the kernel's
	// cancel and restart cost the engine nothing until then.
	armedAt   int64
	runtime   int64
	deadline  int64
	idleStart int64 // rq->idle->se.exec_start: the idle time accounted up to here
}

// dlTimer is the id of cpu's dl_timer in the event queue's timers.
func (s *sim) dlTimer(cpu int) int { return len(s.cpus) + s.t.TotalCores + cpu }

// fairClassStarts is enqueue_task_fair()'s block for c's fair class going
// from no task to one (rq->cfs.h_nr_queued leaves 0): 6.12.118 first
// accounts the idle time of a CPU that had no task at all (idleRq, "Account
// for idle runtime"), then the server starts.
func (s *sim) fairClassStarts(c *cpuState, idleRq bool) {
	if !s.fairServer {
		return
	}
	if idleRq && !s.dlServerIdle {
		s.dlServerUpdateIdleTime(c)
	}
	s.dlServerStart(c)
}

// dlServerStart is dl_server_start() from enqueue_task_fair() when c's
// fair class goes from no task to one: the first call sets the server up
// (setup_new_dl_entity()); an inactive server is enqueued as a wake-up,
// which starts a period unless the current one can still be used, and
// resched_curr() follows. Only an RT curr needs it here: an idle curr is
// rescheduled by the wake-up itself, and a fair one cannot be curr.
func (s *sim) dlServerStart(c *cpuState) {
	fs := &c.fs
	if s.dlServerIdle {
		fs.deferIdle = false
	}
	if !fs.init {
		fs.init = true
		s.replenishDLNewPeriod(c) // setup_new_dl_entity(), at boot for the tip (the period is long over by now)
	}
	if fs.active {
		return
	}
	if s.dlServerIdle && c.inIdle {
		s.updateCurrIdle(c) // the tip updates curr to now first (rq->donor's update_curr())
	}
	fs.active = true
	s.enqueueDLEntity(c, false)
	if c.curr.isRT() {
		s.dlServerResched(c)
	}
}

// dlServerStop is dl_server_stop(): the server leaves the dl_rq, its timer
// is cancelled and it is inactive (state A) until the next fair enqueue on
// an empty class.
func (s *sim) dlServerStop(c *cpuState) {
	fs := &c.fs
	fs.queued = false
	s.cancelDLTimer(c)
	fs.armed = false
	fs.throttled = false
	fs.active = false
	fs.deferIdle = false
}

// dlServerResched is the server's resched_curr() of c from c itself (its
// timer's interrupt, or update_curr() there): an idle c leaves its idle
// state first.
func (s *sim) dlServerResched(c *cpuState) {
	if c.needResched {
		return
	}
	s.needReschedAt(c, s.now+s.idleExitCost(c))
}

// enqueueDLEntity is enqueue_dl_entity() of the server, as a wake-up
// (update_dl_entity()) or a replenishment (replenish_dl_entity()): still
// throttled with its timer started it waits (B or E); otherwise it is
// queued (D).
func (s *sim) enqueueDLEntity(c *cpuState, replenish bool) {
	fs := &c.fs
	if replenish {
		s.replenishDLEntity(c)
	} else {
		s.updateDLEntity(c)
	}
	if fs.throttled && s.startDLTimer(c) {
		return
	}
	if fs.throttled {
		s.cancelDLTimer(c)
		fs.armed = false
		fs.throttled = false
	}
	fs.queued = true
}

// updateDLEntity is update_dl_entity(): a deadline that has passed, or a
// runtime that would overflow the server's bandwidth by the deadline,
// starts a new period (deferred, unless the server is handling a
// starvation, where the revised wake-up rule shortens its runtime
// instead); otherwise the current one is kept, and a server not running
// for a starvation waits for its zero-laxity point again.
func (s *sim) updateDLEntity(c *cpuState) {
	fs := &c.fs
	passed := fs.deadline < s.now
	if passed || s.dlEntityOverflow(c) {
		if fs.deferRunning && !passed {
			fs.runtime = fairServerDensity * (fs.deadline - s.now) >> bwShift // update_dl_revised_wakeup()
			return
		}
		fs.deferRunning = false
		s.replenishDLNewPeriod(c)
	} else if !fs.deferRunning {
		fs.armed = true
		fs.throttled = true
	}
}

// replenishDLNewPeriod is replenish_dl_new_period(): a full runtime and a
// deadline a period away; a deferred server not handling a starvation
// waits for its zero-laxity point.
func (s *sim) replenishDLNewPeriod(c *cpuState) {
	fs := &c.fs
	fs.deadline = s.now + fairServerPeriod
	fs.runtime = fairServerRuntime
	if !fs.deferRunning {
		fs.throttled = true
		fs.armed = true
	}
}

// replenishDLEntity is replenish_dl_entity(): a deferred activation whose
// runtime would overflow starts a new period; the deadline moves a period
// at a time until there is runtime; an armed activation ends there (it
// runs), and an unarmed one not handling a starvation is deferred again
// while its zero-laxity point is ahead.
func (s *sim) replenishDLEntity(c *cpuState) {
	fs := &c.fs
	if fs.armed && s.dlEntityOverflow(c) {
		fs.deadline = s.now + fairServerPeriod
		fs.runtime = fairServerRuntime
	}
	for fs.runtime <= 0 {
		fs.deadline += fairServerPeriod
		fs.runtime += fairServerRuntime
	}
	if fs.deadline < s.now { // "DL replenish lagged too much"
		s.replenishDLNewPeriod(c)
	}
	fs.throttled = false
	if fs.armed {
		fs.armed = false
		return
	}
	if !fs.deferRunning && s.now < fs.deadline-fs.runtime {
		fs.armed = true
		fs.throttled = true
		if !s.startDLTimer(c) {
			s.cancelDLTimer(c)
			fs.armed = false
			fs.throttled = false
		}
	}
}

// dlEntityOverflow is dl_entity_overflow() at now: runtime / (deadline −
// now) > dl_runtime / dl_deadline, compared at DL_SCALE as the kernel does.
func (s *sim) dlEntityOverflow(c *cpuState) bool {
	fs := &c.fs
	left := (fairServerPeriod >> dlScale) * (fs.runtime >> dlScale)
	right := ((fs.deadline - s.now) >> dlScale) * (fairServerRuntime >> dlScale)
	return right < left
}

// startDLTimer is start_dl_timer(): the zero-laxity point (deadline −
// runtime) for an armed server, else the next period (the deadline, as it
// is implicit). An instant already passed (by a microsecond) starts
// nothing and reports false; a timer already queued is left where it is.
func (s *sim) startDLTimer(c *cpuState) bool {
	fs := &c.fs
	act := fs.deadline // dl_next_period()
	if fs.armed {
		act = fs.deadline - fs.runtime
	}
	if (act-s.now)/1000 < 0 { // ktime_us_delta(act, now) < 0
		return false
	}
	if !fs.timerQueued {
		s.setDLTimer(c, act)
	}
	return true
}

// setDLTimer queues c's dl_timer for at: the event is moved only when it
// would fire later than that.
func (s *sim) setDLTimer(c *cpuState, at int64) {
	fs := &c.fs
	fs.timerQueued, fs.timerAt = true, at
	if fs.armedAt == 0 || fs.armedAt > at {
		fs.armedAt = at
		s.q.arm(s.dlTimer(c.id), event{at: at, kind: evDLServer, a: int32(c.id)})
	}
}

// cancelDLTimer is hrtimer_try_to_cancel(&dl_timer). The event stays
// queued and finds nothing to do (dlServerTimerEvent).
func (s *sim) cancelDLTimer(c *cpuState) { c.fs.timerQueued = false }

// dlServerTimerEvent is c's dl_timer event: a cancelled timer does nothing,
// one restarted for later is re-armed there, and one due runs
// dl_server_timer().
func (s *sim) dlServerTimerEvent(c *cpuState) {
	fs := &c.fs
	fs.armedAt = 0
	if !fs.timerQueued {
		return
	}
	if s.now < fs.timerAt {
		s.setDLTimer(c, fs.timerAt)
		return
	}
	fs.timerQueued = false
	s.dlServerTimer(c)
}

// dlServerTimer is dl_server_timer(), the server's hrtimer firing on c.
// Under DL_SERVER_IDLE curr's time is accounted first, and a server whose
// runtime idle time used up stops (C → A). A deferred activation whose
// zero-laxity point moved later (the fair class ran in the meantime) moves
// the timer there, when that is at least dl_server_min_res away; otherwise
// the server runs for a starvation from here on (dl_defer_running): it is
// replenished, queued, and c reschedules (B → D, or E → D at a new period).
func (s *sim) dlServerTimer(c *cpuState) {
	fs := &c.fs
	if !fs.throttled {
		return
	}
	if s.dlServerIdle {
		s.dlServerUpdateCurr(c)
		if fs.deferIdle {
			s.dlServerStop(c)
			return
		}
	}
	if fs.armed {
		if s.now < fs.deadline-fs.runtime-dlServerMinRes {
			s.setDLTimer(c, fs.deadline-fs.runtime) // hrtimer_forward_now() by deadline − now − runtime
			return
		}
		fs.deferRunning = true
	}
	s.enqueueDLEntity(c, true)
	s.dlServerResched(c) // curr is never a deadline task
}

// dlServerUpdateCurr is rq->donor->sched_class->update_curr() in the tip's
// dl_server_timer(): the idle task's time, or the fair curr's (through
// dl_server_update()); an RT curr's time is none of the server's.
func (s *sim) dlServerUpdateCurr(c *cpuState) {
	switch {
	case c.inIdle:
		s.updateCurrIdle(c)
	case c.curr != nil && !c.curr.isRT():
		s.syncCPU(c)
		if s.updateCurr(c) && !s.reschedLazy(c) {
			s.dlServerResched(c)
		}
	}
}

// dlServerUpdate is dl_server_update() from update_curr() of a fair task
// that ran delta ns on c: it counts against the server's runtime, whether
// the task ran for the server or on its own.
func (s *sim) dlServerUpdate(c *cpuState, delta int64) {
	if c.fs.active {
		s.updateCurrDLSe(c, delta, false)
	}
}

// updateCurrDLSe is update_curr_dl_se() of the server, for delta ns of
// fair time on c, or idle time (idle, DL_SERVER_IDLE only). A throttled
// server that runs out starts a new period and waits for its zero-laxity
// point again (→ B; → C when idle time did it, where further idle time
// only clamps the runtime at 0); a queued one that runs out throttles
// until its next period (D → E) and c reschedules.
func (s *sim) updateCurrDLSe(c *cpuState, delta int64, idle bool) {
	fs := &c.fs
	if delta <= 0 {
		return
	}
	fs.runtime -= delta
	if fs.serving && !idle {
		s.span(&s.m.fairServerNs, s.now-delta, s.now) // a fair task ran for the server
	}
	if fs.deferIdle && !idle {
		fs.deferIdle = false
	}
	if fs.throttled && fs.runtime <= 0 {
		if fs.deferIdle && idle {
			fs.runtime = 0
			return
		}
		fs.deferRunning = false
		s.cancelDLTimer(c)
		s.replenishDLNewPeriod(c)
		if idle {
			fs.deferIdle = true
		}
		s.startDLTimer(c)
		return
	}
	if fs.runtime > 0 {
		return
	}
	fs.throttled = true
	fs.queued = false // dequeue_dl_entity()
	if !s.startDLTimer(c) {
		if s.dlServerIdle {
			s.replenishDLNewPeriod(c)
			s.startDLTimer(c)
		} else {
			s.enqueueDLEntity(c, true)
		}
	}
	if !fs.queued { // !is_leftmost()
		s.dlServerResched(c)
	}
}

// putPrevTaskIdle is the server's part of put_prev_task_idle(): c leaves
// its idle task, and the idle time since it started (or was last
// accounted) counts against the server's runtime.
func (s *sim) putPrevTaskIdle(c *cpuState) {
	if !s.fairServer {
		return
	}
	if s.dlServerIdle {
		s.updateCurrIdle(c)
		return
	}
	s.dlServerUpdateIdleTime(c)
}

// setNextTaskIdle is the server's part of set_next_task_idle(): the idle
// task's exec_start.
func (c *cpuState) setNextTaskIdle(now int64) { c.fs.idleStart = now }

// updateCurrIdle is update_curr_idle() (DL_SERVER_IDLE): the idle time
// since the last update goes to dl_server_update_idle(), which counts it
// for an active server only.
func (s *sim) updateCurrIdle(c *cpuState) {
	delta := s.now - c.fs.idleStart
	if delta <= 0 {
		return
	}
	c.fs.idleStart = s.now
	if c.fs.active {
		s.updateCurrDLSe(c, delta, true)
	}
}

// dlServerUpdateIdleTime is 6.12.118's dl_server_update_idle_time(), at
// idle exit and at the first fair enqueue on an idle CPU: the idle time
// since exec_start depletes the runtime (active or not), down to 0 at
// most, which also ends a starvation's dl_defer_running. Nothing else
// happens: the timer is where it was.
func (s *sim) dlServerUpdateIdleTime(c *cpuState) {
	fs := &c.fs
	if !fs.init || fs.runtime < 0 {
		return
	}
	delta := s.now - fs.idleStart
	if delta < 0 {
		return
	}
	fs.runtime -= delta
	if fs.runtime < 0 {
		fs.deferRunning = false
		fs.runtime = 0
	}
	fs.idleStart = s.now
}

// pickTaskDL is pick_task_dl() in __pick_next_task()'s class loop, taken
// when prev is of a class above fair (RT, the stopper) or an RT task is
// queued; the fast path of a CPU with fair tasks only goes straight to the
// fair class and never asks the server. A queued server picks the fair
// class's task (fair_server_pick_task()); finding none it stops.
func (s *sim) pickTaskDL(c *cpuState, prev *task, fast bool) *task {
	if !c.fs.queued || fast && !prev.isRT() && c.rtNr == 0 {
		return nil
	}
	next := s.pickNextEntity(c)
	if next == nil {
		s.dlServerStop(c)
	}
	return next
}

// describe names the server's state as deadline.c's diagram does.
func (fs *fairServer) describe() string {
	switch {
	case !fs.active:
		return "A: init"
	case fs.queued:
		return "D: running"
	case fs.throttled && fs.armed && fs.deferIdle:
		return "C: idle-wait"
	case fs.throttled && fs.armed:
		return "B: zero-laxity wait"
	case fs.throttled:
		return "E: replenish wait"
	}
	return "active"
}

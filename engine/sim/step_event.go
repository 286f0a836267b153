package sim

import (
	"fmt"

	"schedplay/engine/scenario"
)

// Event-by-event stepping (the UI's step mode): Next dispatches the next
// event that does something, and Detail extends Snapshot with the
// runqueues' EEVDF state, the LLCs' idle-core hints and the recorded
// decisions. Both only read the state Run builds, so a Stepper driven by
// Next reaches the same state as Run at the same event.

// StepEvent is one dispatched event.
type StepEvent struct {
	// N counts the events Next dispatched so far (1 = the first).
	N  int64 `json:"n"`
	At int64 `json:"at"`
	// Kind is the event's kernel name ("scheduler_tick", "try_to_wake_up", …)
	// and Text says what it acted on.
	Kind string `json:"kind"`
	Text string `json:"text"`
	// CPU and Task are what the event acted on (-1 = none).
	CPU  int `json:"cpu"`
	Task int `json:"task"`
	// Decisions are the indexes (into Timeline.Decisions) of the placement
	// decisions the event recorded.
	Decisions []int `json:"decisions,omitempty"`
}

// Next dispatches the next event that is not stale (an event a later one
// superseded does nothing and is skipped without being counted). It
// returns false when the repetition has ended.
func (x *Stepper) Next() (StepEvent, bool, error) {
	s := x.s
	for !s.stopped {
		ev, ok := s.q.peek()
		if !ok || ev.at > s.end {
			s.stop(s.now)
			break
		}
		s.q.popPeeked()
		s.now = ev.at
		s.events++
		if s.events&4095 == 0 {
			if err := x.ctx.Err(); err != nil {
				return StepEvent{}, false, err
			}
		}
		stale := s.staleEvent(ev)
		nd := 0
		if s.tr != nil {
			nd = len(s.tr.tl.Decisions)
		}
		se := s.describeEvent(ev)
		execs := ev.kind == evFork && s.parentExecs()
		s.dispatch(ev)
		if s.err != nil {
			return StepEvent{}, false, s.err
		}
		if ev.kind == evFork {
			s.describeFork(&se, int(ev.a), execs)
		}
		if s.r.Run.Until != scenario.UntilDuration && s.forksLeft == 0 && s.alive == 0 && !s.stopped {
			s.stop(s.now)
		}
		if stale {
			continue
		}
		if s.tr != nil {
			for i := nd; i < len(s.tr.tl.Decisions); i++ {
				se.Decisions = append(se.Decisions, i)
			}
		}
		x.n++
		se.N, se.At = x.n, ev.at
		return se, true, nil
	}
	return StepEvent{}, false, nil
}

// staleEvent reports an event that dispatch would ignore (its object
// moved on since it was queued).
func (s *sim) staleEvent(ev event) bool {
	switch ev.kind {
	case evHousekeepingEnd:
		c := &s.cpus[ev.a]
		return !c.hkBusy || s.now < c.hkEnd
	case evIRQEnd:
		c := &s.cpus[ev.a]
		return !c.irqBusy || s.now < c.irqEnd
	case evResched:
		c := &s.cpus[ev.a]
		// spent by an earlier schedule(), or a lazy flag its task keeps
		// until it returns to user space
		return !c.needResched && !lazyDueAtIRQExit(c)
	}
	return false
}

// describeEvent names an event, before it runs, in kernel terms.
func (s *sim) describeEvent(ev event) StepEvent {
	e := StepEvent{CPU: -1, Task: -1}
	task := func(i int32) string {
		p := s.tasks[i]
		e.Task = p.id
		return fmt.Sprintf("%s (pid %d)", p.name, p.pid)
	}
	switch ev.kind {
	case evEnd:
		e.Kind, e.Text = "end", "run.duration reached: the repetition ends"
	case evFork:
		// The text is written by describeFork() once the fork has run
		// (sched_exec() may move the parent first).
		e.CPU = s.parentCPU[ev.a]
		e.Kind = "wake_up_new_task"
	case evTick:
		e.CPU = int(ev.a)
		e.Kind, e.Text = "sched_tick", fmt.Sprintf("scheduler tick on cpu %d", ev.a)
	case evComputeEnd:
		e.CPU = int(ev.a)
		what := "idle"
		if c := &s.cpus[ev.a]; c.curr != nil {
			what = task(int32(c.curr.id))
		}
		e.Kind, e.Text = "program", fmt.Sprintf("cpu %d: %s ends its compute segment and runs its next operation", ev.a, what)
	case evTimer:
		e.Kind, e.Text = "hrtimer_wakeup", fmt.Sprintf("timer expires: %s wakes up", task(ev.a))
	case evWakeIssue:
		e.Kind, e.Text = "try_to_wake_up", fmt.Sprintf("cpu %d wakes %s", ev.b, task(ev.a))
	case evWakeArrive:
		e.Kind, e.Text = "ttwu_do_activate", fmt.Sprintf("%s reaches its runqueue", task(ev.a))
	case evHousekeeping:
		e.CPU = int(ev.a)
		e.Kind, e.Text = "housekeeping", fmt.Sprintf("kernel noise (kworker/irq) starts on cpu %d", ev.a)
	case evHousekeepingEnd:
		e.CPU = int(ev.a)
		e.Kind, e.Text = "housekeeping", fmt.Sprintf("kernel noise ends on cpu %d", ev.a)
	case evIRQEnd:
		e.CPU = int(ev.a)
		e.Kind, e.Text = "softirq", fmt.Sprintf("the interrupt work on idle cpu %d ends", ev.a)
	case evDeviceIRQ:
		e.CPU = int(s.irqTarget[ev.a])
		e.Kind, e.Text = "irq", fmt.Sprintf("device vector %d interrupts cpu %d", ev.a, e.CPU)
	case evCoreEval:
		e.Kind, e.Text = "core_mode", fmt.Sprintf("core %d re-evaluates its SMT mode", ev.a)
	case evILB:
		e.CPU = int(ev.a)
		e.Kind, e.Text = "nohz_idle_balance", fmt.Sprintf("cpu %d balances on behalf of the idle CPUs (ILB)", ev.a)
	case evResched:
		e.CPU = int(ev.a)
		e.Kind, e.Text = "schedule", fmt.Sprintf("cpu %d reschedules (need_resched set by a wake-up)", ev.a)
	case evStopper:
		e.CPU = int(ev.a)
		e.Kind, e.Text = "active_load_balance_cpu_stop", fmt.Sprintf("stopper on cpu %d preempts its task and pushes one to cpu %d", ev.a, ev.b)
	case evRTOPush:
		e.CPU = int(ev.a)
		e.Kind, e.Text = "rto_push_irq_work_func", fmt.Sprintf("the RT push IPI reaches cpu %d, which pushes its queued RT tasks to CPUs running lower priorities", ev.a)
	case evRTPeriod:
		e.CPU = s.rtPeriodCPU
		e.Kind, e.Text = "sched_rt_period_timer", "the RT period timer pays each CPU's RT time back and unthrottles the CPUs under their runtime"
	case evDLServer:
		e.CPU = int(ev.a)
		e.Kind, e.Text = "dl_server_timer", fmt.Sprintf("the fair server's timer fires on cpu %d (%s)", ev.a, s.cpus[ev.a].fs.describe())
	default:
		e.Kind, e.Text = "event", fmt.Sprintf("event %d", ev.kind)
	}
	return e
}

// describeFork writes a fork event's text after dispatch. e.CPU holds the
// parent's CPU before the event; when the parent was exec'ed (execs), the
// text says where sched_exec() left it, and e.CPU becomes that CPU, the
// one it forked from.
func (s *sim) describeFork(e *StepEvent, gi int, execs bool) {
	to := s.parentCPU[gi]
	switch {
	case !execs:
		e.Text = fmt.Sprintf("group %d's parent, on cpu %d, forks its tasks", gi, to)
	case to == e.CPU:
		e.Text = fmt.Sprintf("group %d's parent, exec'ed on cpu %d, stays there (sched_exec()) and forks its tasks", gi, to)
	default:
		e.Text = fmt.Sprintf("group %d's parent, exec'ed on cpu %d, is moved to cpu %d by sched_exec() and forks its tasks", gi, e.CPU, to)
	}
	e.CPU = to
}

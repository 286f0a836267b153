package sim

import (
	"context"
	"fmt"
	"math"

	"schedplay/engine/scenario"
)

// loop runs the event loop until the end of the repetition; it returns
// the time metrics stop at.
func (s *sim) loop(ctx context.Context, rep, reps int) (int64, error) {
	if err := s.runUntil(ctx, math.MaxInt64, rep, reps); err != nil {
		return 0, err
	}
	return s.stopAt, nil
}

// runUntil dispatches events up to simulated time limit, or until the
// repetition ends (s.stopped, with s.stopAt the time metrics stop at).
func (s *sim) runUntil(ctx context.Context, limit int64, rep, reps int) error {
	budget := s.budget
	untilDone := s.r.Run.Until != scenario.UntilDuration
	for !s.stopped {
		ev, ok := s.q.peek()
		if !ok || ev.at > s.end {
			s.stop(s.now)
			break
		}
		if ev.at > limit {
			break
		}
		s.q.popPeeked()
		s.now = ev.at
		s.events++
		if s.events&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if s.events > budget {
				return fmt.Errorf("%w: more than %d events in repetition %d at t=%dns; shorten run.duration or the workload", ErrEventBudget, budget, rep, s.now)
			}
			if s.opt.Progress != nil {
				s.opt.Progress((float64(rep) + float64(s.now)/float64(max(s.end, 1))) / float64(reps))
			}
		}
		s.dispatch(ev)
		if s.err != nil {
			return s.err
		}
		if untilDone && s.forksLeft == 0 && s.alive == 0 && !s.stopped {
			s.stop(s.now)
		}
	}
	return nil
}

// stop ends the repetition at t.
func (s *sim) stop(t int64) {
	s.finish(t)
	s.stopped = true
	s.stopAt = t
}

// dispatch runs one event.
func (s *sim) dispatch(ev event) {
	switch ev.kind {
	case evEnd:
		s.stop(s.end)
	case evFork:
		s.forksLeft--
		s.forkGroup(int(ev.a))
	case evTick:
		s.tick(&s.cpus[ev.a])
	case evComputeEnd:
		s.computeEnd(&s.cpus[ev.a])
	case evTimer:
		s.timerFire(s.tasks[ev.a], ev.gen == 1)
	case evWakeIssue:
		s.wakeIssue(s.tasks[ev.a], int(ev.b), ev.gen == 1)
	case evWakeArrive:
		s.wakeArrive(s.tasks[ev.a])
	case evHousekeeping:
		s.housekeeping(&s.cpus[ev.a])
	case evHousekeepingEnd:
		c := &s.cpus[ev.a]
		if c.hkBusy && s.now >= c.hkEnd {
			s.housekeepingEnd(c)
		}
	case evDeviceIRQ:
		s.deviceIRQ(int(ev.a))
	case evIRQEnd:
		c := &s.cpus[ev.a]
		if c.irqBusy && s.now >= c.irqEnd {
			c.irqBusy = false
			s.peBusyChanged(c)
		}
	case evCoreEval:
		s.coreEvaluate(int(ev.a))
	case evILB:
		s.nohzIdleBalance(int(ev.a))
	case evResched:
		s.reschedIPI(&s.cpus[ev.a])
	case evStopper:
		s.activeLoadBalanceCPUStop(int(ev.a), int(ev.b), int(ev.gen))
	case evRTOPush:
		s.rtoPushIRQWork(int(ev.a))
	case evRTPeriod:
		s.schedRTPeriodTimer()
	case evDLServer:
		s.dlServerTimerEvent(&s.cpus[ev.a])
	}
}

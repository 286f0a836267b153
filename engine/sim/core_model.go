package sim

import (
	"math"
	"math/bits"

	"schedplay/engine/topo"
)

// The core performance model of kernel-model.md §7.2. Every PE busy-state
// change goes through peBusyChanged, which settles the progress of every
// thread of the core at the old rates, re-evaluates the core's mode and
// the node's boost, and reschedules the compute-end events.

// syncCPU accrues the running task's work up to now at the CPU's current rate.
func (s *sim) syncCPU(c *cpuState) {
	p := c.curr
	if p == nil || p.spinning || p.remaining <= 0 {
		c.lastUpd = s.now
		return
	}
	from := c.lastUpd
	if st := s.stallOf(c); st > from {
		from = st
	}
	if s.now > from {
		w := float64(c.rate * float64(s.now-from)) // explicit rounding: no FMA fusion (same bytes on every GOARCH)
		if w > p.remaining {
			w = p.remaining
		}
		p.remaining -= w
		p.done += w
		s.m.work(s, w, from)
	}
	c.lastUpd = s.now
}

// stallOf is when the CPU's current task may make progress again
// (context switch, housekeeping, a core mode switch in progress).
func (s *sim) stallOf(c *cpuState) int64 {
	st := c.stallUntil
	if cs := s.cores[c.core].switchUntil; cs > st {
		st = cs
	}
	return st
}

// reprogram (re)arms the CPU's compute-end timer for the running task's
// next compute-end (or spin-end), or cancels it when nothing runs.
func (s *sim) reprogram(c *cpuState) {
	p := c.curr
	if p == nil {
		s.q.disarm(c.id)
		return
	}
	if p.spinning {
		s.q.arm(c.id, event{at: max(p.spinEnd, s.now), kind: evComputeEnd, a: int32(c.id)})
		return
	}
	start := s.taskClock(c)
	if p.remaining < 0.5 {
		s.q.arm(c.id, event{at: start, kind: evComputeEnd, a: int32(c.id)})
		return
	}
	if c.rate <= 0 {
		s.q.disarm(c.id)
		return
	}
	d := math.Ceil(p.remaining / c.rate)
	if d > 1e15 {
		d = 1e15
	}
	s.q.arm(c.id, event{at: start + int64(d), kind: evComputeEnd, a: int32(c.id)})
}

// peBusy reports whether a CPU's PE is executing (a task, spinning, or kernel noise).
func (s *sim) peBusy(c *cpuState) bool { return c.curr != nil || c.hkBusy || c.irqBusy }

// peBusyChanged re-evaluates a core after one of its PEs changed state.
func (s *sim) peBusyChanged(c *cpuState) {
	k := &s.cores[c.core]
	bit := uint32(1) << uint(c.thread)
	was := k.busy&bit != 0
	now := s.peBusy(c)
	if was == now {
		s.coreEvaluate(c.core)
		return
	}
	coreWasBusy := k.busy != 0
	if now {
		k.busy |= bit
	} else {
		k.busy &^= bit
		k.idleSince[c.thread] = s.now
	}
	coreBusy := k.busy != 0
	if coreWasBusy != coreBusy {
		n := k.node
		if coreBusy {
			s.nodeBusyCores[n]++
		} else {
			s.nodeBusyCores[n]--
		}
		s.updateBoost(n, c.core)
	}
	s.coreEvaluate(c.core)
}

// updateBoost recomputes a node's boost multiplier and, when it changed,
// re-rates every running CPU of the node (except core skip, done by the caller).
func (s *sim) updateBoost(n, skip int) {
	b := boostAt(s.r.Machine.Boost, float64(s.nodeBusyCores[n])/float64(s.nodeCores[n]))
	if b == s.nodeBoost[n] {
		return
	}
	for i := range s.cpus {
		c := &s.cpus[i]
		if c.node != n {
			continue
		}
		if rqCurrIsTask(c) {
			// The time since the rq's last clock update ran at the old
			// frequency (every change of rq->curr updates the clock first).
			s.updateRqClockPelt(c)
		}
		if c.curr != nil && c.core != skip {
			s.syncCPU(c)
		}
	}
	s.nodeBoost[n] = b
	s.nodeFreqScale[n] = s.freqScale(b)
	for i := range s.cpus {
		c := &s.cpus[i]
		if c.node == n && c.core != skip && c.curr != nil {
			c.rate = c.speed * s.cores[c.core].factor[c.thread] * b
			s.reprogram(c)
		}
	}
}

// boostMax is the largest multiplier of a boost curve (1 without one): the
// frequency of CPPC highest_perf, which frequency invariance divides by.
func boostMax(curve [][2]float64) float64 {
	m := 0.0
	for _, p := range curve {
		m = max(m, p[1])
	}
	if m <= 0 {
		return 1
	}
	return m
}

// freqScale is arch_scale_freq_capacity() for a node running at boost b:
// the AMU ratio of the current frequency to highest_perf's, of 1024
// (topology_scale_freq_tick(), clamped to SCHED_CAPACITY_SCALE).
func (s *sim) freqScale(b float64) uint64 {
	f := uint64(b / s.boostMax * capScale)
	return min(f, capScale)
}

// boostAt interpolates the piecewise-linear boost curve at x.
func boostAt(curve [][2]float64, x float64) float64 {
	if len(curve) == 0 {
		return 1
	}
	if x <= curve[0][0] {
		return curve[0][1]
	}
	for i := 1; i < len(curve); i++ {
		if x <= curve[i][0] {
			a, b := curve[i-1], curve[i]
			if b[0] == a[0] {
				return b[1]
			}
			return a[1] + (b[1]-a[1])*(x-a[0])/(b[0]-a[0])
		}
	}
	return curve[len(curve)-1][1]
}

// coreEvaluate is the §7.2 state machine for one core: mode, per-thread
// rate factors, transitions, and the next re-evaluation time.
func (s *sim) coreEvaluate(core int) {
	k := &s.cores[core]
	sm := &s.r.Machine.SMT
	for _, cpu := range k.cpus {
		s.syncCPU(&s.cpus[cpu])
	}
	n := len(k.cpus)
	busy := bits.OnesCount32(k.busy)
	want2T := k.hw2T
	display := uint8(ModeIdle)
	var next int64
	switch {
	case n == 1:
		want2T = false
		if busy > 0 {
			display = uint8(ModeST)
		}
		k.factor[0] = 1
	case sm.Model == topo.SMTFolding:
		if busy > 0 {
			h := 31 - bits.LeadingZeros32(k.busy)
			m := 1
			for m <= h {
				m *= 2
			}
			if m > n {
				m = n
			}
			if m != k.foldMode && k.foldMode != 0 {
				s.coreTransition(k)
			}
			k.foldMode = m
			want2T = m > 1
			f := sm.Yield[m-1] / float64(m)
			for i := range k.factor {
				k.factor[i] = f
			}
			display = uint8(ModeST)
			if m > 1 {
				display = uint8(ModeSMT)
			}
		}
		k.hw2T = want2T
	case sm.Model == topo.SMTSpatial:
		if busy >= 2 {
			want2T = true
			f := sm.Yield[busy-1] / float64(busy)
			for i := range k.factor {
				k.factor[i] = f
			}
			display = uint8(ModeSMT)
		} else if busy == 1 {
			j := bits.TrailingZeros32(k.busy)
			st := false
			qual, hold := int64(sm.Qual), int64(sm.Hold)
			switch {
			case !k.hw2T && k.owner == j:
				st = true
			case !k.hw2T:
				// The active PE changes: free when the old owner has
				// re-qualified (idle for T_qual) and the core has not
				// changed mode within T_hold (§7.2: 2T "if the other
				// became idle less than T_qual ago or the core is still
				// within T_hold after the last transition"); otherwise
				// the core repartitions (2T). A task taking over starts
				// a hold of its own; kernel noise alone (a housekeeping
				// blip on the idle PE) re-qualifies after T_qual.
				if s.now-k.idleSince[k.owner] >= qual && s.now >= k.lastTransition+hold {
					st = true
				} else if s.cpus[k.cpus[j]].curr != nil {
					k.holdUntil = s.now + hold
					next = max(k.idleSince[k.owner]+qual, s.now+hold)
				} else {
					next = k.idleSince[k.owner] + qual
				}
			default:
				ready := k.holdUntil
				if j != k.owner {
					ready = max(ready, k.lastTransition+hold)
				}
				for t := 0; t < n; t++ {
					if t != j {
						ready = max(ready, k.idleSince[t]+qual)
					}
				}
				if s.now >= ready {
					st = true
				} else {
					next = ready
				}
			}
			if st {
				want2T = false
				k.owner = j
				k.factor[j] = 1
				display = uint8(ModeST)
			} else {
				want2T = true
				k.factor[j] = sm.PartitionedSingle
				display = uint8(ModePartitioned)
			}
		}
		if want2T != k.hw2T && busy > 0 {
			if want2T {
				s.repartitionLoss(k)
			}
			s.coreTransition(k)
			k.hw2T = want2T
		}
	default: // competitive
		if busy > 0 {
			f := sm.Yield[busy-1] / float64(busy)
			for i := range k.factor {
				k.factor[i] = f
			}
			want2T = busy >= 2
			display = uint8(ModeST)
			if want2T {
				display = uint8(ModeSMT)
			}
			if want2T != k.hw2T {
				s.coreTransition(k)
			}
			k.hw2T = want2T
		}
	}
	if s.now < k.switchUntil && busy > 0 {
		display = uint8(ModeSwitching)
		if next == 0 || k.switchUntil < next {
			next = k.switchUntil
		}
	}
	s.setCoreMode(core, display)
	b := s.nodeBoost[k.node]
	for _, cpu := range k.cpus {
		c := &s.cpus[cpu]
		c.rate = c.speed * k.factor[c.thread] * b
		s.reprogram(c)
	}
	if next > s.now {
		s.q.arm(s.coreTimer(core), event{at: next, kind: evCoreEval, a: int32(core)})
	} else {
		s.q.disarm(s.coreTimer(core))
	}
}

// coreTimer is the id of a core's mode re-evaluation timer (after the
// CPUs' compute-end timers).
func (s *sim) coreTimer(core int) int { return len(s.cpus) + core }

// repartitionLoss charges what a spatial core's ST → 2T repartition costs
// the tasks that keep computing on it (workload.groups[].repartition_cost,
// docs/model.md "Core performance model"): each loses the part of the
// working set it built in the ST stretch that the new partition cannot
// hold, and redoes it: its compute step grows by the work it did at its
// ST rate in the lost time, which is the group's cost at most and never
// more than it has run since the core last changed mode or since it got
// the CPU. A task that has just started loses nothing, nor does one
// spinning at a barrier. Called after syncCPU() and before the rates
// change (coreEvaluate) and before coreTransition() moves lastTransition.
func (s *sim) repartitionLoss(k *coreState) {
	for _, cpu := range k.cpus {
		c := &s.cpus[cpu]
		p := c.curr
		if p == nil || p.spinning || p.remaining <= 0 || p.group < 0 || p.group >= len(s.repartition) {
			continue
		}
		cost := s.repartition[p.group]
		if cost <= 0 {
			continue
		}
		if loss := min(cost, s.now-max(k.lastTransition, p.cpuSince)); loss > 0 {
			p.remaining += float64(c.rate * float64(loss)) // explicit rounding, as syncCPU
		}
	}
}

// coreTransition counts one ST↔SMT change and starts its switch stall.
func (s *sim) coreTransition(k *coreState) {
	k.lastTransition = s.now
	if s.now >= s.warmup {
		s.m.transitions++
	}
	if sw := int64(s.r.Machine.SMT.Switch); sw > 0 {
		k.switchUntil = s.now + sw
	}
}

// notePEStart counts PE alternations: a task starts on a thread other than
// the one last busy with a task, while that one is not yet re-qualified.
func (s *sim) notePEStart(c *cpuState) {
	k := &s.cores[c.core]
	if len(k.cpus) < 2 {
		return
	}
	if old := k.lastTaskThread; old >= 0 && old != c.thread && k.taskBusy&(1<<uint(old)) == 0 {
		win := int64(s.r.Machine.SMT.Qual) + int64(s.r.Machine.SMT.Hold)
		if s.now-k.lastTaskIdle < win && s.now >= s.warmup {
			s.m.alternations++
		}
	}
	k.lastTaskThread = c.thread
	k.taskBusy |= 1 << uint(c.thread)
}

// notePEStop records when a thread stopped running tasks.
func (s *sim) notePEStop(c *cpuState) {
	k := &s.cores[c.core]
	k.taskBusy &^= 1 << uint(c.thread)
	if c.thread == k.lastTaskThread {
		k.lastTaskIdle = s.now
	}
}

// setCoreMode records the core's displayed mode (residency and timeline).
func (s *sim) setCoreMode(core int, m uint8) {
	k := &s.cores[core]
	if k.mode == m {
		return
	}
	s.m.modeSpan(s, core, Mode(k.mode), k.modeSince, s.now)
	k.mode = m
	k.modeSince = s.now
}

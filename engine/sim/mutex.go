package sim

import "schedplay/engine/scenario"

// The sleeping lock of a pipe (pipe->mutex, kernel/locking/mutex.c;
// docs/model.md, "A pipe's lock"). A pipe call takes it for its whole
// pipe_write()/pipe_read() (__pipe_lock()). A contender spins while the
// owner runs on a CPU and its own CPU has nothing better to do
// (mutex_optimistic_spin(): one spinner at a time on the owner, the rest
// queued behind it in the OSQ, all of them on their CPUs); otherwise it
// joins the FIFO wait_list and sleeps. An unlock hands the lock to the
// first spinner, or releases it and wakes the first waiter (a full
// try_to_wake_up()); a woken waiter that finds the lock taken sets
// MUTEX_FLAG_HANDOFF, and the next unlock gives the lock to it directly.

// mutexSpinForever is the spin end of a mutex spinner: it spins until it
// is given the lock or its spin is broken off (mutexAbortSpinners).
const mutexSpinForever = int64(1) << 62

// pipeMutex is a struct mutex: the owner, the HANDOFF flag, the OSQ of
// spinners and the wait_list.
type pipeMutex struct {
	owner *task // lock->owner (with MUTEX_FLAG_PICKUP: handed to a waiter that has not run yet)
	// handoff is MUTEX_FLAG_HANDOFF: the first waiter asked for the lock
	handoff bool
	// osq are the optimistic spinners (osq_lock() queue order; the head
	// spins on the owner), all running on their CPUs
	osq []*task
	// waiterSpin is the first waiter spinning on the owner after its
	// wake-up (mutex_optimistic_spin() with a waiter), nil when none
	waiterSpin *task
	// waitList are the sleeping (or woken, not yet owning) waiters, FIFO
	waitList []*task
}

// mutexStats counts what the pipe mutexes did in a repetition (for the
// tests; no output reads them).
type mutexStats struct {
	spins, sleeps, wakes, handoffs, aborts int
}

// isPipe says whether a channel's kernel object is a pipe (its calls take
// pipe->mutex).
func isPipe(ch *chanState) bool { return ch.ipc != nil && ch.ipc.kind == scenario.IPCPipe }

// ownerOnCPU is owner_on_cpu(): the owner is running on a CPU.
func (s *sim) ownerOnCPU(p *task) bool {
	return p != nil && p.state == taskRunning && s.cpus[p.cpu].curr == p
}

// mutexLock is __mutex_lock_common() for p on c: it reports true when p
// owns the lock, false when p spins or sleeps (it runs mutexLock again
// when its spin ends or it is woken).
func (s *sim) mutexLock(c *cpuState, p *task, ch *ipcChan) bool {
	m := &ch.mutex
	slow := p.mutexSlow
	p.mutexSlow = false
	if m.owner == nil || m.owner == p { // __mutex_trylock(), or the handoff picked up
		s.mutexAcquired(m, p, ch)
		return true
	}
	p.mutexOn = ch
	if !p.mutexWaiter && !slow && s.ownerOnCPU(m.owner) {
		// mutex_optimistic_spin(): mutex_can_spin_on_owner(), osq_lock()
		s.mx.spins++
		m.osq = append(m.osq, p)
		s.mutexSpin(c, p)
		return false
	}
	if p.mutexWaiter && len(m.waitList) > 0 && m.waitList[0] == p {
		// woken first waiter: __mutex_trylock_or_handoff(lock, true), then
		// mutex_optimistic_spin() on the owner as a waiter-spinner; also
		// one whose waiter-spin its own preemption broke: the fail path
		// ran schedule_preempt_disabled() in TASK_RUNNING, so the loop's
		// next schedule() returns at once and the first waiter spins again
		m.handoff = true
		if s.ownerOnCPU(m.owner) && m.waiterSpin == nil {
			m.waiterSpin = p
			s.mutexSpin(c, p)
			return false
		}
	}
	if !p.mutexWaiter { // __mutex_add_waiter(): the end of the wait_list
		p.mutexWaiter = true
		m.waitList = append(m.waitList, p)
	}
	// schedule_preempt_disabled() in TASK_UNINTERRUPTIBLE
	s.mx.sleeps++
	p.blockOn = waitMutex
	p.stack[len(p.stack)-1].pc-- // __mutex_lock_common() again when woken
	s.blockTask(c, p)
	return false
}

// mutexSpin puts p into its optimistic spin (mutex_spin_on_owner()): it
// runs on c until mutexUnlock gives it the lock or mutexAbortSpinners
// breaks the spin, then runs mutexLock again.
func (s *sim) mutexSpin(c *cpuState, p *task) {
	p.blockOn = waitMutex
	p.stack[len(p.stack)-1].pc--
	p.spinning = true
	p.spinEnd = mutexSpinForever
	s.syncCPU(c)
	s.reprogram(c)
}

// mutexAcquired records p as the owner (__mutex_remove_waiter() for a
// waiter; the PICKUP flag cleared).
func (s *sim) mutexAcquired(m *pipeMutex, p *task, ch *ipcChan) {
	m.owner = p
	p.mutexOn = nil
	p.mutexHeld = ch
	if p.mutexWaiter {
		p.mutexWaiter = false
		removeTask(&m.waitList, p)
	}
}

// mutexUnlock is mutex_unlock() → __mutex_unlock_slowpath() by p on c:
// with HANDOFF the lock goes to the first waiter (__mutex_handoff()),
// else it is released and the head of the OSQ, spinning on it, takes it;
// the first waiter is woken (wake_q_add(), wake_up_q(): a try_to_wake_up()
// the unlocker pays) when it sleeps.
func (s *sim) mutexUnlock(c *cpuState, p *task, ch *ipcChan) {
	m := &ch.mutex
	if m.owner != p {
		return
	}
	p.mutexHeld = nil
	m.owner = nil
	var next *task
	if len(m.waitList) > 0 {
		next = m.waitList[0]
	}
	switch {
	case m.handoff && next != nil: // __mutex_handoff(lock, next)
		s.mx.handoffs++
		m.handoff = false
		m.owner = next
		if m.waiterSpin == next {
			m.waiterSpin = nil
			s.mutexSpinStop(next)
		}
	case len(m.osq) > 0: // the OSQ head's __mutex_trylock_or_owner() wins
		head := popTask(&m.osq)
		m.owner = head
		s.mutexSpinStop(head)
	case m.waiterSpin != nil:
		w := m.waiterSpin
		m.waiterSpin = nil
		m.owner = w
		s.mutexSpinStop(w)
	}
	m.handoff = m.handoff && len(m.waitList) > 0
	if m.owner != nil && !s.ownerOnCPU(m.owner) {
		// the spinners see an owner that does not run (a handoff to a
		// sleeping waiter): mutex_spin_on_owner() fails, they sleep
		s.mutexAbortSpinners(m)
	}
	if next != nil && next.state == taskBlocked {
		s.mx.wakes++
		s.wakeBatch, s.wakeBatchCost = 0, 0
		s.grant(c.id, next, false)
		next.granted = false
		s.endWakeBatch(c.id)
	}
}

// mutexSpinStop ends p's spin now: it runs mutexLock again.
func (s *sim) mutexSpinStop(p *task) {
	p.spinEnd = s.now
	if p.state == taskRunning {
		s.reprogram(&s.cpus[p.cpu])
	}
}

// mutexAbortSpinners breaks every spin on m: mutex_spin_on_owner() sees
// !owner_on_cpu() and each spinner goes to the wait_list.
func (s *sim) mutexAbortSpinners(m *pipeMutex) {
	if len(m.osq) > 0 || m.waiterSpin != nil {
		s.mx.aborts++
	}
	for i, w := range m.osq {
		m.osq[i] = nil
		s.mutexSpinStop(w)
	}
	m.osq = m.osq[:0]
	if w := m.waiterSpin; w != nil {
		m.waiterSpin = nil
		s.mutexSpinStop(w)
	}
}

// mutexSwitchedOut is called when p is preempted (put_prev_task_fair()).
// An owner going off its CPU breaks every spin on its lock
// (owner_on_cpu() fails); a spinner whose CPU reschedules (need_resched())
// leaves the OSQ and, when it runs again, tries the lock once and
// otherwise sleeps (mutex_optimistic_spin()'s fail path, then the
// wait_list). The first waiter spinning for its handoff instead spins
// again when it runs, while the owner runs (mutexLock).
func (s *sim) mutexSwitchedOut(p *task) {
	if ch := p.mutexHeld; ch != nil {
		s.mutexAbortSpinners(&ch.mutex)
	}
	if ch := p.mutexOn; ch != nil && ch.mutex.owner == p {
		s.mutexAbortSpinners(&ch.mutex) // given the lock, preempted before it ran on
	}
	if !p.spinning || p.blockOn != waitMutex {
		return
	}
	m := &p.mutexOn.mutex
	removeTask(&m.osq, p)
	if m.waiterSpin == p {
		m.waiterSpin = nil
	}
	p.spinning = false
	p.blockOn = waitNone
	p.mutexSlow = true
}

// removeTask removes p from a task list, keeping the others' order.
func removeTask(l *[]*task, p *task) {
	q := *l
	for i, w := range q {
		if w == p {
			copy(q[i:], q[i+1:])
			q[len(q)-1] = nil
			*l = q[:len(q)-1]
			return
		}
	}
}

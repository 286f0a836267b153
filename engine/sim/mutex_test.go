package sim

import (
	"context"
	"fmt"
	"testing"
)

// pipeMutexSim runs writers writers pinned to writerCPUs, each writing n
// messages of 100 bytes to one pipe that one reader, pinned to cpu 3,
// reads (4 CPUs, no SMT, the costs at their nominal values). It returns
// the repetition's state after the run.
func pipeMutexSim(t *testing.T, writers int, writerCPUs string, n int) *sim {
	t.Helper()
	doc := fmt.Sprintf(`{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1,"latency":{"variation":0}},
		"workload":{"metric":"ops","groups":[
			{"name":"reader","count":1,"process":true,"cpus":"3","program":[{"repeat":%d,"do":[{"recv":"p"}]}]},
			{"name":"writer","count":%d,"process":true,"cpus":"%s","program":[{"repeat":%d,"do":[{"send":"p","ipc":"pipe","bytes":100,"sync":true}]}]}]},
		"run":{"duration":"5s","until":"done","seed":1}}`, writers*n, writers, writerCPUs, n)
	s := simOf(t, doc)
	if _, err := s.loop(context.Background(), 0, 1); err != nil {
		t.Fatal(err)
	}
	if s.finished == 0 {
		t.Fatalf("%d writers on cpus %s: the run did not finish (a lost mutex wake-up?)", writers, writerCPUs)
	}
	return s
}

// pipe->mutex sleeps when its owner cannot be spun on: with three writers
// sharing cpu 0, the tick preempts an owner in its pipe_write() now and
// then, and the writer that runs next finds an owner that is not on a CPU
// (owner_on_cpu() fails): it joins the wait_list and sleeps, and the
// owner's unlock wakes it. A woken waiter that finds the lock taken again
// (a writer that relocked before it ran) asks for the handoff and gets
// the lock from the next unlock. With one writer per CPU every owner runs
// and contenders only spin.
func TestPipeMutexSleepsWhenOwnerIsOffCPU(t *testing.T) {
	shared := pipeMutexSim(t, 3, "0", 20000)
	mx := shared.mx
	if mx.sleeps == 0 || mx.wakes == 0 || mx.handoffs == 0 || mx.aborts == 0 {
		t.Fatalf("3 writers on one CPU: %+v; want sleeps on the wait_list, unlock wake-ups, handoffs and spins broken off", mx)
	}
	if mx.wakes > mx.sleeps {
		t.Errorf("%d unlock wake-ups for %d sleeps: only a sleeping first waiter is woken", mx.wakes, mx.sleeps)
	}
	for _, ch := range shared.chanList {
		if ch.ipc == nil {
			continue
		}
		m := &ch.ipc.mutex
		if m.owner != nil || len(m.waitList) > 0 || len(m.osq) > 0 || m.waiterSpin != nil {
			t.Errorf("after the run the mutex is not free: owner %v, %d waiters, %d spinners", m.owner != nil, len(m.waitList), len(m.osq))
		}
	}
	spread := pipeMutexSim(t, 3, "0-2", 20000)
	if spread.mx.sleeps != 0 || spread.mx.spins == 0 {
		t.Errorf("one writer per CPU: %+v; want spins and no sleeps (every owner runs)", spread.mx)
	}
}

// The mutex's paths one at a time (kernel/locking/mutex.c): a contender
// spins on a running owner (mutex_optimistic_spin()); the owner's
// preemption breaks the spin (owner_on_cpu() fails) and the contender
// sleeps on the wait_list; the owner's unlock wakes it
// (__mutex_unlock_slowpath()); a third task takes the free lock before
// the waiter runs; the waiter, first in the wait_list, finds it taken,
// sets MUTEX_FLAG_HANDOFF and spins; the next unlock hands the lock to it
// (__mutex_handoff()).
func TestPipeMutexSpinSleepWakeHandoff(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1,"latency":{"variation":0}},
		"workload":{"groups":[{"name":"w","count":3,"program":[{"send":"p","ipc":"pipe","bytes":100},{"compute":"1s"}]}]},
		"run":{"duration":"10s","seed":1}}`)
	m := &s.chanList[0].ipc.mutex
	s.now = 1_000_000
	a := startAtMutexLock(s, 0, 0)
	if m.owner != a || a.mutexHeld == nil {
		t.Fatal("a free mutex was not taken (__mutex_trylock())")
	}
	b := startAtMutexLock(s, 1, 1)
	if !b.spinning || len(m.osq) != 1 || m.osq[0] != b || s.mx.spins != 1 {
		t.Fatalf("a contender of a running owner should spin in the OSQ: spinning %v, osq %d", b.spinning, len(m.osq))
	}
	// the owner is preempted in its critical section
	c0 := &s.cpus[0]
	s.syncCPU(c0)
	s.updateCurr(c0)
	s.putPrevTaskFair(c0, a)
	if s.mx.aborts != 1 || len(m.osq) != 0 {
		t.Fatalf("the owner's preemption did not break the spin: %+v", s.mx)
	}
	s.computeEnd(&s.cpus[1])
	if b.state != taskBlocked || len(m.waitList) != 1 || m.waitList[0] != b || s.mx.sleeps != 1 {
		t.Fatalf("the contender should sleep on the wait_list: state %v, %d waiters", b.state, len(m.waitList))
	}
	// the owner runs again and unlocks: the first waiter is woken
	s.schedule(c0)
	if c0.curr != a {
		t.Fatal("set-up: the owner did not run again")
	}
	finishKernelWork(s, a)
	if m.owner != nil || s.mx.wakes != 1 || b.state != taskWaking {
		t.Fatalf("the unlock should release the lock and wake the waiter: owner %v, wakes %d, state %v", m.owner != nil, s.mx.wakes, b.state)
	}
	// a third task takes the free lock before the waiter runs
	d := startAtMutexLock(s, 2, 2)
	if m.owner != d {
		t.Fatal("a free lock with a woken waiter should be taken by the next caller")
	}
	d.remaining = 1e9 // d holds it until finishKernelWork(s, d)
	s.reprogram(&s.cpus[2])
	if err := s.runUntil(context.Background(), s.now+100_000, 0, 1); err != nil {
		t.Fatal(err)
	}
	if b.state != taskRunning || !b.spinning || !m.handoff || m.waiterSpin != b {
		t.Fatalf("the woken first waiter should find the lock taken, set HANDOFF and spin: state %v, spinning %v, handoff %v", b.state, b.spinning, m.handoff)
	}
	finishKernelWork(s, d)
	if m.owner != b || s.mx.handoffs != 1 {
		t.Fatalf("the unlock should hand the lock to the waiter: handoffs %d", s.mx.handoffs)
	}
	if err := s.runUntil(context.Background(), s.now+10_000, 0, 1); err != nil {
		t.Fatal(err)
	}
	// b took the handed-off lock, wrote and unlocked: three messages
	if b.mutexWaiter || len(m.waitList) != 0 || m.handoff || m.owner != nil || s.chanList[0].msgs != 3 {
		t.Errorf("the waiter should take the lock, write and release it: waiter %v, %d waiters, handoff %v, owner %v, %d messages",
			b.mutexWaiter, len(m.waitList), m.handoff, m.owner != nil, s.chanList[0].msgs)
	}
}

// A spinner whose CPU reschedules leaves the OSQ (mutex_optimistic_spin()
// fails on need_resched(), osq_unlock()): the owner's unlock then finds
// no spinner and releases the lock, rather than giving it to a task that
// is not on a CPU; the preempted task tries the lock once when it runs
// again, and sleeps on the wait_list if it is taken.
func TestPipeMutexPreemptedSpinnerLeavesTheOSQ(t *testing.T) {
	s, m, w := writersAtLock(t, 2)
	a, b := w[0], w[1]
	if m.owner != a || !b.spinning || len(m.osq) != 1 {
		t.Fatalf("set-up: owner %v, b spinning %v, osq %d", m.owner == a, b.spinning, len(m.osq))
	}
	c1 := &s.cpus[1]
	s.syncCPU(c1)
	s.updateCurr(c1)
	s.putPrevTaskFair(c1, b)
	if len(m.osq) != 0 || b.spinning || !b.mutexSlow {
		t.Fatalf("a preempted spinner should leave the OSQ and try once when it runs: osq %d, spinning %v, slow %v", len(m.osq), b.spinning, b.mutexSlow)
	}
	finishKernelWork(s, a)
	if a.mutexHeld != nil {
		t.Fatal("set-up: the owner did not unlock")
	}
	if m.owner != nil {
		t.Fatalf("the unlock gave the lock to task %d, which is not spinning", m.owner.id)
	}
}

// startAtMutexLock starts task k of a writer's program (a send on a
// pipe, then anything) on cpu at its pipe_write()'s mutex_lock().
func startAtMutexLock(s *sim, k, cpu int) *task {
	return startAt(s, k, cpu, 1) // opSyscall, opMutexLock, opKernel, opMutexUnlock, opSend
}

// startAt places task k on cpu and runs its program from op pc (of its
// compiled top-level body) until it starts work or blocks.
func startAt(s *sim, k, cpu, pc int) *task {
	p := place(s, k, cpu)
	p.remaining = 0
	p.stack[0].pc = pc
	s.schedule(&s.cpus[cpu])
	return p
}

// finishKernelWork ends the running task p's current kernel work on its
// CPU.
func finishKernelWork(s *sim, p *task) {
	c := &s.cpus[p.cpu]
	s.syncCPU(c)
	p.remaining = 0
	s.computeEnd(c)
}

// writersAtLock is pipeStepSim with its n writers started one after the
// other at mutex_lock(), writer k (task k+1) on CPU k: the first takes
// pipe->mutex, the others contend for it.
func writersAtLock(t *testing.T, n int) (*sim, *pipeMutex, []*task) {
	t.Helper()
	s := pipeStepSim(t, n)
	w := make([]*task, n)
	for k := range w {
		w[k] = startAtMutexLock(s, k+1, k)
	}
	return s, &s.chanList[0].ipc.mutex, w
}

// pipeStepSim is a 4-CPU machine (costs at their nominal values) with a
// reader (task 0) and writers writers (tasks 1…) of one pipe, none of them
// started, at t = 1 ms: the tests place and run them by hand.
func pipeStepSim(t *testing.T, writers int) *sim {
	t.Helper()
	return ipcStepSim(t, `[{"recv":"p"},{"compute":"1s"}]`, `[{"send":"p","ipc":"pipe","bytes":100},{"compute":"1s"}]`, writers)
}

// ipcStepSim is a 4-CPU machine (costs at their nominal values) with a
// reader (task 0) running program reader and writers writers (tasks 1…)
// running program writer, none of them started, at t = 1 ms.
func ipcStepSim(t *testing.T, reader, writer string, writers int) *sim {
	t.Helper()
	s := simOf(t, fmt.Sprintf(`{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1,"latency":{"variation":0}},
		"workload":{"groups":[{"name":"r","count":1,"program":%s},
			{"name":"w","count":%d,"program":%s}]},
		"run":{"duration":"10s","seed":1}}`, reader, writers, writer))
	s.now = 1_000_000
	return s
}

// pipe_read() wakes a writer of a full pipe after __pipe_unlock(), not
// when it takes the message: the writer stays asleep while the reader
// holds pipe->mutex, and is woken by the read's unlock.
func TestPipeReadWakesWriterAfterUnlock(t *testing.T) {
	s := pipeStepSim(t, 1)
	ch := s.chanList[0]
	// a full pipe whose oldest page has one message left, and a writer
	// asleep on it (wr_wait)
	fullPipe(ch)
	ch.ipc.slots[0].left = 1
	ch.msgs -= ch.ipc.merges - 1
	w := s.tasks[1]
	w.cpu, w.state, w.blockOn = 1, taskBlocked, waitSend
	ch.senders = append(ch.senders, w)
	r := startAt(s, 0, 0, 0) // read(): takes the message, locks, runs pipe_read()
	if ch.ipc.mutex.owner != r || len(ch.ipc.slots) != ch.ipc.maxSlots-1 {
		t.Fatalf("set-up: the reader should hold the mutex having freed a slot (owner %v, %d slots)", ch.ipc.mutex.owner == r, len(ch.ipc.slots))
	}
	if w.state != taskBlocked {
		t.Fatal("the writer was woken while the reader held pipe->mutex")
	}
	c0 := &s.cpus[0]
	s.syncCPU(c0)
	r.remaining = 0
	s.computeEnd(c0) // pipe_read() ends: __pipe_unlock(), then the wake-up
	if ch.ipc.mutex.owner != nil || w.state != taskWaking {
		t.Fatalf("the read's unlock should wake the writer: owner %v, writer state %v", ch.ipc.mutex.owner != nil, w.state)
	}
}

// pipe_read() and pipe_write() check for data or room under pipe->mutex:
// a reader that comes while a writer holds the lock waits for the unlock
// before it takes the message, and a writer that finds the pipe full
// drops the lock before it sleeps on wr_wait (woken, it checks for room
// without the lock before it takes the lock again: TestPipeWokenWriterRechecksWithoutTheMutex).
func TestPipeChecksUnderTheMutex(t *testing.T) {
	s := pipeStepSim(t, 2)
	ch := s.chanList[0]
	m := &ch.ipc.mutex
	w := startAtMutexLock(s, 1, 0)
	if m.owner != w || ch.msgs != 1 {
		t.Fatalf("the writer should hold the lock with its message queued under it (owner %v, %d messages)", m.owner == w, ch.msgs)
	}
	r := startAt(s, 0, 1, 0)
	if ch.msgs != 1 || !r.spinning {
		t.Fatalf("the reader took the message without the lock: %d messages left, spinning %v", ch.msgs, r.spinning)
	}
	c0 := &s.cpus[0]
	s.syncCPU(c0)
	w.remaining = 0
	s.computeEnd(c0) // the writer unlocks; the reader, head of the OSQ, takes the lock
	s.computeEnd(&s.cpus[1])
	if m.owner != r || ch.msgs != 0 {
		t.Fatalf("after the writer's unlock the reader should hold the lock and have the message (owner %v, %d messages)", m.owner == r, ch.msgs)
	}

	// a full pipe: the second writer takes the lock, finds no room, drops
	// the lock and sleeps
	s.syncCPU(&s.cpus[1])
	r.remaining = 0
	s.computeEnd(&s.cpus[1]) // the reader unlocks
	fullPipe(ch)
	w2 := startAtMutexLock(s, 2, 2)
	if w2.state != taskBlocked || len(ch.senders) != 1 || m.owner != nil {
		t.Fatalf("a writer finding the pipe full should drop the lock and sleep on wr_wait: state %v, %d sleeping writers, lock held %v",
			w2.state, len(ch.senders), m.owner != nil)
	}
	if f := w2.stack[0]; f.body[f.pc].kind != opSend {
		t.Errorf("the writer resumes at op %d, not at its write (pipe_writable() checked without the lock)", f.body[f.pc].kind)
	}
}

// ownerID is the id of the mutex's owner, -1 when it is free.
func ownerID(m *pipeMutex) int {
	if m.owner == nil {
		return -1
	}
	return m.owner.id
}

// preempt takes the running task p off its CPU as a preemption does
// (put_prev_task_fair()): p stays runnable on the CPU's runqueue.
func preempt(s *sim, p *task) {
	c := &s.cpus[p.cpu]
	s.syncCPU(c)
	s.updateCurr(c)
	s.putPrevTaskFair(c, p)
}

// The OSQ is a queue (osq_lock(), kernel/locking/osq_lock.c: an MCS lock
// taken in arrival order): only its head spins on the owner, and when the
// owner releases the lock (__mutex_unlock_slowpath() with no HANDOFF) the
// head's __mutex_trylock_or_owner() takes it; the spinner queued after it
// goes on spinning, now on the new owner.
func TestPipeMutexOSQHeadTakesTheLock(t *testing.T) {
	s, m, w := writersAtLock(t, 3)
	a, b, c := w[0], w[1], w[2]
	if m.owner != a || len(m.osq) != 2 || m.osq[0] != b || m.osq[1] != c {
		t.Fatalf("set-up: owner a %v, osq %d; want b then c in the OSQ", m.owner == a, len(m.osq))
	}
	finishKernelWork(s, a)
	if m.owner != b {
		t.Fatalf("the unlock gave the lock to task %d; want the OSQ's head, task %d", ownerID(m), b.id)
	}
	if len(m.osq) != 1 || m.osq[0] != c || !c.spinning || c.spinEnd != mutexSpinForever {
		t.Errorf("the second spinner should spin on, on the new owner: osq %d, spinning %v", len(m.osq), c.spinning)
	}
}

// __mutex_add_waiter() adds a waiter at the tail of the wait_list
// (list_add_tail(), FIFO) and __mutex_unlock_slowpath() wakes
// list_first_entry(): of two spinners that the owner's preemption sends
// to sleep, the first to sleep is the one the unlock wakes.
func TestPipeMutexWaitListIsFIFO(t *testing.T) {
	s, m, w := writersAtLock(t, 3)
	a, b, c := w[0], w[1], w[2]
	preempt(s, a) // owner_on_cpu() fails: both spins end
	s.computeEnd(&s.cpus[1])
	s.computeEnd(&s.cpus[2])
	if b.state != taskBlocked || c.state != taskBlocked || len(m.waitList) != 2 {
		t.Fatalf("set-up: b %v, c %v, %d waiters; want both asleep on the wait_list", b.state, c.state, len(m.waitList))
	}
	if m.waitList[0] != b {
		t.Errorf("wait_list head is task %d; want task %d, the first to sleep", m.waitList[0].id, b.id)
	}
	s.schedule(&s.cpus[0])
	if s.cpus[0].curr != a {
		t.Fatal("set-up: the owner did not run again")
	}
	finishKernelWork(s, a)
	if b.state != taskWaking || c.state != taskBlocked || s.mx.wakes != 1 {
		t.Errorf("the unlock should wake the first waiter only: b %v, c %v, wakes %d", b.state, c.state, s.mx.wakes)
	}
}

// A spinner preempted in the OSQ (need_resched() in mutex_spin_on_owner())
// leaves mutex_optimistic_spin() by its fail path, and the fail path is
// final for a task that is not yet a waiter: when it runs again it
// returns false, __mutex_lock_common() tries the lock once under
// wait_lock, then adds the task to the wait_list and it sleeps, even
// though the owner still runs. It does not spin a second time.
func TestPipeMutexPreemptedSpinnerSleepsWhenItRunsAgain(t *testing.T) {
	s, m, w := writersAtLock(t, 2)
	a, b := w[0], w[1]
	if m.owner != a || !b.spinning || s.mx.spins != 1 {
		t.Fatalf("set-up: owner a %v, b spinning %v", m.owner == a, b.spinning)
	}
	preempt(s, b)
	c1 := &s.cpus[1]
	s.schedule(c1)
	if c1.curr == b {
		s.computeEnd(c1) // b runs on from where it was preempted
	}
	if !s.ownerOnCPU(a) {
		t.Fatal("set-up: the owner should still run")
	}
	if b.state != taskBlocked || b.spinning || len(m.osq) != 0 || len(m.waitList) != 1 || m.waitList[0] != b {
		t.Errorf("the preempted spinner, run again, should sleep on the wait_list: state %v, spinning %v, osq %d, %d waiters",
			b.state, b.spinning, len(m.osq), len(m.waitList))
	}
	if s.mx.spins != 1 || s.mx.sleeps != 1 {
		t.Errorf("%d spins and %d sleeps; want 1 spin, then 1 sleep", s.mx.spins, s.mx.sleeps)
	}
}

// A spinner stops when the owner it spins on is not on a CPU
// (mutex_spin_on_owner(): !owner_on_cpu(owner)). The lock's next owner
// counts from the moment it is given the lock: here the OSQ's head, which
// the unlock gave the lock, is preempted before it runs on; the spinner
// queued behind it, spinning on it now, must stop and sleep.
func TestPipeMutexSpinEndsWhenTheNewOwnerIsPreempted(t *testing.T) {
	s, m, w := writersAtLock(t, 3)
	a, b, c := w[0], w[1], w[2]
	finishKernelWork(s, a)
	if m.owner != b || b.mutexHeld != nil || len(m.osq) != 1 {
		t.Fatalf("set-up: the lock should be b's, not yet picked up (owner b %v, held %v, osq %d)", m.owner == b, b.mutexHeld != nil, len(m.osq))
	}
	preempt(s, b)
	if len(m.osq) != 0 || c.spinEnd != s.now || s.mx.aborts != 1 {
		t.Fatalf("the new owner's preemption should break the spin on it: osq %d, spin end %d (now %d), aborts %d", len(m.osq), c.spinEnd, s.now, s.mx.aborts)
	}
	s.computeEnd(&s.cpus[2])
	if c.state != taskBlocked || len(m.waitList) != 1 || m.waitList[0] != c {
		t.Errorf("the spinner should sleep on the wait_list: state %v, %d waiters", c.state, len(m.waitList))
	}
}

// With MUTEX_FLAG_HANDOFF set, __mutex_unlock_slowpath() does not release
// the lock: __mutex_handoff() gives it to the first waiter, the task that
// asked for it, and the optimistic spinners in the OSQ cannot take it
// (their __mutex_trylock_or_owner() sees an owner). The woken first
// waiter b here finds the lock taken by a newcomer d, sets HANDOFF and
// spins; e then contends and spins in the OSQ; d's unlock goes to b.
func TestPipeMutexHandoffBeatsTheOSQ(t *testing.T) {
	s, m, b, d, e := handoffSpin(t)
	finishKernelWork(s, d)
	if m.owner != b || s.mx.handoffs != 1 {
		t.Errorf("with HANDOFF the unlock should hand the lock to the first waiter: owner task %d (b is %d, e %d), handoffs %d", ownerID(m), b.id, e.id, s.mx.handoffs)
	}
	if m.handoff || !e.spinning || len(m.osq) != 1 {
		t.Errorf("after the handoff: HANDOFF %v (want cleared), e spinning %v in an OSQ of %d (want on, on b)", m.handoff, e.spinning, len(m.osq))
	}
}

// A first waiter preempted while it spins for its handoff leaves
// mutex_optimistic_spin() by the fail path, which runs
// schedule_preempt_disabled() with the task TASK_RUNNING. When it runs
// again the wait loop's own schedule_preempt_disabled() returns at once,
// and, first on the wait_list, it sets HANDOFF and spins on the owner
// again (6.12 __mutex_lock_common()): it does not sleep, and the owner's
// unlock hands it the lock with no wake-up.
func TestPipeMutexPreemptedWaiterSpinsAgain(t *testing.T) {
	s, m, b, d, _ := handoffSpin(t)
	sleeps, wakes := s.mx.sleeps, s.mx.wakes
	preempt(s, b)
	if m.waiterSpin == b || b.spinning {
		t.Fatal("set-up: the preemption did not break b's spin")
	}
	c := &s.cpus[b.cpu]
	s.schedule(c) // b runs again, from mutex_lock()
	if b.state != taskRunning || !b.spinning || m.waiterSpin != b || !m.handoff || s.mx.sleeps != sleeps {
		t.Fatalf("b, run again with the owner running, should spin for the handoff: state %v, spinning %v, waiter-spinner %v, HANDOFF %v, %d new sleeps",
			b.state, b.spinning, m.waiterSpin == b, m.handoff, s.mx.sleeps-sleeps)
	}
	finishKernelWork(s, d)
	if m.owner != b || s.mx.wakes != wakes {
		t.Errorf("d's unlock: owner task %d (want b, %d), %d wake-ups (want none)", ownerID(m), b.id, s.mx.wakes-wakes)
	}
}

// handoffSpin reaches the state of TestPipeMutexHandoffBeatsTheOSQ: d
// owns pipe->mutex and runs, the woken first waiter b spins for the
// handoff (HANDOFF set), and the newcomer e spins in the OSQ.
func handoffSpin(t *testing.T) (s *sim, m *pipeMutex, b, d, e *task) {
	t.Helper()
	s = simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1,"latency":{"variation":0}},
		"workload":{"groups":[{"name":"w","count":4,"program":[{"send":"p","ipc":"pipe","bytes":100},{"compute":"1s"}]}]},
		"run":{"duration":"10s","seed":1}}`)
	s.now = 1_000_000
	m = &s.chanList[0].ipc.mutex
	a := startAtMutexLock(s, 0, 0)
	b = startAtMutexLock(s, 1, 1)
	preempt(s, a)
	s.computeEnd(&s.cpus[1]) // b's spin broke: it sleeps on the wait_list
	s.schedule(&s.cpus[0])
	finishKernelWork(s, a) // releases the lock, wakes b
	if m.owner != nil || b.state != taskWaking {
		t.Fatalf("set-up: owner %v, b %v; want a free lock and b woken", m.owner != nil, b.state)
	}
	d = startAtMutexLock(s, 2, 2)
	d.remaining = 1e9 // d holds the lock until finishKernelWork(s, d)
	s.reprogram(&s.cpus[2])
	e = startAtMutexLock(s, 3, 3)
	if len(m.osq) != 1 || m.osq[0] != e {
		t.Fatalf("set-up: e should spin in the OSQ (osq %d)", len(m.osq))
	}
	if err := s.runUntil(context.Background(), s.now+100_000, 0, 1); err != nil {
		t.Fatal(err)
	}
	if m.owner != d || !m.handoff || m.waiterSpin != b || len(m.osq) != 1 {
		t.Fatalf("set-up: owner d %v, HANDOFF %v, b waiter-spinning %v, osq %d", m.owner == d, m.handoff, m.waiterSpin == b, len(m.osq))
	}
	return s, m, b, d, e
}

package sim

import (
	"context"
	"testing"
)

// fullPipe fills ch's pipe: every slot taken, every page full.
func fullPipe(ch *chanState) {
	ch.ipc.slots = ch.ipc.slots[:0]
	for len(ch.ipc.slots) < ch.ipc.maxSlots {
		ch.ipc.slots = append(ch.ipc.slots, pipeBuf{written: ch.ipc.merges, left: ch.ipc.merges})
	}
	ch.msgs = ch.ipc.maxSlots * ch.ipc.merges
}

// pipe_write() sleeps in wait_event_interruptible_exclusive(pipe->wr_wait,
// pipe_writable(pipe)) with pipe->mutex dropped (fs/pipe.c:579-580): a
// writer woken by a read that freed no slot (was_full) re-checks
// pipe_full() without the lock and sleeps again at the tail of wr_wait
// (prepare_to_wait_event()); it does not contend for pipe->mutex, which
// the reader holds for its next pipe_read().
func TestPipeWokenWriterRechecksWithoutTheMutex(t *testing.T) {
	s := pipeStepSim(t, 2)
	ch := s.chanList[0]
	m := &ch.ipc.mutex
	fullPipe(ch)
	w1 := startAtMutexLock(s, 1, 1) // takes the lock, finds the pipe full, sleeps on wr_wait
	w2 := startAtMutexLock(s, 2, 2)
	if w1.state != taskBlocked || w2.state != taskBlocked || len(ch.senders) != 2 || m.owner != nil {
		t.Fatalf("set-up: both writers should sleep on wr_wait with the lock free (%v %v, %d)", w1.state, w2.state, len(ch.senders))
	}
	r := place(s, 0, 0) // the reader, running on cpu 0 inside its next pipe_read()
	s.schedule(&s.cpus[0])
	m.owner, r.mutexHeld = r, ch.ipc
	s.wakeWaiters(0, &ch.senders, false, true) // a read of the full pipe that freed no slot
	if err := s.runUntil(context.Background(), s.now+200_000, 0, 1); err != nil {
		t.Fatal(err)
	}
	if w1.state != taskBlocked || w1.blockOn != waitSend || w1.spinning || len(m.osq) != 0 || len(m.waitList) != 0 {
		t.Fatalf("the woken writer contends for pipe->mutex: state %v, blockOn %d, spinning %v, osq %d, wait_list %d; want it back on wr_wait",
			w1.state, w1.blockOn, w1.spinning, len(m.osq), len(m.waitList))
	}
	if len(ch.senders) != 2 || ch.senders[1] != w1 {
		t.Errorf("the writer should sleep again at the tail of wr_wait: %d sleepers", len(ch.senders))
	}
}

// After its wait, pipe_write() stays in its for (;;) loop, which only
// takes a new slot (fs/pipe.c:497-541); the merge into the last page is
// tried once, at the call's start (474-492). A writer woken when a slot
// is free does not merge into a page another writer started meanwhile.
func TestPipeWriterAfterWaitTakesANewSlot(t *testing.T) {
	s := pipeStepSim(t, 1)
	ch := s.chanList[0]
	fullPipe(ch)
	w := startAtMutexLock(s, 1, 1) // sleeps on wr_wait
	if w.state != taskBlocked {
		t.Fatal("set-up: the writer should sleep on the full pipe")
	}
	// two slots drained; a fresh writer started a page in one of them
	ch.ipc.slots = append(ch.ipc.slots[2:], pipeBuf{written: 1, left: 1})
	ch.msgs = (ch.ipc.maxSlots-2)*ch.ipc.merges + 1
	s.wakeWaiters(0, &ch.senders, false, true)
	if err := s.runUntil(context.Background(), s.now+200_000, 0, 1); err != nil {
		t.Fatal(err)
	}
	if w.stack[0].pc <= 5 {
		t.Fatalf("the writer did not write: pc %d, state %v", w.stack[0].pc, w.state)
	}
	if n := len(ch.ipc.slots); n != ch.ipc.maxSlots || ch.ipc.slots[n-1].written != 1 {
		t.Errorf("slots %d, last page %+v: the woken writer merged into the other writer's page; want a new slot", n, ch.ipc.slots[n-1])
	}
}

// A reader woken from rd_wait re-checks pipe_readable() without
// pipe->mutex (fs/pipe.c, pipe_read()'s wait_event_interruptible_exclusive()):
// when another reader took the data first, it sleeps again at the tail of
// rd_wait without touching the lock.
func TestPipeWokenReaderRechecksWithoutTheMutex(t *testing.T) {
	// pipeStepSim's machine and tasks; the writer is forked only at 5 s
	s := simOf(t, `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1,"latency":{"variation":0}},
		"workload":{"groups":[{"name":"r","count":1,"program":[{"recv":"p"},{"compute":"1s"}]},
			{"name":"w","count":1,"start":"5s","program":[{"send":"p","ipc":"pipe","bytes":100},{"compute":"1s"}]}]},
		"run":{"duration":"10s","seed":1}}`)
	s.now = 1_000_000
	ch := s.chanList[0]
	r := startAt(s, 0, 0, 0) // mutex_lock(), the pipe is empty: unlock, sleep on rd_wait
	if r.state != taskBlocked || len(ch.receivers) != 1 || ch.ipc.mutex.owner != nil {
		t.Fatalf("set-up: the reader should sleep on rd_wait with the lock free (%v, %d)", r.state, len(ch.receivers))
	}
	locks := s.mx
	ch.msgs, ch.ipc.slots = 1, append(ch.ipc.slots, pipeBuf{written: 1, left: 1})
	s.wakeWaiters(1, &ch.receivers, false, true) // a write to the empty pipe
	if r.state != taskWaking {
		t.Fatalf("set-up: the reader should be on its way to a CPU, state %v", r.state)
	}
	ch.msgs, ch.ipc.slots = 0, ch.ipc.slots[:0] // another reader got there first
	m := &ch.ipc.mutex
	m.owner = s.tasks[1] // and someone, off its CPU, holds the lock
	if err := s.runUntil(context.Background(), s.now+200_000, 0, 1); err != nil {
		t.Fatal(err)
	}
	if r.state != taskBlocked || r.blockOn != waitRecv || len(ch.receivers) != 1 || ch.receivers[0] != r {
		t.Fatalf("the woken reader should sleep again on rd_wait: state %v, blockOn %d, %d sleepers", r.state, r.blockOn, len(ch.receivers))
	}
	if s.mx != locks || len(m.waitList) != 0 || r.mutexWaiter {
		t.Errorf("the re-check went for pipe->mutex: lock stats %+v → %+v, wait_list %d", locks, s.mx, len(m.waitList))
	}
}

// pipe_write() wakes rd_wait only when the pipe was empty as it wrote
// (was_empty, fs/pipe.c): a reader still asleep on a pipe that holds data
// (its wake-up went to another reader, which wakes the next one itself,
// wake_next_reader) is not woken by the next write.
func TestPipeWriteWakesAReaderOnlyWhenEmpty(t *testing.T) {
	s := pipeStepSim(t, 1)
	ch := s.chanList[0]
	r := startAt(s, 0, 0, 0) // sleeps on rd_wait
	ch.msgs, ch.ipc.slots = 1, append(ch.ipc.slots, pipeBuf{written: 1, left: 1})
	w := startAtMutexLock(s, 1, 1)
	finishKernelWork(s, w) // the write merges, unlocks and wakes
	if ch.msgs != 2 || len(ch.ipc.slots) != 1 || w.mutexHeld != nil {
		t.Fatalf("set-up: the write should have merged and unlocked (%d messages, %v)", ch.msgs, ch.ipc.slots)
	}
	if r.state != taskBlocked || len(ch.receivers) != 1 {
		t.Errorf("a write to a pipe that was not empty woke its sleeping reader (state %v)", r.state)
	}
	// the same write to an empty pipe wakes it
	ch.msgs, ch.ipc.slots = 0, ch.ipc.slots[:0]
	w2 := startAtMutexLock(s, 1, 2)
	finishKernelWork(s, w2)
	if r.state == taskBlocked || len(ch.receivers) != 0 {
		t.Errorf("a write to an empty pipe did not wake its reader (state %v)", r.state)
	}
}

// sleepingMutexWaiter puts task k, off CPU cpu, to sleep in ch's
// pipe->mutex wait_list at its call's mutex_lock() (op pc).
func sleepingMutexWaiter(s *sim, ch *chanState, k, cpu, pc int) *task {
	w := s.tasks[k]
	w.cpu, w.state, w.blockOn = cpu, taskBlocked, waitMutex
	w.mutexWaiter, w.mutexOn = true, ch.ipc
	w.stack[0].pc = pc
	ch.ipc.mutex.waitList = append(ch.ipc.mutex.waitList, w)
	return w
}

// pipe_write() drops pipe->mutex before it waits for room (fs/pipe.c:
// mutex_unlock(), then wait_event_interruptible_exclusive(pipe->wr_wait,
// pipe_writable(pipe))). The unlock's wake_up_q() of the lock's first
// waiter runs in the writer's context, so the writer stays on its CPU for
// that try_to_wake_up() and checks for room only after it: it sleeps then
// if the pipe is still full, and room a reader made meanwhile is taken
// without a sleep.
func TestPipeWriterWakesTheMutexWaiterBeforeItWaits(t *testing.T) {
	for _, room := range []bool{false, true} {
		s := pipeStepSim(t, 2)
		ch := s.chanList[0]
		fullPipe(ch)
		w2 := sleepingMutexWaiter(s, ch, 2, 2, 1)
		t0 := s.now
		w1 := startAtMutexLock(s, 1, 1) // takes the lock, finds the pipe full, unlocks: wakes w2
		if w2.state == taskBlocked {
			t.Fatal("set-up: the unlock should wake the mutex's waiter")
		}
		if w1.state != taskRunning || s.cpus[1].curr != w1 || len(ch.senders) != 0 {
			t.Fatalf("room %v: the writer slept before its unlock's wake-up was paid (state %v, %d asleep on wr_wait)", room, w1.state, len(ch.senders))
		}
		stall := w1.wakeStallUntil
		if room { // a reader frees a slot while the writer is in wake_up_q(),
			// and another writer's page has room left (not for one that waited)
			ch.ipc.slots = ch.ipc.slots[1:]
			last := &ch.ipc.slots[len(ch.ipc.slots)-1]
			last.written, last.left = ch.ipc.merges-1, ch.ipc.merges-1
			ch.msgs -= ch.ipc.merges + 1
		}
		if err := s.runUntil(context.Background(), t0+200_000, 0, 1); err != nil {
			t.Fatal(err)
		}
		if !room {
			if w1.state != taskBlocked || w1.blockOn != waitSend || len(ch.senders) == 0 || ch.senders[0] != w1 {
				t.Fatalf("the writer should sleep on wr_wait, first: state %v, %d asleep", w1.state, len(ch.senders))
			}
			if left := s.cpus[1].lastTaskTime; stall <= t0 || left < stall {
				t.Errorf("the writer left its CPU %d ns after its unlock, before its wake-up was paid (%d ns)", left-t0, stall-t0)
			}
			continue
		}
		if w1.stack[0].pc <= 2 || len(ch.senders) != 0 {
			t.Fatalf("the writer did not take the room freed while it woke the waiter: pc %d, state %v, %d asleep on wr_wait", w1.stack[0].pc, w1.state, len(ch.senders))
		}
		// pipe_write() after its wait_event: a new slot (which w2, taking
		// the lock next, may merge into), not the other writer's page
		if n := len(ch.ipc.slots); n != ch.ipc.maxSlots || ch.ipc.slots[n-2].written != ch.ipc.merges-1 {
			t.Errorf("slots %d, the other writer's page %+v: the writer merged into it after its wait; want a new slot", n, ch.ipc.slots[n-2])
		}
	}
}

// pipe_read() of an empty pipe drops pipe->mutex, waking the lock's
// first waiter (a writer, here) in its own context, then checks
// pipe_readable(): data written in the meantime is read without a sleep.
func TestPipeReaderWakesTheMutexWaiterBeforeItWaits(t *testing.T) {
	s := pipeStepSim(t, 1)
	ch := s.chanList[0]
	w := sleepingMutexWaiter(s, ch, 1, 1, 1)
	r := startAt(s, 0, 0, 0) // takes the lock, finds the pipe empty, unlocks: wakes w
	if w.state == taskBlocked {
		t.Fatal("set-up: the unlock should wake the mutex's waiter")
	}
	if r.state != taskRunning || len(ch.receivers) != 0 {
		t.Fatalf("the reader slept before its unlock's wake-up was paid (state %v, %d asleep on rd_wait)", r.state, len(ch.receivers))
	}
	ch.msgs, ch.ipc.slots = 1, append(ch.ipc.slots, pipeBuf{written: 1, left: 1}) // written meanwhile
	if err := s.runUntil(context.Background(), s.now+200_000, 0, 1); err != nil {
		t.Fatal(err)
	}
	if r.stack[0].pc <= 1 || len(ch.receivers) != 0 {
		t.Errorf("the reader did not read the data written while it woke the waiter: pc %d, state %v, %d asleep on rd_wait", r.stack[0].pc, r.state, len(ch.receivers))
	}
}

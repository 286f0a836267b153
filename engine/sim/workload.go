package sim

import (
	"fmt"

	"schedplay/engine/scenario"
)

// opKind is a compiled program step.
type opKind uint8

const (
	opCompute opKind = iota
	opSleep
	opBarrier
	opSend
	opRecv
	opPeriodic
	opRepeat
	opPool
	opTimed
	opKernel      // a send's or recv's kernel path on an ipc channel (id = channel, sync = it is the send's)
	opSyscall     // a pipe call's system call entry and exit (id = channel; sockets and futexes charge it in opKernel)
	opMutexLock   // a pipe call takes pipe->mutex (id = channel)
	opMutexUnlock // a pipe call releases pipe->mutex and wakes its waiters (id = channel)
	opSockAlloc   // a socket write's skb allocation, which waits for room (id = channel)
	opSockFree    // a socket read's consume_skb() of the skb it copied, which may wake the writers (id = channel)
)

// op is one compiled step: names resolved to indices so the interpreter
// never touches a map.
type op struct {
	kind   opKind
	dur    int64
	jitter float64
	id     int // barrier/channel/pool/timed-section index
	spin   int64
	sync   bool
	wake   int
	count  int
	// poll: the receivers wait in poll() (scenario.Step.Poll)
	poll bool
	// sysret: the op ends a system call (a send's or recv's last op, a
	// sleep, a barrier's futex): the task's next step begins with the
	// return to user space
	sysret bool
	// skipMissed: a periodic op's catch-up (scenario.Periodic.SkipMissed)
	skipMissed bool
	body       []op
}

// What a blocked task waits on.
const (
	waitNone int8 = iota
	waitTimer
	waitBarrier
	waitRecv
	waitSend
	waitMutex // spinning or sleeping on pipe->mutex (mutex.go)
)

// compiler resolves names to indices in first-seen order (deterministic).
type compiler struct {
	barriers   map[string]int
	chans      map[string]int
	pools      map[string]int
	timed      map[string]int
	timedNames []string // timed-section names by index
	chanCap    []int
	chanKind   []scenario.IPCKind
	chanBytes  []int
	poolTot    []int
	nBar       int
	// inst is the index of the task whose program is being compiled, for
	// a group whose channel names use scenario.InstanceToken; -1 otherwise.
	inst int
}

// scanIPC records the ipc kind each send step declares for its channel,
// in the order compileProgram meets them (so the channel ids are the
// same), before any program is compiled: a recv, or a send that names
// none, compiles after the kind of its channel's object.
func (cp *compiler) scanIPC(steps []scenario.Step) {
	for _, st := range steps {
		switch {
		case st.Send != "":
			id := cp.chanID(st.Send)
			if st.IPC != scenario.IPCNone {
				cp.chanKind[id] = st.IPC
			}
		case st.Recv != "":
			cp.chanID(st.Recv)
		case st.Periodic != nil:
			cp.scanIPC(st.Periodic.Do)
		default:
			cp.scanIPC(st.Do)
		}
	}
}

// compileProgram turns steps into ops; barrier names are per group.
func (cp *compiler) compileProgram(group int, steps []scenario.Step) ([]op, error) {
	out := make([]op, 0, len(steps))
	for i, st := range steps {
		o, err := cp.compileStep(group, st)
		if err != nil {
			return nil, fmt.Errorf("step %d: %w", i, err)
		}
		switch o.kind {
		case opSend:
			if cp.chanKind[o.id] == scenario.IPCPipe {
				// write(): the syscall, then under pipe->mutex the check,
				// the queueing and the path; the wake-ups after the unlock
				out = append(out, op{kind: opSyscall, id: o.id, sync: true}, op{kind: opMutexLock, id: o.id}, o,
					op{kind: opKernel, id: o.id, sync: true}, op{kind: opMutexUnlock, id: o.id})
				break
			}
			if cp.chanKind[o.id] == scenario.IPCSocket {
				// unix_stream_sendmsg(): the skb's allocation, which waits
				// for room; the path (the copy, unix_state_lock()); then
				// the queueing and sk_data_ready()
				out = append(out, op{kind: opSockAlloc, id: o.id}, op{kind: opKernel, id: o.id, sync: true}, o)
				break
			}
			// futex_wake(): the kernel path (with the bucket's spinlock),
			// then the wake-ups
			out = append(out, op{kind: opKernel, id: o.id, sync: true}, o)
		case opRecv:
			if cp.chanKind[o.id] == scenario.IPCPipe {
				// read(): under pipe->mutex the check, the take and the
				// path; the wake-ups after the unlock, then the syscall
				out = append(out, op{kind: opMutexLock, id: o.id}, o, op{kind: opKernel, id: o.id},
					op{kind: opMutexUnlock, id: o.id}, op{kind: opSyscall, id: o.id})
				break
			}
			if cp.chanKind[o.id] == scenario.IPCSocket {
				// unix_stream_read_generic(): the skb is taken, copied
				// (the path), then consume_skb() frees it and may wake
				// the writers
				out = append(out, o, op{kind: opKernel, id: o.id}, op{kind: opSockFree, id: o.id})
				break
			}
			// the message is taken, then the rest of the path
			out = append(out, o, op{kind: opKernel, id: o.id})
		default:
			out = append(out, o)
		}
		switch o.kind {
		case opSend, opRecv, opSleep, opBarrier: // each case above appended its last op
			out[len(out)-1].sysret = true
		}
	}
	return out, nil
}

// compileStep compiles one step (and its body).
func (cp *compiler) compileStep(group int, st scenario.Step) (op, error) {
	var o op
	var err error
	switch {
	case st.Compute != nil:
		o = op{kind: opCompute, dur: int64(*st.Compute), jitter: st.Jitter}
	case st.Sleep != nil:
		o = op{kind: opSleep, dur: int64(*st.Sleep)}
	case st.Barrier != "":
		key := fmt.Sprintf("%d/%s", group, st.Barrier)
		id, ok := cp.barriers[key]
		if !ok {
			id = cp.nBar
			cp.nBar++
			cp.barriers[key] = id
		}
		o = op{kind: opBarrier, id: id, spin: int64(st.Spin)}
	case st.Send != "":
		// pipe_write() and sock_def_readable() always wake with WF_SYNC
		// (wake_up_interruptible_sync_poll()), whatever the step says
		sync := st.Sync || st.IPC == scenario.IPCPipe || st.IPC == scenario.IPCSocket
		o = op{kind: opSend, id: cp.chanID(st.Send), sync: sync, wake: max(st.Wake, 1), poll: st.Poll}
		if st.Capacity > 0 {
			cp.chanCap[o.id] = st.Capacity
		}
		if st.IPC != scenario.IPCNone {
			cp.chanKind[o.id], cp.chanBytes[o.id] = st.IPC, st.Bytes
		}
	case st.Recv != "":
		o = op{kind: opRecv, id: cp.chanID(st.Recv), spin: int64(st.Spin)}
	case st.Periodic != nil:
		o = op{kind: opPeriodic, dur: int64(st.Periodic.Every), count: st.Periodic.Count, skipMissed: st.Periodic.SkipMissed}
		o.body, err = cp.compileProgram(group, st.Periodic.Do)
	case st.Pool != "":
		id, ok := cp.pools[st.Pool]
		if !ok {
			id = len(cp.poolTot)
			cp.pools[st.Pool] = id
			cp.poolTot = append(cp.poolTot, st.Total)
		} else if st.Total > cp.poolTot[id] {
			cp.poolTot[id] = st.Total
		}
		o = op{kind: opPool, id: id}
		o.body, err = cp.compileProgram(group, st.Do)
	case st.Repeat > 0:
		o = op{kind: opRepeat, count: st.Repeat}
		o.body, err = cp.compileProgram(group, st.Do)
	case st.Timed != "":
		o = op{kind: opTimed, id: cp.timedID(st.Timed)}
		o.body, err = cp.compileProgram(group, st.Do)
	default:
		return o, fmt.Errorf("empty step")
	}
	return o, err
}

// chanID returns the index of a channel name (for task cp.inst of its
// group when that is set).
func (cp *compiler) chanID(name string) int {
	if cp.inst >= 0 {
		name = scenario.ChannelFor(name, cp.inst)
	}
	id, ok := cp.chans[name]
	if !ok {
		id = len(cp.chanCap)
		cp.chans[name] = id
		cp.chanCap = append(cp.chanCap, 0)
		cp.chanKind = append(cp.chanKind, scenario.IPCNone)
		cp.chanBytes = append(cp.chanBytes, 0)
	}
	return id
}

// advance runs the current task's program from where it stands until it
// computes, spins, blocks or exits. The task is c.curr.
func (s *sim) advance(c *cpuState, p *task) {
	for steps := int64(1); ; steps++ {
		// Instant steps count against the event budget, so a program that
		// loops without ever computing or blocking cannot hang the run.
		s.events++
		if s.events > s.budget {
			if s.err == nil {
				s.err = s.budgetError(p, steps)
			}
			return
		}
		// The task is still in the kernel issuing the wake-ups of its
		// last step (endWakeBatch): its next step waits for them
		// (computeEnd resumes it), so it cannot block or exit first and
		// leave their cost to the next task on its CPU.
		if p.wakeStallUntil > s.now {
			s.reprogram(c)
			return
		}
		if p.sysret {
			p.sysret = false
			if s.lazyPreemptPoint(c) {
				return
			}
		}
		if len(p.stack) == 0 {
			s.exitTask(c, p)
			return
		}
		f := &p.stack[len(p.stack)-1]
		if f.pc >= len(f.body) {
			if s.frameLoop(c, p, f) {
				return
			}
			continue
		}
		o := &f.body[f.pc]
		f.pc++
		p.sysret = o.sysret
		p.userMode = o.kind == opCompute
		switch o.kind {
		case opCompute:
			w := float64(o.dur)
			if o.jitter > 0 {
				w *= 1 + float64(o.jitter*(2*s.rng.Float64()-1)) // no FMA fusion
			}
			if s.startWork(c, p, w) {
				return
			}
		case opSleep:
			s.blockTimer(c, p, s.now+o.dur)
			return
		case opBarrier:
			if !s.barrierArrive(c, p, o) {
				return
			}
		case opSend:
			if !s.chanSend(c, p, o) {
				return
			}
		case opRecv:
			if !s.chanRecv(c, p, o) {
				return
			}
		case opRepeat:
			p.stack = append(p.stack, frame{body: o.body, left: o.count - 1, pool: -1})
		case opPool:
			if s.pools[o.id] > 0 {
				s.pools[o.id]--
				s.countOp(p)
				p.stack = append(p.stack, frame{body: o.body, pool: o.id})
			}
		case opTimed:
			s.enterTimed(c, p, o)
		case opKernel:
			if ch := s.chanList[o.id].ipc; ch != nil && s.startWork(c, p, float64(s.ipcPathCost(ch, p, c.id, o.sync))) {
				return
			}
		case opSyscall: // a pipe's read() or write() (sync): el0_svc, fdget() and fdput()
			fget := s.fgetLight(s.chanList[o.id].ipc, p, c.id, o.sync)
			if s.startWork(c, p, float64(s.costs.vary(int64(s.r.Machine.Latency.Syscall)+fget))) {
				return
			}
		case opSockAlloc:
			if !s.sockAllocSendPskb(c, p, s.chanList[o.id]) {
				return
			}
		case opSockFree:
			s.sockWfree(c, s.chanList[o.id])
		case opMutexLock:
			if !s.mutexLock(c, p, s.chanList[o.id].ipc) {
				return
			}
		case opMutexUnlock:
			ch := s.chanList[o.id]
			s.mutexUnlock(c, p, ch.ipc)
			s.pipeWakes(c, p, ch)
		case opPeriodic:
			cnt := o.count
			if cnt == 0 {
				cnt = -1
			}
			p.stack = append(p.stack, frame{body: o.body, per: true, every: o.dur, next: s.now + o.dur, count: cnt, pool: -1, skipMissed: o.skipMissed})
			if s.periodicWait(c, p, &p.stack[len(p.stack)-1]) {
				return
			}
		}
	}
}

// lazyPreemptPoint is a task's return to user space from a system call
// (exit_to_user_mode_loop()): under PREEMPT_LAZY, where a preemption of a
// running task sets only TIF_NEED_RESCHED_LAZY, this is where it reaches
// schedule(). It reports true when c scheduled.
func (s *sim) lazyPreemptPoint(c *cpuState) bool {
	if !c.needReschedLazy {
		return false
	}
	s.schedule(c)
	return true
}

// startWork starts w reference-ns of CPU work for p on c (a compute step
// or a kernel path); false when there is none to do.
func (s *sim) startWork(c *cpuState, p *task, w float64) bool {
	if w < 1 {
		return false
	}
	p.remaining = w
	p.requested += w
	s.syncCPU(c)
	s.reprogram(c)
	return true
}

// frameLoop handles the end of a frame body: loop again, or pop. It
// returns true when the task blocked (periodic wait).
func (s *sim) frameLoop(c *cpuState, p *task, f *frame) bool {
	switch {
	case f.per:
		if f.count > 0 {
			f.count--
		}
		if f.count == 0 {
			break
		}
		s.countOp(p)
		return s.periodicWait(c, p, f)
	case f.pool >= 0:
		if s.pools[f.pool] > 0 {
			s.pools[f.pool]--
			s.countOp(p)
			f.pc = 0
			return false
		}
	case f.left > 0:
		f.left--
		f.pc = 0
		return false
	case f.timed > 0:
		s.leaveTimed(c, f)
	}
	p.stack = p.stack[:len(p.stack)-1]
	return false
}

// periodicWait arms the absolute timer of a periodic frame (clock_nanosleep
// TIMER_ABSTIME); an expiry already past runs the body at once, unless the
// frame skips missed periods (cyclictest: the expiry moves past now first).
// It returns false when the body is to run at once (the caller's loop goes
// on; no recursion however late the task is), true when the task blocked.
func (s *sim) periodicWait(c *cpuState, p *task, f *frame) bool {
	exp := f.next
	if f.skipMissed && exp < s.now {
		exp += (s.now - exp + f.every - 1) / f.every * f.every // while (tsgreater(&now, &next)) next += interval
	}
	f.next = exp + f.every
	f.pc = 0
	p.periodicLatency = true
	if exp <= s.now {
		s.recordLatency(s.now-exp, true)
		return false
	}
	s.blockTimer(c, p, exp)
	return true
}

// countOp counts program-level operations of group 0 (Result.Ops).
func (s *sim) countOp(p *task) {
	if p.group == 0 && s.now >= s.warmup {
		s.m.ops++
	}
}

// blockTimer puts the task to sleep until at (hrtimer on its CPU).
func (s *sim) blockTimer(c *cpuState, p *task, at int64) {
	p.blockOn = waitTimer
	p.timerSoft = at
	s.blockTask(c, p)
	s.q.push(event{at: at, kind: evTimer, a: int32(p.id)})
}

// barrierArrive is the futex barrier: the last live member to arrive wakes
// the others. Returns true when the task continues at once.
func (s *sim) barrierArrive(c *cpuState, p *task, o *op) bool {
	b := s.barrierList[o.id]
	if len(b.arrived)+1 >= s.groupAlive[p.group] {
		s.barrierRelease(c.id, b)
		return true
	}
	b.arrived = append(b.arrived, p)
	p.granted = false
	p.blockOn = waitBarrier
	p.blockID = o.id
	s.waitOrSpin(c, p, o.spin)
	return false
}

// barrierRelease wakes every waiter of b (futex_wake(INT_MAX)).
func (s *sim) barrierRelease(waker int, b *barrierState) {
	s.wakeBatch, s.wakeBatchCost = 0, 0
	for i, w := range b.arrived {
		b.arrived[i] = nil
		s.grant(waker, w, false)
	}
	b.arrived = b.arrived[:0]
	s.endWakeBatch(waker)
}

// endWakeBatch charges the waker's CPU for the wake-ups it issued: the
// sum of their wakerCost()s.
func (s *sim) endWakeBatch(waker int) {
	n, cost := s.wakeBatch, s.wakeBatchCost
	s.wakeBatch, s.wakeBatchCost = 0, 0
	if n == 0 {
		return
	}
	c := &s.cpus[waker]
	if c.curr == nil {
		return
	}
	s.syncCPU(c)
	c.stallUntil = max(c.stallUntil, s.now) + cost
	c.curr.wakeStallUntil = c.stallUntil
	s.reprogram(c)
}

// wakerCost is what one try_to_wake_up() costs the waker's CPU: the
// function's own work (latency.wakeup) and, for a wakee that last ran on
// another CPU, the lines ttwu pulls from there (ttwuWakerLines) and the
// sending part of the IPI (ttwu_queue_wakelist() → the GIC SGI write;
// none to a CPU that polls in idle, idlePolling). The later wake-ups of a
// batch are placed only when they are issued, so the wakee's previous CPU
// stands for the target.
func (s *sim) wakerCost(waker int, w *task) int64 {
	lat := &s.r.Machine.Latency
	work, lines := int64(lat.Wakeup), int64(0)
	if w.cpu != waker {
		if !s.idlePolling(&s.cpus[w.cpu]) {
			work += int64(lat.IPISend) // none to a polling idle CPU
		}
		lines = ttwuWakerLines * s.cachelineCost(w.cpu, waker)
	}
	return s.costs.vary(s.kernelCost(waker, work) + lines)
}

// wakeIssue is a deferred try_to_wake_up() of a wake batch.
func (s *sim) wakeIssue(p *task, waker int, sync bool) {
	cur := p.batchWaker // current is the waker still, preempted or not
	p.batchWaker = nil
	if p.state != taskBlocked {
		return
	}
	s.tryToWakeUp(p, waker, cur, sync, true)
	p.wakeIssued = p.wakeReq
}

// grant releases a waiter: a spinning one continues, a blocked one is woken.
//
// A waker that wakes several tasks does so one try_to_wake_up() after the
// other: the k-th wake-up of a batch is issued once the waker has paid the
// wakerCost() of the k−1 before it, and the waker's own work waits for
// the whole batch (endWakeBatch).
func (s *sim) grant(waker int, w *task, sync bool) {
	w.granted = true
	switch w.state {
	case taskBlocked:
		w.wakeReq = s.now
		cost := s.wakerCost(waker, w)
		if s.wakeBatch == 0 {
			s.tryToWakeUp(w, waker, s.cpus[waker].curr, sync, true)
		} else {
			w.batchWaker = s.cpus[waker].curr
			var flag uint32
			if sync {
				flag = 1
			}
			s.q.push(event{at: s.now + s.wakeBatchCost, kind: evWakeIssue, a: int32(w.id), b: int32(waker), gen: flag})
		}
		s.wakeBatch++
		s.wakeBatchCost += cost
	case taskRunning, taskRunnable:
		if w.spinning {
			w.spinEnd = s.now
			if w.state == taskRunning {
				s.reprogram(&s.cpus[w.cpu])
			}
		}
	}
}

// waitOrSpin spins for up to spin before blocking.
func (s *sim) waitOrSpin(c *cpuState, p *task, spin int64) {
	if spin > 0 {
		p.spinning = true
		p.userMode = true // the runtime's spin, before its futex_wait()
		p.spinEnd = s.now + spin
		s.syncCPU(c)
		s.reprogram(c)
		return
	}
	s.blockTask(c, p)
}

// chanSend posts o.wake messages, handing them to blocked receivers first.
func (s *sim) chanSend(c *cpuState, p *task, o *op) bool {
	ch := s.chanList[o.id]
	if ch.ipc != nil && ch.ipc.kind != scenario.IPCFutex {
		return s.ipcWrite(c, p, o, ch)
	}
	if ch.capacity > 0 && ch.msgs >= ch.capacity && len(ch.receivers) == 0 {
		s.waitWritable(c, p, ch)
		return false
	}
	s.countOp(p)
	s.wakeBatch, s.wakeBatchCost = 0, 0
	defer s.endWakeBatch(c.id)
	if o.poll {
		s.pollWake(c, ch, o)
		return true
	}
	for n := 0; n < o.wake; n++ {
		if len(ch.receivers) > 0 {
			s.grant(c.id, popTask(&ch.receivers), o.sync)
			continue
		}
		ch.msgs++
	}
	return true
}

// pollWake is __wake_up_common_lock() of the waiters poll() queued on the
// object (__pollwait() → add_wait_queue(), each at the head): it wakes
// them newest first (pollwake() → try_to_wake_up()), all under the wait
// queue's lock, which is free again once the last wake-up is issued.
// pollwake() leaves each entry queued, so a woken waiter takes that lock
// again on its way out of poll() (pollFreewait).
func (s *sim) pollWake(c *cpuState, ch *chanState, o *op) {
	var woken []*task
	for n := 0; n < o.wake; n++ {
		if k := len(ch.receivers); k > 0 {
			w := ch.receivers[k-1]
			ch.receivers[k-1] = nil
			ch.receivers = ch.receivers[:k-1]
			if w.state == taskBlocked {
				woken = append(woken, w)
			}
			s.grant(c.id, w, o.sync)
			continue
		}
		ch.msgs++
	}
	if len(woken) == 0 {
		return
	}
	// the storm's hold ends after the last try_to_wake_up(); a hold
	// pollers of an earlier storm reserved is kept
	ch.pollLockFree, ch.pollLockCPU = max(ch.pollLockFree, s.now+s.wakeBatchCost), c.id
	for _, w := range woken {
		w.pollExit = ch
	}
}

// pollFreeLines are the lines remove_wait_queue() pulls while it holds
// the wait queue's lock: the lock's (with the list head) and a neighbour
// entry's list pointers.
const pollFreeLines = 2

// pollFreewait is poll_freewait() → remove_wait_queue() of a poller woken
// by pollWake, as it first runs: it spins on the wait queue's lock
// (spin_lock_irqsave(), its CPU busy) until the waker's storm and the
// pollers before it have let it go, then unlinks its entry. Its next step
// waits for that (wakeStallUntil).
func (s *sim) pollFreewait(c *cpuState, p *task) {
	ch := p.pollExit
	p.pollExit = nil
	start := max(c.stallUntil, s.now)
	acquire := max(start, ch.pollLockFree)
	release := acquire + pollFreeLines*s.cachelineCost(ch.pollLockCPU, c.id)
	ch.pollLockFree, ch.pollLockCPU = release, c.id
	c.stallUntil = release
	p.wakeStallUntil = release
}

// waitWritable blocks a sender on a full buffer; it retries its send
// when woken. A pipe writer whose unlock woke a mutex waiter is still on
// its CPU, paying for that wake-up, and checks for room after it
// (pipeUnlockToWait): the retry is that check.
func (s *sim) waitWritable(c *cpuState, p *task, ch *chanState) {
	// pipe_write() after its wait, slept or not: a fresh slot, wake_next_writer
	p.ipcWaited = true
	p.stack[len(p.stack)-1].pc-- // retry the send when woken
	if s.pipeUnlockToWait(c, p, ch) {
		return
	}
	queueSender(p, ch)
	s.blockTask(c, p)
}

// queueSender puts p at the tail of ch's sleeping senders, as one that
// waited in its current call.
func queueSender(p *task, ch *chanState) {
	ch.senders = append(ch.senders, p)
	p.granted = false
	p.blockOn = waitSend
	p.ipcWaited = true
}

// pipeUnlockToWait is pipe_write()'s and pipe_read()'s wait for room or
// data on a pipe: the call drops pipe->mutex before it sleeps; p's pc
// already points at the retry, which, when woken, checks for room or data
// without the lock and takes it again (pipeWaitCheck). It reports whether
// p stays on its CPU first: mutex_unlock() woke the lock's first waiter,
// and that wake_up_q() runs in p's context before
// wait_event_interruptible_exclusive() checks pipe_writable() or
// pipe_readable() (fs/pipe.c). p then makes the check, its retry, when the
// wake-up is paid for (endWakeBatch), and sleeps only if it fails.
func (s *sim) pipeUnlockToWait(c *cpuState, p *task, ch *chanState) bool {
	if !isPipe(ch) {
		return false
	}
	s.mutexUnlock(c, p, ch.ipc)
	return p.wakeStallUntil > s.now
}

// pipeWaitCheck is ___wait_event()'s check after a wake-up from
// pipe->wr_wait or rd_wait (wait_event_interruptible_exclusive() in
// pipe_write() and pipe_read(), fs/pipe.c): ready is pipe_writable() or
// pipe_readable(), read without pipe->mutex. Ready, the call takes the
// lock again (p's pc back at its opMutexLock, the op before its send or
// recv); else p sleeps again, at the tail of the wait queue
// (prepare_to_wait_event() re-adds the entry that
// autoremove_wake_function() took off), without touching the lock.
func (s *sim) pipeWaitCheck(c *cpuState, p *task, o *op, ch *chanState, ready bool) bool {
	f := &p.stack[len(p.stack)-1]
	if ready {
		f.pc -= 2
		return true
	}
	f.pc--
	if o.kind == opRecv {
		s.waitReadable(c, p, o, ch)
		return false
	}
	queueSender(p, ch)
	s.blockTask(c, p)
	return false
}

// popTask removes and returns the first task of a wait list.
func popTask(l *[]*task) *task {
	q := *l
	w := q[0]
	copy(q, q[1:])
	q[len(q)-1] = nil
	*l = q[:len(q)-1]
	return w
}

// popNewest removes and returns the last task of a wait list (the last to
// block).
func popNewest(l *[]*task) *task {
	q := *l
	w := q[len(q)-1]
	q[len(q)-1] = nil
	*l = q[:len(q)-1]
	return w
}

// ipcWrite is the queueing half of pipe_write() / unix_stream_sendmsg().
// A pipe write checks for room under pipe->mutex (pipeWriteLocked); a
// socket write found room when it allocated its skb (sockAllocSendPskb),
// so here the skb is queued and the readers' wait queue woken
// (sock_def_readable(): every reader, WF_SYNC as the step says).
func (s *sim) ipcWrite(c *cpuState, p *task, o *op, ch *chanState) bool {
	if isPipe(ch) {
		return s.pipeWriteLocked(c, p, o, ch)
	}
	s.countOp(p)
	s.wakeBatch, s.wakeBatchCost = 0, 0
	defer s.endWakeBatch(c.id)
	for n := 0; n < o.wake; n++ {
		ch.msgs++
		s.wakeWaiters(c.id, &ch.receivers, ch.ipc.wakesAllReaders(), o.sync)
	}
	return true
}

// sockAllocSendPskb is sock_alloc_send_pskb() (net/core/sock.c) in
// unix_stream_sendmsg(): while sk_wmem_alloc is at sk_sndbuf the writer
// sleeps (sock_wait_for_wmem(), before its copy and path) and checks
// again when woken; else its skb is charged to sk_wmem_alloc
// (skb_set_owner_w()).
func (s *sim) sockAllocSendPskb(c *cpuState, p *task, ch *chanState) bool {
	if !ch.ipc.sockAllocSendFits() || (ch.capacity > 0 && ch.msgs >= ch.capacity) {
		s.waitWritable(c, p, ch)
		return false
	}
	ch.ipc.sockAllocSkb()
	p.ipcWaited = false
	return true
}

// sockWfree is consume_skb() at the end of unix_stream_read_generic()'s
// copy: sock_wfree() takes the skb's truesize off the writer's
// sk_wmem_alloc and unix_write_space() wakes every sleeping writer
// (WF_SYNC) once unix_writable() holds.
func (s *sim) sockWfree(c *cpuState, ch *chanState) {
	if !ch.ipc.sockWfree() || len(ch.senders) == 0 {
		return
	}
	s.wakeBatch, s.wakeBatchCost = 0, 0
	s.wakeWaiters(c.id, &ch.senders, ch.ipc.wakesAllWriters(), true)
	s.endWakeBatch(c.id)
}

// pipeWriteLocked is pipe_write() (fs/pipe.c) under pipe->mutex, run by
// a task that holds it; one that does not was woken from wr_wait and
// first checks pipe_writable() (pipeWaitCheck). The call's first try
// merges into the last page (pipeCanMerge) or takes a free slot; after a
// wait it is in its for (;;) loop, which only takes a free slot. A full
// pipe puts the writer to sleep on wr_wait. The messages are queued here;
// the wake-ups come after the unlock (pipeWakes): one reader when the
// pipe was empty (was_empty), and the next writer when this one had
// waited (wake_next_writer).
func (s *sim) pipeWriteLocked(c *cpuState, p *task, o *op, ch *chanState) bool {
	pipe := ch.ipc
	if p.mutexHeld != pipe {
		return s.pipeWaitCheck(c, p, o, ch, !pipe.pipeFull())
	}
	waited := p.ipcWaited
	if pipe.pipeFull() && (waited || !pipe.pipeCanMerge()) || (ch.capacity > 0 && ch.msgs >= ch.capacity) {
		s.waitWritable(c, p, ch)
		return false
	}
	s.countOp(p)
	wasEmpty := len(pipe.slots) == 0
	for n := 0; n < o.wake; n++ {
		ch.msgs++
		pipe.pipeWrite(n > 0 || !waited)
	}
	p.pipeWakeReader, p.pipeWakeSync = wasEmpty, o.sync
	p.pipeWakeNextWriter = waited
	p.ipcWaited = false
	return true
}

// wakeWaiters wakes the first waiter of a wait queue, or all of them
// (__wake_up_common() with nr_exclusive 1, or non-exclusive waiters). l
// holds the waiters in the order they blocked. An exclusive waiter is
// queued at the tail (prepare_to_wait_exclusive()), so the first to block
// is woken; a non-exclusive one at the head (prepare_to_wait(),
// add_wait_queue()), so __wake_up_common() walks them newest first.
func (s *sim) wakeWaiters(waker int, l *[]*task, all, sync bool) {
	if !all {
		if len(*l) > 0 {
			s.grant(waker, popTask(l), sync)
		}
		return
	}
	for len(*l) > 0 {
		s.grant(waker, popNewest(l), sync)
	}
}

// chanRecv takes a message or waits for one; a blocked sender is woken.
func (s *sim) chanRecv(c *cpuState, p *task, o *op) bool {
	ch := s.chanList[o.id]
	if ch.ipc != nil && ch.ipc.kind != scenario.IPCFutex {
		return s.ipcRead(c, p, o, ch)
	}
	if ch.ipc != nil {
		ch.ipc.futexWaitSetup(c.id) // before the word's check and the wait
	}
	if ch.msgs > 0 {
		ch.msgs--
		if len(ch.senders) > 0 {
			s.wakeBatch, s.wakeBatchCost = 0, 0
			s.grant(c.id, popTask(&ch.senders), true)
			s.endWakeBatch(c.id)
		}
		return true
	}
	s.waitReadable(c, p, o, ch)
	return false
}

// waitReadable puts a receiver on the channel's wait list, spinning first
// when its step says so.
func (s *sim) waitReadable(c *cpuState, p *task, o *op, ch *chanState) {
	ch.receivers = append(ch.receivers, p)
	p.granted = false
	p.blockOn = waitRecv
	p.blockID = o.id
	s.waitOrSpin(c, p, o.spin)
}

// ipcRead is the dequeueing half of pipe_read() / unix_stream_read_generic():
// an empty object puts the reader to sleep (it retries when woken); a
// pipe read may wake a writer after its unlock (pipe_read(): one, when the
// pipe was full as the read started); a socket read's skb is freed after
// its copy (sockWfree).
func (s *sim) ipcRead(c *cpuState, p *task, o *op, ch *chanState) bool {
	if isPipe(ch) && p.mutexHeld != ch.ipc { // woken from rd_wait: pipe_readable()
		return s.pipeWaitCheck(c, p, o, ch, ch.msgs > 0)
	}
	if ch.msgs == 0 {
		p.ipcWaited = true
		p.stack[len(p.stack)-1].pc-- // read again when woken
		if s.pipeUnlockToWait(c, p, ch) {
			return false // pipe_readable() once the unlock's wake-up is done
		}
		s.waitReadable(c, p, o, ch)
		return false
	}
	ch.msgs--
	if isPipe(ch) {
		// pipe_read() wakes after __pipe_unlock() (pipeWakes)
		p.pipeWasFull, p.pipeWakeNextReader = ch.ipc.pipeRead(), p.ipcWaited
	}
	p.ipcWaited = false
	return true
}

// pipeWakes are a pipe call's wake-ups after __pipe_unlock():
// pipe_write() wakes one reader (exclusive, WF_SYNC as the step says)
// when the pipe was empty as it wrote (was_empty) and, for a writer that
// waited, the next writer while a slot is free (wake_next_writer);
// pipe_read() wakes
// one writer when the pipe was full as it started (was_full) and, for a
// reader that waited, the next reader while data is left
// (wake_next_reader).
func (s *sim) pipeWakes(c *cpuState, p *task, ch *chanState) {
	reader, sync, nextWriter := p.pipeWakeReader, p.pipeWakeSync, p.pipeWakeNextWriter
	wasFull, nextReader := p.pipeWasFull, p.pipeWakeNextReader
	p.pipeWakeReader, p.pipeWakeNextWriter, p.pipeWasFull, p.pipeWakeNextReader = false, false, false, false
	if !reader && !nextWriter && !wasFull && !nextReader {
		return
	}
	s.wakeBatch, s.wakeBatchCost = 0, 0
	if reader {
		s.wakeWaiters(c.id, &ch.receivers, false, sync)
	}
	if nextWriter && !ch.ipc.pipeFull() {
		s.wakeWaiters(c.id, &ch.senders, false, true)
	}
	if wasFull && len(ch.senders) > 0 {
		s.wakeWaiters(c.id, &ch.senders, false, true)
	}
	if nextReader && ch.msgs > 0 {
		s.wakeWaiters(c.id, &ch.receivers, false, true)
	}
	s.endWakeBatch(c.id)
}

// spinEnded handles the end of a spin: continue if granted, else block.
func (s *sim) spinEnded(c *cpuState, p *task) {
	p.spinning = false
	if p.blockOn == waitMutex { // given the lock or the spin broken: mutexLock again
		p.blockOn = waitNone
		s.advance(c, p)
		return
	}
	if p.granted {
		p.granted = false
		p.sysret = false // released during its spin: it made no futex_wait() call
		s.advance(c, p)
		return
	}
	s.blockTask(c, p)
}

// exitTask ends a task whose program is done (do_exit).
func (s *sim) exitTask(c *cpuState, p *task) {
	s.groupAlive[p.group]--
	s.alive--
	s.dequeueCurr(c, p, true)
	p.state = taskDone
	// A barrier may now be complete without the exited member.
	for _, b := range s.barrierList {
		if len(b.arrived) > 0 && len(b.arrived) >= s.groupAlive[b.arrived[0].group] {
			s.barrierRelease(c.id, b)
		}
	}
	if s.alive == 0 && s.finished == 0 {
		s.finished = s.now
	}
	s.schedule(c)
}

package sim

import (
	"schedplay/engine/scenario"
	"schedplay/engine/topo"
)

// The cost of IPC (docs/model.md, "The cost of IPC and wake-ups"): a send
// or recv on a channel with an ipc kind is a write()/read() or futex()
// system call. The task runs the kernel path as CPU work (entry/exit, the
// object's path, the cache lines it pulls from the CPU that touched the
// object last), the object's buffer follows the kernel's accounting, and
// its wake-ups follow the kernel's wait queues.

// Kernel layout constants of a 64-bit kernel with 64-byte cache lines
// (include/linux/skbuff.h, net/core/skbuff.c).
const (
	smpCacheBytes      = 64
	skbSharedInfoBytes = 320 // SKB_DATA_ALIGN(sizeof(struct skb_shared_info)), MAX_SKB_FRAGS 17
	skbStructBytes     = 256 // SKB_DATA_ALIGN(sizeof(struct sk_buff)) (232 bytes)
	skbSmallHeadCache  = 640 // SKB_SMALL_HEAD_CACHE_SIZE: SKB_HEAD_ALIGN(MAX_TCP_HEADER = 320)
	sendSharedLines    = 2   // unix_state_lock(other) + sk_receive_queue.lock (pipe: pipe->mutex, head)
	wakeRemoteLines    = 2   // the target's wake_list llist head and the task's p->on_rq/state line
	// ttwuWakerLines are the lines a wake-up pulls to the waker from a
	// wakee that last ran on another CPU: the waiter's wait-queue entry or
	// futex_q (on its stack, written there when it queued:
	// __wake_up_common(), futex_wake_mark()), p->__state and
	// p->on_rq/on_cpu (written there by __schedule() when it blocked) and
	// the target's call_single_queue (__ttwu_queue_wakelist(), drained there
	// last).
	ttwuWakerLines = 4
	// skbFreeLines are the slab lines a socket reader's consume_skb()
	// writes when the skb and its head were allocated on another CPU:
	// do_slab_free() → __slab_free()'s cmpxchg on each object's slab
	// freelist (skbuff_head_cache, skb_small_head_cache), mm/slub.c.
	skbFreeLines        = 2
	defaultMessageBytes = scenario.DefaultMessageBytes
)

// skbTruesize models the skb->truesize __alloc_skb() gives the head of a
// small unix_stream_sendmsg() (net/core/skbuff.c kmalloc_reserve(),
// __finalize_skb_around()): a head that fits SKB_SMALL_HEAD_CACHE_SIZE
// comes from skb_small_head_cache, a larger one from the next kmalloc
// size; truesize = SKB_TRUESIZE(head − shared info).
func skbTruesize(bytes int) int {
	obj := (bytes+smpCacheBytes-1)/smpCacheBytes*smpCacheBytes + skbSharedInfoBytes // SKB_HEAD_ALIGN()
	head := skbSmallHeadCache
	if obj > skbSmallHeadCache {
		head = 1024 // kmalloc_size_roundup(): the power-of-two caches above 640
		for head < obj {
			head *= 2
		}
	}
	return head - skbSharedInfoBytes + skbStructBytes + skbSharedInfoBytes // SKB_TRUESIZE(SKB_WITH_OVERHEAD(head))
}

// ipcChan is the kernel object behind a channel with an ipc kind.
type ipcChan struct {
	kind  scenario.IPCKind
	bytes int
	// socket: sk_wmem_alloc of the sending socket (bytes of queued skbs)
	truesize, wmem, sndbuf int
	// pipe: the occupied slots, oldest first; the slot limit and how
	// many messages one slot's page takes
	slots            []pipeBuf
	maxSlots, merges int
	// lastCPU touched the object last (its lines are there); -1 none
	lastCPU int
	// fileCPU holds, per end (fileRead, fileWrite), the line of that end's
	// struct file with its f_count: the CPU of the last fgetLight() that
	// took a reference; -1 none
	fileCPU [2]int
	// lockFree is when the object's spinlock is free again (objectLockWait)
	lockFree int64
	// mutex is pipe->mutex (mutex.go)
	mutex pipeMutex
}

// newIPCChan sets up the object of kind for messages of bytes on machine m.
func newIPCChan(kind scenario.IPCKind, bytes int, m *topo.IPC) *ipcChan {
	if bytes <= 0 {
		bytes = defaultMessageBytes
	}
	ch := &ipcChan{kind: kind, bytes: bytes, lastCPU: -1, fileCPU: [2]int{-1, -1}, sndbuf: m.SockSndbuf, maxSlots: m.PipeBuffers}
	ch.truesize = skbTruesize(bytes)
	ch.merges = max(m.PageSize/bytes, 1)
	return ch
}

// sockAllocSendFits models sock_alloc_send_pskb()'s wait condition
// (net/core/sock.c): a sender allocates its skb while
// sk_wmem_alloc_get() < sk_sndbuf, else it sleeps (sock_wait_for_wmem()).
func (ch *ipcChan) sockAllocSendFits() bool { return ch.wmem < ch.sndbuf }

// unixWritable models unix_writable() in net/unix/af_unix.c: the sender
// is woken once the queued bytes (with the socket's own reference) fall
// to a quarter of sk_sndbuf.
func (ch *ipcChan) unixWritable() bool { return (ch.wmem+1)<<2 <= ch.sndbuf }

// pipeBuf is one pipe_buffer of small messages: written is how many were
// copied into its page (buf->offset + buf->len, which reads do not move
// back), left how many are still unread (buf->len).
type pipeBuf struct{ written, left int }

// pipeFull is pipe_full() (include/linux/pipe_fs_i.h): every slot
// (pipe->max_usage) holds a buffer.
func (ch *ipcChan) pipeFull() bool { return len(ch.slots) >= ch.maxSlots }

// pipeCanMerge says a small write fits into the last buffer's page:
// pipe_write()'s merge into a pipe that is not empty
// (PIPE_BUF_FLAG_CAN_MERGE, offset + len + chars <= PAGE_SIZE, with
// offset + len what was written into the page).
func (ch *ipcChan) pipeCanMerge() bool {
	n := len(ch.slots)
	return n > 0 && ch.slots[n-1].written < ch.merges
}

// pipeWrite models pipe_write() in fs/pipe.c for one small message: with
// merge (the call's first try) it goes into the last buffer when the page
// has room (pipeCanMerge), else it takes a new slot; the call's for (;;)
// loop, where a writer that waited is, only takes new slots.
func (ch *ipcChan) pipeWrite(merge bool) {
	if merge && ch.pipeCanMerge() {
		n := len(ch.slots)
		ch.slots[n-1].written++
		ch.slots[n-1].left++
		return
	}
	ch.slots = append(ch.slots, pipeBuf{written: 1, left: 1})
}

// pipeRead models pipe_read() consuming one message: a buffer whose last
// message is read is released (its slot freed). It reports whether the
// pipe was full when the read started (was_full): pipe_read() then wakes
// a writer, whether or not this read freed a slot.
func (ch *ipcChan) pipeRead() (wasFull bool) {
	wasFull = ch.pipeFull()
	ch.slots[0].left--
	if ch.slots[0].left == 0 {
		copy(ch.slots, ch.slots[1:])
		ch.slots = ch.slots[:len(ch.slots)-1]
	}
	return wasFull
}

// sockAllocSkb is sock_alloc_send_pskb()'s skb_set_owner_w() (net/core/sock.c):
// a socket's skb is charged to sk_wmem_alloc as it is allocated, before
// the copy and the queueing.
func (ch *ipcChan) sockAllocSkb() { ch.wmem += ch.truesize }

// sockWfree is consume_skb() → sock_wfree() of a read skb: its truesize
// leaves sk_wmem_alloc, and it reports whether unix_write_space() wakes
// the senders (unix_writable()).
func (ch *ipcChan) sockWfree() bool {
	ch.wmem -= ch.truesize
	return ch.unixWritable()
}

// wakesAllWriters: unix sockets wait non-exclusively in
// sock_wait_for_wmem() (every sleeping sender is woken); pipe writers wait
// exclusively (wait_event_interruptible_exclusive(), one woken).
func (ch *ipcChan) wakesAllWriters() bool { return ch.kind == scenario.IPCSocket }

// wakesAllReaders: a unix stream reader waits non-exclusively
// (unix_stream_data_wait()), a pipe reader exclusively.
func (ch *ipcChan) wakesAllReaders() bool { return ch.kind == scenario.IPCSocket }

// cachelineCost is the time to pull a line last written on CPU from to
// CPU to (machine.latency.cacheline by distance; 0 on the same CPU).
func (s *sim) cachelineCost(from, to int) int64 {
	if from < 0 || from == to {
		return 0
	}
	cl := &s.r.Machine.Latency.Cacheline
	switch {
	case s.cpus[from].core == s.cpus[to].core:
		return int64(cl.SMT)
	case s.t.SDLLCID[from] == s.t.SDLLCID[to]:
		return int64(cl.LLC)
	case s.cpus[from].node == s.cpus[to].node:
		return int64(cl.Remote)
	}
	return s.nodeLine[s.cpus[from].node*len(s.nodeCores)+s.cpus[to].node]
}

// initNodeLines sets the cost of a line between every two nodes. Without
// machine.latency.cacheline.numa_distance every other node costs numa.
// With it, numa is the cost at that SLIT distance d₁, and the part of a
// line's cost past the node's dearest inner tier (llc where a node is one
// LLC, else remote) scales with the distance beyond local, as the
// firmware's table says remote memory does: inner + (numa − inner) ×
// (d − 10)/(d₁ − 10) (docs/model.md, "A line's cost by the SLIT's
// distance"). A hardware cost; no kernel function.
func (s *sim) initNodeLines() {
	dist := s.t.Machine.Distances // validated nodes × nodes: filled with 10/20 when not given
	nodes := len(s.nodeCores)
	cl := &s.r.Machine.Latency.Cacheline
	numa := int64(cl.NUMA)
	s.nodeLine = make([]int64, nodes*nodes)
	for i := range s.nodeLine {
		s.nodeLine[i] = numa
	}
	d1 := cl.NUMADistance
	if d1 <= topo.LocalDistance {
		return
	}
	nodeCPUs := make([]int, nodes)
	for i := range s.cpus {
		nodeCPUs[s.cpus[i].node]++
	}
	inner := int64(cl.LLC)
	for i := range s.cpus {
		if llc := s.t.SDLLC[i]; llc != nil && llc.Span.Weight() < nodeCPUs[s.cpus[i].node] {
			inner = int64(cl.Remote)
			break
		}
	}
	hop := max(numa-inner, 0)
	for i := range nodes {
		for j := range nodes {
			if d := dist[i][j]; i != j {
				s.nodeLine[i*nodes+j] = inner + hop*int64(d-topo.LocalDistance)/int64(d1-topo.LocalDistance)
			}
		}
	}
}

// ipcPathCost is the CPU time a send (or recv) on ch costs the task on
// CPU cpu: the object's path and the object's cache lines pulled from the
// CPU that touched it last (for a recv, the message itself; a socket recv
// also frees the skb and its head into the slabs of the CPU that
// allocated them). A socket or futex call also pays its syscall entry and
// exit here and waits for the object's spinlock (objectLockWait); a pipe
// call pays the syscall in its own step (opSyscall) and runs this path
// while it holds pipe->mutex (mutexLock). It marks cpu as the object's
// last toucher.
func (s *sim) ipcPathCost(ch *ipcChan, p *task, cpu int, send bool) int64 {
	m := &s.r.Machine
	var path int64 // the object's own path
	lines := int64(sendSharedLines)
	locked := int64(sendSharedLines)
	switch {
	case ch.kind == scenario.IPCSocket && send:
		path = int64(m.IPC.SocketSend)
	case ch.kind == scenario.IPCSocket:
		path = int64(m.IPC.SocketRecv)
		lines = int64(m.IPC.MessageLines) + skbFreeLines
	case ch.kind == scenario.IPCPipe && send:
		path = int64(m.IPC.PipeWrite)
	case ch.kind == scenario.IPCPipe:
		path = int64(m.IPC.PipeRead)
		lines = int64(m.IPC.MessageLines)
	case ch.kind == scenario.IPCFutex && send:
		path = int64(m.IPC.FutexWake)
		lines, locked = 1, 1 // the futex hash bucket's lock
	default:
		// futex_wait() returning: the syscall only. Its bucket lock was
		// taken before the check (futexWaitSetup); a woken waiter does not
		// take it again (futex_unqueue() finds q->lock_ptr cleared by
		// futex_wake_mark()), so the bucket's line stays where it is.
		return s.costs.vary(int64(m.Latency.Syscall))
	}
	line := s.cachelineCost(ch.lastCPU, cpu)
	ch.lastCPU = cpu
	if ch.kind == scenario.IPCPipe { // the whole pipe_write()/pipe_read() runs under __pipe_lock()
		return s.costs.vary(path + lines*line)
	}
	cost := s.costs.vary(int64(m.Latency.Syscall) + s.fgetLight(ch, p, cpu, send) + path + lines*line)
	return cost + s.objectLockWait(ch, locked*line)
}

// The two ends of a pipe or socket pair, each its own struct file.
const (
	fileRead  = 0
	fileWrite = 1
)

// fgetLight is __fget_light() under fdget() for a read() or write() by p
// on cpu, with its fdput() (fs/file.c): a task whose files_struct no
// other task shares borrows the file without touching it; in a
// multi-threaded process (files->count > 1) the call takes a reference,
// an atomic increment of file->f_count and the decrement at fdput(), so
// the line of that end's struct file comes over from the CPU of the last
// call that did the same (the other threads writing to that end). It
// returns that line's cost. futex() takes an address, not an fd: none.
func (s *sim) fgetLight(ch *ipcChan, p *task, cpu int, send bool) int64 {
	if !p.filesShared || ch.kind == scenario.IPCFutex {
		return 0
	}
	end := fileRead
	if send {
		end = fileWrite
	}
	line := s.cachelineCost(ch.fileCPU[end], cpu)
	ch.fileCPU[end] = cpu
	return line
}

// futexWaitSetup is futex_wait_setup()'s futex_q_lock() by a waiter on
// cpu: the hash bucket's lock, whose line is then this CPU's, so the next
// futex_wake() pulls it from here. Its own cost is left out (docs/model.md,
// "System calls and IPC objects").
func (ch *ipcChan) futexWaitSetup(cpu int) { ch.lastCPU = cpu }

// objectLockWait models the spinlock of an IPC object under contention
// (unix_state_lock() of the receiving socket with its queue lock, the
// futex hash bucket's lock): a call takes it when its path starts and
// holds it while the lock's and the queue's lines come over from the last
// holder; sockets only queue or unlink the skb under unix_state_lock(),
// the allocation and the copy are outside. Calls from several CPUs queue
// behind one another, spinning (queued_spin_lock_slowpath()). It returns
// how long this call waits. Simplification: the lock is taken at the
// path's start, not part-way through it. pipe->mutex, a sleeping lock, is
// mutex.go's.
func (s *sim) objectLockWait(ch *ipcChan, hold int64) int64 {
	if hold <= 0 {
		return 0
	}
	wait := max(ch.lockFree-s.now, 0)
	ch.lockFree = s.now + wait + hold
	return wait
}

// cpuidleSelect models the cpuidle governor's choice at idle entry
// (menu_select() in drivers/cpuidle/governors/menu.c, simplified): the
// deepest state whose target residency the predicted idle time reaches
// and whose exit latency the PM QoS limit (cpu_dma_latency) allows; 0 is
// WFI. The prediction is an average of the CPU's past idle periods (the
// governor's correction factors and the next timer are not modelled).
func (s *sim) cpuidleSelect(c *cpuState) int {
	st := 0
	for i, is := range s.r.Machine.Latency.IdleStates {
		if int64(is.TargetResidency) > c.idlePredict || (s.pmQoS >= 0 && int64(is.ExitLatency) > s.pmQoS) {
			break
		}
		st = i + 1
	}
	return st
}

// cpuidleReflect is cpuidle_reflect() → the governor's update at the end of
// an idle period (menu_update(), simplified like cpuidleSelect): the
// period's length, from the idle task becoming rq->curr to a task or the
// kworker replacing it, enters the EWMA (weight 1/8) the next selection
// reads. It is the governor's own history, whatever path brought the
// task, not rq->avg_idle's, which only newidle balance stamps and which
// 6.12 samples at wake-ups alone. Interrupt work on the idle CPU (the ILB
// softirq, a device interrupt) does not end the period here, where the
// kernel's governor sees each interrupt's wake-up of the state.
func (s *sim) cpuidleReflect(c *cpuState) {
	c.idlePredict += (s.now - c.idleEnter - c.idlePredict) / 8
}

// idleExitCost is what an IPI to c pays for c to leave its idle state: its
// idle state's exit latency when nothing runs there (the kernel noise's
// kworker keeps it awake), else 0.
func (s *sim) idleExitCost(c *cpuState) int64 {
	if c.curr != nil || c.hkBusy {
		return 0
	}
	return s.idleExitLatency(c)
}

// idleExitLatency is the exit latency of the state an idle CPU is in
// (struct cpuidle_state.exit_latency_ns; WFI's is machine.latency.idle_exit).
func (s *sim) idleExitLatency(c *cpuState) int64 {
	if c.idleState == 0 {
		return int64(s.r.Machine.Latency.IdleExit)
	}
	return int64(s.r.Machine.Latency.IdleStates[c.idleState-1].ExitLatency)
}

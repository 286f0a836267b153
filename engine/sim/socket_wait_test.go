package sim

import (
	"context"
	"testing"
)

// socketStepSim is ipcStepSim with task 0 reading two messages from unix
// stream socket "s" and tasks 1… writing 100-byte messages to it; the
// writers sleep after their write (opSockAlloc, opKernel, opSend,
// opSleep).
func socketStepSim(t *testing.T, writers int) *sim {
	t.Helper()
	return ipcStepSim(t, `[{"repeat":2,"do":[{"recv":"s"}]},{"compute":"1s"}]`, `[{"send":"s","ipc":"socket","bytes":100},{"sleep":"1s"}]`, writers)
}

// unix_stream_sendmsg() allocates its skb first (sock_alloc_send_pskb(),
// net/unix/af_unix.c:2307-2321) and sleeps there while sk_wmem_alloc is
// at sk_sndbuf; the copy, unix_state_lock() and the queueing come after.
// A writer that finds the socket full sleeps before its path, and pays
// the path after its wake-up, before its skb is queued.
func TestSocketWriterSleepsBeforeItsPath(t *testing.T) {
	s := socketStepSim(t, 1)
	ch := s.chanList[0]
	ch.ipc.wmem = ch.ipc.sndbuf // full
	w := startAt(s, 1, 1, 0)
	if w.state != taskBlocked || len(ch.senders) != 1 {
		t.Fatalf("the writer of a full socket should sleep in sock_alloc_send_pskb(): state %v, %d sleeping writers", w.state, len(ch.senders))
	}
	if w.requested != 0 {
		t.Errorf("the writer paid %.0f ns of its path before it slept; want none (the allocation comes first)", w.requested)
	}
	ch.ipc.wmem = 0 // the reader freed every skb (sock_wfree())
	s.wakeWaiters(0, &ch.senders, true, true)
	if err := s.runUntil(context.Background(), s.now+200_000, 0, 1); err != nil {
		t.Fatal(err)
	}
	if body := w.stack[0].body; w.stack[0].pc != len(body) || body[2].kind != opSend {
		t.Fatalf("the woken writer should have queued its skb and gone to sleep: pc %d of %d", w.stack[0].pc, len(body))
	}
	if path := float64(s.r.Machine.IPC.SocketSend); w.requested < path {
		t.Errorf("after its wake-up the writer paid %.0f ns before it slept again; want its path (at least %.0f ns)", w.requested, path)
	}
}

// unix_stream_read_generic() frees the skb it read with consume_skb()
// after copying it to the reader (net/unix/af_unix.c:2951-2976):
// sock_wfree() → unix_write_space() wakes the sleeping writers then, not
// as the skb is taken from the queue, and only once unix_writable()
// holds.
func TestSocketReadWakesWritersAfterItsCopy(t *testing.T) {
	s := socketStepSim(t, 1)
	ch := s.chanList[0]
	x := ch.ipc
	ch.ipc.wmem = ch.ipc.sndbuf
	w := startAt(s, 1, 1, 0)
	for i := 0; i < 4 && w.state == taskRunning; i++ {
		finishKernelWork(s, w) // until it sleeps in sock_wait_for_wmem()
	}
	if w.state != taskBlocked {
		t.Fatalf("set-up: the writer should sleep, state %v", w.state)
	}
	// k+1 skbs queued: unix_writable() fails until two are freed
	k := x.sndbuf/4/x.truesize + 1
	x.wmem, ch.msgs = (k+1)*x.truesize, k+1
	if (k*x.truesize+1)<<2 <= x.sndbuf || ((k-1)*x.truesize+1)<<2 > x.sndbuf {
		t.Fatalf("set-up: %d skbs should sit one above unix_writable()'s threshold", k)
	}
	r := startAt(s, 0, 0, 0) // takes the first skb and starts copying it
	if r.state != taskRunning || ch.msgs != k {
		t.Fatalf("set-up: the reader should have taken an skb: state %v, %d queued", r.state, ch.msgs)
	}
	finishKernelWork(s, r) // frees it; takes the second and copies it
	if w.state != taskBlocked || x.wmem != k*x.truesize || ch.msgs != k-1 {
		t.Fatalf("with %d skbs charged (unix_writable() fails) the writer should sleep on: state %v, sk_wmem_alloc %d, %d queued",
			k, w.state, x.wmem, ch.msgs)
	}
	finishKernelWork(s, r)
	if w.state == taskBlocked || len(ch.senders) != 0 || x.wmem != (k-1)*x.truesize {
		t.Errorf("after the second copy: writer state %v, %d sleeping, sk_wmem_alloc %d; want the skb freed and the writer woken", w.state, len(ch.senders), x.wmem)
	}
}

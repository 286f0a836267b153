package sim

import (
	"fmt"
	"math"
	"testing"

	"schedplay/engine/scenario"
	"schedplay/engine/scenario/scenariotest"
	"schedplay/engine/topo"
)

// A 100-byte unix stream message is charged 896 bytes (a 640-byte
// skb_small_head_cache head: SKB_TRUESIZE(320)); with the default
// sk_sndbuf (SK_WMEM_MAX = 212992) a socket holds 238 of them and wakes
// its writers once 59 are left (unix_writable(): (wmem + 1) × 4 ≤ sndbuf).
func TestUnixSocketBuffer(t *testing.T) {
	if got := skbTruesize(100); got != 896 {
		t.Fatalf("truesize of 100 bytes = %d, want 896", got)
	}
	if got := skbTruesize(1000); got != 2048+256 {
		t.Errorf("truesize of 1000 bytes = %d, want a 2048-byte kmalloc head (1024 + 320 bytes): 2304", got)
	}
	m := topo.IPC{SockSndbuf: 212992, PipeBuffers: 16, PageSize: 4096}
	ch := newIPCChan(scenario.IPCSocket, 100, &m)
	n := fill(t, ch)
	if n != 238 {
		t.Errorf("the socket holds %d messages, want 238", n)
	}
	woke := 0
	for left := n; left > 0; left-- {
		if readOne(ch) {
			woke = left - 1
			break
		}
	}
	if woke != 59 {
		t.Errorf("writers woken with %d messages left, want 59", woke)
	}
	// sock_alloc_send_pskb() allocates while sk_wmem_alloc < sk_sndbuf: a
	// buffer of exactly ten skbs takes ten, not eleven
	m10 := topo.IPC{SockSndbuf: 10 * 896, PipeBuffers: 16, PageSize: 4096}
	ten := newIPCChan(scenario.IPCSocket, 100, &m10)
	if n := fill(t, ten); n != 10 {
		t.Errorf("a socket of 10 skbs' sk_sndbuf holds %d messages, want 10", n)
	}
	// unix sockets wait non-exclusively (sock_wait_for_wmem(),
	// unix_stream_data_wait()): a wake-up wakes every waiter; pipes wake one
	pipe := newIPCChan(scenario.IPCPipe, 100, &m)
	if !ch.wakesAllWriters() || !ch.wakesAllReaders() || pipe.wakesAllWriters() || pipe.wakesAllReaders() {
		t.Errorf("wake-all: socket writers %v, readers %v; pipe writers %v, readers %v; want the socket's all, the pipe's one",
			ch.wakesAllWriters(), ch.wakesAllReaders(), pipe.wakesAllWriters(), pipe.wakesAllReaders())
	}
}

// fill writes to ch until a write would block and returns how many went
// through; a buffer that never fills fails the test rather than growing
// without end.
func fill(t *testing.T, ch *ipcChan) int {
	t.Helper()
	n := 0
	for ; writable(ch); n++ {
		if n == 1<<20 {
			t.Fatalf("the %v channel took %d writes and still has room", ch.kind, n)
		}
		writeOne(ch)
	}
	return n
}

// writable says whether a write goes through now: a socket's skb
// allocation, or a pipe write at the start of its call (a free slot, or
// room to merge).
func writable(ch *ipcChan) bool {
	if ch.kind == scenario.IPCSocket {
		return ch.sockAllocSendFits()
	}
	return !ch.pipeFull() || ch.pipeCanMerge()
}

// writeOne accounts one message written to ch: a socket's skb charged at
// its allocation, a pipe write's first try (merging when it can).
func writeOne(ch *ipcChan) {
	if ch.kind == scenario.IPCSocket {
		ch.sockAllocSkb()
		return
	}
	ch.pipeWrite(true)
}

// readOne accounts one message read from ch and reports whether the
// writers are woken: a socket's once unix_writable() holds again as the
// skb is freed, a pipe's when it was full as the read started.
func readOne(ch *ipcChan) bool {
	if ch.kind == scenario.IPCSocket {
		return ch.sockWfree()
	}
	return ch.pipeRead()
}

// Small writes merge into a non-empty pipe's last page (40 of 100 bytes
// to a 4 KiB page) and a new slot is taken otherwise; a pipe of 16 slots
// is full at 640 messages. pipe_read() wakes a writer whenever the pipe
// was full as the read started (was_full), before any slot is free; the
// page of a slot takes no more than 40 messages in all (merging checks
// buf->offset + buf->len, which reads do not move back), so a write goes
// through only once a page's last message is read.
func TestPipeSlots(t *testing.T) {
	m := topo.IPC{SockSndbuf: 212992, PipeBuffers: 16, PageSize: 4096}
	ch := newIPCChan(scenario.IPCPipe, 100, &m)
	n := fill(t, ch)
	if n != 640 || len(ch.slots) != 16 {
		t.Fatalf("the pipe holds %d messages in %d slots, want 640 in 16", n, len(ch.slots))
	}
	for i := 0; i < 39; i++ {
		if !readOne(ch) {
			t.Fatalf("read %d of a full pipe did not wake a writer (was_full)", i)
		}
		if writable(ch) {
			t.Fatalf("after read %d a write goes through, but no slot is free and the last page is full", i)
		}
	}
	if !readOne(ch) || !writable(ch) {
		t.Fatal("freeing a slot of a full pipe should wake a writer and take a write")
	}
	writeOne(ch) // the 16th slot again, one message in its page
	if !readOne(ch) || !writable(ch) {
		t.Error("every slot taken: pipe_full() holds for a read (a writer is woken), and the last page still takes merges")
	}
	// One slot: a page that took 40 messages takes no 41st after a read.
	m1 := topo.IPC{SockSndbuf: 212992, PipeBuffers: 1, PageSize: 4096}
	one := newIPCChan(scenario.IPCPipe, 100, &m1)
	fill(t, one)
	readOne(one)
	if writable(one) {
		t.Errorf("a one-slot pipe whose page took 40 messages takes another after one read: %v", one.slots)
	}
	// An emptied pipe starts a new slot per write until one merges.
	e := newIPCChan(scenario.IPCPipe, 100, &m)
	writeOne(e)
	readOne(e)
	writeOne(e)
	if len(e.slots) != 1 {
		t.Errorf("slots after write/read/write: %v", e.slots)
	}
	// a read from a pipe that was not full wakes no writer (was_full false)
	if readOne(e) {
		t.Error("a read of a pipe with 15 free slots woke a writer")
	}
}

// pipePingPong is sched-pipe's two processes pinned on cpus a and b of
// vera, with machine.latency/ipc overrides in sets. The costs are their
// nominal values (machine.latency.variation 0), so a change of one moves
// op time by exactly its share of the critical path.
func pipePingPong(t *testing.T, a, b string, sets ...string) float64 {
	t.Helper()
	doc := `{"schedplay":1,"machine":{"preset":"vera"},"policy":{"preset":"v6-on"},"workload":{"preset":"sched-pipe"},
		"run":{"duration":"2s","reps":1,"seed":1}}`
	sets = append([]string{`workload.groups[0].cpus="` + a + `"`, `workload.groups[1].cpus="` + b + `"`, "workload.groups[0].program[0].repeat=2000", "workload.groups[1].program[0].repeat=2000", "machine.latency.variation=0"}, sets...)
	r := scenariotest.ResolveSets(t, doc, sets...)
	return mustRun(t, r, Options{}).Summary.OpTime.Mean
}

// An IPC cost shows up in op time by the amount the critical path holds
// it: per sched-pipe loop two wake-ups (each ttwu, an IPI to the other
// core and a context switch there), two writes and two reads, four
// syscalls. Every kernel path runs at the speed of the core that runs it
// (vera's core 0 runs at 0.957, core 1 at 1.0): the syscall and pipe paths
// as CPU work, ttwu on the waker's core, the IPI's handling and the switch
// on the woken side's, one of each per side.
// The waker's own IPI send is off the path (the woken side is still on its
// way when the waker blocks in its read).
func TestIPCCostsMoveSchedPipeOpTime(t *testing.T) {
	base := pipePingPong(t, "0", "1")
	r := scenariotest.ResolveSets(t, `{"schedplay":1,"machine":{"preset":"vera"},"workload":{"preset":"sched-pipe"}}`)
	tp, err := topo.Build(r.Machine, r.Policy.DomainPolicy)
	if err != nil {
		t.Fatal(err)
	}
	perSide := 1/tp.CPUs[0].Speed + 1/tp.CPUs[1].Speed // one path on each side
	l := r.WithDefaults().Machine.Latency
	syscall := float64(l.Syscall) // the default the 600ns override replaces
	for _, c := range []struct {
		set   string
		delta float64 // ns added per loop
	}{
		{"machine.latency.context_switch=1700ns", 1000 * perSide},
		{"machine.latency.ipi=2us", 1000 * perSide},
		{"machine.latency.wakeup=1800ns", 1000 * perSide},
		{"machine.latency.syscall=600ns", 2 * (600 - syscall) * perSide},
		{"machine.ipc.pipe_write=800ns", 500 * perSide},
		{"machine.ipc.pipe_read=750ns", 500 * perSide},
		{"machine.latency.ipi_send=1300ns", 0},
	} {
		got := pipePingPong(t, "0", "1", c.set) - base
		if math.Abs(got-c.delta) > 0.02*c.delta+5 {
			t.Errorf("%s: op time moved %+.0f ns per loop; want %+.0f", c.set, got, c.delta)
		}
	}
	// An SMT pair pulls the pipe's lines from the sibling's L1/L2, not
	// across the mesh: cheaper by about 2 × (message_lines + send lines +
	// wake lines) × (llc − smt), less what the pair loses to running both
	// sides on core 0: the wake-up path of the side that moved from core 1
	// (ttwu, the IPI's handling, the switch) at 0.957 instead of 1.0, and
	// the spatial core partitioning while the waker finishes its call (the
	// part this estimate leaves out).
	smt := pipePingPong(t, "0", "176")
	lines := 2 * float64(6+sendSharedLines+wakeRemoteLines) * float64(l.Cacheline.LLC-l.Cacheline.SMT)
	slower := float64(l.Wakeup+l.IPI+l.ContextSwitch) * (1/tp.CPUs[0].Speed - 1/tp.CPUs[1].Speed)
	if d, want := base-smt, lines-slower; d < 0.6*want || d > 1.1*want {
		t.Errorf("SMT pair %.0f ns/loop, separate cores %.0f: difference %.0f, want about %.0f", smt, base, d, want)
	}
}

// belowFraction is the share of a repetition's latency samples below 2^k ns.
func belowFraction(l Latency, k int) float64 {
	var below, all int64
	for i, c := range l.Buckets {
		all += c
		if i < k {
			below += c
		}
	}
	return float64(below) / float64(max(all, 1))
}

// While the tick runs, hrtimer_interrupt() at a jiffy that falls inside a
// sleeper's slack window expires its timer there: a 1 ms cyclictest whose
// expiries sit 20 µs before every fourth jiffy (HZ 250) wakes early a
// quarter of the time when a hog keeps its CPU busy. Alone, it wakes early
// as often on Vera, whose cpuidle driver has WFI only: do_idle() keeps the
// tick through an idle period that the tick does not interrupt (the 1 ms
// sleep ends before the jiffy after it), f4c31b07b136. With a deeper idle
// state a governor runs, modelled as stopping the tick at idle entry: then
// never.
func TestTimerSlackEndsAtBusyTick(t *testing.T) {
	doc := func(hog, states string) string {
		return `{"schedplay":1,"machine":{"preset":"vera","latency":{"idle_states":` + states + `}},"policy":{"preset":"v6-on"},
		"workload":{"metric":"latency","groups":[
			{"name":"c","count":1,"cpus":"0","nice":-20,"start":"3980us","program":[{"periodic":{"every":"1ms","do":[{"compute":"2us"}]}}]}` + hog + `]},
		"run":{"duration":"400ms","until":"duration","reps":1,"seed":1}}`
	}
	const hog = `,{"name":"hog","count":1,"cpus":"0","program":[{"compute":"1s"}]}`
	const deeper = `[{"name":"C1","exit_latency":"2us","target_residency":"100ms"}]`
	for _, c := range []struct {
		name, hog, states string
		early             bool
	}{
		{"with a hog", hog, `[]`, true},
		{"alone, WFI only (tick kept)", "", `[]`, true},
		{"alone, a governor (tick stopped)", "", deeper, false},
	} {
		l := mustRun(t, resolveJSON(t, doc(c.hog, c.states)), Options{}).Reps[0].Latency
		f := belowFraction(l, 15)
		if c.early && (f < 0.2 || f > 0.3) {
			t.Errorf("%s: %.2f of the wake-ups under 32 µs; want about a quarter (the expiries 20 µs before a jiffy)", c.name, f)
		}
		if !c.early && f != 0 {
			t.Errorf("%s: %.2f of the wake-ups under 32 µs; want none (slack 50 µs)", c.name, f)
		}
	}
}

// TestCachelineTiers: a line comes from the SMT sibling, another core of
// the LLC, another LLC of the node (remote) or another node (numa). On
// epyc-milan (8-core CCXs, two sockets) each tier is used; left out,
// numa takes remote's value.
func TestCachelineTiers(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"preset":"epyc-milan"},"workload":{"preset":"idle"},"run":{"duration":"1ms","seed":1}}`)
	for _, c := range []struct {
		from, to int
		want     int64
	}{{0, 128, 10}, {0, 1, 23}, {0, 8, 107}, {0, 64, 197}, {0, 0, 0}} {
		if got := s.cachelineCost(c.from, c.to); got != c.want {
			t.Errorf("line from CPU %d to %d: %d ns; want %d", c.from, c.to, got, c.want)
		}
	}
	d := simOf(t, `{"schedplay":1,"machine":{"preset":"epyc-milan","latency":{"cacheline":{"smt":"10ns","llc":"23ns","remote":"150ns"}}},"workload":{"preset":"idle"},"run":{"duration":"1ms","seed":1}}`)
	if got := d.cachelineCost(0, 64); got != 197 {
		t.Errorf("the preset's numa is kept when the scenario sets only remote: %d; want 197", got)
	}
	v := simOf(t, `{"schedplay":1,"machine":{"nodes":2,"cores_per_node":4,"threads_per_core":1,"latency":{"cacheline":{"remote":"150ns"}}},"workload":{"preset":"idle"},"run":{"duration":"1ms","seed":1}}`)
	if got := v.cachelineCost(0, 4); got != 150 {
		t.Errorf("numa left out: %d ns across nodes; want remote's 150", got)
	}
}

// TestCachelineBySLITDistance: with cacheline.numa_distance, numa is a
// line's cost at that SLIT distance, and to a node at another distance the
// part past the node's dearest inner tier scales with the distance beyond
// local. On kunpeng920 (one LLC per die, 36 ns inside it, 81 ns to the
// next die at distance 12) the other socket's dies at 20, 22 and 24 cost
// 36 + 45·10/2, 36 + 45·12/2 and 36 + 45·14/2 ns. Without numa_distance
// every other node costs numa; where a node holds several LLCs the inner
// tier is remote, and a nearer node than numa_distance costs less.
func TestCachelineBySLITDistance(t *testing.T) {
	s := simOf(t, `{"schedplay":1,"machine":{"preset":"kunpeng920"},"workload":{"preset":"idle"},"run":{"duration":"1ms","seed":1}}`)
	for _, c := range []struct {
		from, to int
		want     int64
	}{{0, 1, 36}, {0, 32, 81}, {0, 64, 261}, {64, 0, 261}, {0, 96, 306}, {32, 96, 351}, {64, 96, 81}} {
		if got := s.cachelineCost(c.from, c.to); got != c.want {
			t.Errorf("kunpeng920: line from CPU %d to %d: %d ns; want %d", c.from, c.to, got, c.want)
		}
	}
	const three = `{"schedplay":1,"machine":{"nodes":3,"cores_per_node":8,"clusters_per_node":2,"llc":"cluster","threads_per_core":1,"distances":[[10,12,14],[12,10,14],[14,14,10]],"latency":{"cacheline":{"llc":"20ns","remote":"100ns","numa":"140ns"%s}}},"workload":{"preset":"idle"},"run":{"duration":"1ms","seed":1}}`
	for _, c := range []struct {
		name, at string
		want     [][3]int64 // from, to, ns
	}{
		{"no numa_distance", "", [][3]int64{{0, 8, 140}, {0, 16, 140}, {8, 16, 140}, {0, 4, 100}}},
		{"numa at 12", `,"numa_distance":12`, [][3]int64{{0, 1, 20}, {0, 4, 100}, {0, 8, 140}, {0, 16, 180}, {8, 16, 180}}},
		{"numa at 14", `,"numa_distance":14`, [][3]int64{{0, 8, 120}, {0, 16, 140}}},
	} {
		w := simOf(t, fmt.Sprintf(three, c.at))
		for _, x := range c.want {
			if got := w.cachelineCost(int(x[0]), int(x[1])); got != x[2] {
				t.Errorf("three nodes of two LLCs, %s: line from CPU %d to %d: %d ns; want %d", c.name, x[0], x[1], got, x[2])
			}
		}
	}
}

// Non-exclusive waiters are queued at the head of their wait queue
// (prepare_to_wait() → __add_wait_queue()), so __wake_up_common() wakes
// them newest first: a unix socket's sleeping senders (sock_wait_for_wmem())
// once unix_write_space() runs. Exclusive ones (a pipe's writers) are
// queued at the tail, and the first to block is woken.
func TestWaitQueueOrder(t *testing.T) {
	const doc = `{"schedplay":1,"machine":{"nodes":1,"cores_per_node":4,"threads_per_core":1},
		"workload":{"groups":[{"name":"w","count":3,"program":[{"compute":"1ms"}]}]},"run":{"duration":"10ms","seed":1}}`
	s := simOf(t, doc)
	blocked := func() []*task {
		var l []*task
		for i, p := range s.tasks[:3] {
			p.cpu, p.state, p.granted = i+1, taskBlocked, false
			l = append(l, p) // in the order they blocked: 0, 1, 2
		}
		return l
	}
	l := blocked()
	s.wakeBatch, s.wakeBatchCost = 0, 0
	s.wakeWaiters(0, &l, true, true)
	if s.tasks[2].state != taskWaking || s.tasks[0].state != taskBlocked || !s.tasks[0].granted || len(l) != 0 {
		t.Errorf("non-exclusive: states %d %d %d; want the last to block (task 2) woken first, the others granted after it",
			s.tasks[0].state, s.tasks[1].state, s.tasks[2].state)
	}
	s = simOf(t, doc)
	l = blocked()
	s.wakeBatch, s.wakeBatchCost = 0, 0
	s.wakeWaiters(0, &l, false, true)
	if s.tasks[0].state != taskWaking || len(l) != 2 {
		t.Errorf("exclusive: task 0 in state %d, %d left; want the first to block woken alone", s.tasks[0].state, len(l))
	}
}

// TestPipeAndSocketSendsWakeSync: pipe_write() and sock_def_readable()
// wake with wake_up_interruptible_sync_poll() whatever the program says,
// so a pipe or socket send compiles to a WF_SYNC wake-up without "sync";
// a plain channel's send keeps the step's flag.
func TestPipeAndSocketSendsWakeSync(t *testing.T) {
	for _, c := range []struct {
		ipc  scenario.IPCKind
		want bool
	}{{scenario.IPCPipe, true}, {scenario.IPCSocket, true}, {scenario.IPCFutex, false}, {scenario.IPCNone, false}} {
		cp := &compiler{barriers: map[string]int{}, chans: map[string]int{}, pools: map[string]int{}, timed: map[string]int{}, inst: -1}
		o, err := cp.compileStep(0, scenario.Step{Send: "c", IPC: c.ipc})
		if err != nil {
			t.Fatal(err)
		}
		if o.sync != c.want {
			t.Errorf("send on a %q channel without sync: WF_SYNC %v; want %v", c.ipc, o.sync, c.want)
		}
	}
}

// With idle states that poll (machine.latency.idle_polling), sched pipe's
// two wake-ups a loop reach an idle CPU without an IPI: the op time drops
// by one latency.ipi on each side, and latency.ipi no longer moves it.
func TestIdlePollingTakesTheIPIOffSchedPipe(t *testing.T) {
	r := scenariotest.ResolveSets(t, `{"schedplay":1,"machine":{"preset":"vera"},"workload":{"preset":"sched-pipe"}}`)
	tp, err := topo.Build(r.Machine, r.Policy.DomainPolicy)
	if err != nil {
		t.Fatal(err)
	}
	perSide := 1/tp.CPUs[0].Speed + 1/tp.CPUs[1].Speed
	ipi := float64(r.WithDefaults().Machine.Latency.IPI)
	base := pipePingPong(t, "0", "1")
	polling := pipePingPong(t, "0", "1", "machine.latency.idle_polling=true")
	if d, want := base-polling, ipi*perSide; math.Abs(d-want) > 0.02*want+5 {
		t.Errorf("idle_polling took %.0f ns off a loop (%.0f → %.0f); want %.0f", d, base, polling, want)
	}
	if d := pipePingPong(t, "0", "1", "machine.latency.idle_polling=true", "machine.latency.ipi=3us") - polling; math.Abs(d) > 5 {
		t.Errorf("with idle_polling, latency.ipi still moves the loop by %+.0f ns", d)
	}
}

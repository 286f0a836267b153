package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"schedplay/engine/scenario"
	"schedplay/engine/topo"
	"schedplay/engine/units"
	"schedplay/presets"
)

// randomScenario builds a small random machine, policy and workload.
func randomScenario(rng *rand.Rand) *scenario.Resolved {
	d := func(ns int64) *units.Duration { v := units.Duration(ns); return &v }
	m := topo.Machine{Nodes: 1 + rng.IntN(2), ThreadsPerCore: []int{1, 2, 2, 4}[rng.IntN(4)]}
	m.CoresPerNode = 1 + rng.IntN(8)
	if rng.IntN(2) == 0 {
		m.Numbering = topo.SiblingMajor
	} else {
		m.Numbering = topo.CoreMajor
	}
	total := m.Nodes * m.CoresPerNode
	if rng.IntN(2) == 0 && total >= 2 {
		little := total / 2
		m.CoreClasses = []topo.CoreClass{
			{Name: "little", Cores: little, Capacity: 462, Speed: 0.55},
			{Name: "big", Cores: total - little, Capacity: 1024, Speed: 1},
		}
		if m.ThreadsPerCore > 1 && rng.IntN(2) == 0 {
			m.CoreClasses[0].Threads = 1 // hybrid: single-thread little cores
		}
	}
	m.SMT.Model = []topo.SMTKind{topo.SMTSpatial, topo.SMTCompetitive, topo.SMTFolding}[rng.IntN(3)]
	if m.SMT.Model == topo.SMTFolding && m.ThreadsPerCore == 1 {
		m.SMT.Model = topo.SMTCompetitive
	}
	m.SMT.Hold = units.Duration(rng.Int64N(3_000_000))
	m.SMT.Switch = units.Duration(rng.Int64N(3000))
	if rng.IntN(3) == 0 {
		m.Housekeeping = &topo.Housekeeping{Period: units.Duration(1_000_000 + rng.Int64N(4_000_000)), Run: units.Duration(5_000 + rng.Int64N(30_000))}
	}
	if rng.IntN(2) == 0 {
		m.Boost = [][2]float64{{0, 1.1}, {1, 1}}
	}
	if m.CoresPerNode%2 == 0 && m.CoreClasses == nil && rng.IntN(3) == 0 {
		m.ClustersPerNode = 2
	}
	if m.Nodes == 2 && rng.IntN(2) == 0 {
		far := 12 + rng.IntN(30)
		m.Distances = [][]int{{10, far}, {far, 10}}
	}
	var p scenario.Policy
	switch rng.IntN(4) {
	case 1:
		p.SMTAsymPacking = topo.SMTAsymOn
		p.IdleSelectAsym = true
	case 2:
		lv := []topo.Level{topo.LevelSMT, topo.LevelMC}
		p.AsymPacking = &lv
		p.Priority = topo.PriorityCapacityPE0
		f := false
		p.AsymCPUCapacity = &f
		p.IdleSelectAsym = true
	case 3:
		p.HZ = 1000
	}
	if rng.IntN(4) == 0 { // 6.1's CFS instead of EEVDF
		f := false
		p.Features.EEVDF = &f
	}
	randomFeatures(rng, &p.Features)
	ncpu := m.NumCPUs()
	var w scenario.Workload
	// A channel is one kernel object (checkChannelKinds): its kind and
	// message size are drawn once.
	var chanIPC [2]scenario.IPCKind
	var chanBytes [2]int
	for c := range chanIPC {
		chanIPC[c] = []scenario.IPCKind{scenario.IPCNone, scenario.IPCPipe, scenario.IPCSocket, scenario.IPCFutex}[rng.IntN(4)]
		if (chanIPC[c] == scenario.IPCPipe || chanIPC[c] == scenario.IPCSocket) && rng.IntN(2) == 0 {
			chanBytes[c] = 1 + rng.IntN(8192)
		}
	}
	ng := 1 + rng.IntN(3)
	send := func(c int) scenario.Step {
		st := scenario.Step{Send: fmt.Sprintf("c%d", c), Sync: rng.IntN(2) == 0, Wake: 1 + rng.IntN(2), IPC: chanIPC[c], Bytes: chanBytes[c]}
		if st.IPC == scenario.IPCNone && rng.IntN(3) == 0 {
			st.Capacity = 1 + rng.IntN(4)
		}
		if st.Capacity > 0 || st.IPC == scenario.IPCPipe || st.IPC == scenario.IPCSocket {
			st.Wake = 1 // a write blocks message by message (checkChannelBatches)
		}
		return st
	}
	for g := 0; g < ng; g++ {
		grp := scenario.Group{Name: fmt.Sprintf("g%d", g), Count: 1 + rng.IntN(6), Nice: rng.IntN(5) - 2, Process: rng.IntN(2) == 0}
		if rng.IntN(3) == 0 {
			lo := rng.IntN(ncpu)
			hi := lo + rng.IntN(ncpu-lo)
			grp.CPUs = fmt.Sprintf("%d-%d", lo, hi)
		}
		var body []scenario.Step
		for k := 0; k < 1+rng.IntN(4); k++ {
			switch rng.IntN(6) {
			case 0, 1:
				body = append(body, scenario.Step{Compute: d(10_000 + rng.Int64N(5_000_000)), Jitter: 0.1 * rng.Float64()})
			case 2:
				body = append(body, scenario.Step{Sleep: d(10_000 + rng.Int64N(3_000_000))})
			case 3:
				body = append(body, scenario.Step{Barrier: "b", Spin: units.Duration(rng.Int64N(100_000))})
			case 4:
				body = append(body, send(rng.IntN(2)))
			case 5:
				body = append(body, scenario.Step{Recv: fmt.Sprintf("c%d", rng.IntN(2)), Spin: units.Duration(rng.Int64N(50_000))})
			}
		}
		if rng.IntN(4) == 0 {
			// a tight loop on one channel, several tasks at once: its
			// buffer fills, and a pipe's mutex is contended
			c := rng.IntN(2)
			body = []scenario.Step{send(c), {Compute: d(1_000 + rng.Int64N(20_000))},
				{Recv: fmt.Sprintf("c%d", c), Spin: units.Duration(rng.Int64N(20_000))}}
			grp.Count = 2 + rng.IntN(7)
		}
		if rng.IntN(4) == 0 {
			body = []scenario.Step{{Timed: "t", Do: body}}
		}
		switch rng.IntN(3) {
		case 0:
			grp.Program = []scenario.Step{{Repeat: 1 + rng.IntN(20), Do: body}}
		case 1:
			grp.Program = []scenario.Step{{Pool: "p", Total: 10 + rng.IntN(50), Do: body}}
		default:
			grp.Program = []scenario.Step{{Periodic: &scenario.Periodic{Every: units.Duration(500_000 + rng.Int64N(2_000_000)), Count: rng.IntN(30), Do: []scenario.Step{{Compute: d(2000 + rng.Int64N(200_000))}}}}}
		}
		w.Groups = append(w.Groups, grp)
	}
	if rng.IntN(5) == 0 {
		w.Groups = append(w.Groups, pipeCrowd(rng, ncpu)...)
	}
	r := &scenario.Resolved{Machine: m, Policy: p, Workload: w,
		Run: scenario.Run{Duration: units.Duration(20_000_000 + rng.Int64N(150_000_000)), Seed: rng.Uint64() % 1000, Reps: 1}}
	if rng.IntN(2) == 0 {
		r.Run.Until = scenario.UntilDuration
	}
	if rng.IntN(3) == 0 {
		r.Run.Warmup = units.Duration(rng.Int64N(int64(r.Run.Duration) / 2))
	}
	if rng.IntN(2) == 0 {
		r.Policy.Generation = []string{"6.1", "6.12", "tip-2026-09"}[rng.IntN(3)]
	}
	return validated(r)
}

// pipeCrowd is a crowd of writers on one pipe, more of them than the CPUs
// they may run on, and a reader elsewhere. The tick preempts an owner in
// its pipe_write() (the longer the message the likelier), so contenders
// find an owner off its CPU and sleep on the wait_list, and a woken waiter
// that finds the lock retaken asks for the handoff: the paths of
// pipe->mutex that a random workload seldom reaches.
func pipeCrowd(rng *rand.Rand, ncpu int) []scenario.Group {
	writers, n := 2+rng.IntN(4), 200+rng.IntN(5000)
	cpu := rng.IntN(ncpu)
	send := scenario.Step{Send: "crowd", IPC: scenario.IPCPipe, Bytes: 1 + rng.IntN(4096), Sync: rng.IntN(2) == 0}
	reader := scenario.Group{Name: "crowd-reader", Count: 1, Process: true,
		Program: []scenario.Step{{Repeat: writers * n, Do: []scenario.Step{{Recv: "crowd"}}}}}
	if ncpu > 1 {
		reader.CPUs = fmt.Sprint((cpu + 1) % ncpu)
	}
	return []scenario.Group{reader, {Name: "crowd-writer", Count: writers, Process: true, CPUs: fmt.Sprint(cpu),
		Program: []scenario.Step{{Repeat: n, Do: []scenario.Step{send}}}}}
}

// randomFeatures sets a random few of the feature flags users may set,
// each on or off; the rest keep their generation's (or the defaults').
func randomFeatures(rng *rand.Rand, f *scenario.Features) {
	flags := []**bool{&f.SISUtil, &f.WakeAffine, &f.WAIdle, &f.WAWeight, &f.WABias,
		&f.RunToParity, &f.PreemptShort, &f.PlaceLag, &f.UtilEst, &f.NIRandom, &f.NIRate,
		&f.NohzIdle, &f.DelayDequeue, &f.HNrRunnable, &f.AsymCapacitySMTLB,
		&f.SMTAwareAsymCapacity, &f.ILBIdleCore, &f.SISCluster, &f.PreemptLazy, &f.AvgIdleAtIdleExit,
		&f.VProt, &f.WakeupPreemptAction, &f.LagClampMaxSlice,
		&f.LBSMTBalance, &f.LBSiblingImbalance, &f.LBUtilBoost, &f.SWBIdleCore, &f.MisfitMaxAllowedCap, &f.BusiestTieKeepsFirst,
		&f.LBAsymUsePrio, &f.MisfitFailUncounted}
	for range rng.IntN(4) {
		v := rng.IntN(2) == 0
		*flags[rng.IntN(len(flags))] = &v
	}
}

// validated writes r as a scenario document and resolves it as a user's
// would be, through the validator and the generation presets, so that
// the engine runs only what a user can give it; nil when it is refused.
func validated(r *scenario.Resolved) *scenario.Resolved {
	d := r.WithDefaults() // what the generator left unset, as before it was validated
	// the policy's "generation" gives its features under the policy's own
	doc, err := json.Marshal(map[string]any{"schedplay": scenario.Version, "machine": d.Machine,
		"policy": d.Policy, "workload": d.Workload, "run": d.Run})
	if err != nil {
		panic(err)
	}
	s, err := scenario.Decode(doc)
	if err != nil {
		return nil
	}
	ps, err := shippedPresets()
	if err != nil {
		panic(err)
	}
	out, err := scenario.Resolve(s, ps)
	if err != nil {
		return nil
	}
	return out
}

// shippedPresets loads the shipped presets (the kernel generations) once.
var shippedPresets = sync.OnceValues(presets.Load)

// checkInvariants runs one scenario and checks the engine's invariants;
// it returns what the pipe mutexes did, and false when the scenario was
// refused (by the validator or by topo.Build).
func checkInvariants(t *testing.T, i int, r *scenario.Resolved) (mutexStats, bool) {
	if r == nil {
		return mutexStats{}, false // refused by the validator
	}
	tp, err := topo.Build(r.Machine, r.Policy.DomainPolicy)
	if err != nil {
		return mutexStats{}, false
	}
	s, err := newSim(r, tp, Options{Timeline: true}, r.Run.Seed, true)
	if err != nil {
		t.Fatalf("scenario %d: %v", i, err)
	}
	fail := func(format string, args ...any) {
		b, _ := json.Marshal(r)
		t.Fatalf("scenario %d: %s\n%s", i, fmt.Sprintf(format, args...), b)
	}
	// the state is checked at 2000 points of the run, the last at its
	// end: a mutex's or a buffer's wrong state may last a few µs
	slice := max(s.end/2000, 1)
	for at := slice; !s.stopped; at += slice {
		if err := s.runUntil(context.Background(), at, 0, 1); err != nil {
			t.Fatalf("scenario %d: %v", i, err)
		}
		if why := stateInvariant(s); why != "" {
			fail("at %dns: %s", s.now, why)
		}
	}
	stop := s.stopAt
	rm := s.repMetrics(stop)
	tl := &s.tr.tl
	// intervals: per CPU ordered and disjoint; tasks never on two CPUs at once; affinity
	sum := make([]int64, len(s.tasks))
	type span struct{ s, e int64 }
	per := make([][]span, len(s.tasks))
	for ci, runs := range tl.Runs {
		var last int64 = -1
		for _, iv := range runs {
			if iv.Start < last || iv.End < iv.Start {
				fail("cpu %d intervals overlap or go backwards at %d", ci, iv.Start)
			}
			last = iv.End
			if !s.tasks[iv.Task].allowed.Has(topo.CPU(ci)) {
				fail("task %d ran on cpu %d outside its affinity", iv.Task, ci)
			}
			sum[iv.Task] += iv.End - iv.Start
			per[iv.Task] = append(per[iv.Task], span{iv.Start, iv.End})
		}
	}
	for id, p := range s.tasks {
		if !tl.Truncated && sum[id] != p.runtime {
			fail("task %d runtime %d but intervals sum to %d", id, p.runtime, sum[id])
		}
		sp := per[id]
		for a := 0; a < len(sp); a++ {
			for b := a + 1; b < len(sp); b++ {
				if sp[a].s < sp[b].e && sp[b].s < sp[a].e {
					fail("task %d runs twice at once: [%d,%d] and [%d,%d]", id, sp[a].s, sp[a].e, sp[b].s, sp[b].e)
				}
			}
		}
	}
	window := max(stop-s.warmup, 0)
	for ci, b := range rm.BusyNs {
		if b > window || b < 0 {
			fail("cpu %d busy %d > window %d", ci, b, window)
		}
	}
	return s.mx, true
}

func TestPropertyRandomScenarios(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 200
	}
	rng := rand.New(rand.NewPCG(7, 11))
	ran := 0
	var mx mutexStats
	for i := 0; i < n; i++ {
		if m, ok := checkInvariants(t, i, randomScenario(rng)); ok {
			ran++
			mx.spins += m.spins
			mx.sleeps += m.sleeps
			mx.wakes += m.wakes
			mx.handoffs += m.handoffs
			mx.aborts += m.aborts
		}
	}
	if ran < n/2 {
		t.Fatalf("only %d of %d random scenarios built a topology", ran, n)
	}
	t.Logf("%d random scenarios checked; pipe->mutex %+v", ran, mx)
	// the invariants above are only as good as the paths the runs reach
	if mx.sleeps < n/10 || mx.wakes == 0 || mx.handoffs == 0 || mx.aborts == 0 {
		t.Errorf("the random runs reached too few of pipe->mutex's paths: %+v; want sleeps on the wait_list (at least %d), wake-ups, handoffs and spins broken off", mx, n/10)
	}
}

func TestPropertySameSeedSameJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for i := 0; i < 100; i++ {
		r := randomScenario(rng)
		if r == nil {
			continue
		}
		if _, err := topo.Build(r.Machine, r.Policy.DomainPolicy); err != nil {
			continue
		}
		r.Run.Reps = 2
		a := toJSON(t, mustRun(t, r, Options{Timeline: true}))
		b := toJSON(t, mustRun(t, r, Options{Timeline: true}))
		if a != b {
			t.Fatalf("scenario %d: two runs of the same seed differ", i)
		}
	}
}

// chanInvariant says what is wrong with a channel's accounting, or "":
// a socket's sk_wmem_alloc holds its queued skbs (and those allocated or
// read but not yet queued or freed) and admits one only while
// under sk_sndbuf (sock_alloc_send_pskb()); a pipe's buffers hold its
// messages in at most pipe_buffers slots (pipe_full()); an abstract
// channel holds at most its capacity.
func chanInvariant(ch *chanState) string {
	if ch.msgs < 0 {
		return fmt.Sprintf("%d messages", ch.msgs)
	}
	if ch.ipc == nil || ch.ipc.kind == scenario.IPCFutex {
		if ch.capacity > 0 && ch.msgs > ch.capacity {
			return fmt.Sprintf("%d messages in a buffer of %d", ch.msgs, ch.capacity)
		}
		return ""
	}
	x := ch.ipc
	switch x.kind {
	case scenario.IPCSocket:
		// skbs are charged from their allocation, before they are queued,
		// until they are freed, after their copy to the reader
		if x.wmem%x.truesize != 0 || x.wmem < ch.msgs*x.truesize {
			return fmt.Sprintf("sk_wmem_alloc %d for %d queued skbs of truesize %d", x.wmem, ch.msgs, x.truesize)
		}
		if x.wmem >= x.sndbuf+x.truesize {
			return fmt.Sprintf("sk_wmem_alloc %d past sk_sndbuf %d by more than one skb", x.wmem, x.sndbuf)
		}
	case scenario.IPCPipe:
		if len(x.slots) > x.maxSlots {
			return fmt.Sprintf("%d slots of %d", len(x.slots), x.maxSlots)
		}
		n := 0
		for _, b := range x.slots {
			if b.left <= 0 || b.left > b.written || b.written > x.merges {
				return fmt.Sprintf("a buffer with %d of %d messages left (%d fit a page)", b.left, b.written, x.merges)
			}
			n += b.left
		}
		if n != ch.msgs {
			return fmt.Sprintf("%d messages in the buffers, %d counted", n, ch.msgs)
		}
	}
	return ""
}

// mutexInvariant says what is wrong with a pipe's mutex, or "": the owner
// holds it (or, handed it while asleep, has yet to pick it up) and has not
// exited; optimistic spinners run on their CPUs, spin on an owner that
// runs, and do not also wait; waiters wait on this lock, once each;
// HANDOFF needs a waiter; a free lock has no sleeping first waiter.
func mutexInvariant(s *sim, ch *chanState) string {
	if ch.ipc == nil {
		return ""
	}
	x := ch.ipc
	m := &x.mutex
	if o := m.owner; o != nil {
		if o.state == taskDone {
			return fmt.Sprintf("owned by task %d, which exited", o.id)
		}
		if o.mutexHeld != x && o.mutexOn != x {
			return fmt.Sprintf("owned by task %d, which neither holds it nor waits for it", o.id)
		}
	}
	seen := map[*task]bool{}
	for _, w := range m.waitList {
		if seen[w] || !w.mutexWaiter || w.mutexOn != x || w == m.owner && w.mutexHeld == x {
			return fmt.Sprintf("task %d on the wait_list twice, or not waiting for this lock", w.id)
		}
		seen[w] = true
	}
	for _, w := range m.osq {
		if seen[w] || w.state != taskRunning || !w.spinning {
			return fmt.Sprintf("task %d in the OSQ but waiting, queued twice or not spinning on a CPU (state %d)", w.id, w.state)
		}
		seen[w] = true
	}
	if w := m.waiterSpin; w != nil && (!w.mutexWaiter || w.state != taskRunning) {
		return fmt.Sprintf("waiter-spinner %d not a running waiter", w.id)
	}
	if m.handoff && len(m.waitList) == 0 {
		return "MUTEX_FLAG_HANDOFF with no waiter"
	}
	if len(m.osq) > 0 || m.waiterSpin != nil {
		// mutex_spin_on_owner() spins only while owner_on_cpu()
		if !s.ownerOnCPU(m.owner) {
			return "spinners on an owner that is not on a CPU"
		}
	}
	if m.owner == nil && len(m.waitList) > 0 && m.waitList[0].state == taskBlocked {
		// the unlock that freed the lock wakes the first waiter
		return fmt.Sprintf("free, with its first waiter %d asleep (a lost wake-up)", m.waitList[0].id)
	}
	return ""
}

// stateInvariant says what is wrong with the simulator's state between
// two events, or "": every task in exactly one place, each runqueue's
// accounting its tasks', work within what was asked, the channels' and
// pipe mutexes' accounting.
func stateInvariant(s *sim) string {
	// every task is in exactly one place
	where := make([]int, len(s.tasks))
	for ci := range s.cpus {
		c := &s.cpus[ci]
		if c.curr != nil {
			where[c.curr.id]++
			if c.curr.state != taskRunning || c.curr.cpu != ci {
				return fmt.Sprintf("curr of cpu %d is task %d in state %d on cpu %d", ci, c.curr.id, c.curr.state, c.curr.cpu)
			}
			// update_rq_avg_idle() cleared it when the CPU left idle, and
			// only a newidle pass that leaves the CPU idle sets it again
			if s.feat.AvgIdleAtIdleExitOn() && c.idleStamp != 0 {
				return fmt.Sprintf("cpu %d runs task %d with idle_stamp %d under AVG_IDLE_AT_IDLE_EXIT", ci, c.curr.id, c.idleStamp)
			}
			// set_protect_slice() takes min(deadline, …), deadlines only
			// grow, and update/cancel_protect_slice() only lower vprot
			if s.vprot && c.curr.vprot > c.curr.deadline {
				return fmt.Sprintf("cpu %d runs task %d protected to %d past its deadline %d", ci, c.curr.id, c.curr.vprot, c.curr.deadline)
			}
		}
		n := len(c.rq)
		var w int64
		ue, delayed := 0, 0
		for _, q := range c.rq {
			w += q.weight
			if q.delayed { // util_est left the rq at the sleep
				delayed++
				continue
			}
			ue += q.utilEst
		}
		if delayed != c.nrDelayed {
			return fmt.Sprintf("cpu %d h_nr_delayed %d but %d delayed tasks queued", ci, c.nrDelayed, delayed)
		}
		if c.curr != nil {
			n++
			w += c.curr.weight
			ue += c.curr.utilEst
		}
		if w != c.loadWeight {
			return fmt.Sprintf("cpu %d load.weight %d but tasks weigh %d", ci, c.loadWeight, w)
		}
		if s.utilEst && ue != c.utilEstSum {
			return fmt.Sprintf("cpu %d util_est %d but tasks sum to %d", ci, c.utilEstSum, ue)
		}
		if n != c.nrRunning {
			return fmt.Sprintf("cpu %d nr_running %d but %d tasks", ci, c.nrRunning, n)
		}
		for _, p := range c.rq {
			where[p.id]++
			if (p.state != taskRunnable && !(p.state == taskBlocked && p.delayed)) || p.cpu != ci {
				return fmt.Sprintf("queued task %d on cpu %d in state %d, delayed %v (cpu %d)", p.id, ci, p.state, p.delayed, p.cpu)
			}
		}
	}
	for _, p := range s.tasks {
		switch {
		case p.state == taskRunning || p.state == taskRunnable || p.delayed:
			if where[p.id] != 1 {
				return fmt.Sprintf("task %d (state %d) found on %d runqueues", p.id, p.state, where[p.id])
			}
		default:
			if where[p.id] != 0 {
				return fmt.Sprintf("task %d (state %d) also on a runqueue", p.id, p.state)
			}
		}
		if p.state == taskDone && math.Abs(p.done-p.requested) > 1e-6*math.Max(1, p.requested)+1 {
			return fmt.Sprintf("task %d done %.1f of %.1f requested", p.id, p.done, p.requested)
		}
		if p.done > p.requested+1 {
			return fmt.Sprintf("task %d did more work (%.1f) than requested (%.1f)", p.id, p.done, p.requested)
		}
	}
	for ci, ch := range s.chanList {
		if why := chanInvariant(ch); why != "" {
			return fmt.Sprintf("channel %d: %s", ci, why)
		}
		if why := mutexInvariant(s, ch); why != "" {
			return fmt.Sprintf("channel %d's pipe->mutex: %s", ci, why)
		}
	}
	for bi, b := range s.barrierList {
		if why := barrierInvariant(s, b); why != "" {
			return fmt.Sprintf("barrier %d: %s", bi, why)
		}
	}
	return ""
}

// barrierInvariant says what is wrong with a barrier, or "": its waiters
// are live members of one group, each once, each waiting on it, and
// fewer than the group's live members (the last to arrive releases it,
// and so does an exit that leaves only waiters).
func barrierInvariant(s *sim, b *barrierState) string {
	if len(b.arrived) == 0 {
		return ""
	}
	g := b.arrived[0].group
	seen := map[*task]bool{}
	for _, w := range b.arrived {
		if seen[w] || w.group != g || w.state == taskDone || w.blockOn != waitBarrier {
			return fmt.Sprintf("task %d waits twice, in another group, exited or not on the barrier", w.id)
		}
		seen[w] = true
	}
	if len(b.arrived) >= s.groupAlive[g] {
		return fmt.Sprintf("%d waiters of %d live members, not released", len(b.arrived), s.groupAlive[g])
	}
	return ""
}

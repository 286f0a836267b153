package trace

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"schedplay/engine/scenario"
	"schedplay/engine/units"
)

// Bounds of the workload a replay writes: groups and steps in all.
const (
	// MaxGroups is the most tasks replayed one by one; the rest fold
	// into one group.
	MaxGroups = 64
	// maxSteps bounds the steps of all programs (the scenario allows
	// 2048; a replay keeps to 960).
	maxSteps = 960
	// maxSlots is the most distinct activations a task's program
	// cycles through (each a point of its burst distribution).
	maxSlots = 4
	// maxFold is the most tasks the folded group has.
	maxFold = 64
	// maxSegments is the most distinct send remainders a program
	// carries exactly (each costs a copy of the cycle).
	maxSegments = 2
)

// Replay is a trace turned into a workload.
type Replay struct {
	Workload scenario.Workload
	// Duration is the trace's span (the replay runs for it, capped at 60s).
	Duration units.Duration
	// Groups[i] lists the pids replayed by group i.
	Groups [][]int
	Notes  []string
}

// slot is one activation of a task's cycle: its burst of work (reference
// ns), then the sends it makes, then its wait (a sleep, or a recv on its
// inbox).
type slot struct {
	work  float64
	sleep float64 // ns; < 0: wait on the inbox
	sends []send
}

type send struct {
	to string // inbox channel
	n  int
	// kind is how the sending activations began.
	kind waitKind
}

// Overheads are the replay machine's costs that a traced run's CPU time
// already holds and the replay adds again: a context switch per run, a
// try_to_wake_up() per wake-up issued. The replay's bursts leave them out.
type Overheads struct {
	Switch, Wakeup units.Duration
}

// replayer carries the synthesis.
type replayer struct {
	t       *Trace
	over    Overheads
	kept    []*task
	groupOf map[int]int // pid → group index
	inbox   map[int]string
	notes   []string
	seen    map[string]bool
	barrier map[int]string // pid → barrier name of its family group
}

func (r *replayer) note(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if !r.seen[s] {
		r.seen[s] = true
		r.notes = append(r.notes, s)
	}
}

// Replay summarises t into a workload of at most MaxGroups+1 groups.
// cpus is the replay machine's CPU count (inferred pins beyond it are
// dropped).
func (t *Trace) Replay(cpus int, over Overheads) *Replay {
	r := &replayer{t: t, over: over, groupOf: map[int]int{}, inbox: map[int]string{}, seen: map[string]bool{}, barrier: map[int]string{}}
	var cand []*task
	for _, pid := range t.order {
		if k := t.tasks[pid]; pid != 0 && (k.cpuTime > 0 || k.wakeups > 0) {
			cand = append(cand, k)
		}
	}
	// The trace's order among the tasks replayed; tasks that appeared at
	// once (forked together) busiest first.
	slices.SortStableFunc(cand, func(a, b *task) int { return cmp.Compare(b.cpuTime, a.cpuTime) })
	slices.SortStableFunc(cand, func(a, b *task) int { return cmp.Compare(a.first, b.first) })
	r.kept = cand // units() groups every task
	us, folded := keepBusiest(r.units())
	var kept []*task
	for _, u := range us {
		kept = append(kept, u.members...)
		if u.barrier != "" {
			for _, k := range u.members {
				r.barrier[k.pid] = u.barrier
			}
			r.note("tasks %s wake one another in fan-outs: replayed as one group of %d meeting at a barrier", u.barrier+"*", len(u.members))
		}
	}
	slices.SortStableFunc(kept, func(a, b *task) int { return cmp.Compare(a.first, b.first) })
	r.kept = kept
	rp := &Replay{}
	for gi, u := range us {
		for _, k := range u.members {
			r.groupOf[k.pid] = gi
		}
		r.inbox[u.members[0].pid] = "w" + strconv.Itoa(gi)
	}
	budget := maxSteps / max(len(us)+1, 1)
	for _, u := range us {
		g := r.group(u, budget, cpus)
		rp.Workload.Groups = append(rp.Workload.Groups, g)
		pids := []int{}
		for _, k := range u.members {
			pids = append(pids, k.pid)
		}
		rp.Groups = append(rp.Groups, pids)
	}
	if len(folded) > 0 {
		g, pids := r.fold(folded)
		rp.Workload.Groups = append(rp.Workload.Groups, g)
		rp.Groups = append(rp.Groups, pids)
	}
	span := units0(t.end - t.start)
	rp.Duration = min(max(span, units.Millisecond), 60*units.Second)
	if span > 60*units.Second {
		r.note("the trace spans %s: the replay runs its first 60s", span)
	}
	r.summaryNotes()
	rp.Notes = r.notes
	return rp
}

func units0(ns int64) units.Duration { return units.Duration(ns) }

// unit is what becomes one group: a task, or a barrier's tasks.
type unit struct {
	members []*task
	barrier string
}

// units groups the kept tasks: the tasks of a family that mostly wake one
// another in fan-outs (a barrier's last arrival waking the rest) become
// one group meeting at a barrier; every other task is its own group.
func (r *replayer) units() []unit {
	byFam := map[string][]*task{}
	var fams []string
	for _, k := range r.kept {
		f := family(k.comm)
		if _, ok := byFam[f]; !ok {
			fams = append(fams, f)
		}
		byFam[f] = append(byFam[f], k)
	}
	isBarrier := map[string]bool{}
	for _, f := range fams {
		ms := byFam[f]
		var fam, woken int64
		for _, k := range ms {
			fam += k.familyWoke
			woken += k.taskWakes
		}
		if len(ms) >= 2 && woken >= int64(2*len(ms)) && fam*10 >= woken*6 && r.completeFans(f) {
			isBarrier[f] = true
		}
	}
	var out []unit
	done := map[string]bool{}
	for _, k := range r.kept {
		f := family(k.comm)
		if !isBarrier[f] {
			out = append(out, unit{members: []*task{k}})
			continue
		}
		if done[f] {
			continue
		}
		done[f] = true
		out = append(out, unit{members: byFam[f], barrier: f})
	}
	return out
}

// keepBusiest keeps the MaxGroups units of most CPU time, in their order,
// and returns the tasks of the others (busiest first) to fold: a
// barrier's tasks stay one group whatever their number.
func keepBusiest(us []unit) (kept []unit, folded []*task) {
	if len(us) <= MaxGroups {
		return us, nil
	}
	cpu := make([]int64, len(us))
	idx := make([]int, len(us))
	for i, u := range us {
		idx[i] = i
		for _, k := range u.members {
			cpu[i] += k.cpuTime
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(cpu[b], cpu[a]) })
	keep := make([]bool, len(us))
	for _, i := range idx[:MaxGroups] {
		keep[i] = true
	}
	for _, i := range idx[MaxGroups:] {
		folded = append(folded, us[i].members...)
	}
	for i, u := range us {
		if keep[i] {
			kept = append(kept, u)
		}
	}
	return kept, folded
}

// minFanComplete is how much of its family's sleepers a family's
// fan-outs wake, on average, for it to be a barrier: a barrier's release
// (a futex wake-all) wakes every member asleep on it, where a message
// sender wakes its receivers and leaves the rest asleep (traced on this
// project's 6.18 VM: perf bench sched messaging 0.48 with 2 groups, 0.64
// with 1; libgomp's barrier, schedplay's own and the NVPL seed's 1.00).
const minFanComplete = 0.85

// completeFans reports whether family f's fan-outs woke, on average, at
// least minFanComplete of the members asleep.
func (r *replayer) completeFans(f string) bool {
	ft := r.t.fanned[f]
	return ft != nil && ft.sleepers > 0 && float64(ft.woken) >= minFanComplete*float64(ft.sleepers)
}

// group writes one unit as a group.
func (r *replayer) group(u unit, budget, cpus int) scenario.Group {
	k0 := u.members[0]
	g := scenario.Group{Name: groupName(k0, u), Count: len(u.members)}
	g.Nice = r.nice(k0)
	if k0.prio >= 0 && k0.prio < 100 { // MAX_RT_PRIO: an RT task; the trace does not say FIFO or RR
		g.Policy, g.RTPriority = scenario.PolicyFIFO, 99-k0.prio
	}
	if k0.forkAt >= 0 {
		g.Start = units.Duration(k0.forkAt - r.t.start)
	}
	if u.barrier != "" {
		g.Program = r.barrierProgram(u, budget)
		g.CPUs, g.Pin = r.barrierPins(u, cpus)
		return g
	}
	g.CPUs = r.pin(k0, cpus)
	if r.periodic(k0) {
		g.Program = r.periodicProgram(k0)
		return g
	}
	g.Program = r.program(k0, budget)
	return g
}

// groupName is a group's name: the task's comm (a barrier's family),
// with its pid when the comm is empty; at most 64 bytes.
func groupName(k *task, u unit) string {
	n := k.comm
	if u.barrier != "" {
		n = u.barrier
	}
	if n == "" {
		n = "pid" + strconv.Itoa(k.pid)
	}
	if len(n) > 64 {
		n = n[:64]
	}
	return n
}

// nice maps a CFS priority to a nice value; an RT task's prio (below 100)
// becomes SCHED_FIFO with sched_priority 99 - prio in group(), noted,
// since sched_switch does not say FIFO or RR.
func (r *replayer) nice(k *task) int {
	switch {
	case k.prio >= 100 && k.prio <= 139:
		return k.prio - 120
	case k.prio >= 0 && k.prio < 100:
		r.note("real-time tasks (prio < 100) run as SCHED_FIFO at rt_priority 99 - prio (the trace does not tell SCHED_RR apart)")
	}
	return 0
}

// minPinRuns is how many runs on one CPU alone count as seeing its
// affinity (a task the scheduler never moved in that many runs), when
// at least minPinStays times it was woken while that CPU ran another
// task and another CPU was idle, and still waited for its own:
// select_idle_sibling() would have taken the idle CPU, were it allowed.
// A task whose CPU was idle at each wake-up stays by the scheduler's
// own choice (prev idle), which says nothing of its mask.
const (
	minPinRuns  = 20
	minPinStays = 3
)

// maskShown reports whether the trace shows k bound to its one CPU: it
// ran there only, minPinRuns times or more, and waited for it while
// another CPU was idle minPinStays times or more.
func maskShown(k *task) bool {
	return k.cpus.n == 1 && k.runs >= minPinRuns && k.stayedBusy >= minPinStays
}

// pin returns the CPU a task is bound to, where the trace shows it: a
// per-CPU kernel thread named after its CPU ("ksoftirqd/3",
// "kworker/3:1", "migration/3") that ran there, or a task that ran only
// on one CPU over minPinRuns runs or more.
func (r *replayer) pin(k *task, cpus int) string {
	if k.cpus.n != 1 || k.runs < 1 {
		return ""
	}
	c := k.cpus.a
	named := perCPUName(k.comm) == c
	if !named && !maskShown(k) {
		return ""
	}
	if c >= cpus {
		r.note("task %s ran only on CPU %d, which the replay machine lacks: not pinned", k.comm, c)
		return ""
	}
	if named {
		r.note("per-CPU kernel threads (named after their CPU) are pinned to it")
	} else {
		r.note("tasks that ran only on one CPU over %d runs or more, and %d times or more waited for it while another CPU was idle, are pinned to it (the trace shows no affinity masks)", minPinRuns, minPinStays)
	}
	return strconv.Itoa(c)
}

// perCPUName is the CPU a per-CPU kernel thread's name carries
// ("ksoftirqd/3", "kworker/3:1H", "migration/3", "cpuhp/3"), or -1.
func perCPUName(comm string) int {
	name, after, ok := strings.Cut(comm, "/")
	if !ok || !perCPUThreads[name] {
		return -1
	}
	if strings.HasPrefix(after, "u") { // kworker/u16:1 is unbound
		return -1
	}
	end := 0
	for end < len(after) && after[end] >= '0' && after[end] <= '9' {
		end++
	}
	if end == 0 || end < len(after) && after[end] != ':' {
		return -1
	}
	n, err := strconv.Atoi(after[:end])
	if err != nil {
		return -1
	}
	return n
}

// perCPUThreads are the kernel threads created bound to one CPU and
// named after it: 6.12's smpboot threads (the thread_comm of
// stop_machine.c, irq_work.c, softirq.c, rcu/tree.c, cpu.c and
// powercap/idle_inject.c), older kernels' watchdog/N, the RT patches'
// ktimersoftd/N, ktimers/N and posixcputmr/N, and the per-CPU workqueue
// pools' kworker/N:M. A user task named "name/N" (schedplay's own traces
// name every task so) is not one of them.
var perCPUThreads = map[string]bool{
	"ksoftirqd": true, "migration": true, "cpuhp": true, "kworker": true, "rcuc": true,
	"watchdog": true, "idle_inject": true, "posixcputmr": true, "ktimersoftd": true,
	"ktimers": true, "irq_work": true,
}

// periodic reports a task woken by timers at a steady interval: its
// intervals (the ones not spanning missed periods) vary by under 10%,
// and at most a third of them span missed periods (a late task misses
// the next expiry). It replays as a periodic step.
func (r *replayer) periodic(k *task) bool {
	if k.wakeups < 5 || k.timerWakes*10 < k.wakeups*9 || k.ivN < 4 || k.ivOdd*10 > k.ivN || k.ivLong*2 > k.ivN {
		return false
	}
	mean := k.ivSum / float64(k.ivN)
	sd := math.Sqrt(max(k.ivSq/float64(k.ivN)-mean*mean, 0))
	// A task whose mean burst outlasts the interval is not woken by a
	// period (work and interval in µs).
	burst := k.work / float64(max(k.activations(), 1)) / 1e3
	return mean > 0 && sd < 0.1*mean && burst < mean
}

// periodicProgram: periodic every mean interval, its mean burst and the
// sends of one activation.
func (r *replayer) periodicProgram(k *task) []scenario.Step {
	acts := max(k.activations(), 1)
	every := units.Duration(k.ivSum / float64(k.ivN) * 1e3)
	do := []scenario.Step{compute(k.work / float64(acts))}
	for _, s := range r.sendsPer(k, float64(acts)) {
		do = append(do, sendStep(s))
	}
	r.note("tasks woken by a timer at a steady interval replay as periodic steps")
	return []scenario.Step{{Periodic: &scenario.Periodic{Every: every, Do: do}}}
}

// program builds a task's program: its first activation when it began
// at the trace's start or its fork, then a cycle of K activations (each
// its wait, a burst that is a quantile of its bursts, its sends),
// repeated and then cut short so that the activations number the
// trace's exactly. A wait is a recv on the task's inbox for the wake-ups
// replayed tasks issue, a sleep for the others.
func (r *replayer) program(k *task, budget int) []scenario.Step {
	var n [3]int64
	for kind := range k.hist {
		for _, b := range k.hist[kind] {
			n[kind] += b.n
		}
	}
	edges := r.outEdges(k)
	var lead []send // the first activation's sends
	var cycEdges []send
	for _, e := range edges {
		if e.kind == waitStart {
			lead = append(lead, e)
		} else {
			cycEdges = append(cycEdges, e)
		}
	}
	cyc := n[waitTask] + n[waitTimer]
	recvs := min(r.keptWakes(k), cyc)
	K := int(min(int64(maxSlots), max(cyc, 1)))
	for K > 1 && K*(3+len(cycEdges))+4 > budget {
		K--
	}
	kw := 0
	if cyc > 0 {
		kw = int(math.Round(float64(K) * float64(recvs) / float64(cyc)))
		if recvs > 0 {
			kw = max(kw, 1)
		}
		if recvs < cyc && K > 1 {
			kw = min(kw, K-1)
		}
	}
	timerHist := &k.hist[waitTimer]
	if n[waitTimer] == 0 {
		timerHist = &k.hist[waitTask] // woken by tasks not replayed: they sleep as long
	}
	taskSlots := quantiles(&k.hist[waitTask], nil, kw)
	timerSlots := quantiles(timerHist, nil, K-kw)
	for i := range taskSlots {
		taskSlots[i].sleep = -1
	}
	slots := interleave(taskSlots, timerSlots, k.firstByTask)
	K = len(slots)
	var iters int64
	tail := 0
	if K > 0 {
		iters, tail = cyc/int64(K), int(cyc%int64(K))
	}
	// The work of the first activation and of the cycle, scaled together
	// so that the whole is the trace's (less the replayed overheads).
	first := meanWork(&k.hist[waitStart])
	total := first
	for i, s := range slots {
		total += s.work * float64(iters)
		if i < tail {
			total += s.work
		}
	}
	if total > 0 {
		f := r.workLessOverheads(k) / total
		first *= f
		for i := range slots {
			slots[i].work *= f
		}
	}
	var steps []scenario.Step
	if n[waitStart] > 0 || K == 0 {
		steps = append(steps, compute(first))
		for _, e := range lead {
			steps = append(steps, sendStep(e))
		}
	}
	if K > 0 {
		steps = append(steps, r.segments(slots, iters, tail, cycEdges, r.inbox[k.pid])...)
	}
	return steps
}

// meanWork is the mean burst of a histogram's activations.
func meanWork(h *[nBuckets]bucket) float64 {
	var n int64
	var w float64
	for _, b := range h {
		n += b.n
		w += b.work
	}
	if n == 0 {
		return 0
	}
	return w / float64(n)
}

// workLessOverheads is a task's work without the switch and wake-up costs
// the replay pays again (at most 90% of it is taken off).
func (r *replayer) workLessOverheads(k *task) float64 {
	if k.cpuTime <= 0 {
		return k.work
	}
	var issued int64
	for e, n := range r.t.edges {
		if int(e.from) == k.pid {
			issued += n
		}
	}
	speed := k.work / float64(k.cpuTime)
	over := float64(k.runs*int64(r.over.Switch)+issued*int64(r.over.Wakeup)) * speed
	return max(k.work-over, k.work/10)
}

// segments writes the cycle so that each edge's sends add up to its
// count: an edge of e wake-ups over iters cycles sends e div iters
// messages every cycle and one more in the first e mod iters of them.
// Cycles are cut into segments at those remainders (the largest
// maxSegments distinct ones; the others round to the nearest cut), then
// the tail slots run once.
func (r *replayer) segments(slots []slot, iters int64, tail int, edges []send, inbox string) []scenario.Step {
	base := make([]slot, len(slots))
	copy(base, slots)
	// pick is the slot of the n-th send of an edge: among the slots
	// whose activations began the way the edge's did (a task's wake-up,
	// else a timer), when the cycle has any.
	pick := func(e send, n int) int {
		var idx []int
		for i, s := range base {
			if (s.sleep < 0) == (e.kind == waitTask) {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			return n % len(base)
		}
		return idx[n%len(idx)]
	}
	type rem struct {
		e     send
		extra int64 // cycles sending one more
		next  int   // its round-robin position after the cycle's base sends
	}
	var rems []rem
	for ei, e := range edges {
		if iters == 0 {
			// No full cycle: the tail carries everything.
			s := &base[pick(e, ei)]
			s.sends = addSend(s.sends, e.to, e.n)
			continue
		}
		q, x := int64(e.n)/iters, int64(e.n)%iters
		for n := int64(0); n < q; n++ {
			s := &base[pick(e, ei+int(n))]
			s.sends = addSend(s.sends, e.to, 1)
		}
		if x > 0 {
			rems = append(rems, rem{e, x, ei + int(q)})
		}
	}
	// Distinct remainders, largest first, become segment boundaries.
	var cuts []int64
	for _, x := range rems {
		if !slices.Contains(cuts, x.extra) {
			cuts = append(cuts, x.extra)
		}
	}
	slices.SortFunc(cuts, func(a, b int64) int { return cmp.Compare(b, a) })
	if len(cuts) > maxSegments {
		cuts = cuts[:maxSegments]
	}
	// Segments in cycle order: an edge with remainder x sends one more in
	// the first x cycles (early: its wakee is not left waiting).
	points := slices.Clone(cuts)
	slices.Sort(points)
	var out []scenario.Step
	prev := int64(0)
	for _, c := range append(points, iters) {
		n := c - prev
		if n <= 0 {
			continue
		}
		seg := make([]slot, len(base))
		copy(seg, base)
		for i := range seg {
			seg[i].sends = slices.Clone(seg[i].sends)
		}
		for _, x := range rems {
			if rounded(x.extra, cuts) >= c {
				s := &seg[pick(x.e, x.next)]
				s.sends = addSend(s.sends, x.e.to, 1)
			}
		}
		out = append(out, repeatSteps(n, slotSteps(seg, inbox))...)
		prev = c
	}
	if tail > 0 {
		out = append(out, slotSteps(base[:tail], inbox)...)
	}
	return out
}

// rounded maps a remainder to the nearest segment boundary kept.
func rounded(x int64, cuts []int64) int64 {
	best := int64(0)
	for _, c := range cuts {
		if absInt(c-x) < absInt(best-x) {
			best = c
		}
	}
	return best
}

func absInt(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// keptWakes counts a task's wake-ups issued by replayed tasks (those
// become messages on its inbox; the rest are sleeps).
func (r *replayer) keptWakes(k *task) int64 {
	var n int64
	for _, w := range r.kept {
		if _, ok := r.barrier[w.pid]; ok && r.barrier[w.pid] == r.barrier[k.pid] {
			continue
		}
		for kind := range waitKind(3) {
			n += r.t.edges[edge{int32(w.pid), int32(k.pid), kind}]
		}
	}
	return n
}

// outEdges lists a task's wake-ups of replayed tasks outside its own
// barrier, by wakee inbox, in replay order.
func (r *replayer) outEdges(k *task) []send {
	var out []send
	for _, w := range r.kept {
		for kind := range waitKind(3) {
			n := r.t.edges[edge{int32(k.pid), int32(w.pid), kind}]
			if n == 0 || w.pid == k.pid {
				continue
			}
			if b, ok := r.barrier[w.pid]; ok {
				if b != r.barrier[k.pid] {
					r.note("wake-ups of a barrier's tasks from outside it are left to the barrier")
				}
				continue
			}
			if r.periodicTask(w) {
				continue // a periodic task's timer wakes it
			}
			out = append(out, send{to: r.inbox[w.pid], n: int(n), kind: kind})
		}
	}
	return out
}

func (r *replayer) periodicTask(k *task) bool { _, b := r.barrier[k.pid]; return !b && r.periodic(k) }

// sendsPer spreads a task's edges over per activations (periodic tasks).
func (r *replayer) sendsPer(k *task, per float64) []send {
	var total []send
	for _, e := range r.outEdges(k) {
		total = addSend(total, e.to, e.n)
	}
	for i := range total {
		total[i].n = max(int(math.Round(float64(total[i].n)/per)), 1)
	}
	return total
}

// quantiles splits the activations of h (and of extra) into n groups of
// equal count, in order of burst, each giving its mean burst and sleep.
func quantiles(h, extra *[nBuckets]bucket, n int) []slot {
	if n <= 0 {
		return nil
	}
	var all [nBuckets]bucket
	var total int64
	for i := range all {
		all[i] = h[i]
		if extra != nil {
			all[i].n += extra[i].n
			all[i].work += extra[i].work
			all[i].sleep += extra[i].sleep
		}
		total += all[i].n
	}
	if total == 0 {
		return nil
	}
	n = int(min(int64(n), total))
	out := make([]slot, n)
	cnt := make([]float64, n)
	per := float64(total) / float64(n)
	at := 0.0
	for _, b := range all {
		left := float64(b.n)
		for left > 1e-9 {
			i := min(int(at/per), n-1)
			take := min(left, float64(i+1)*per-at)
			if i == n-1 {
				take = left
			}
			f := take / float64(b.n)
			out[i].work += b.work * f
			out[i].sleep += b.sleep * f
			cnt[i] += take
			at += take
			left -= take
		}
	}
	for i := range out {
		if cnt[i] > 0 {
			out[i].work /= cnt[i]
			out[i].sleep /= cnt[i]
		}
	}
	return out
}

// interleave alternates inbox slots and timer slots, starting with the
// kind of the task's first wake-up.
func interleave(task, timer []slot, taskFirst bool) []slot {
	a, b := timer, task
	if taskFirst {
		a, b = task, timer
	}
	var out []slot
	for i := 0; i < max(len(a), len(b)); i++ {
		if i < len(a) {
			out = append(out, a[i])
		}
		if i < len(b) {
			out = append(out, b[i])
		}
	}
	return out
}

// addSend adds n messages to the inbox to.
func addSend(ss []send, to string, n int) []send {
	for i := range ss {
		if ss[i].to == to {
			ss[i].n += n
			return ss
		}
	}
	return append(ss, send{to: to, n: n})
}

// slotSteps writes slots as steps: the wait that begins an activation,
// its burst, its sends.
func slotSteps(slots []slot, inbox string) []scenario.Step {
	var out []scenario.Step
	for _, s := range slots {
		if s.sleep < 0 {
			out = append(out, scenario.Step{Recv: inbox})
		} else {
			d := units.Duration(math.Round(s.sleep))
			out = append(out, scenario.Step{Sleep: &d})
		}
		out = append(out, compute(s.work))
		for _, e := range s.sends {
			out = append(out, sendStep(e))
		}
	}
	return out
}

func compute(work float64) scenario.Step {
	d := units.Duration(math.Round(max(work, 0)))
	return scenario.Step{Compute: &d}
}

func sendStep(s send) scenario.Step {
	st := scenario.Step{Send: s.to}
	if s.n > 1 {
		st.Wake = min(s.n, 16384)
	}
	return st
}

// repeatSteps repeats body n times (n 1: body itself).
func repeatSteps(n int64, body []scenario.Step) []scenario.Step {
	if n <= 1 {
		return body
	}
	return []scenario.Step{{Repeat: int(min(n, 1_000_000_000)), Do: body}}
}

// barrierProgram: the members' pooled bursts, K per round group, each
// followed by the barrier, for as many rounds as the barrier met.
func (r *replayer) barrierProgram(u unit, budget int) []scenario.Step {
	var pooled [nBuckets]bucket
	var work float64
	var wakes int64
	for _, k := range u.members {
		for kind := range k.hist {
			for i, b := range k.hist[kind] {
				pooled[i].n += b.n
				pooled[i].work += b.work
			}
		}
		work += k.work
		wakes += k.taskWakes + k.timerWakes
	}
	n := int64(len(u.members))
	// The last to arrive does not sleep: a member sleeps (n-1)/n of the rounds.
	rounds := max(int64(math.Round(float64(wakes)/float64(n)*float64(n)/float64(max(n-1, 1)))), 1)
	K := int(min(int64(maxSlots), rounds))
	for K > 1 && 2*K+3 > budget {
		K--
	}
	slots := quantiles(&pooled, nil, K)
	iters := max(int64(math.Round(float64(rounds)/float64(len(slots)))), 1)
	var per float64
	for _, s := range slots {
		per += s.work
	}
	f := 0.0
	if per > 0 {
		f = work / float64(n) / (per * float64(iters))
	}
	var body []scenario.Step
	for _, s := range slots {
		body = append(body, compute(s.work*f), scenario.Step{Barrier: u.barrier})
	}
	return repeatSteps(iters, body)
}

// barrierPins pins a barrier group's tasks each to its one CPU when every
// member ran on one CPU of its own, with the evidence pin asks for.
func (r *replayer) barrierPins(u unit, cpus int) (string, scenario.Pin) {
	var ids []int
	for _, k := range u.members {
		if !maskShown(k) || k.cpus.a >= cpus || slices.Contains(ids, k.cpus.a) {
			return "", scenario.PinNone
		}
		ids = append(ids, k.cpus.a)
	}
	slices.Sort(ids)
	parts := make([]string, len(ids))
	for i, c := range ids {
		parts[i] = strconv.Itoa(c)
	}
	return strings.Join(parts, ","), scenario.PinEach
}

// fold replays the tasks beyond MaxGroups as one group of identical
// tasks with their average activation.
func (r *replayer) fold(ts []*task) (scenario.Group, []int) {
	var work, sleep float64
	var acts int64
	pids := []int{}
	for _, k := range ts {
		work += k.work
		acts += k.activations()
		for kind := range k.hist {
			for _, b := range k.hist[kind] {
				sleep += b.sleep
			}
		}
		pids = append(pids, k.pid)
	}
	n := min(len(ts), maxFold)
	per := max(acts/int64(n), 1)
	burst := work / float64(n) / float64(per)
	d := units.Duration(sleep / float64(max(acts, 1)))
	r.note("%d tasks beyond the %d busiest are replayed as one group of %d identical tasks (their mean burst and sleep)", len(ts), MaxGroups, n)
	return scenario.Group{Name: "others", Count: n, Program: repeatSteps(per, []scenario.Step{{Sleep: &d}, compute(burst)})}, pids
}

// summaryNotes announces what the trace lacked or held oddly.
func (r *replayer) summaryNotes() {
	t := r.t
	if t.skipped > 0 {
		r.note("%d malformed lines skipped (first at %s); --strict refuses them", t.skipped, t.firstSkip)
	}
	if t.backwards > 0 {
		r.note("%d lines go back in time (a trace merged unsorted): read in file order", t.backwards)
	}
	if t.waking == 0 && t.irqWakeups > 0 {
		// try_to_wake_up() queues a wake-up for another CPU (TTWU_QUEUE;
		// in 6.12 also for an idle one of its LLC, ttwu_queue_cond()), and
		// that CPU traces sched_wakeup in its IPI: only sched_waking is
		// traced by the waker.
		r.note("the trace has sched_wakeup but no sched_waking: %d wake-ups were traced in interrupt context, where a timer's and one another CPU queued (TTWU_QUEUE: traced in the IPI on the woken task's CPU, without its waker) look alike, and all replay as timer wake-ups; record sched:sched_waking to keep who woke whom", t.irqWakeups)
	}
	if t.unflagged > 0 {
		r.note("%d wake-ups by a task come from lines without the irq-flags column (perf script, or trace-cmd report without it): one an interrupt made is taken as the interrupted task's", t.unflagged)
	}
	if t.edgesDropped {
		r.note("more than %d waker → wakee pairs: the rest count as timer wake-ups", maxEdges)
	}
	r.note("bursts are CPU time × the speed of the CPU they ran on; SMT sharing and frequency changes in the trace are not undone")
}

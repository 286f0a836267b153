package sim

import "math/bits"

// PELT constants (kernel/sched/sched-pelt.h).
const (
	loadAvgPeriod = 32
	loadAvgMax    = 47742
	capShift      = 10
	capScale      = 1 << capShift
)

// runnableAvgYNInv[n] = y^n · 2^32 with y^32 = 1/2 (sched-pelt.h).
var runnableAvgYNInv = [32]uint64{
	0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6,
	0xe0ccdeeb, 0xdbfbb796, 0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85,
	0xc5672a10, 0xc12c4cc9, 0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581,
	0xad583ee9, 0xa9a15ab4, 0xa5fed6a9, 0xa2704302, 0x9ef5325f, 0x9b8d39b9,
	0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a, 0x8b95c1e3, 0x88980e80,
	0x85aac367, 0x82cd8698,
}

// peltAvg is struct sched_avg plus, for legacy2018's wall-rate clock
// (advance), the wall time of its last update and that clock; the modern
// mode updates on the rq's clock_pelt instead (updateAt).
type peltAvg struct {
	lastUpdate    uint64 // PELT clock, ns
	lastWall      int64  // legacy2018: simulated time of the last update
	clock         uint64 // legacy2018: this entity's wall-rate PELT clock (ns)
	loadSum       uint64
	runnableSum   uint64
	utilSum       uint64
	periodContrib uint64
	loadAvg       uint64
	runnableAvg   uint64
	utilAvg       uint64
}

// decayLoad is decay_load(): val · y^n.
func decayLoad(val, n uint64) uint64 {
	if n > loadAvgPeriod*63 {
		return 0
	}
	if n >= loadAvgPeriod {
		val >>= n / loadAvgPeriod
		n %= loadAvgPeriod
	}
	hi, lo := bits.Mul64(val, runnableAvgYNInv[n])
	return hi<<32 | lo>>32
}

// accumulatePeltSegments is __accumulate_pelt_segments().
func accumulatePeltSegments(periods, d1, d3 uint64) uint64 {
	c1 := decayLoad(d1, periods)
	c2 := loadAvgMax - decayLoad(loadAvgMax, periods) - 1024
	return c1 + c2 + d3
}

// yDecay is decay_load()'s factor for n periods taken apart once, so that
// accumulate_sum() decays its three sums and __accumulate_pelt_segments()
// its two terms with one range test and one table read: decay_load(val, n)
// is (val >> n/32) · y^(n%32), and 0 past 63 · 32 periods (zero is then
// sh = 64 with a factor of 0).
type yDecay struct {
	sh uint64 // n / LOAD_AVG_PERIOD
	m  uint64 // runnable_avg_yN_inv[n % LOAD_AVG_PERIOD], 0 past 63 · 32
}

// decayFactor is decay_load()'s range test and table read for n periods.
func decayFactor(n uint64) yDecay {
	if n > loadAvgPeriod*63 {
		return yDecay{}
	}
	return yDecay{sh: n / loadAvgPeriod, m: runnableAvgYNInv[n%loadAvgPeriod]}
}

// of is decay_load(val, n) for the n the factor was taken for.
func (y yDecay) of(val uint64) uint64 {
	hi, lo := bits.Mul64(val>>y.sh, y.m)
	return hi<<32 | lo>>32
}

// accumulateSum is accumulate_sum(); utilUnit is 1024 (modern) or the CPU's
// capacity (legacy2018 contribution scaling). Its decay_load() calls share
// one yDecay (TestAccumulateSumSharedDecay checks it against
// decayLoad() and accumulatePeltSegments()).
func (sa *peltAvg) accumulateSum(delta, load, runnable uint64, running bool, utilUnit uint64) uint64 {
	contrib := delta
	delta += sa.periodContrib
	periods := delta / 1024
	if periods > 0 {
		y := decayFactor(periods)
		sa.loadSum = y.of(sa.loadSum)
		sa.runnableSum = y.of(sa.runnableSum)
		sa.utilSum = y.of(sa.utilSum)
		delta %= 1024
		if load != 0 {
			// __accumulate_pelt_segments(periods, 1024 - period_contrib, delta)
			contrib = y.of(1024-sa.periodContrib) + loadAvgMax - y.of(loadAvgMax) - 1024 + delta
		}
	}
	sa.periodContrib = delta
	if load != 0 {
		sa.loadSum += load * contrib
	}
	if runnable != 0 {
		sa.runnableSum += runnable * contrib << capShift
	}
	if running {
		sa.utilSum += contrib * utilUnit
	}
	return periods
}

// updateLoadSum is ___update_load_sum() at PELT time now.
func (sa *peltAvg) updateLoadSum(now, load, runnable uint64, running bool, utilUnit uint64) bool {
	if now < sa.lastUpdate {
		sa.lastUpdate = now
		return false
	}
	delta := (now - sa.lastUpdate) >> 10
	if delta == 0 {
		return false
	}
	sa.lastUpdate += delta << 10
	if load == 0 {
		runnable, running = 0, false
	}
	return sa.accumulateSum(delta, load, runnable, running, utilUnit) > 0
}

// divider is get_pelt_divider().
func (sa *peltAvg) divider() uint64 { return peltMinDivider + sa.periodContrib }

// updateLoadAvg is ___update_load_avg().
func (sa *peltAvg) updateLoadAvg(load uint64) {
	d := sa.divider()
	sa.loadAvg = load * sa.loadSum / d
	sa.runnableAvg = sa.runnableSum / d
	sa.utilAvg = sa.utilSum / d
}

// advance moves the entity to wall time now on a wall-rate clock
// (legacy2018 invariance, which scales the contribution by utilUnit
// instead; the modern mode runs on the rq's clock_pelt, updateAt).
func (sa *peltAvg) advance(now int64, load, runnable uint64, running bool, utilUnit, avgLoad uint64) bool {
	if now <= sa.lastWall {
		return false
	}
	d := uint64(now - sa.lastWall)
	sa.lastWall = now
	sa.clock += d
	if sa.updateLoadSum(sa.clock, load, runnable, running, utilUnit) {
		sa.updateLoadAvg(avgLoad)
		return true
	}
	return false
}

// updateTaskLoadAvg is update_load_avg() for a task entity. When its
// averages move, cfs_se_util_change() clears util_est's
// UTIL_AVG_UNCHANGED.
func (s *sim) updateTaskLoadAvg(p *task) {
	if s.updateTaskLoadSums(p) {
		p.utilEstUnchanged = false
	}
}

// updateTaskLoadSums is __update_load_avg_se(): it reports whether a
// period boundary was crossed (the averages moved).
func (s *sim) updateTaskLoadSums(p *task) bool {
	runnable := p.state == taskRunnable || p.state == taskRunning
	var load, run uint64
	if runnable || p.delayed { // se->on_rq; a delayed task is not se_runnable()
		load = 1
	}
	if runnable {
		run = 1
	}
	if s.peltModern() {
		// The entity's last_update_time is in its rq's clock_pelt domain.
		// A sleeping task is brought to now on that clock, which is what
		// migrate_se_pelt_lag() estimates for an idle source CPU.
		return p.avg.updateAt(s.rqClockPelt(&s.cpus[p.cpu]), load, run, p.state == taskRunning, uint64(p.weight))
	}
	// legacy2018: the clock runs at wall rate and the contribution is
	// scaled by the CPU's capacity instead.
	// The task's sums are also its cfs_rq's share: move the cfs_rq first.
	return p.avg.advance(s.now, load, run, p.state == taskRunning, uint64(s.cpus[p.cpu].cap), uint64(p.weight))
}

// updateCfsRqLoadAvg is update_cfs_rq_load_avg() for one CPU: first the
// load that wake-up migrations left in cfs_rq->removed.
func (s *sim) updateCfsRqLoadAvg(c *cpuState) {
	s.cpuChanged(c)
	if c.removed.nr > 0 {
		c.avg.subAverages(c.removed)
		c.removed = removedLoad{}
	}
	if s.peltModern() {
		c.avg.updateAt(s.rqClockPelt(c), uint64(c.loadWeight), uint64(c.hNrRunnable()), c.cfsCurr() != nil, 1)
	} else {
		// legacy2018: wall-rate clock, contribution scaled by capacity.
		c.avg.advance(s.now, uint64(c.loadWeight), uint64(c.hNrRunnable()), c.cfsCurr() != nil, uint64(c.cap), 1)
	}
	s.peltSynced(c)
}

// attachEntityLoadAvg is attach_entity_load_avg(): a task's averages join
// a cfs_rq, and so do its sums, rebuilt with the cfs_rq's divider
// (enqueue_load_avg() adds se_weight · load_sum).
func (s *sim) attachEntityLoadAvg(c *cpuState, p *task) {
	s.updateCfsRqLoadAvg(c)
	a := &p.avg
	if !s.peltModern() {
		// legacy2018: the entity keeps its wall-rate window; the sums that
		// join are rebuilt all the same.
		cp := p.avg
		a = &cp
	}
	attachEntityPeltClock(c, a, uint64(p.weight))
	c.avg.utilAvg += a.utilAvg
	c.avg.utilSum += a.utilSum
	c.avg.loadAvg += a.loadAvg
	c.avg.loadSum += uint64(p.weight) * a.loadSum
	c.avg.runnableAvg += a.runnableAvg
	c.avg.runnableSum += a.runnableSum
	s.cpuChanged(c)
}

// detachEntityLoadAvg is detach_entity_load_avg(): a task's averages and
// its own sums (dequeue_load_avg(): se_weight · load_sum) leave a cfs_rq
// at once (a balancer move; the model's fork parent as it leaves), each
// sum kept at least its average times PELT_MIN_DIVIDER. The caller has
// aged the cfs_rq first (update_load_avg(..., DO_DETACH)).
func (s *sim) detachEntityLoadAvg(c *cpuState, p *task) {
	a := &p.avg
	c.avg.subFloored(peltAvg{utilAvg: a.utilAvg, utilSum: a.utilSum, loadAvg: a.loadAvg,
		loadSum: uint64(p.weight) * a.loadSum, runnableAvg: a.runnableAvg, runnableSum: a.runnableSum})
	s.cpuChanged(c)
}

// subPositive is sub_positive(): *a −= v, but not below 0.
func subPositive(a *uint64, v uint64) {
	if *a > v {
		*a -= v
	} else {
		*a = 0
	}
}

// subFloored takes r's averages and sums off sa's (sub_positive()) and
// keeps each sum at least its average times PELT_MIN_DIVIDER, as every
// subtraction from a cfs_rq's sums does ("See update_cfs_rq_load_avg()").
func (sa *peltAvg) subFloored(r peltAvg) {
	subPositive(&sa.utilAvg, r.utilAvg)
	subPositive(&sa.utilSum, r.utilSum)
	subPositive(&sa.loadAvg, r.loadAvg)
	subPositive(&sa.loadSum, r.loadSum)
	subPositive(&sa.runnableAvg, r.runnableAvg)
	subPositive(&sa.runnableSum, r.runnableSum)
	sa.utilSum = max(sa.utilSum, sa.utilAvg*peltMinDivider)
	sa.loadSum = max(sa.loadSum, sa.loadAvg*peltMinDivider)
	sa.runnableSum = max(sa.runnableSum, sa.runnableAvg*peltMinDivider)
}

// removedLoad is cfs_rq->removed: the averages of the tasks that woke up
// on another CPU since the cfs_rq was last updated.
type removedLoad struct {
	nr                   int
	util, load, runnable uint64
}

// removeEntityLoadAvg is remove_entity_load_avg() for a task that wakes
// up on another CPU (migrate_task_rq_fair()) or exits (task_dead_fair()):
// its averages, synced to the cfs_rq's last update
// (sync_entity_load_avg()), go to cfs_rq->removed, and
// update_cfs_rq_load_avg() takes them off at that CPU's next update; until
// then its util and load still hold them.
func (s *sim) removeEntityLoadAvg(c *cpuState, p *task) {
	s.syncEntityLoadAvg(c, p)
	a := &p.avg
	r := &c.removed
	r.nr++
	r.util += a.utilAvg
	r.load += a.loadAvg
	r.runnable += a.runnableAvg
}

// syncEntityLoadAvg is sync_entity_load_avg() of a task that is not
// running on c, its cfs_rq: its averages are brought to the cfs_rq's last
// update, not to now, by __update_load_avg_blocked_se(), which does not run
// cfs_se_util_change(), so util_est's UTIL_AVG_UNCHANGED stays as it is.
func (s *sim) syncEntityLoadAvg(c *cpuState, p *task) {
	if s.peltModern() {
		p.avg.updateAt(c.avg.lastUpdate, 0, 0, false, uint64(p.weight))
	} else {
		p.avg.advance(c.avg.lastWall, 0, 0, false, uint64(c.cap), uint64(p.weight))
	}
}

// peltMinDivider is PELT_MIN_DIVIDER, the least a sum may be per unit of
// its average after a subtraction.
const peltMinDivider = loadAvgMax - 1024

// subAverages takes r's averages off a cfs_rq's, each sum by the average
// times the divider: update_cfs_rq_load_avg() for cfs_rq->removed.
func (sa *peltAvg) subAverages(r removedLoad) {
	d := sa.divider()
	sa.subFloored(peltAvg{utilAvg: r.util, utilSum: r.util * d, loadAvg: r.load,
		loadSum: r.load * d, runnableAvg: r.runnable, runnableSum: r.runnable * d})
}

// postInitEntityUtilAvg is post_init_entity_util_avg() for a new task on c.
//
// wake_up_new_task() calls it with no update of the cfs_rq first: the
// cfs_rq's util and load are read as its last update left them (the
// enqueue's update_load_avg() updates the cfs_rq only afterwards).
func (s *sim) postInitEntityUtilAvg(c *cpuState, p *task) {
	capv := (int64(c.cap) - int64(c.avg.utilAvg)) / 2
	p.avg = peltAvg{lastWall: s.now}
	if capv > 0 {
		if c.avg.utilAvg != 0 {
			u := c.avg.utilAvg * uint64(p.weight) / (c.avg.loadAvg + 1)
			if u > uint64(capv) {
				u = uint64(capv)
			}
			p.avg.utilAvg = u
		} else {
			p.avg.utilAvg = uint64(capv)
		}
	}
	p.avg.runnableAvg = p.avg.utilAvg
	p.avg.loadAvg = uint64(p.weight) // init_entity_runnable_average()
	d := p.avg.divider()
	p.avg.utilSum = p.avg.utilAvg * d
	p.avg.runnableSum = p.avg.runnableAvg * d
	p.avg.loadSum = d // load_avg = weight·load_sum/divider
}

// taskUtilEst is task_util_est() = max(util_avg, ewma).
func (s *sim) taskUtilEst(p *task) int {
	u := int(p.avg.utilAvg)
	if s.utilEst && p.utilEst > u {
		u = p.utilEst
	}
	return u
}

// utilEstUpdate is util_est_update() at a sleeping dequeue: skipped while
// UTIL_AVG_UNCHANGED (no PELT period since the last sample), reset upwards,
// else ewma += (dequeued − ewma)/4 as the kernel shifts it
// ((4·ewma − diff) >> 2), unless within the margin, above the CPU's
// capacity (no flag then) or, since 6.12's runnable check
// (UTIL_EST_RUNNABLE), starved (runnable above util).
func (s *sim) utilEstUpdate(p *task) {
	if !s.utilEst || p.utilEstUnchanged {
		return
	}
	dequeued := int(p.avg.utilAvg)
	ewma := p.utilEst
	if ewma <= dequeued {
		ewma = dequeued
	} else if diff := ewma - dequeued; diff >= utilEstMargin {
		if dequeued > s.cpus[p.cpu].cap {
			return
		}
		if !s.utilEstRun || dequeued+utilEstMargin >= int(p.avg.runnableAvg) {
			ewma = (ewma<<utilEstWeightShift - diff) >> utilEstWeightShift
		}
	}
	p.utilEst = ewma
	p.utilEstUnchanged = true
}

// utilEstDequeueUpdate is util_est_dequeue() (p's estimate leaves c's sum)
// then util_est_update() at a sleep. 6.12's dequeue_task_fair() runs both
// before dequeue_entities() updates PELT, so the sample is the task's util
// as last updated (the tick, the pick); 6.1's ran util_est_update() after
// the dequeue's update_load_avg().
func (s *sim) utilEstDequeueUpdate(c *cpuState, p *task) {
	c.utilEstSum = max(c.utilEstSum-p.utilEst, 0)
	s.utilEstUpdate(p)
}

// UTIL_EST_MARGIN and UTIL_EST_WEIGHT_SHIFT (kernel/sched/fair.c, pelt.h).
const (
	utilEstMargin      = capScale / 100
	utilEstWeightShift = 2
)

// cpuUtilCfs is cpu_util_cfs(): max(util_avg, util_est) capped at capacity_orig.
func (s *sim) cpuUtilCfs(c *cpuState) int {
	u := int(c.avg.utilAvg)
	if s.utilEst && c.utilEstSum > u {
		u = c.utilEstSum
	}
	if u > c.cap {
		u = c.cap
	}
	return u
}

// cpuUtilCfsBoost is cpu_util_cfs_boost() = cpu_util(cpu, NULL, -1, 1):
// max(util_avg, runnable_avg, util_est) capped at capacity_orig.
func (s *sim) cpuUtilCfsBoost(c *cpuState) int {
	u := max(int(c.avg.utilAvg), int(c.avg.runnableAvg))
	if s.utilEst {
		u = max(u, c.utilEstSum)
	}
	return min(u, c.cap)
}

// cpuLoad is cpu_load(): the cfs_rq's load_avg.
func cpuLoad(c *cpuState) int64 { return int64(c.avg.loadAvg) }

// taskHLoad is task_h_load() under CONFIG_FAIR_GROUP_SCHED (every
// distribution kernel) with every task in the root task group: the task's
// load_avg times its cfs_rq's h_load over the cfs_rq's load_avg now (+1),
// where h_load is the cfs_rq's load_avg as update_cfs_rq_h_load() last
// read it, at most once a jiffy. So a fresh h_load rounds the task's load
// down by one, and one read earlier in the jiffy scales it by the
// runqueue's load then over its load now.
func (s *sim) taskHLoad(p *task) int64 {
	c := &s.cpus[p.cpu]
	if j := s.jiffies(); c.hLoadJiffy != j {
		c.hLoad, c.hLoadJiffy = c.avg.loadAvg, j
	}
	return int64(p.avg.loadAvg * c.hLoad / (c.avg.loadAvg + 1))
}

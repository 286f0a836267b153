package sim

import (
	"math"

	"schedplay/engine/hdr"
	"schedplay/engine/scenario"
)

// seriesBuckets is the number of throughput samples over run.duration.
const seriesBuckets = 100

// repAcc accumulates one repetition's metrics (warm-up excluded).
type repAcc struct {
	transitions, alternations int64
	migr                      Migrations
	ctx, wake                 int64
	// rtThrottledNs: the CPUs' time with their RT class throttled;
	// fairServerNs: the fair tasks' time run by a queued fair server
	rtThrottledNs, fairServerNs int64
	// latPeriodic and latAll count wake-up latencies in fixed-size
	// histograms: bounded memory whatever the number of samples.
	latPeriodic, latAll *hdr.Histogram
	busyNs              []int64
	modeRes             []ModeResidency
	ops                 int64
	workDone            float64
	series              []float64
	seriesStep          int64
	timed               []timedAcc // by timed-section index
}

// init sizes the accumulators.
func (m *repAcc) init(ncpu, ncore int, duration int64) {
	m.busyNs = make([]int64, ncpu)
	m.modeRes = make([]ModeResidency, ncore)
	m.series = make([]float64, seriesBuckets)
	m.latPeriodic, m.latAll = new(hdr.Histogram), new(hdr.Histogram)
	m.seriesStep = max(duration/seriesBuckets, 1)
}

// clip returns [a,b] ∩ [warmup, ∞).
func (s *sim) clip(a, b int64) (int64, int64) {
	if a < s.warmup {
		a = s.warmup
	}
	return a, b
}

// work accounts w reference-ns done uniformly over [from, now].
func (m *repAcc) work(s *sim, w float64, from int64) {
	to := s.now
	if to <= from {
		return
	}
	a, b := s.clip(from, to)
	if b > a {
		m.workDone += w * float64(b-a) / float64(to-from)
	}
	// series (whole run, warm-up included)
	rate := w / float64(to-from)
	for t := from; t < to; {
		i := t / m.seriesStep
		if i >= int64(len(m.series)) {
			break
		}
		e := min((i+1)*m.seriesStep, to)
		m.series[i] += float64(rate * float64(e-t))
		t = e
	}
}

// runSpan accounts a task's run interval on a CPU (out: how it ended).
func (m *repAcc) runSpan(s *sim, p *task, cpu int, start, end int64, out SwitchOut) {
	if end <= start {
		return
	}
	p.runtime += end - start
	a, b := s.clip(start, end)
	if b > a {
		m.busyNs[cpu] += b - a
	}
	if s.tr != nil {
		s.tr.run(s, cpu, p, start, end, out)
	}
}

// modeSpan accounts a core's stay in one mode.
func (m *repAcc) modeSpan(s *sim, core int, mode Mode, start, end int64) {
	if end <= start {
		return
	}
	a, b := s.clip(start, end)
	if b > a {
		r := &m.modeRes[core]
		d := b - a
		switch mode {
		case ModeST:
			r.ST += d
		case ModeSMT:
			r.SMT += d
		case ModePartitioned:
			r.Partitioned += d
		case ModeSwitching:
			r.Switching += d
		default:
			r.Idle += d
		}
	}
	if s.tr != nil && mode != ModeIdle {
		s.tr.mode(core, mode, start, end)
	}
}

// span adds the part of [from, to] after the warm-up to *acc.
func (s *sim) span(acc *int64, from, to int64) {
	if a, b := s.clip(from, to); b > a {
		*acc += b - a
	}
}

// ctxSwitch counts a context switch (nr_switches).
func (m *repAcc) ctxSwitch(s *sim) {
	if s.now >= s.warmup {
		m.ctx++
	}
}

// wakeups counts a try_to_wake_up().
func (m *repAcc) wakeups(s *sim) {
	if s.now >= s.warmup {
		m.wake++
	}
}

// migration counts a migration by cause.
func (m *repAcc) migration(s *sim, cause int) {
	if s.now < s.warmup {
		return
	}
	mg := &m.migr
	switch cause {
	case migWakeup:
		mg.Wakeup++
	case migPeriodic:
		mg.Periodic++
	case migNewidle:
		mg.Newidle++
	case migNohz:
		mg.Nohz++
	case migActive:
		mg.Active++
	case migMisfit:
		mg.Misfit++
	case migAsym:
		mg.Asym++
	case migRTPush:
		mg.RT++
	}
	mg.Total++
}

// recordLatency records a wake-up latency sample.
func (s *sim) recordLatency(d int64, periodic bool) {
	if s.now < s.warmup {
		return
	}
	if periodic {
		s.m.latPeriodic.Record(d)
	}
	s.m.latAll.Record(d)
}

// latencyOf summarises a histogram: exact count, maximum and mean,
// percentiles within hdr.RelativeError, exact log2 buckets.
func latencyOf(h *hdr.Histogram) Latency {
	if h.Count() == 0 {
		return Latency{}
	}
	return Latency{
		Count:   h.Count(),
		P50:     h.Percentile(0.50),
		P99:     h.Percentile(0.99),
		P999:    h.Percentile(0.999),
		Max:     h.Max(),
		Mean:    h.Mean(),
		Buckets: h.Log2(),
	}
}

// newResult is a Result's header for a resolved scenario: its name, the
// throughput unit and the workload's metric.
func newResult(r *scenario.Resolved) *Result {
	res := &Result{Scenario: r.Name, Unit: "work/s", Metric: r.Workload.Metric}
	switch {
	case r.Workload.Metric == scenario.MetricOps:
		res.Unit = "ops/s"
	case r.Workload.Metric == scenario.MetricSGEMM && r.Machine.GflopsPerCore > 0:
		res.Unit = "GFLOP/s"
	}
	return res
}

// measuredEnd is where a repetition that stopped at stop ends for its
// rates: the programs' completion when they finished before stop (perf
// bench's "Total time" and usecs/op), else stop. The rates run from the
// warm-up to it.
func (s *sim) measuredEnd(stop int64) int64 {
	if s.finished > 0 && s.finished < stop {
		return s.finished
	}
	return stop
}

// repMetrics turns the accumulators into RepMetrics.
func (s *sim) repMetrics(stop int64) RepMetrics {
	m := &s.m
	rm := RepMetrics{Seed: s.seed, Elapsed: stop}
	if s.finished > 0 {
		rm.Completion = s.finished
	}
	window := s.measuredEnd(stop) - s.warmup
	if window > 0 {
		rm.Throughput = m.workDone / float64(window)
	}
	gpc := s.r.Machine.GflopsPerCore
	eff := s.r.Workload.Efficiency
	if eff <= 0 {
		eff = 1
	}
	seriesScale := 1.0 // the throughput series in the reported unit
	switch {
	case s.r.Workload.Metric == scenario.MetricOps:
		// perf bench's ops/sec: the operations of group 0 per second (the
		// little work an ops workload computes is not floating point).
		rm.Throughput = 0
		if window > 0 {
			rm.Throughput = float64(m.ops) * 1e9 / float64(window)
		}
	case s.r.Workload.Metric == scenario.MetricSGEMM && gpc > 0:
		// Only GEMM work is floating point at the machine's GEMM peak;
		// other work (sysbench primes, a cyclictest loop) stays work/s.
		rm.GFLOPS = rm.Throughput * gpc * eff
		rm.Throughput = rm.GFLOPS
		seriesScale = gpc * eff
	}
	rm.ModeTransitions = m.transitions
	rm.PEAlternations = m.alternations
	rm.Migrations = m.migr
	rm.ContextSwitches = m.ctx
	rm.Wakeups = m.wake
	rm.RTThrottledNs = m.rtThrottledNs
	for i := range s.cpus {
		if c := &s.cpus[i]; c.rtThrottled { // still throttled at the end
			s.span(&rm.RTThrottledNs, c.rtThrottledAt, stop)
		}
	}
	rm.FairServerNs = m.fairServerNs
	if m.latPeriodic.Count() > 0 {
		rm.Latency = latencyOf(m.latPeriodic)
	} else {
		rm.Latency = latencyOf(m.latAll)
	}
	rm.BusyNs = m.busyNs
	rm.ModeResidency = m.modeRes
	rm.Ops = m.ops
	if m.ops > 0 && window > 0 {
		// a task's time per operation: group 0's tasks run their loops
		// side by side (perf bench futex hash's "operations/sec" is a
		// thread's; sched pipe's one looping task is its usecs/op)
		rm.OpTimeNs = float64(window) * float64(s.r.Workload.Groups[0].Count) / float64(m.ops)
	}
	rm.Timed = s.timedSections()
	rm.Series = Series{StepNs: m.seriesStep, Values: make([]float64, 0, len(m.series))}
	last := int(min((stop+m.seriesStep-1)/m.seriesStep, int64(len(m.series))))
	for i := 0; i < last; i++ {
		// A repetition that stops inside a bucket (every program done
		// before run.duration) covers only part of it: its rate is the work
		// over the time covered, not over the whole step.
		span := min(m.seriesStep, stop-int64(i)*m.seriesStep)
		rm.Series.Values = append(rm.Series.Values, round6(m.series[i]/float64(span)*seriesScale))
	}
	rm.Throughput = round6(rm.Throughput)
	rm.GFLOPS = round6(rm.GFLOPS)
	return rm
}

// round6 rounds to 6 decimals (stable JSON).
func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }

// StatOf is mean ± sample standard deviation with extremes: the
// summary's statistic, which the fidelity table's sampled spreads read too.
func StatOf(v []float64) Stat {
	st := Stat{N: len(v)}
	if len(v) == 0 {
		return st
	}
	st.Min, st.Max = v[0], v[0]
	var sum float64
	for _, x := range v {
		sum += x
		st.Min = min(st.Min, x)
		st.Max = max(st.Max, x)
	}
	st.Mean = sum / float64(len(v))
	if len(v) > 1 {
		var ss float64
		for _, x := range v {
			ss += float64((x - st.Mean) * (x - st.Mean))
		}
		st.Stddev = math.Sqrt(ss / float64(len(v)-1))
	}
	st.Mean, st.Stddev = round6(st.Mean), round6(st.Stddev)
	return st
}

// summarize aggregates repetitions.
func summarize(reps []RepMetrics) Summary {
	col := func(f func(*RepMetrics) float64) Stat {
		v := make([]float64, len(reps))
		for i := range reps {
			v[i] = f(&reps[i])
		}
		return StatOf(v)
	}
	var done []float64 // a repetition cut off by run.duration has no completion time
	for i := range reps {
		if reps[i].Completion > 0 {
			done = append(done, float64(reps[i].Completion))
		}
	}
	return Summary{
		Throughput:      col(func(r *RepMetrics) float64 { return r.Throughput }),
		GFLOPS:          col(func(r *RepMetrics) float64 { return r.GFLOPS }),
		Completion:      StatOf(done),
		Completed:       len(done),
		ModeTransitions: col(func(r *RepMetrics) float64 { return float64(r.ModeTransitions) }),
		PEAlternations:  col(func(r *RepMetrics) float64 { return float64(r.PEAlternations) }),
		Migrations:      col(func(r *RepMetrics) float64 { return float64(r.Migrations.Total) }),
		ContextSwitches: col(func(r *RepMetrics) float64 { return float64(r.ContextSwitches) }),
		LatencyP50:      col(func(r *RepMetrics) float64 { return float64(r.Latency.P50) }),
		LatencyP99:      col(func(r *RepMetrics) float64 { return float64(r.Latency.P99) }),
		LatencyP999:     col(func(r *RepMetrics) float64 { return float64(r.Latency.P999) }),
		LatencyMax:      col(func(r *RepMetrics) float64 { return float64(r.Latency.Max) }),
		OpTime:          col(func(r *RepMetrics) float64 { return r.OpTimeNs }),
		Timed:           summarizeTimed(reps),
	}
}

package sim

import (
	"slices"
	"strings"
)

// Timed sections ({"timed": NAME, "do": [...]}) are a benchmark's own
// clock: perf bench futex wake takes gettimeofday() before and after its
// wake loop, wake-parallel around each waker's futex_wake(). A section's
// duration is the task's wall time from entering the body to leaving it:
// everything the task waits for in between counts (its CPU's stalls, the
// try_to_wake_up()s of the wake batches it issues, time runnable or
// blocked).

// timedAcc accumulates one timed section's executions in a repetition.
type timedAcc struct {
	sum   int64 // ns, over the executions counted
	count int64
}

// timedID returns the index of a timed-section name (first-seen order).
func (cp *compiler) timedID(name string) int {
	id, ok := cp.timed[name]
	if !ok {
		id = len(cp.timedNames)
		cp.timed[name] = id
		cp.timedNames = append(cp.timedNames, name)
	}
	return id
}

// taskClock is when the task running on c executes its next instruction:
// now, or the end of a stall of its CPU (context switch, the wake-ups of a
// batch it issued, kernel noise, a core mode switch), which the
// instantaneous program steps after the stall would wait for.
func (s *sim) taskClock(c *cpuState) int64 { return max(s.now, s.stallOf(c)) }

// enterTimed starts a timed section: gettimeofday(&start) before the body.
func (s *sim) enterTimed(c *cpuState, p *task, o *op) {
	p.stack = append(p.stack, frame{body: o.body, pool: -1, timed: o.id + 1, start: s.taskClock(c)})
}

// leaveTimed ends a timed section: gettimeofday(&end) after the body. Only
// executions that end after the warm-up count.
func (s *sim) leaveTimed(c *cpuState, f *frame) {
	end := s.taskClock(c)
	if end < s.warmup {
		return
	}
	a := &s.m.timed[f.timed-1]
	a.sum += end - f.start
	a.count++
}

// timedSections returns the repetition's timed sections, every name the
// programs declare, sorted by name.
func (s *sim) timedSections() []TimedSection {
	if len(s.timedNames) == 0 {
		return nil
	}
	out := make([]TimedSection, len(s.timedNames))
	for i, name := range s.timedNames {
		a := s.m.timed[i]
		out[i] = TimedSection{Name: name, Count: a.count}
		if a.count > 0 {
			out[i].MeanNs = round6(float64(a.sum) / float64(a.count))
		}
	}
	slices.SortFunc(out, func(a, b TimedSection) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// summarizeTimed aggregates the timed sections of all repetitions by name
// (sorted): the mean duration over the repetitions that executed the
// section, the count over all of them (0 where a repetition has none).
func summarizeTimed(reps []RepMetrics) []TimedStat {
	names := TimedNames(reps)
	if len(names) == 0 {
		return nil
	}
	out := make([]TimedStat, 0, len(names))
	for _, name := range names {
		var means, counts []float64
		for i := range reps {
			t, _ := reps[i].TimedSection(name)
			counts = append(counts, float64(t.Count))
			if t.Count > 0 {
				means = append(means, t.MeanNs)
			}
		}
		out = append(out, TimedStat{Name: name, Time: StatOf(means), Count: StatOf(counts)})
	}
	return out
}

// TimedHeadline is the timed section that is an ops workload's figure
// (perf bench futex's wake loop): the first one, when the throughput is in
// ops/s, which over the whole run would count the pauses between rounds.
func (r *Result) TimedHeadline() (TimedStat, bool) {
	if r.Unit != "ops/s" || len(r.Summary.Timed) == 0 {
		return TimedStat{}, false
	}
	return r.Summary.Timed[0], true
}

// TimedNames are the timed-section names of the repetitions of one or more
// results, sorted, each once (nil when there is none).
func TimedNames(reps ...[]RepMetrics) []string {
	var names []string
	for _, rs := range reps {
		for i := range rs {
			for _, t := range rs[i].Timed {
				names = append(names, t.Name)
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// TimedSection returns the repetition's figures of the timed section
// name, and whether the programs declare it.
func (r *RepMetrics) TimedSection(name string) (TimedSection, bool) {
	for _, t := range r.Timed {
		if t.Name == name {
			return t, true
		}
	}
	return TimedSection{Name: name}, false
}

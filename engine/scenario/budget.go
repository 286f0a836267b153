package scenario

import (
	"fmt"
	"math"

	"schedplay/engine/units"
)

// The event budget. Validate estimates, from the scenario alone, an upper
// bound on the number of simulator events one repetition needs (ticks,
// housekeeping, and two events per program step executed, with loops capped
// by the run duration when their body takes time), so that a small document
// such as {"repeat": 1000000000, "do": [{"send": "x"}]} is refused up front
// instead of running for hours.

// EstimateEvents returns the estimated events of one repetition of r (after
// WithDefaults) on a machine of n CPUs.
func EstimateEvents(r *Resolved, n int) float64 {
	horizon := float64(r.Run.Duration)
	ev := float64(n) * horizon / 1e9 * float64(r.Policy.HZ)
	hk := r.Machine.Housekeeping
	if r.Workload.Housekeeping != nil {
		hk = r.Workload.Housekeeping
	}
	if hk != nil && hk.Period > 0 {
		ev += 2 * float64(n) * horizon / float64(hk.Period)
	}
	rate := maxWorkRate(r)
	for _, g := range r.Workload.Groups {
		e, _ := estimateSteps(g.Program, horizon, rate, g.Count)
		ev += float64(g.Count) * (e + 2)
	}
	return ev
}

// maxWorkRate is the fastest a thread can do work (reference ns per ns).
func maxWorkRate(r *Resolved) float64 {
	speed := 1.0
	for _, c := range r.Machine.CoreClasses {
		speed = math.Max(speed, c.Speed)
	}
	boost := 1.0
	for _, b := range r.Machine.Boost {
		boost = math.Max(boost, b[1])
	}
	return speed * boost
}

// estimateSteps returns the events and the minimum simulated time (ns) of
// one pass over steps, within horizon ns. count is the group size (pool
// tokens are shared by the group).
func estimateSteps(steps []Step, horizon, rate float64, count int) (events, minTime float64) {
	for i := range steps {
		if minTime >= horizon {
			break
		}
		e, t := estimateStep(&steps[i], horizon-minTime, rate, count)
		events += e
		minTime += t
	}
	return events, minTime
}

func estimateStep(s *Step, horizon, rate float64, count int) (float64, float64) {
	loop := func(iters float64, do []Step) (float64, float64) {
		e, t := estimateSteps(do, horizon, rate, count)
		if t > 0 {
			iters = math.Min(iters, math.Floor(horizon/t)+1)
		}
		return iters * (e + 1), math.Min(iters*t, horizon)
	}
	switch {
	case s.Compute != nil:
		return 2, float64(*s.Compute) / rate
	case s.Sleep != nil:
		return 2, float64(*s.Sleep)
	case s.Periodic != nil:
		every := float64(max(s.Periodic.Every, units.Nanosecond))
		iters := math.Floor(horizon/every) + 1
		if s.Periodic.Count > 0 {
			iters = math.Min(iters, float64(s.Periodic.Count))
		}
		e, _ := estimateSteps(s.Periodic.Do, every, rate, count)
		return iters * (e + 2), math.Min(iters*every, horizon)
	case s.Repeat > 0:
		return loop(float64(s.Repeat), s.Do)
	case s.Pool != "":
		return loop(math.Ceil(float64(s.Total)/float64(max(count, 1))), s.Do)
	case s.Timed != "":
		return loop(1, s.Do)
	}
	return 2, 0 // barrier, send, recv
}

// cpuCostScale is the machine size at which an event costs twice as much
// as on a small machine: measured natively, one event costs about
// 0.27 µs + 0.45 ns per CPU (load balancing and idle scans walk CPU masks),
// i.e. 0.43 µs on 352 CPUs and 2.1 µs on 4096.
const cpuCostScale = 600

// EventLimit is the most events one repetition may need on a machine of n
// CPUs: MaxEventsPerRep scaled down by the per-event cost, so that one
// repetition stays under about half a minute of native computing.
func EventLimit(n int) float64 {
	return MaxEventsPerRep / (1 + float64(n)/cpuCostScale)
}

// checkEventBudget refuses scenarios estimated above the event limits.
func checkEventBudget(errs *ErrorList, r *Resolved, n int) {
	ev := EstimateEvents(r, n)
	limit := EventLimit(n)
	total := MaxEventsTotal / (1 + float64(n)/cpuCostScale)
	switch {
	case ev > limit:
		errs.Add("workload", "one repetition needs about %s simulator events, above the limit of %s on %d CPUs; shorten run.duration, the loops or the task count", human(ev), human(limit), n)
	case ev*float64(r.Run.Reps) > total:
		errs.Add("run.reps", "%d repetitions need about %s events in all, above the limit of %s on %d CPUs; use fewer repetitions", r.Run.Reps, human(ev*float64(r.Run.Reps)), human(total), n)
	}
}

func human(v float64) string {
	switch {
	case v >= 1e9:
		return fmt.Sprintf("%.3g billion", v/1e9)
	case v >= 1e6:
		return fmt.Sprintf("%.3g million", v/1e6)
	}
	return fmt.Sprintf("%.0f", v)
}
